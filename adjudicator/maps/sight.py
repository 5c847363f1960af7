"""Lines of sight on a hex grid: the hexes a centre-to-centre line passes through, computed exactly (integers
only, in cube space), and the caller's blocking policy applied to them (caldiero §11.3.1, arrivano §11.3).

Pure geometry, no game rule: the ruleset says which hexes block. Two forms of one trace: `line_of_sight` (with
`trace_line`, `blocking_cells`) explains a line step by step and names what blocked it, no game's hot path calls
it now; `between_cells` gives the same cells from the line's shape alone, the form Para Bellum's World keeps per
pair (parabellum/world.line_cells), checked against the other on whole maps (tests/hex/test_hexgrid.py).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from math import lcm

from arbitro.adjudicator.maps.hexgrid import Cube, Grid, HexId

# The six neighbours in cube space. Their order does not matter here: the cells found are sorted by where
# the line enters and leaves them.
_UNITS = tuple(Cube(dq, dr, -dq - dr) for dq, dr in ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)))


@dataclass(frozen=True, slots=True)
class LineStep:
    """One stage of a centre-to-centre line, in order from the origin.

    ``along_edge`` False: the line passes through the interior of ``hexes[0]``.
    ``along_edge`` True: the line runs exactly along the edge between two hexes; ``hexes`` lists those
    of the two that are on the map (ascending), ``off_map`` how many are not.
    """

    hexes: tuple[HexId, ...]
    along_edge: bool
    off_map: int = 0


@dataclass(frozen=True, slots=True)
class SightLine:
    """Result of :func:`line_of_sight`: whether it is clear, and which hexes blocked it."""

    clear: bool
    blocked_by: tuple[HexId, ...]
    steps: tuple[LineStep, ...]


def trace_line(grid: Grid, a: str, b: str) -> tuple[LineStep, ...]:
    """The hexes a straight line from the centre of ``a`` to the centre of ``b`` passes through.

    Hexes the line only touches at a corner are not listed. Where the line runs exactly along an
    edge, the step is marked ``along_edge`` and names both hexes of that edge.
    """
    return tuple(_trace(grid, grid.cube(a), grid.cube(b)))

def line_of_sight(grid: Grid, a: str, b: str, blocks: Callable[[HexId], bool]) -> SightLine:
    """Trace the line ``a``->``b`` and apply the caller's blocking policy to the hexes between.

    ``blocks(hex)`` is asked only about on-map hexes strictly between the two ends. A hex the line
    passes through blocks if ``blocks`` says so; where the line runs along an edge it is blocked
    only if both hexes of that edge block (off-map hexes never block).
    """
    steps = trace_line(grid, a, b)
    blocked = [h for cell in blocking_cells(steps) if all(blocks(h) for h in cell) for h in cell]
    return SightLine(clear=not blocked, blocked_by=tuple(blocked), steps=steps)


def blocking_cells(steps: tuple[LineStep, ...]) -> list[tuple[HexId, ...]]:
    """The groups of on-map hexes strictly between a line's ends (`trace_line`'s steps) each of which blocks it when
    every hex of it blocks: a hex the line passes through; both hexes of an edge it runs along (an edge with a side
    off the map never blocks)."""
    cells: list[tuple[HexId, ...]] = []
    for step in steps[1:-1]:
        if step.along_edge:
            if step.off_map == 0 and len(step.hexes) == 2:
                cells.append(step.hexes)
        elif step.hexes:
            cells.append(step.hexes[:1])
    return cells


def between_cells(grid: Grid, a: str, b: str) -> list[tuple[HexId, ...]]:
    """`blocking_cells(trace_line(grid, a, b))`, made from the line's shape alone (issue 15: a side's first sight traces
    a thousand lines, and making each step's `LineStep` first was most of a line): a step of which a hex is off the
    map never blocks, an edge's two hexes in id order."""
    start, end = grid.cube(a), grid.cube(b)
    if start == end:
        return []
    q, r, s = start
    on_map = grid.on_map_id
    cells: list[tuple[HexId, ...]] = []
    for group in _between(end - start):
        ids = [on_map(Cube(q + c.q, r + c.r, s + c.s)) for c in group]
        if None not in ids:
            cells.append(tuple(sorted(ids)))  # type: ignore[type-var]
    return cells


_BETWEEN: dict[Cube, tuple[tuple[Cube, ...], ...]] = {}


