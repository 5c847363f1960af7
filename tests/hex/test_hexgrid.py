"""Geometry of adjudicator.maps.hexgrid, checked against reference computations written independently here."""

from __future__ import annotations

from collections import deque
from math import lcm

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitro.adjudicator.maps.hexgrid import Cube, Grid, HexError, HexId, format_hex, parse_hex
from arbitro.adjudicator.maps.sight import between_cells, blocking_cells, line_of_sight, trace_line

GRIDS = {
    (orientation, parity): Grid(
        orientation=orientation, shifted=parity, first_column=0, last_column=19, first_row=0, last_row=19
    )
    for orientation in ("flat-top", "pointy-top")
    for parity in ("odd", "even")
}
CALDIERO = Grid(orientation="flat-top", shifted="odd", first_column=10, last_column=27, first_row=1, last_row=21)

grid_keys = st.sampled_from(sorted(GRIDS))
coords = st.integers(min_value=0, max_value=19)


# -- reference adjacency straight from the format's definition (no cube coordinates) --------------


def _reference_position(grid: Grid, column: int, row: int) -> tuple[float, float]:
    """(along-lines, across-lines) position in hex units: shifted lines sit half a hex further on."""
    if grid.orientation == "flat-top":
        shifted = (column % 2 == 1) == (grid.shifted == "odd")
        return column, row + (0.5 if shifted else 0.0)
    shifted = (row % 2 == 1) == (grid.shifted == "odd")
    return row, column + (0.5 if shifted else 0.0)


def _reference_neighbours(grid: Grid, hex_id: str) -> set[str]:
    column, row = parse_hex(hex_id)
    line, pos = _reference_position(grid, column, row)
    found = set()
    for dc in (-1, 0, 1):
        for dr in (-1, 0, 1):
            c, r = column + dc, row + dr
            if (dc, dr) == (0, 0) or not grid.contains(f"{c:02d}{r:02d}" if 0 <= c <= 99 and 0 <= r <= 99 else "x"):
                continue
            other_line, other_pos = _reference_position(grid, c, r)
            same_line = other_line == line and abs(other_pos - pos) == 1
            next_line = abs(other_line - line) == 1 and abs(other_pos - pos) == 0.5
            if same_line or next_line:
                found.add(f"{c:02d}{r:02d}")
    return found


def _reference_distances(grid: Grid, start: str) -> dict[str, int]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        for n in sorted(_reference_neighbours(grid, h)):
            if n not in seen:
                seen[n] = seen[h] + 1
                queue.append(n)
    return seen


# -- reference line trace: float lerp with an epsilon nudge to each side ---------------------------

NUDGE = (1e-6, 2e-6, -3e-6)


def _cube_round(x: float, y: float, z: float) -> Cube:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return Cube(rx, ry, rz)


def _lerp_hex(a: Cube, b: Cube, t: float, sign: int) -> Cube:
    return _cube_round(*(a[k] + sign * NUDGE[k] + (b[k] - a[k]) * t for k in range(3)))


def _reference_trace(grid: Grid, a: str, b: str) -> list[tuple[tuple[Cube, ...], bool]]:
    """Stages of the line, found by sampling both nudged lines densely.

    Every hex boundary the line meets is at a parameter that is a multiple of 1/S, S the lcm of the
    rates at which q-r, r-s and s-q change along the line; so the midpoint of every 1/S stretch lies
    inside one hex, or on an edge that the line runs along: the two nudged lines then disagree.
    """
    ca, cb = grid.to_cube(a), grid.to_cube(b)
    rates = [(cb[i] - ca[i]) - (cb[j] - ca[j]) for i, j in ((0, 1), (1, 2), (2, 0))]
    samples = lcm(*(abs(r) for r in rates if r)) if ca != cb else 1
    stages: list[tuple[tuple[Cube, ...], bool]] = [((ca,), False)]
    for j in range(samples):
        t = (j + 0.5) / samples
        plus, minus = _lerp_hex(ca, cb, t, 1), _lerp_hex(ca, cb, t, -1)
        stage = ((plus,), False) if plus == minus else (tuple(sorted((plus, minus))), True)
        if stage != stages[-1]:
            stages.append(stage)
    if stages[-1] != ((cb,), False):
        stages.append(((cb,), False))
    return stages


