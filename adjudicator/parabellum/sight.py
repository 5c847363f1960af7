"""Line of sight (caldiero §11.3-§11.3.1, arrivano §11.3-§11.3.1), traced exactly by the map kit's
`maps.sight.line_of_sight`: a line is blocked by blocking terrain between the ends and by ground higher than both
ends; along a hexside only if both hexes block. Whether units block is the variant's data (D18: they do in caldiero
§11.3.1, never in arrivano §11.3.1); which terrain blocks is each game's terrain table."""

from __future__ import annotations

from collections.abc import Callable

from arbitro.adjudicator.maps.hexgrid import Grid, HexId
from arbitro.adjudicator.maps.sight import line_of_sight
from arbitro.adjudicator.parabellum.variant import Variant


def clear_line(variant: Variant, grid: Grid, a: str, b: str, elevation: Callable[[str], int],
               blocking_terrain: Callable[[HexId], bool], occupied: Callable[[HexId], bool]) -> bool:
    """Whether nothing between a and b blocks the line (range is the caller's: it differs per scenario)."""
    top = max(elevation(a), elevation(b))
    units_block = variant.units_block_sight

    def blocks(h: HexId) -> bool:
        return blocking_terrain(h) or elevation(h) > top or (units_block and occupied(h))

    return line_of_sight(grid, a, b, blocks).clear
