"""Monferrato's steps on the engine's decision stack (arbitro §S.3): every decision the rules put to a seat
while something else is under way."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.decisions import Step
from arbitro.adjudicator.monferrato import battle, chits, commands as C, replacements, sequence, setup, siege
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import core
from arbitro.events import monferrato as ev
from arbitro.projections.game import GameState


class DiscardStep(Step[ev.DiscardAwaited]):
    """monferrato §5 2: five chits in hand after a draw: the owner discards one (never a mandatory or R chit,
    §16.1-§16.3); then the activation ends."""

    kind = chits.DISCARD

    def options(self, state: GameState[Any], frame: core.Frame[ev.DiscardAwaited], seat: str) -> list[dict[str, Any]]:
        return chits.discard_options(state.rules, frame.ctx.seat)

    def answer(self, ctx: Decision[Any], frame: core.Frame[ev.DiscardAwaited], command: C.Discard) -> None:
        chits.discard(ctx, frame, command.chit)
        if frame.ctx.then == "end_activation":
            sequence.end_activation(ctx)


class BattleStep(Step[ev.BattleAwaited]):
    """monferrato §7: a decision inside a field battle (support, response, take_hit, continue, retreat); the battle
    carried in the frame goes on once it is answered (adjudicator/monferrato/battle.py)."""

    def options(self, state: GameState[Any], frame: core.Frame[ev.BattleAwaited], seat: str) -> list[dict[str, Any]]:
        return battle.options(state.rules, frame, seat)

    def answer(self, ctx: Decision[Any], frame: core.Frame[ev.BattleAwaited], command: Any) -> None:
        battle.answer(ctx, frame, command)
        siege.sweep_mines(ctx)


class ReplacementsStep(Step[ev.ReplacementsAwaited]):
    """monferrato §16.6: replacements spent one unit at a time, or no more (the rest lost)."""

    kind = replacements.KIND

    def options(self, state: GameState[Any], frame: core.Frame[ev.ReplacementsAwaited], seat: str) -> list[dict[str, Any]]:
        return replacements.options(state.rules, frame.ctx)

    def answer(self, ctx: Decision[Any], frame: core.Frame[ev.ReplacementsAwaited], command: C.Replace) -> None:
        replacements.answer(ctx, frame, command.unit, command.zone)


class SetUpStep(Step[ev.SetUpAwaited]):
    """monferrato scenario, "Setup iniziale": a choice the set-up leaves to a side (adjudicator/monferrato/setup.py)."""

    kind = setup.KIND

    def options(self, state: GameState[Any], frame: core.Frame[ev.SetUpAwaited], seat: str) -> list[dict[str, Any]]:
        return setup.options(state.rules, frame.ctx.item) if seat == frame.ctx.seat else []

    def answer(self, ctx: Decision[Any], frame: core.Frame[ev.SetUpAwaited], command: C.SetUp) -> None:
        setup.answer(ctx, frame, list(command.units), command.zone)


class ValueStep(SetUpStep):
    """monferrato scenario, "Setup iniziale", reading `scelta_3_o_4: value_each`: an "a scelta: 3 o 4" counter's
    value, chosen by its side."""

    kind = setup.VALUE

    def answer(self, ctx: Decision[Any], frame: core.Frame[ev.SetUpAwaited], command: C.ChooseValue) -> None:
        setup.answer_value(ctx, frame, command.unit, command.fire)


def battle_step(kind: str) -> Step[Any]:
    return type(f"Battle{kind.title().replace('_', '')}Step", (BattleStep,), {"kind": kind})()  # type: ignore[no-any-return]


STEPS: dict[str, Step[Any]] = {s.kind: s for s in (DiscardStep(), ReplacementsStep(), SetUpStep(), ValueStep(), *(battle_step(k) for k in battle.KINDS))}
