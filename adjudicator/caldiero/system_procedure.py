"""Caldiero's shared steps of procedure (caldiero §12.6, §12.8, §15, §8.2.3, §19.2.2), each taking the kernel's
decision context (parabellum/act.Act): disorder and rout, retreats as pending decisions, the lone leader's escape,
the reinforcements due.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.caldiero import commands as C
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.parabellum.commander_move import leader_ends
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO, CALDIERO_VARIANT
from arbitro.adjudicator.decisions import close_frame, open_frame, update_frame
from arbitro.adjudicator.parabellum import elimination, retreat_ground, rout
from arbitro.adjudicator.parabellum.assault_frame import assault_below
from arbitro.adjudicator.ruleset import Rule
from arbitro.adjudicator.parabellum.retreat_ground import lines
from arbitro.events import caldiero as ev
from arbitro.events import core
from arbitro.events.parabellum import EscapeAwaited, RetreatAwaited
from arbitro.projections.caldiero import enemy_of


# The kinds of the frames this module opens on the engine's decision stack, and what they ask.
RETREAT = "retreat"
RETREAT_PROMPT = "choose the retreat path of each retreating unit (caldiero §12.6)"
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


def add_disorder(a: Act, u: str, rule: Rule, retreats: dict[str, int]) -> None:
    """One disorder level (the kernel's rout.disorder); routed by it, the unit retreats two hexes at once (§15.2.1),
    queued in `retreats`."""
    if rout.disorder(a, CALDIERO_VARIANT, u, rule):
        retreats[u] = max(retreats.get(u, 0), rout.RETREAT_HEXES)


def open_retreats(a: Act, moves: dict[str, int], rule: Rule, from_combat: bool) -> None:
    """Queue retreats: units with no path are eliminated now; the owner chooses the others' paths."""
    by_side: dict[str, dict[str, int]] = {}
    for u, n in sorted(moves.items()):
        s = a.state.units[u]
        if s.where != "map":
            continue
        if from_combat:
            for art in rout.guns_with(a.world(), [u]):
                if art not in moves:
                    elimination.eliminate(a, CALDIERO_VARIANT, art, CALDIERO.ARTILLERY_STACKED)  # caldiero §11.1
        if not lines(CALDIERO_VARIANT, a.world(), [u], n):
            edge = a.world().grid.is_edge(s.hex or "")
            elimination.eliminate(a, CALDIERO_VARIANT, u, CALDIERO.OFF_MAP if edge else R.RETREAT_BLOCKED, permanent=True)
            continue
        by_side.setdefault(s.side, {})[u] = n
    assaulting = assault_below(a.ctx.game.core.decisions)
    for side in sorted(by_side, key=lambda x: x == (assaulting.attacker_side if assaulting else "")):
        open_frame(a.ctx, RETREAT, (side,), str(rule), RETREAT_PROMPT, RetreatAwaited(moves=by_side[side]))


def retreat_options(w: World, frame: core.Frame[RetreatAwaited]) -> list[dict[str, Any]]:
    """Every unit still to retreat with each of its legal paths (caldiero §12.6)."""
    moves = frame.ctx.moves
    return [{"type": "retreat", "unit": u, "path": list(p.path)} for u in sorted(moves) for p in lines(CALDIERO_VARIANT, w, [u], moves[u])]


def path_refusal(w: World, frame: core.Frame[RetreatAwaited], answer: dict[str, Any],
                    options: list[dict[str, Any]]) -> tuple[Rule, str]:
    u, moves = answer["unit"], frame.ctx.moves
    if u not in moves:
        return CALDIERO.RETREAT, f"{u} has no retreat to make; waiting for: {', '.join(sorted(moves))}"
    return CALDIERO.RETREAT, (f"{answer['path']} is not a legal retreat for {u}: each hex farther from the enemy and out of "
                              f"enemy ZoC if possible; choose one of {[o['path'] for o in options if o['unit'] == u][:6]} (caldiero §12.6)")


def answer_retreat(a: Act, frame: core.Frame[RetreatAwaited], cmd: C.RetreatAlong) -> None:
    """The owner's answer to the pending retreat (caldiero §12.6), one the frame listed (`path_refusal` refuses
    any other): one unit and its path, taken (the kernel's `retreat_ground.take`: §12.6.1's extra disorder, a unit it
    routs going on two hexes, §15.2.1, in this frame), the others' way checked again (§12.6.3), then the routed
    enemies next to its end tested (§15.2, `arrived`)."""
    moves: dict[str, int] = dict(frame.ctx.moves)
    u = cmd.unit
    chosen = next(p for p in lines(CALDIERO_VARIANT, a.world(), [u], moves[u]) if list(p.path) == list(cmd.path))
    del moves[u]
    routed = retreat_ground.take(a, CALDIERO_VARIANT, [u], chosen, frame.rule)
    moves |= {x: rout.RETREAT_HEXES for x in routed}
    for x in sorted(moves):  # a retreat just made may have closed the others' way (caldiero §12.6.3, §15.2.1)
        if a.state.units[x].where != "map":
            del moves[x]
        elif not lines(CALDIERO_VARIANT, a.world(), [x], moves[x]):
            del moves[x]
            elimination.eliminate(a, CALDIERO_VARIANT, x, CALDIERO.ROUT_COMBAT if x in routed else R.RETREAT_BLOCKED, permanent=True)
    if moves:
        update_frame(a.ctx, frame, RetreatAwaited(moves=moves))
    else:
        close_frame(a.ctx, frame)
    retreat_ground.arrived(a, CALDIERO_VARIANT, chosen)


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