def _classic_lerp_hexes(grid: Grid, a: str, b: str) -> set[Cube]:
    """The usual N+1-sample lerp (either nudge): every hex it finds is on the line."""
    ca, cb = grid.to_cube(a), grid.to_cube(b)
    n = grid.distance(a, b)
    return {_lerp_hex(ca, cb, i / n if n else 0.0, s) for i in range(n + 1) for s in (1, -1)}


def _trace_as_cubes(grid: Grid, a: str, b: str) -> list[tuple[tuple[Cube, ...], bool]]:
    return [(tuple(sorted(grid.to_cube(h) for h in s.hexes)), s.along_edge) for s in trace_line(grid, a, b)]


# -- ids and coordinates ---------------------------------------------------------------------------


@given(coords, coords)
def test_format_parse_round_trip(column: int, row: int) -> None:
    assert parse_hex(format_hex(column, row)) == (column, row)


def test_format_hex_pads_to_four_digits() -> None:
    assert format_hex(7, 5) == "0705"
    assert format_hex(37, 0) == "3700"


@pytest.mark.parametrize("bad", ["171", "17120", "17a2", "", " 1712", "-112", "1712\n", "0101\n"])
def test_parse_hex_rejects_malformed_ids(bad: str) -> None:
    with pytest.raises(HexError, match="not a hex id"):
        parse_hex(bad)


def test_format_hex_rejects_out_of_range() -> None:
    with pytest.raises(HexError):
        format_hex(100, 1)
    with pytest.raises(HexError):
        format_hex(3, -1)


@given(grid_keys, coords, coords)
def test_cube_round_trip(key: tuple[str, str], column: int, row: int) -> None:
    grid = GRIDS[key]
    hex_id = format_hex(column, row)
    cube = grid.to_cube(hex_id)
    assert cube.q + cube.r + cube.s == 0
    assert grid.from_cube(cube) == hex_id


def test_require_explains_off_grid_and_missing() -> None:
    grid = Grid(orientation="flat-top", shifted="odd", first_column=10, last_column=12,
                first_row=1, last_row=3, missing=["1103"])
    assert grid.require("1001") == "1001"
    with pytest.raises(HexError, match="off the grid: columns 10..12, rows 1..3"):
        grid.require("0901")
    with pytest.raises(HexError, match="missing_hexes"):
        grid.require("1103")
    assert "1103" not in grid.hexes()
    assert len(grid.hexes()) == 8


# -- adjacency, directions, distance ---------------------------------------------------------------


def test_caldiero_parity_example_20_3_1() -> None:
    # caldiero §20.3.1: an attack "from 1618 onto 1717 or 1718" needs both to touch 1618.
    assert CALDIERO.is_adjacent("1618", "1717")
    assert CALDIERO.is_adjacent("1618", "1718")
    assert not CALDIERO.is_adjacent("1618", "1719")
    even = Grid(orientation="flat-top", shifted="even", first_column=10, last_column=27, first_row=1, last_row=21)
    assert even.is_adjacent("1618", "1719") and not even.is_adjacent("1618", "1717")


def test_caldiero_towns_are_compact_under_odd_parity() -> None:
    # caldiero §18: Colognola 2020/2119 touch; Caldiero 1612, 1613, 1712 touch each other.
    assert CALDIERO.is_adjacent("2020", "2119")
    assert all(CALDIERO.is_adjacent(a, b) for a, b in [("1612", "1613"), ("1612", "1712"), ("1613", "1712")])


def test_neighbours_in_documented_direction_order() -> None:
    assert CALDIERO.neighbours("1618") == ("1617", "1717", "1718", "1619", "1518", "1517")
    assert CALDIERO.neighbours("1718") == ("1717", "1818", "1819", "1719", "1619", "1618")
    assert [CALDIERO.direction_name("1618", n) for n in CALDIERO.neighbours("1618")] == \
        ["N", "NE", "SE", "S", "SW", "NW"]
    pointy = GRIDS[("pointy-top", "odd")]
    # Row 5 is odd, so shifted half a hex toward higher columns: it touches row 4 at columns 5 and 6.
    assert pointy.neighbours("0505") == ("0604", "0605", "0606", "0506", "0405", "0504")
    assert pointy.direction_names == ("NE", "E", "SE", "SW", "W", "NW")


def test_neighbours_at_the_map_edge_are_only_on_map() -> None:
    assert CALDIERO.neighbours("1001") == ("1101", "1002")  # SE, S
    assert CALDIERO.neighbour("1001", 0) is None
    with pytest.raises(HexError, match="off the grid"):
        CALDIERO.neighbours("0901")


