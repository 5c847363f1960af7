"""Retreats (caldiero §12.6, §15.2.1; arrivano §12.6): which paths a retreating unit may take.

Each hex of the retreat must be, if possible, farther from every enemy unit and outside enemy ZoC; an
EZoC hex only when nothing else is possible (one more disorder level, §12.6.1); a retreat ending
overstacked goes on one more hex (§12.6.2). No path at all: the unit is eliminated (§12.6.3, §12.8.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from arbitro.adjudicator.caldiero.system_movement import stack_problem
from arbitro.adjudicator.caldiero.system_world import World
from arbitro.adjudicator.caldiero.system_zoc import enemy_zoc
from arbitro.projections.caldiero import enemy_of

MAX_EXTRA = 3  # overstack extensions considered (§12.6.2)


@dataclass(frozen=True)
class RetreatPath:
    path: tuple[str, ...]
    through_ezoc: bool


def _enemy_distance(world: World, h: str, side: str, enemies: set[str]) -> int:
    return min((world.board.distance(h, e) for e in enemies), default=99)


def _candidates(world: World, u: str, h: str, side: str, enemies: set[str], ezoc: frozenset[str],
                visited: tuple[str, ...]) -> list[tuple[int, str]]:
    """Next hexes with their tier (0 best: farther and free of EZoC; 1: free of EZoC; 2: EZoC)."""
    out = []
    here = _enemy_distance(world, h, side, enemies)
    for n in world.board.neighbours(h):
        if n in visited or world.board.crossing_prohibited(h, n) or n in enemies:
            continue
        if world.hooks is not None and world.hooks.entry_problem(world, side, n):
            continue
        if n in ezoc:
            tier = 2
        elif _enemy_distance(world, n, side, enemies) > here:
            tier = 0
        else:
            tier = 1
        out.append((tier, n))
    return out


def retreat_paths(world: World, u: str, hexes: int) -> list[RetreatPath]:
    """Every legal retreat path of `hexes` hexes (longer where overstacking forces it)."""
    unit = world.state.units[u]
    side = unit.side
    start = unit.hex
    if start is None:
        return []
    enemies = world.occupied_by(enemy_of(side))
    ezoc = frozenset() if unit.status == "routed" else enemy_zoc(world, side)  # caldiero §8.1.1
    results: list[RetreatPath] = []

    def extend(path: tuple[str, ...], remaining: int, extra: int) -> None:
        h = path[-1] if path else start
        options = _candidates(world, u, h, side, enemies, ezoc, (start, *path))
        if not options:
            return
        best_tier = min(t for t, _ in options)
        for tier, n in sorted(options):
            if tier != best_tier:
                continue
            new = path + (n,)
            if remaining > 1:
                extend(new, remaining - 1, extra)
                continue
            friends = [x for x in world.side_units_at(n, side) if x != u]
            if stack_problem(world, friends + [u]) is None:
                results.append(RetreatPath(new, any(x in ezoc for x in new)))
            elif extra < MAX_EXTRA:
                extend(new, 1, extra + 1)  # §12.6.2

    extend((), hexes, 0)
    return sorted(results, key=lambda r: r.path)


def off_map_edge(world: World, u: str) -> bool:
    h = world.state.units[u].hex
    return h is not None and world.board.is_edge(h)
