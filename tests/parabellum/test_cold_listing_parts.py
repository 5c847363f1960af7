"""What a cold movement listing asks of every destination of every mover (issue 15), asked more cheaply with the same
answers: the distance to the nearest enemy (§5.1.1, §5.1.2 in both) is kept across positions where the enemy stands
in the same hexes, and whether movers may end in a hex (§7.1, §7.1.1, §7.1.2 in both) is answered without wording
the refusal a listing never shows."""

from __future__ import annotations

import copy

import pytest

from arbitro.adjudicator.parabellum import movement as kernel_movement
from arbitro.adjudicator.parabellum import stacking
from arbitro.adjudicator.caldiero import legal as caldiero_legal
from arbitro.adjudicator.caldiero import system_movement, system_moves
from arbitro.adjudicator.caldiero.system_movement import make_group
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum.movement import (
    EndFits, column_problem, end_fits, end_problem, may_march, nearest_enemy_distance,
)
from arbitro.adjudicator.parabellum.world import World
from tests.parabellum.test_move_search_parts import fresh, movement_positions


@pytest.fixture(scope="module")
def positions() -> tuple[object, list[object]]:
    return movement_positions("caldiero-tempo-regge.jsonl", 4)


def test_nearest_enemy_is_worked_out_once_for_the_same_enemy_hexes(positions, monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset, rules = positions
    first = ruleset.world(rules[0])
    side = first.state.seat
    enemies = sorted(first.hexes_held(first.enemy(side)))
    hexes = sorted(first.hexmap.hexes())
    assert enemies and hexes
    asked = {h: nearest_enemy_distance(first, h, side) for h in hexes}
    assert asked == {h: min(first.grid.distance(h, e) for e in enemies) for h in hexes}
    grid_type = type(first.grid)
    cube = grid_type.cube
    calls: list[str] = []
    monkeypatch.setattr(grid_type, "cube", lambda self, h: calls.append(h) or cube(self, h))
    again = ruleset.world(copy.deepcopy(rules[0]))  # another position, the enemy in the same hexes
    assert again is not first
    assert {h: nearest_enemy_distance(again, h, side) for h in hexes} == asked
    assert calls == []  # worked out anew at each position before


def test_whether_movers_may_end_words_no_refusal(positions, monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset, rules = positions
    checked = 0
    for position in rules:
        w = ruleset.world(position)
        side = w.state.seat
        movers = [u for u in w.state.activation.units if w.on_map(u)]
        hexes = sorted(w.hexes_held(side)) + sorted(w.hexmap.hexes())[:5]
        for column in (False, True):
            for u in movers:
                expected = {h: end_problem(w.variant, w, h, (u,), column) is None for h in hexes}
                with monkeypatch.context() as m:
                    m.setattr(kernel_movement, "stack_words", lambda *a, **k: pytest.fail("a refusal worded"))
                    fits = end_fits(ruleset.world(copy.deepcopy(position)), (u,), column)
                    assert {h: fits(h) for h in hexes} == expected
                checked += sum(not ok for ok in expected.values())
    assert checked > 0  # some ends refused


def test_each_stack_make_up_is_judged_once_per_position(positions, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every group of a listing asks of every hex its friends hold whether it may end there: equal stacks (the
    same arms, formations and routs: `stacking.make_up`) are judged once per position, for whichever group asks,
    with the answers `end_problem` gives unit by unit."""
    ruleset, rules = positions
    judged: list[tuple[str, ...]] = []
    fits_stacking = stacking.fits_stacking
    monkeypatch.setattr(stacking, "fits_stacking", lambda arms, *a: judged.append(tuple(arms)) or fits_stacking(arms, *a))
    asked = 0
    for position in rules:
        w = ruleset.world(position)
        side = w.state.seat
        movers = [u for u in w.state.activation.units if w.on_map(u)]
        groups = [(u,) for u in movers] + [(a, b) for a, b in zip(movers, movers[1:]) if w.hex_of(a) == w.hex_of(b)]
        held = sorted(w.hexes_held(side))
        other = ruleset.world(copy.deepcopy(position))
        expected = {(g, h): end_problem(w.variant, other, h, g) is None for g in groups for h in held}
        judged.clear()
        assert {(g, h): end_fits(w, g)(h) for g in groups for h in held} == expected
        asked += len(expected)
        stacks = {tuple(sorted((w.arm(u), w.formation_of(u), w.status(u) == "routed") for u in (*w.units_at(h), *g)))
                  for g in groups for h in held if h != w.hex_of(g[0])}
        # and each group's own hex unit by unit; before, every group and every hex with a friend there
        assert len(judged) <= len(stacks) + len(groups)
    assert asked > len(rules) * 10



def test_a_listing_asks_whether_movers_may_end_only_where_friends_stand(positions, monkeypatch: pytest.MonkeyPatch) -> None:
    """`end_fits` answers one way in every hex no friend holds (`EndFits.elsewhere`), so the kernel's `moves` asks it
    only of the hexes friends hold (`EndFits.held`; issue 15: it asked it of every hex every group reached), and
    every group's ends are still each reached hex's own answer (`end_problem`, unit by unit)."""
    ruleset, rules = positions
    asked: list[str] = []

    def recording(w: World, arriving: tuple[str, ...], column: bool = False) -> EndFits:
        made = end_fits(w, arriving, column)
        return EndFits(lambda h: asked.append(h) or made.fits(h), made.held, made.elsewhere)

    monkeypatch.setattr(system_movement, "end_fits", recording)
    compared = 0
    for position in rules:
        w = fresh(ruleset, copy.deepcopy(position), monkeypatch)
        other = ruleset.world(copy.deepcopy(position))
        side = w.state.seat
        for g in caldiero_legal._mover_groups(w, side):
            for order in system_moves.mover_orders(w, g):
                group = make_group(w, g, order, False)
                if group.start is None:
                    continue  # entering the map: its entry hex is an end by §15.4, not by stacking alone
                asked.clear()
                found = system_movement.reachable(w, group)
                assert set(asked) <= w.hexes_held(side), sorted(set(asked) - w.hexes_held(side))
                reached = set().union(*(move.reach.costs for move in found.values()))
                assert set(found) == {h for h in reached if h != group.start
                                      and end_problem(other.variant, other, h, g) is None}
                compared += len(reached)
    assert compared > 500


def test_whether_a_group_may_march_is_the_column_refusal_unworded(positions) -> None:
    """`may_march` (a listing's question for every group, issue 15) is `column_problem` finding none (§9.3 in both),
    for every order a group may hold and from its hex, a hex without roads and the entry (None)."""
    ruleset, rules = positions
    answers = set()
    for position in rules:
        w = ruleset.world(position)
        roadless = next(h for h in sorted(w.hexmap.hexes()) if not w.hexmap.roads_at(h))
        for u in w.state.activation.units:
            for orders in [[o] for o in sorted(w.orders.orders)]:
                for start in (w.hex_of(u), roadless, None, ""):
                    refused = column_problem(CALDIERO_VARIANT, w, orders, start) is not None
                    assert may_march(CALDIERO_VARIANT, w, orders, start) is not refused
                    answers.add(refused)
    assert answers == {True, False}


def test_a_stack_make_up_is_judged_once_whatever_the_position(positions, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a stack breaks §7.1-§7.1.1 reads the stacking limits and its make-up alone (`make_up_break`): judged
    once for the same limits, at any position (`stacking.make_up_fits`'s table, kept across positions: each listing
    judged every make-up anew, issue 15), with the same answers."""
    ruleset, rules = positions
    first = ruleset.world(copy.deepcopy(rules[0]))
    side = first.state.seat
    movers = [u for u in first.state.activation.units if first.on_map(u)]
    held = sorted(first.hexes_held(side))
    asked = {(u, h): end_fits(first, (u,))(h) for u in movers for h in held if h != first.hex_of(u)}
    judged: list[object] = []
    fits_stacking = stacking.fits_stacking
    monkeypatch.setattr(stacking, "fits_stacking", lambda *a: judged.append(a) or fits_stacking(*a))
    again = ruleset.world(copy.deepcopy(rules[0]))
    assert {(u, h): end_fits(again, (u,))(h) for u, h in asked} == asked
    assert len(asked) > 10 and judged == []