@given(grid_keys, coords, coords)
def test_neighbours_match_reference_definition(key: tuple[str, str], column: int, row: int) -> None:
    grid = GRIDS[key]
    hex_id = format_hex(column, row)
    assert set(grid.neighbours(hex_id)) == _reference_neighbours(grid, hex_id)


@given(grid_keys, coords, coords)
def test_direction_is_reversible(key: tuple[str, str], column: int, row: int) -> None:
    grid = GRIDS[key]
    hex_id = format_hex(column, row)
    for d in range(6):
        n = grid.neighbour(hex_id, d)
        if n is not None:
            assert grid.direction(hex_id, n) == d
            assert grid.direction(n, hex_id) == (d + 3) % 6


def test_direction_of_non_adjacent_hexes_is_an_error() -> None:
    with pytest.raises(HexError, match="not adjacent"):
        CALDIERO.direction("1612", "1614")


@settings(max_examples=40)
@given(grid_keys, coords, coords)
def test_distance_matches_reference_breadth_first_search(key: tuple[str, str], column: int, row: int) -> None:
    grid = GRIDS[key]
    start = format_hex(column, row)
    reference = _reference_distances(grid, start)
    assert {h: grid.distance(start, h) for h in grid.hexes()} == reference


@given(grid_keys, coords, coords, coords, coords)
def test_distance_is_symmetric(key: tuple[str, str], c1: int, r1: int, c2: int, r2: int) -> None:
    grid = GRIDS[key]
    a, b = format_hex(c1, r1), format_hex(c2, r2)
    assert grid.distance(a, b) == grid.distance(b, a)
    assert (grid.distance(a, b) == 0) == (a == b)


@given(grid_keys, coords, coords, st.integers(min_value=0, max_value=4))
def test_within_radius(key: tuple[str, str], column: int, row: int, radius: int) -> None:
    grid = GRIDS[key]
    centre = format_hex(column, row)
    expected = sorted(
        (grid.distance(centre, h), h) for h in grid.hexes() if grid.distance(centre, h) <= radius
    )
    assert grid.within(centre, radius) == tuple(h for _, h in expected)


def test_within_radius_counts_on_an_open_grid() -> None:
    assert [len(CALDIERO.within("1810", r)) for r in range(4)] == [1, 7, 19, 37]


def test_hexside_is_canonical_and_order_independent() -> None:
    assert CALDIERO.hexside("1713", "1712") == CALDIERO.hexside("1712", "1713") == "1712-1713"
    assert CALDIERO.hexside("1618", "1717") == "1618-1717"
    for _ in range(2):  # asked again (memoised), the same answers and the same refusal
        assert CALDIERO.hexside("1713", "1712") == CALDIERO.hexside("1712", "1713") == "1712-1713"
        with pytest.raises(HexError, match="share no hexside"):
            CALDIERO.hexside("1612", "1612")
        with pytest.raises(HexError, match="share no hexside"):
            CALDIERO.hexside("1612", "1614")
    with pytest.raises(HexError, match="share no hexside"):
        CALDIERO.hexside("1612", "1614")


@given(grid_keys, coords, coords)
def test_hexsides_of_a_hex_are_six_distinct_ids(key: tuple[str, str], column: int, row: int) -> None:
    grid = GRIDS[key]
    hex_id = format_hex(column, row)
    sides = {grid.hexside(hex_id, n) for n in grid.neighbours(hex_id)}
    assert len(sides) == len(grid.neighbours(hex_id))
    assert all(hex_id in side.split("-") for side in sides)


# -- lines -----------------------------------------------------------------------------------------


def _pairs(max_distance: int) -> st.SearchStrategy[tuple[tuple[str, str], str, str]]:
    @st.composite
    def build(draw: st.DrawFn) -> tuple[tuple[str, str], str, str]:
        key = draw(grid_keys)
        grid = GRIDS[key]
        a = format_hex(draw(st.integers(2, 17)), draw(st.integers(2, 17)))
        b = draw(st.sampled_from(grid.within(a, max_distance)))
        return key, a, b
    return build()


