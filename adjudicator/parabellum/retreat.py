"""Retreats (caldiero §12.6-§12.6.3, §12.8.1; arrivano §12.6-§12.6.3, §12.8.1): the lines a retreating stack may
take, as the two books' readings of §12.6 build them.

Both books say the same words: each hex of the retreat farther from every enemy unit if possible (§12.6), an enemy
ZoC hex only when nothing else is possible and then one more disorder level (§12.6.1), a retreat ending overstacked
going on (§12.6.2), no retreat at all eliminating the unit (§12.6.3), leaving the map eliminating it too (§12.8.1).
The games read "farther if possible" differently, and their recorded games depend on it (docs/rulesets/arrivano.md
§0, catalogue D34): `hex_by_hex` (caldiero: each step takes the best tier of its neighbours) and `by_end` (arrivano:
whole paths ranked by where they end). A variant chooses through its `retreat_lines` hook (variant.py); the
position comes in as a `Ground`, built by each game from its World.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from arbitro.adjudicator.maps.hexgrid import Grid
from arbitro.adjudicator.maps.retreat import RetreatOption, best_retreats, ranked, retreat_options

HEX_BY_HEX_EXTRA = 3
"""§12.6.2 continuations searched by `hex_by_hex` past an overstacked end."""
BY_END_EXTRA = 6
"""§12.6.2 continuation searched by `by_end` up to this many extra hexes; beyond it (never on the scenario maps,
where a hex with room is always nearer) the last ends are accepted overstacked rather than eliminating the unit."""


@dataclass(frozen=True)
class Line:
    """One permitted line of retreat."""

    path: tuple[str, ...]
    """Map hexes entered, in order, the start excluded (empty: leaving the map from the start hex)."""
    to: str
    """The hex where it ends on the map; for an exit, the map-edge hex it leaves from."""
    off_map: bool = False
    """It leaves the map after `to` (§12.8.1)."""
    continued: int = 0
    """Hexes added because the ends overstacked (§12.6.2)."""
    through_ezoc: bool = False
    """It enters an enemy ZoC hex that counts (§12.6.1: one more disorder level)."""


@dataclass(frozen=True)
class Ground:
    """What a retreat asks of the position, for one stack of one side (each game builds it from its World)."""

    grid: Grid
    start: str
    enemies: tuple[str, ...]
    """The hexes held by enemy units, in hex order."""
    ezoc: frozenset[str]
    """The enemy ZoC hexes that count for this retreat (empty: ignored, as for routed units)."""
    enterable: Callable[[str], bool]
    """Whether the stack may retreat into a hex (not enemy-held; a side's forbidden hexes)."""
    fits: Callable[[str], bool]
    """Whether the stack may end in a hex (stacking, §7 in both books)."""
    crossable: Callable[[str, str], bool] = lambda a, b: True
    """Whether a step may cross the hexside between two hexes (caldiero's prohibited hexsides)."""
    may_leave: bool = True
    """Whether the retreat may leave the map (§12.8.1); a retreat by the owner's choice may not."""

    def through_ezoc(self, path: tuple[str, ...]) -> bool:
        return any(h in self.ezoc for h in path)

    def nearest_enemy(self, h: str) -> int:
        return min((self.grid.distance(h, e) for e in self.enemies), default=99)


# --- caldiero's reading: hex by hex ---------------------------------------------------------------------------


def hex_by_hex(g: Ground, hexes: int) -> list[Line]:
    """Every path of `hexes` hexes each of whose steps takes the best tier among the neighbours of the hex it
    leaves: farther from the nearest enemy and free of EZoC; free of EZoC; EZoC (caldiero §12.6, §12.6.1). A path
    ending where the stack does not fit goes on one hex (caldiero §12.6.2), at most HEX_BY_HEX_EXTRA times.
    None: the stack has no retreat (§12.6.3); off the map is the caller's (§12.8.1). Sorted by path."""
    results: list[Line] = []

    def steps(h: str, visited: tuple[str, ...]) -> list[tuple[int, str]]:
        here = g.nearest_enemy(h)
        out = []
        for n in g.grid.neighbours(h):
            if n in visited or not g.crossable(h, n) or n in g.enemies or not g.enterable(n):
                continue
            out.append((2 if n in g.ezoc else 0 if g.nearest_enemy(n) > here else 1, n))
        return out

    def extend(path: tuple[str, ...], remaining: int, extra: int) -> None:
        options = steps(path[-1] if path else g.start, (g.start, *path))
        if not options:
            return
        best = min(t for t, _ in options)
        for tier, n in sorted(options):
            if tier != best:
                continue
            new = path + (n,)
            if remaining > 1:
                extend(new, remaining - 1, extra)
            elif g.fits(n):
                results.append(Line(new, n, continued=extra, through_ezoc=g.through_ezoc(new)))
            elif extra < HEX_BY_HEX_EXTRA:
                extend(new, 1, extra + 1)  # §12.6.2

    extend((), hexes, 0)
    return sorted(results, key=lambda r: r.path)


# --- arrivano's reading: by the end hex ------------------------------------------------------------------------


def by_end(g: Ground, hexes: int, leaving_is_farthest: bool) -> list[Line]:
    """The lines of `hexes` hexes ranked by their end (maps.retreat.retreat_options: ending farther from every enemy
    if possible, then farthest from the nearest), narrowed to ends where the stack fits (continuing past
    overstacked ones, §12.6.2), then to EZoC-free lines if any (§12.6.1); one line per end hex, the owner choosing
    among them (arrivano §12.6). Off the map (§12.8.1): with `leaving_is_farthest` an exit, when one exists, is the
    only permitted retreat (unless it crosses EZoC and a clean line stays on the map); otherwise only when no line
    of the full length stays on the map. Sorted by end hex."""
    opts = list(retreat_options(g.grid, g.start, g.enemies, hexes=hexes, can_enter=g.enterable))
    exits = _exits(g, hexes) if g.may_leave else []
    if exits and leaving_is_farthest:
        if not exits[0].through_ezoc or all(g.through_ezoc(o.path) for o in opts):
            return exits
    if opts:
        found = _on_map(g, opts)
        return found if g.may_leave else [ln for ln in found if not ln.off_map]
    return exits


def _exits(g: Ground, hexes: int) -> list[Line]:
    """Ways off the map: a map-edge hex reached in fewer than `hexes` hexes (the start itself if on the edge);
    those avoiding EZoC if any (§12.6.1); one per edge hex."""
    found: list[tuple[str, ...]] = [()] if g.grid.is_edge(g.start) else []
    for k in range(1, hexes):
        found += [o.path for o in retreat_options(g.grid, g.start, [], hexes=k, can_enter=g.enterable)
                  if g.grid.is_edge(o.end)]
    pool = [p for p in found if not g.through_ezoc(p)] or found
    out: dict[str, Line] = {}
    for p in sorted(pool, key=lambda p: (len(p), p)):
        to = p[-1] if p else g.start
        out.setdefault(to, Line(path=tuple(p), to=to, off_map=True, through_ezoc=g.through_ezoc(p)))
    return [out[h] for h in sorted(out)]


def _on_map(g: Ground, opts: list[RetreatOption]) -> list[Line]:
    def chosen(pool: list[RetreatOption]) -> tuple[RetreatOption, ...]:
        return best_retreats(tuple(o for o in pool if not g.through_ezoc(o.path)) or tuple(pool))

    pool, extra = opts, 0
    while True:
        fitting = [o for o in pool if g.fits(o.end)]
        if fitting or extra >= BY_END_EXTRA:
            return [_line(g, o, extra) for o in _one_per_end(chosen(fitting or pool))]
        # §12.6.2: no possible end fits: go on one more hex from the ends the retreat would take
        ends = chosen(pool)
        longer = [(*o.path, nb) for o in ends for nb in g.grid.neighbours(o.end)
                  if nb != g.start and nb not in o.path and g.enterable(nb)]
        if not longer:  # nowhere further on the map: off it from an edge end (§12.8.1), else none (§12.6.3)
            return [_line(g, o, extra, off_map=True) for o in _one_per_end(ends) if g.grid.is_edge(o.end)]
        pool, extra = list(ranked(g.grid, g.start, g.enemies, longer)), extra + 1  # as retreat_options ranks


def _line(g: Ground, o: RetreatOption, extra: int, off_map: bool = False) -> Line:
    path = tuple(o.path)
    return Line(path=path, to=o.end, off_map=off_map, continued=extra, through_ezoc=g.through_ezoc(path))


def _one_per_end(opts: tuple[RetreatOption, ...]) -> list[RetreatOption]:
    seen: dict[str, RetreatOption] = {}
    for o in opts:
        seen.setdefault(o.end, o)
    return [seen[h] for h in sorted(seen)]
