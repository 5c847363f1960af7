"""Caldiero's shared steps of procedure (caldiero §8.2.3, §19.2.2), each taking the kernel's decision context
(parabellum/act.Act): the lone leader's escape, the reinforcements due (disorder, rout and the pending retreat are the
kernel's: parabellum/rout.py, retreat_frame.py).
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.parabellum.commander_move import leader_ends
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.decisions import open_frame
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import caldiero as ev
from arbitro.events import core
from arbitro.events.parabellum import EscapeAwaited
from arbitro.projections.caldiero import enemy_of


# The kinds of the frames this module opens on the engine's decision stack, and what they ask.
LEADER_ESCAPE = "leader_escape"
ESCAPE_PROMPT = "your leader, alone, is reached by an enemy unit: move him away (caldiero §8.2.3)"


def arrival_turn(w: World, base: int) -> int:
    shift = w.scenario.scenarios[w.state.scenario].reinforcement_shift  # caldiero §19.2.2
    return max(1, base + shift)


def unit_due(w: World, u: str) -> bool:
    unit = w.state.units[u]
    arrival = w.counters.unit(u).arrival
    return unit.where == "offmap" and arrival is not None and arrival_turn(w, arrival.turn) <= w.state.turn


def leader_due(w: World, leader: str) -> bool:
    s = w.state.leaders[leader]
    arrival = w.counters.leader(leader).arrival
    return s.where == "offmap" and arrival is not None and arrival_turn(w, arrival.turn) <= w.state.turn


def lone_leaders(a: Act, h: str, seat: str) -> None:
    """caldiero §8.2.3: an enemy leader alone where our combat unit arrived escapes up to his full movement
    (his owner chooses where: a pending decision), or is captured if he cannot leave the hex."""
    enemy = enemy_of(seat)
    for leader in a.world().leaders_at(h, enemy):
        if a.world().side_units_at(h, enemy):
            continue
        if leader_ends(CALDIERO_VARIANT, a.world(), leader, fleeing=True):
            open_frame(a.ctx, LEADER_ESCAPE, (enemy,), str(R.LEADER_ESCAPE), ESCAPE_PROMPT, EscapeAwaited(leader=leader))
        else:
            a.emit(ev.LeaderLost(leader=leader, rule=str(R.LEADER_ESCAPE)))


def leader_escape_options(w: World, frame: core.Frame[EscapeAwaited]) -> list[dict[str, Any]]:
    leader = frame.ctx.leader
    return [{"type": "move_leader", "leader": leader, "to": d, "path": None} for d in sorted(leader_ends(CALDIERO_VARIANT, w, leader, fleeing=True))]


def leader_escape_refusal(w: World, frame: core.Frame[EscapeAwaited], answer: dict[str, Any],
                          options: list[dict[str, Any]]) -> tuple[Rule, str]:
    return R.LEADER_ESCAPE, (f"{frame.ctx.leader} escapes to a hex he can reach with his 6 MP: "
                             f"{', '.join(o['to'] for o in options)} (caldiero §8.2.3)")


def do_leader_escape(a: Act, frame: core.Frame[EscapeAwaited], cmd: Any) -> None:
    path = leader_ends(CALDIERO_VARIANT, a.world(), frame.ctx.leader, fleeing=True)[cmd.to]
    a.emit(ev.LeaderMoved(leader=frame.ctx.leader, path=path, rule=str(R.LEADER_ESCAPE), own=False))
