"""Caldiero's shared steps of procedure (caldiero §8.2.3, §19.2.2), each taking the kernel's decision context
(parabellum/act.Act): the lone leader's escape, the reinforcements due (disorder, rout and the pending retreat are the
kernel's: parabellum/rout.py, retreat_frame.py).
"""

from __future__ import annotations

from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.escape import ESCAPE
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.decisions import open_frame
from arbitro.events.parabellum import EscapeAwaited
from arbitro.projections.caldiero import enemy_of


# What the frame this module opens on the engine's decision stack asks (its kind the kernel's, parabellum/escape.py).
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
        if not a.world().side_units_at(h, enemy):  # flees, or is captured with nowhere to go (escape.settled)
            open_frame(a.ctx, ESCAPE, (enemy,), str(R.LEADER_ESCAPE), ESCAPE_PROMPT, EscapeAwaited(leader=leader))
