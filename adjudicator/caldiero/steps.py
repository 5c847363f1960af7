"""Caldiero's steps on the engine's decision stack (arbitro §S.3; docs/ruleset-interface.md, "Decisions"): each
answers one kind of frame, listing its answers (`options`, which legal() returns while the frame is on top) and
carrying one out (`answer`), after which the procedure goes on as after any command (flow.go_on).

The retreat (caldiero §12.6) and the lone leader's escape (§8.2.3) are here; the assault's decisions are still
frames on `CaldieroState.stack`, answered by flow.answer_frame.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbitro.adjudicator.caldiero import flow as F
from arbitro.adjudicator.caldiero.commands import MoveLeader, Retreat
from arbitro.adjudicator.caldiero.system_procedure import (
    LEADER_ESCAPE,
    RETREAT,
    Act,
    Env,
    Reject,
    do_leader_escape,
    do_retreat,
    leader_escape_options,
    retreat_options,
)
from arbitro.adjudicator.caldiero.system_world import World
from arbitro.adjudicator.decisions import Step
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import caldiero as ev
from arbitro.events import core
from arbitro.projections.game import GameState


class CaldieroStep(Step[Any]):
    """A step with the ruleset's data: `env` (asked when first needed: the ruleset loads it lazily) and `world`,
    the read model of a game state under the readings in force."""

    def __init__(self, env: Callable[[], Env], world: Callable[[GameState[Any]], World]) -> None:
        self.env, self.world = env, world

    def answer(self, ctx: Decision[Any], frame: core.Frame[Any], command: Any) -> None:
        act = Act(ctx, self.env())
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

    def carry_out(self, act: Act, frame: core.Frame[ev.RetreatsAwaited], command: Retreat) -> None:
        do_retreat(act, frame, act.ctx.seat, command)


class LeaderEscapeStep(CaldieroStep):
    """caldiero §8.2.3: a lone leader reached by an enemy unit moves away, up to his full movement."""

    kind = LEADER_ESCAPE

    def options(self, state: GameState[Any], frame: core.Frame[ev.LeaderEscapeAwaited], seat: str) -> list[dict[str, Any]]:
        return leader_escape_options(self.world(state), frame)

    def carry_out(self, act: Act, frame: core.Frame[ev.LeaderEscapeAwaited], command: MoveLeader) -> None:
        do_leader_escape(act, frame, command)


def steps(env: Callable[[], Env], world: Callable[[GameState[Any]], World]) -> dict[str, Step[Any]]:
    return {step.kind: step for step in (RetreatStep(env, world), LeaderEscapeStep(env, world))}