@settings(max_examples=400, deadline=None)
@given(_pairs(7))
def test_trace_matches_dense_nudged_lerp_reference(pair: tuple[tuple[str, str], str, str]) -> None:
    key, a, b = pair
    grid = GRIDS[key]
    assert _trace_as_cubes(grid, a, b) == _reference_trace(grid, a, b)


@settings(max_examples=300, deadline=None)
@given(_pairs(12))
def test_trace_contains_every_hex_of_the_classic_lerp(pair: tuple[tuple[str, str], str, str]) -> None:
    key, a, b = pair
    grid = GRIDS[key]
    traced = {grid.to_cube(h) for step in trace_line(grid, a, b) for h in step.hexes}
    assert _classic_lerp_hexes(grid, a, b) <= traced


@settings(max_examples=300, deadline=None)
@given(_pairs(12))
def test_trace_is_a_chain_from_a_to_b_and_reverses(pair: tuple[tuple[str, str], str, str]) -> None:
    key, a, b = pair
    grid = GRIDS[key]
    steps = trace_line(grid, a, b)
    assert steps[0].hexes == (a,) and steps[-1].hexes == (b,)
    assert not steps[0].along_edge and not steps[-1].along_edge
    for step in steps:
        assert len(step.hexes) == (2 if step.along_edge else 1)
        if step.along_edge:
            assert grid.is_adjacent(*step.hexes)
    for before, after in zip(steps, steps[1:]):
        assert all(grid.is_adjacent(x, y) for x in before.hexes for y in after.hexes)
    assert trace_line(grid, b, a) == tuple(reversed(steps))


HOLED = Grid(orientation="flat-top", shifted="odd", first_column=0, last_column=19, first_row=0, last_row=19,
             missing=("0909", "0910", "1009", "1010", "1108", "0504", "1415"))


@pytest.mark.parametrize("direction", [Cube(3, -1, -2), Cube(2, 2, -4), Cube(-5, 1, 4), Cube(4, -2, -2), Cube(0, 6, -6)])
def test_a_line_is_the_same_from_every_start(direction: Cube) -> None:
    """A line's cells depend only on the offset between its ends (the tracer works each direction out once: issue
    15): from every start, whether the line crosses the map's holes or not, each step is the same cells moved by
    the start, those off the map counted, never listed."""
    def cells(a: str) -> list[tuple[frozenset[Cube], int, bool]]:
        start = HOLED.to_cube(a)
        end = HOLED.on_map_id(start + direction)
        assert end is not None
        return [(frozenset(HOLED.to_cube(h) - start for h in s.hexes), len(s.hexes) + s.off_map, s.along_edge)
                for s in trace_line(HOLED, a, end)]

    starts = [a for a in HOLED.hexes() if HOLED.on_map_id(HOLED.to_cube(a) + direction) is not None]
    traced = [cells(a) for a in starts]
    whole = next(t for t in traced if all(len(got) == n for got, n, _edge in t))  # every cell on the map
    holed = 0
    for found in traced:
        assert [(n, edge) for _, n, edge in found] == [(n, edge) for _, n, edge in whole]
        assert all(got <= want for (got, _, _), (want, _, _) in zip(found, whole))
        holed += found != whole
    assert holed  # some lines cross a hole: their cells there are counted off the map


@pytest.mark.parametrize("grid", [HOLED, CALDIERO, *GRIDS.values()])
def test_the_cells_between_a_lines_ends_are_those_of_its_trace(grid: Grid) -> None:
    """`between_cells` (made from the line's shape alone, issue 15) is `blocking_cells` of the whole trace for every
    line within 8 hexes, holes and map edges included: an interior hex off the map, or an edge with a side off it,
    never blocks."""
    lines = 0
    for a in grid.hexes()[::3]:
        for b in sorted(grid.within(a, 8)):
            assert between_cells(grid, a, b) == blocking_cells(trace_line(grid, a, b)), (a, b)
            lines += 1
    assert lines > 1000


def test_straight_line_along_a_column() -> None:
    assert [s.hexes for s in trace_line(CALDIERO, "1612", "1616")] == [
        ("1612",), ("1613",), ("1614",), ("1615",), ("1616",)
    ]


def test_line_along_hexsides() -> None:
    steps = trace_line(CALDIERO, "1612", "2012")
    assert [(s.hexes, s.along_edge) for s in steps] == [
        (("1612",), False), (("1711", "1712"), True), (("1812",), False), (("1911", "1912"), True),
        (("2012",), False),
    ]


