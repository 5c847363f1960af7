"""Caldiero's steps on the engine's decision stack (arbitro §S.3; docs/ruleset-interface.md, "Decisions"): each
answers one kind of frame, listing its answers (`options`, which legal() returns while the frame is on top) and
carrying one out (`answer`), after which the procedure goes on as after any command (flow.go_on).

The retreat (caldiero §12.6), the lone leader's escape (§8.2.3) and the assault's decisions (cavalry retreat
§14.1, defensive fire §11.4.5, the defenders' efficiency §12.3.1, Ne §12.5.4, the Ex losses §12.5.4, the advance
§12.7: system_assault opens them, above the `combat` frame of the assault in progress, which waits for them
and which nobody answers: CombatStep) are here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbitro.adjudicator.caldiero import flow as F
from arbitro.adjudicator.caldiero import system_assault as A
from arbitro.adjudicator.caldiero.commands import (
    Advance, Choose, Decline, DefensiveFire, Lose, MoveLeader, RetreatAlong, UnitCavalryRetreat,
)
from arbitro.adjudicator.caldiero.system_procedure import (
    COMBAT,
    LEADER_ESCAPE,
    RETREAT,
    Act,
    Env,
    Reject,
    do_leader_escape,
    answer_retreat,
    leader_escape_options,
    live_combat,
    retreat_options,
)
from arbitro.adjudicator.caldiero.system_world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.decisions import Step
from arbitro.adjudicator.parabellum import bombardment
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import caldiero as ev
from arbitro.events import core
from arbitro.projections.game import GameState


class CaldieroStep(Step[Any]):
    """A step with the ruleset's data: `env` (the data a game state is played on, asked when first needed: the
    ruleset loads it lazily) and `world`,
    the read model of a game state under the readings in force."""

    def __init__(self, env: Callable[[Any], Env], world: Callable[[GameState[Any]], World]) -> None:
        self.env, self.world = env, world

    def answer(self, ctx: Decision[Any], frame: core.Frame[Any], command: Any) -> None:
        act = Act(ctx, self.env(ctx.state))
        try:
            self.carry_out(act, frame, command)
            F.go_on(act)  # the assault goes on, or the steps that need no choice run
        except Reject as e:
            ctx.reject(e.rule, e.message)

    def carry_out(self, act: Act, frame: core.Frame[Any], command: Any) -> None:
        raise NotImplementedError


class RetreatStep(CaldieroStep):
    """caldiero §12.6: the owner names one unit's retreat path at a time, among its legal paths."""

    kind = RETREAT

    def options(self, state: GameState[Any], frame: core.Frame[ev.RetreatsAwaited], seat: str) -> list[dict[str, Any]]:
        return retreat_options(self.world(state), frame)

    def carry_out(self, act: Act, frame: core.Frame[ev.RetreatsAwaited], command: RetreatAlong) -> None:
        answer_retreat(act, frame, command)


class LeaderEscapeStep(CaldieroStep):
    """caldiero §8.2.3: a lone leader reached by an enemy unit moves away, up to his full movement."""

    kind = LEADER_ESCAPE

    def options(self, state: GameState[Any], frame: core.Frame[ev.LeaderEscapeAwaited], seat: str) -> list[dict[str, Any]]:
        return leader_escape_options(self.world(state), frame)

    def carry_out(self, act: Act, frame: core.Frame[ev.LeaderEscapeAwaited], command: MoveLeader) -> None:
        do_leader_escape(act, frame, command)


class CavalryRetreatStep(CaldieroStep):
    """caldiero §14.1: defending cavalry retreats one hex before an infantry assault, one unit at a time, or stays."""

    kind = A.CAVALRY_RETREAT

    def options(self, state: GameState[Any], frame: core.Frame[ev.CavalryRetreatAwaited], seat: str) -> list[dict[str, Any]]:
        return A.cavalry_retreat_options(self.world(state), frame)

    def carry_out(self, act: Act, frame: core.Frame[ev.CavalryRetreatAwaited], command: UnitCavalryRetreat | Decline) -> None:
        A.do_cavalry_retreat(act, frame, command)


class DefensiveFireStep(CaldieroStep):
    """caldiero §11.4.5: the defenders' artillery bombards one hex of attackers, one gun at a time, or holds."""

    kind = A.DEFENSIVE_FIRE

    def options(self, state: GameState[Any], frame: core.Frame[ev.DefensiveFireAwaited], seat: str) -> list[dict[str, Any]]:
        w = self.world(state)  # each gun an attacking hex of its own, one at a time
        hexes = [w.state.units[u].hex or "" for u in _combat(state).attackers]
        return bombardment.defensive_fire_answers(CALDIERO_VARIANT, w, frame.ctx.artillery, hexes, per_stack=False) + \
            [{"type": "decline"}]

    def carry_out(self, act: Act, frame: core.Frame[ev.DefensiveFireAwaited], command: DefensiveFire | Decline) -> None:
        A.do_defensive_fire(act, frame, command)


