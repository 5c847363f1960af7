"""Command range on a hex grid: how far a command line traced hex by hex reaches (caldiero §4.3.3,
arrivano §4.4.3)."""

from __future__ import annotations

from collections.abc import Callable

from arbitro.adjudicator.maps.hexgrid import Grid, HexId


def command_distances(grid: Grid, origin: str, radius: int, passable: Callable[[HexId], bool], *,
                      may_cross: Callable[[HexId, HexId], bool] | None = None) -> dict[HexId, int]:
    """Hexes a command line from ``origin`` reaches within ``radius`` hexes, with their distance.

    The line is traced hex by hex (caldiero §4.3.3, arrivano §4.4.3): it may end in any hex, but may
    only continue through hexes ``passable`` accepts (not impassable terrain, not enemy units).
    ``may_cross(a, b)``: whether the line may step from a into b at all (an impassable hexside; in
    Caldiero a hex with enemy units, which the line may not even end in); by default every step.
    """
    start = grid.require(origin)
    reached = {start: 0}
    frontier = [start]
    for distance in range(1, radius + 1):
        nxt: list[HexId] = []
        for h in frontier:
            if h != start and not passable(h):
                continue
            for n in grid.neighbours(h):
                if n not in reached and (may_cross is None or may_cross(h, n)):
                    reached[n] = distance
                    nxt.append(n)
        frontier = sorted(nxt)
    return reached


def in_command_range(grid: Grid, commander: str, unit: str, radius: int, passable: Callable[[HexId], bool]) -> bool:
    """Whether ``unit`` is within ``radius`` hexes of ``commander`` by a traceable command line."""
    return grid.require(unit) in command_distances(grid, commander, radius, passable)