def test_line_weaving_along_a_column_boundary_counts_every_hex_it_clips() -> None:
    # Nearly parallel to the zigzag between columns 10 and 11, the line dips into 1103 and 1005;
    # the usual N+1-sample lerp misses both.
    steps = trace_line(CALDIERO, "1001", "1107")
    assert [s.hexes[0] for s in steps] == [
        "1001", "1002", "1003", "1103", "1004", "1104", "1005", "1105", "1106", "1107"
    ]
    assert not any(s.along_edge for s in steps)
    missed = {CALDIERO.to_cube("1103"), CALDIERO.to_cube("1005")}
    assert not missed & _classic_lerp_hexes(CALDIERO, "1001", "1107")
    assert not line_of_sight(CALDIERO, "1001", "1107", lambda h: h == "1103").clear


def test_line_to_itself_is_one_step() -> None:
    assert trace_line(CALDIERO, "1712", "1712") == trace_line(CALDIERO, "1712", "1712")[:1]
    assert trace_line(CALDIERO, "1712", "1712")[0].hexes == ("1712",)


def test_line_along_the_map_edge_names_only_the_on_map_hex() -> None:
    steps = trace_line(CALDIERO, "1001", "1201")
    assert steps[1].along_edge and steps[1].hexes == ("1101",) and steps[1].off_map == 1


def test_line_of_sight_edge_blocked_only_if_both_hexes_block() -> None:
    # caldiero §11.3.1 / arrivano §11.3: along a hexside the LoS is blocked only if both hexes block.
    assert line_of_sight(CALDIERO, "1612", "1812", lambda h: h == "1711").clear
    assert line_of_sight(CALDIERO, "1612", "1812", lambda h: h == "1712").clear
    sight = line_of_sight(CALDIERO, "1612", "1812", lambda h: h in ("1711", "1712"))
    assert not sight.clear and sight.blocked_by == ("1711", "1712")


def test_line_of_sight_is_not_blocked_by_its_own_ends() -> None:
    asked: list[HexId] = []

    def blocks(h: HexId) -> bool:
        asked.append(h)
        return True

    assert line_of_sight(CALDIERO, "1612", "1613", blocks).clear
    assert asked == []
    sight = line_of_sight(CALDIERO, "1612", "1614", blocks)
    assert sight.blocked_by == ("1613",) and asked == ["1613"]


def test_line_of_sight_blocked_by_a_crossed_hex() -> None:
    sight = line_of_sight(CALDIERO, "1612", "2213", lambda h: h == "2013")
    assert not sight.clear and sight.blocked_by == ("2013",)
    assert line_of_sight(CALDIERO, "1612", "2213", lambda h: h == "2014").clear


@pytest.mark.parametrize("row, outer_parity", [(1, 0), (21, 1)])
def test_line_of_sight_along_map_edge_is_never_blocked_by_the_off_map_side(row: int, outer_parity: int) -> None:
    """Every sight line along the top or bottom edge of the flat-top, odd-shifted map between two hexes of the outer
    half-row runs along hexsides shared with off-map hexes: with every on-map hex blocking it is still clear. The
    lines between the inner half-row's hexes cross an on-map hex's centre, so they are blocked: the property is
    about the off-map side, not a grid that never blocks."""
    blocks_everything = lambda h: True  # noqa: E731
    for column in range(CALDIERO.first_column, CALDIERO.last_column - 1):
        a, b = f"{column:02d}{row:02d}", f"{column + 2:02d}{row:02d}"
        sight = line_of_sight(CALDIERO, a, b, blocks_everything)
        assert sight.clear == (column % 2 == outer_parity), (a, b, sight)


def test_a_disc_is_worked_out_without_building_cubes(monkeypatch: pytest.MonkeyPatch) -> None:
    """`within` sums plain tuples (a Cube is a tuple, equal and hashed alike): the fog asks a disc of every piece's hex
    and building a Cube per cell was a tenth of an Arrivano verify (issue 15). Its answers are the reference's
    (test_within_radius)."""
    grid = Grid(orientation="flat-top", shifted="odd", first_column=10, last_column=27, first_row=1, last_row=21)

    def built(*_: object) -> Cube:
        raise AssertionError("a Cube was built for a cell of the disc")

    monkeypatch.setattr(Cube, "__add__", built)
    assert [len(grid.within("1810", r)) for r in range(4)] == [1, 7, 19, 37]