class DefenderEfficiencyStep(CaldieroStep):
    """caldiero §12.3.1: the defenders' owner picks among the efficiency values tied for most SP."""

    kind = A.DEFENDER_EFFICIENCY

    def options(self, state: GameState[Any], frame: core.Frame[ev.DefenderEfficiencyAwaited], seat: str) -> list[dict[str, Any]]:
        return [{"type": "choose", "value": v} for v in frame.ctx.choices]

    def carry_out(self, act: Act, frame: core.Frame[ev.DefenderEfficiencyAwaited], command: Choose) -> None:
        A.do_defender_efficiency(act, frame, command.value)


class NeTestStep(CaldieroStep):
    """caldiero §12.5.4 Ne: 1, the attackers test (Ex if they pass, Ad if not); 0, the Ne stands."""

    kind = A.NE_TEST

    def options(self, state: GameState[Any], frame: core.Frame[ev.NeTestAwaited], seat: str) -> list[dict[str, Any]]:
        return [{"type": "choose", "value": 1}, {"type": "choose", "value": 0}]

    def carry_out(self, act: Act, frame: core.Frame[ev.NeTestAwaited], command: Choose) -> None:
        A.do_ne_test(act, frame, command.value)


class ExAttackerStep(CaldieroStep):
    """caldiero §12.5.4 Ex: the attacker names his unit lost (D26: the variant's ex_attacker_losses)."""

    kind = A.EX_ATTACKER

    def options(self, state: GameState[Any], frame: core.Frame[ev.ExAttackerAwaited], seat: str) -> list[dict[str, Any]]:
        return [{"type": "lose", "units": [u]} for u in frame.ctx.units]

    def carry_out(self, act: Act, frame: core.Frame[ev.ExAttackerAwaited], command: Lose) -> None:
        A.do_ex_attacker(act, frame, command.units[0])


class ExDefenderStep(CaldieroStep):
    """caldiero §12.5.4 Ex: the defender names the units he loses (D26: the variant's ex_defender_losses)."""

    kind = A.EX_DEFENDER

    def options(self, state: GameState[Any], frame: core.Frame[ev.ExDefenderAwaited], seat: str) -> list[dict[str, Any]]:
        return [{"type": "lose", "units": list(units)} for units in frame.ctx.sets]

    def carry_out(self, act: Act, frame: core.Frame[ev.ExDefenderAwaited], command: Lose) -> None:
        A.do_ex_defender(act, frame, command.units)


class AdvanceStep(CaldieroStep):
    """caldiero §12.7: one attacker in good order (or a stack with its general, §12.7.3) advances into a hex the
    combat vacated, or none does."""

    kind = A.ADVANCE

    def options(self, state: GameState[Any], frame: core.Frame[ev.AdvanceAwaited], seat: str) -> list[dict[str, Any]]:
        return A.advance_options(self.world(state), _combat(state)) + [{"type": "decline"}]

    def carry_out(self, act: Act, frame: core.Frame[ev.AdvanceAwaited], command: Advance | Decline) -> None:
        A.do_advance(act, frame, act.ctx.seat, command)


class CombatStep(CaldieroStep):
    """caldiero §12: the assault in progress, waiting below the decisions it asked; flow.go_on runs its next
    stage in the same command once they are answered, so nobody ever answers it."""

    kind = COMBAT

    def answer(self, ctx: Decision[Any], frame: core.Frame[ev.CombatUnderway], command: Any) -> None:
        ctx.reject(frame.rule, "the assault goes on when the decisions it asked are answered; nothing is asked")


def _combat(state: GameState[Any]) -> ev.CombatUnderway:
    c = live_combat(state.core.decisions, state.rules)
    assert c is not None, "an assault's decision without its assault"
    return c


STEPS: tuple[type[CaldieroStep], ...] = (
    RetreatStep, LeaderEscapeStep, CavalryRetreatStep, DefensiveFireStep, DefenderEfficiencyStep, NeTestStep,
    ExAttackerStep, ExDefenderStep, AdvanceStep, CombatStep,
)


def caldiero_steps(env: Callable[[Any], Env], world: Callable[[GameState[Any]], World]) -> dict[str, Step[Any]]:
    return {step.kind: step(env, world) for step in STEPS}
