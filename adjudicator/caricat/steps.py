"""The decisions Caricat! puts on the engine's stack, one Step each: the defender's aim (caricat §7.1, §7.2), cavalry
retreat before combat (§9.2), a retreat's next hex (§7.4), the winner's advance (§7.2.1, §9.1), reaction fire
(§6.2). After each answer the combat below, if any, goes on (combat.run)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbitro.adjudicator.caricat import combat as CB
from arbitro.adjudicator.caricat import losses as L
from arbitro.adjudicator.caricat import retreat as RT
from arbitro.adjudicator.caricat import rules as R
from arbitro.adjudicator.caricat import scenario as SC
from arbitro.adjudicator.caricat.flow import Game
from arbitro.adjudicator.caricat.loader import CaricatData
from arbitro.adjudicator.caricat.world import World
from arbitro.adjudicator.decisions import Step
from arbitro.events import caricat as ev
from arbitro.events.core import Frame
from arbitro.projections.caricat import CaricatState
from arbitro.projections.game import GameState


def proceed(g: Game) -> None:
    """Whatever can go on by itself once a decision is answered: a leader's transfer to choose, single-choice
    retreat steps, then the combat."""
    if SC.offer_transfer(g):
        return
    RT.settle_retreat(g)
    CB.run(g)


DataOf = Callable[[CaricatState], CaricatData]  # the data a game is played on (CaricatRuleset.data_of)


class _CaricatStep(Step[Any]):
    def __init__(self, data_of: DataOf) -> None:
        self.data_of = data_of

    def world(self, state: GameState[Any]) -> World:
        return World(state.rules, self.data_of(state.rules))

    def answer(self, ctx: Any, frame: Frame[Any], command: Any) -> None:
        g = Game(ctx, self.data_of(ctx.state))
        self.handle(g, frame.ctx, command)
        proceed(g)

    def handle(self, g: Game, c: Any, command: Any) -> None:
        raise NotImplementedError


class AimStep(_CaricatStep):
    kind = "aim"

    def options(self, state: GameState[Any], frame: Frame[ev.AimAwaited], seat: str) -> list[dict[str, Any]]:
        return [{"type": "aim", "attacker": a} for a in frame.ctx.attackers]

    def handle(self, g: Game, c: ev.AimAwaited, command: Any) -> None:
        g.pop()
        combat = g.top().ctx
        fields = {f: getattr(combat, f) for f in combat.__struct_fields__}
        fields.update(aim=command.attacker, stage="fire")
        g.revise(ev.CombatUnderway(**fields))


class CavalryRetreatStep(_CaricatStep):
    kind = "cavalry_retreat"

    def options(self, state: GameState[Any], frame: Frame[Any], seat: str) -> list[dict[str, Any]]:
        return [{"type": "try_retreat", "attempt": True}, {"type": "try_retreat", "attempt": False}]

    def handle(self, g: Game, c: ev.CavalryRetreatOffered, command: Any) -> None:
        RT.try_retreat(g, c.unit, command.attempt)


class RetreatStep(_CaricatStep):
    kind = "retreat"

    def options(self, state: GameState[Any], frame: Frame[ev.RetreatAwaited], seat: str) -> list[dict[str, Any]]:
        return [{"type": "retreat", "hex": h} for h in RT.retreat_choices(self.world(state), frame.ctx.unit)]

    def handle(self, g: Game, c: ev.RetreatAwaited, command: Any) -> None:
        RT.retreat_step(g, c, command.hex)


class AdvanceStep(_CaricatStep):
    kind = "advance"

    def options(self, state: GameState[Any], frame: Frame[ev.AdvanceAwaited], seat: str) -> list[dict[str, Any]]:
        g = _Peek(state, self.data_of(state.rules))
        found = [{"type": "advance", **choice} for choice in RT.advance_choices(g, frame.ctx)]  # type: ignore[arg-type]
        if not (frame.ctx.compulsory and not frame.ctx.path) or not found:
            found.append({"type": "advance", "unit": None, "hex": None})
        return found

    def handle(self, g: Game, c: ev.AdvanceAwaited, command: Any) -> None:
        RT.advance(g, c, command.unit, command.hex)


class ReactionStep(_CaricatStep):
    kind = "reaction"

    def options(self, state: GameState[Any], frame: Frame[Any], seat: str) -> list[dict[str, Any]]:
        return [{"type": "react", "fire": True}, {"type": "react", "fire": False}]

    def handle(self, g: Game, c: ev.ReactionAwaited, command: Any) -> None:
        g.pop()
        firer, rest = c.firers[0], c.firers[1:]
        if command.fire and g.state.units[c.mover].where == "map" and g.state.units[firer].where == "map":
            hits = CB.fire_round(g, g.world(), [firer], c.mover, defensive=True, reaction=True)
            L.apply_hits(g, {c.mover: hits}, "reaction fire", R.REACTION)
        if rest:
            g.push("reaction", (g.state.units[firer].side,), R.REACTION,
                   f"choose whether to fire at {c.mover}", ev.ReactionAwaited(mover=c.mover, firers=rest))


class TransferStep(_CaricatStep):
    kind = "leader_transfer"

    def options(self, state: GameState[Any], frame: Frame[ev.TransferAwaited], seat: str) -> list[dict[str, Any]]:
        return [{"type": "transfer_leader", "leader": frame.ctx.leader, "unit": u} for u in frame.ctx.units]

    def handle(self, g: Game, c: ev.TransferAwaited, command: Any) -> None:
        SC.transfer(g, c.leader, command.unit)


class _Peek:
    """The state a step's options read, shaped as the Game the rules read (no emitting)."""

    def __init__(self, state: GameState[Any], data: CaricatData) -> None:
        self.state, self.data = state.rules, data

    def world(self) -> World:
        return World(self.state, self.data)


def steps(data_of: DataOf) -> dict[str, Step[Any]]:
    return {s.kind: s for s in (AimStep(data_of), CavalryRetreatStep(data_of), RetreatStep(data_of),
                                AdvanceStep(data_of), ReactionStep(data_of), TransferStep(data_of))}
