"""Bombardment (caldiero §11.2-§11.4.4, arrivano §11.2-§11.4.3).

Targets: the enemy-occupied hexes a battery (or batteries stacked together, at the shortest of their ranges,
caldiero §11.4.1 / arrivano §11.4.1) may fire at: in range, in line of sight, a target under the variant's rules
(D15b: a hex of artillery alone is no target in arrivano §11.4.3; caldiero has no such rule).
The table: a column per bombardment value, die modifiers for range and for the strength points in the target hex
(the terrain's is each game's terrain table; caldiero adds firing uphill), the modified die kept within the rows;
'D' disorders every non-artillery unit in the hex, 'R' also retreats the stack one hex (§11.4, §11.1 in both)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from arbitro.adjudicator.maps.hexgrid import Grid, HexId
from arbitro.adjudicator.parabellum.data import BombardmentTable, BombardResult, SpDrm
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World


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


@dataclass(frozen=True)
class FireOdds:
    """What the bombardment table is read with, as far as the two books share it."""

    column: int  # the combined bombardment value within the table's columns (§11.4.1 in both)
    distance: int
    range_drm: int
    target_sp: int  # strength points of the non-artillery units in the target hex (caldiero §11.0.1)
    band: SpDrm | None  # the concentration band the target's SP fall in, if any

    @property
    def drm(self) -> int:
        """The shared modifiers' total (range and concentration)."""
        return self.range_drm + (self.band.drm if self.band is not None else 0)


def fire_odds(w: World, table: BombardmentTable, origin: str, target: str, value: int) -> FireOdds:
    """The column for bombardment value `value` and the range and concentration modifiers for fire from `origin`
    at `target` (caldiero §11.4.4, arrivano §11.4.3: the table's own rows). A distance beyond the table's listed
    ranges (never reached: both games' sight ranges are within them) takes the farthest band's modifier."""
    distance = w.grid.distance(origin, target)
    range_drm = table.range_drm.get(str(distance), min(table.range_drm.values()))
    sp = sum(w.strength(u) for u in hit(w, target))
    band = next((b for b in table.concentration_drm if sp >= b.min_sp), None)
    return FireOdds(max(1, min(table.max_column, value)), distance, range_drm, sp, band)


def hit(w: World, target: str) -> list[str]:
    """The units a bombardment result strikes (disorder, retreat): those in the hex but its artillery (caldiero
    §11.0.1, arrivano §11.4.3), in id order."""
    return [u for u in w.units_at(target) if not w.is_artillery(u)]


def fire_result(table: BombardmentTable, column: int, modified: int) -> tuple[int, BombardResult]:
    """The row read (the modified die kept within the table's rows) and its result in `column`."""
    low, high = table.roll_range()
    row = max(low, min(high, modified))
    return row, table.rows[str(row)][str(column)]
