"""Retreat paths on a hex grid, ranked as both Para Bellum rulebooks rank them (caldiero §12.6, arrivano §12.6)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import cast

from arbitro.adjudicator.maps.hexgrid import Grid, HexId


@dataclass(frozen=True, slots=True)
class RetreatOption:
    """A retreat path and how it ends relative to the enemy."""

    path: tuple[HexId, ...]
    """Hexes entered, in order (the starting hex excluded)."""
    nearest_enemy: int
    """Distance from the end hex to the nearest enemy unit."""
    farther_from_all: bool
    """True if the end hex is farther than the start from every enemy unit."""

    @property
    def end(self) -> HexId:
        return self.path[-1]


def retreat_options(
    grid: Grid,
    start: str,
    enemies: Iterable[str],
    *,
    hexes: int = 1,
    can_enter: Callable[[HexId], bool] | None = None,
) -> tuple[RetreatOption, ...]:
    """Every retreat of exactly ``hexes`` steps through enterable hexes, best first.

    Ranking (caldiero §12.6, arrivano §12.6: end farther from all enemy units if possible): first the
    options ending farther from every enemy than the start, then by distance to the nearest enemy
    (larger first), then by path (hex ids ascending) so the order is fully deterministic. The owner
    still chooses (caldiero §12.6); :func:`best_retreats` keeps only the top-ranked ones.
    """
    origin = grid.require(start)
    found: list[tuple[HexId, ...]] = []

    def extend(path: tuple[HexId, ...]) -> None:
        if len(path) == hexes:
            found.append(path)
            return
        here = path[-1] if path else origin
        for n in grid.neighbours(here):
            if n == origin or n in path or (can_enter is not None and not can_enter(n)):
                continue
            extend((*path, n))

    if hexes > 0:
        extend(())
    return ranked(grid, origin, enemies, found)


def ranked(grid: Grid, start: str, enemies: Iterable[str], paths: Iterable[tuple[str, ...]]) -> tuple[RetreatOption, ...]:
    """`paths` from `start` (each the hexes entered) ranked as :func:`retreat_options` ranks its own, best first (a
    path built otherwise: the §12.6.2 continuations, parabellum/retreat.py). Each end hex's rank is worked out once:
    the paths share their ends, and the start's distances are the same for all (issue 15: `grid.distance` was asked
    three times a path and enemy)."""
    enemy_hexes = sorted(set(enemies))
    from_start = [grid.distance(start, e) for e in enemy_hexes]
    ranks: dict[str, tuple[int, bool]] = {}

    def rank(end: str) -> tuple[int, bool]:
        found = ranks.get(end)
        if found is None:
            away = [grid.distance(end, e) for e in enemy_hexes]
            found = ranks[end] = (min(away, default=0), all(d > s for d, s in zip(away, from_start)))
        return found

    options = [RetreatOption(cast("tuple[HexId, ...]", tuple(p)), *rank(p[-1])) for p in paths]  # ids: HexId's are str
    return tuple(sorted(options, key=lambda o: (not o.farther_from_all, -o.nearest_enemy, o.path)))


def best_retreats(options: tuple[RetreatOption, ...]) -> tuple[RetreatOption, ...]:
    """The options tied for the best rank (same ``farther_from_all`` and ``nearest_enemy`` as the first)."""
    if not options:
        return ()
    top = (options[0].farther_from_all, options[0].nearest_enemy)
    return tuple(o for o in options if (o.farther_from_all, o.nearest_enemy) == top)
