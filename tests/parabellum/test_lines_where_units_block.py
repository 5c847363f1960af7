"""Lines of sight where units block them (caldiero §11.3.1, D18): what the ground leaves of a line (`line_cells`) is
traced once for every position of the same data, and each position's units are applied to it (issue 15: every
position traced its lines again, most of serving a fog game's events). The answers are the map kit's exact trace
with the whole blocking policy, both ways, on real positions of the tempo-regge log."""

from __future__ import annotations

import copy

import pytest

from arbitro.adjudicator.maps.sight import line_of_sight
from arbitro.adjudicator.parabellum import world as kernel_world
from arbitro.adjudicator.parabellum.world import World
from tests.parabellum.test_move_search_parts import movement_positions


@pytest.fixture(scope="module")
def positions() -> tuple[object, list[object]]:
    return movement_positions("caldiero-tempo-regge.jsonl", 3)


def pairs(w: World) -> list[tuple[str, str]]:
    """Every pair of a piece's hex and a hex within the sight range of it (the fog's questions)."""
    limit = w.sight_range()
    return [(a, b) for a in sorted(w.piece_hexes("france") | w.piece_hexes("austria"))
            for b in sorted(w.grid.near(a, limit)) if b != a]


def whole_policy(w: World, a: str, b: str) -> bool:
    """The line traced with the whole policy at once: terrain, ground higher than both ends, units."""
    top = max(w.elevation(a), w.elevation(b))
    return line_of_sight(w.grid, a, b, lambda h: w.blocks_sight(h) or w.elevation(h) > top or bool(w.units_at(h))).clear


def test_units_block_lines_as_the_whole_trace_says(positions) -> None:
    ruleset, rules = positions
    blocked_by_units = 0
    for position in rules:
        w = ruleset.world(copy.deepcopy(position))
        assert w.variant.units_block_sight
        for a, b in pairs(w):
            expected = whole_policy(w, a, b)
            assert w.clear_line(a, b) == expected == w.clear_line(b, a), (a, b)
            top = max(w.elevation(a), w.elevation(b))
            ground = line_of_sight(w.grid, a, b, lambda h: w.blocks_sight(h) or w.elevation(h) > top).clear
            blocked_by_units += ground and not expected
    assert blocked_by_units > 0  # some lines only units block


def test_a_line_is_traced_once_for_every_position(positions, monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset, rules = positions
    monkeypatch.setattr(kernel_world, "_LINES", type(kernel_world._LINES)(1 << 18))
    traced: list[tuple[str, str]] = []
    trace = kernel_world.between_cells
    monkeypatch.setattr(kernel_world, "between_cells", lambda grid, a, b: traced.append((a, b)) or trace(grid, a, b))
    first, second = (ruleset.world(copy.deepcopy(p)) for p in rules[:2])
    assert first.state.units != second.state.units  # units stand elsewhere
    asked = pairs(first)
    answers = [first.clear_line(a, b) for a, b in asked]
    assert traced
    traced.clear()
    assert [second.clear_line(a, b) for a, b in asked] == [whole_policy(second, a, b) for a, b in asked]
    assert traced == []  # traced again at every position before
    assert answers == [whole_policy(first, a, b) for a, b in asked]
