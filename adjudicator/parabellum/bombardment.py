"""Bombardment targets (caldiero §11.2-§11.4, arrivano §11.2-§11.4.3): the enemy-occupied hexes a battery (or
batteries stacked together, at the shortest of their ranges, caldiero §11.4.1 / arrivano §11.4.1) may fire at:
in range, in line of sight, a target under the variant's rules (D15b: a hex of artillery alone is no target in
arrivano §11.4.3; caldiero has no such rule)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arbitro.adjudicator.maps.hexgrid import Grid, HexId
from arbitro.adjudicator.parabellum.variant import Variant


def targets(variant: Variant, grid: Grid, origin: str, reach: int, enemy_arms: Callable[[HexId], Sequence[str]],
            in_sight: Callable[[HexId], bool], closed: Callable[[HexId], bool] = lambda h: False) -> list[HexId]:
    """The hexes within `reach` of `origin`, in hex order, holding enemy units (`enemy_arms`: their arms) that
    may be bombarded: not `closed` to fire (caldiero §10.2: marsh), not artillery alone where the variant
    forbids it, and `in_sight` (line of sight and the variant's sight range)."""
    out = []
    for h in grid.within(origin, reach):
        arms = enemy_arms(h)
        if h == origin or not arms or closed(h):
            continue
        if not variant.bombard_artillery_alone and all(a == "artillery" for a in arms):
            continue
        if in_sight(h):
            out.append(h)
    return sorted(out)