def _between(direction: Cube) -> tuple[tuple[Cube, ...], ...]:
    """The cells of `_shape` strictly between a line's ends that may block it (`blocking_cells`): each hex the line
    passes through, each pair of hexes along whose edge it runs. Worked out once per direction."""
    found = _BETWEEN.get(direction)
    if found is None:
        found = _BETWEEN[direction] = tuple(
            group[:1] if not along_edge else group for group, along_edge in _shape(direction)[1:-1]
            if not along_edge or len(group) == 2)
    return found


# -- exact line tracing --------------------------------------------------------------------------
#
# In cube space the cell of hex C is {p : |(p-C).q - (p-C).r| <= 1, |(p-C).r - (p-C).s| <= 1,
# |(p-C).s - (p-C).q| <= 1} (a regular hexagon: the Voronoi cell of C). Along p(t) = A + t*D each of the
# three differences is linear in t with integer coefficients, so the stretch of t spent in a cell is an
# interval with rational ends. Scaling t by M = lcm of the non-zero slopes makes every end an integer:
# no floating point, no epsilon.


def _differences(v: Cube) -> tuple[int, int, int]:
    return (v.q - v.r, v.r - v.s, v.s - v.q)


def _cell_interval(
    offset: Cube, slopes: tuple[int, int, int], scale: int
) -> tuple[int, int, bool] | None:
    """(enter, leave, along_edge) of the scaled parameter T in [0, scale] inside the cell, or None."""
    low, high, along_edge = 0, scale, False
    for a, b in zip(_differences(offset), slopes, strict=True):
        if b == 0:
            if abs(a) > 1:
                return None
            along_edge = along_edge or abs(a) == 1
            continue
        m = scale // b
        x, y = (-1 - a) * m, (1 - a) * m
        low, high = max(low, min(x, y)), min(high, max(x, y))
    return (low, high, along_edge) if high > low else None


def _trace(grid: Grid, start: Cube, end: Cube) -> list[LineStep]:
    if start == end:
        h = grid.on_map_id(start)
        return [LineStep(hexes=(h,) if h else (), along_edge=False, off_map=0 if h else 1)]
    steps: list[LineStep] = []
    for group, along_edge in _shape(end - start):
        ids = sorted(h for h in (grid.on_map_id(start + c) for c in group) if h is not None)
        steps.append(LineStep(hexes=tuple(ids), along_edge=along_edge, off_map=len(group) - len(ids)))
    return steps


Shape = tuple[tuple[tuple[Cube, ...], bool], ...]
_SHAPES: dict[Cube, Shape] = {}


def _shape(direction: Cube) -> Shape:
    """The cells a line from the origin to ``direction`` passes through, relative to the origin, one group per
    step (two cells where it runs along their edge). It is the same for every start, the map applied after: each
    cell's stretch depends only on its offset, and a translation keeps the order of cubes. Worked out once per
    direction (a side's fog traces thousands of lines from a few hundred directions: issue 15)."""
    found = _SHAPES.get(direction)
    if found is None:
        found = _SHAPES[direction] = _compute_shape(direction)
    return found


def _compute_shape(direction: Cube) -> Shape:
    origin = Cube(0, 0, 0)
    slopes = _differences(direction)
    scale = lcm(*(abs(s) for s in slopes if s != 0))
    # Breadth-first over cells whose stretch of the segment has positive length: they form a chain of
    # mutually adjacent cells starting at the origin.
    cells: dict[Cube, tuple[int, int, bool]] = {}
    first = _cell_interval(origin, slopes, scale)
    assert first is not None
    cells[origin] = first
    queue = deque([origin])
    while queue:
        cell = queue.popleft()
        for d in _UNITS:
            nxt = cell + d
            if nxt in cells:
                continue
            interval = _cell_interval(origin - nxt, slopes, scale)
            if interval is not None:
                cells[nxt] = interval
                queue.append(nxt)
    ordered = sorted(cells.items(), key=lambda item: (item[1][0], item[1][1], item[0]))
    groups: list[tuple[tuple[Cube, ...], bool]] = []
    index = 0
    while index < len(ordered):
        cube, (enter, leave, along_edge) = ordered[index]
        group = [cube]
        if along_edge:
            # The other cell of the edge has exactly the same stretch of the line.
            while index + 1 < len(ordered) and ordered[index + 1][1] == (enter, leave, True):
                index += 1
                group.append(ordered[index][0])
        groups.append((tuple(group), along_edge))
        index += 1
    return tuple(groups)
