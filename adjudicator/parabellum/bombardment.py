"""Bombardment (caldiero §11.2-§11.4.4, arrivano §11.2-§11.4.3).

Range and targets: how far a gun fires (its range, sight, the weather's limit) and the enemy-occupied hexes a
battery (or batteries stacked together, at the shortest of their ranges, caldiero §11.4.1 / arrivano §11.4.1) may
fire at: in range, in line of sight, a target under the variant's rules (D15b: a hex of artillery alone is no
target in arrivano §11.4.3; caldiero has no such rule). What a gun's range is, what the weather allows and where no
fire enters are the World's answers.
The table: a column per bombardment value, die modifiers for range and for the strength points in the target hex
(the terrain's is each game's terrain table; caldiero adds firing uphill), the modified die kept within the rows;
'D' disorders every non-artillery unit in the hex, 'R' also retreats the stack one hex (§11.4, §11.1 in both)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arbitro.adjudicator.parabellum import sight
from arbitro.adjudicator.parabellum.data import BombardmentTable, BombardResult, SpDrm
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World


def fire_range(w: World, u: str) -> int:
    """How far the gun fires now: its range (§11.2 in both; `World.artillery_range`), never beyond sight (§11.3 in
    both: a target must be in line of sight) nor the weather's limit (caldiero §17.1.1, arrivano §17.2.7)."""
    reach = min(w.artillery_range(u), w.sight_range())
    cap = w.weather_range_cap()
    return reach if cap is None else min(reach, cap)


def targets(variant: Variant, w: World, artillery: Sequence[str]) -> list[str]:
    """The hexes the guns (one, or several stacked together: caldiero §11.4.1, arrivano §11.4.1) may bombard, in hex
    order: within the shortest of their ranges and in sight (§11.2-§11.3 in both), holding enemy units, not closed
    to fire (caldiero §10.2: marsh), not artillery alone where the variant forbids it (D15b); none while the
    weather silences every gun (caldiero §17.1.2-§17.1.3, arrivano §17.2.7)."""
    if not artillery or not w.artillery_fires():
        return []
    origin = w.hex_of(artillery[0])
    if origin is None:
        return []
    side = w.side_of(artillery[0])
    reach = min(fire_range(w, u) for u in artillery)
    out = []
    for h in w.grid.within(origin, reach):
        arms = [w.arm(u) for u in w.units_at(h) if w.side_of(u) != side]
        if h == origin or not arms or w.no_fire_into(h):
            continue
        if not variant.bombard_artillery_alone and all(a == "artillery" for a in arms):
            continue
        if sight.sees(w, origin, h, reach):
            out.append(h)
    return sorted(out)


def defensive_targets(variant: Variant, w: World, guns: Sequence[str], attacker_hexes: Sequence[str]) -> list[tuple[str, str]]:
    """Each gun of an assaulted hex with each attacking hex it may bombard before the assault, gun order then hex
    order (caldiero §11.4.5, arrivano §11.4.4: "uno degli esagoni dove sono presenti unità attaccanti"): an
    attacking hex among the gun's `targets`."""
    hexes = sorted(set(attacker_hexes))
    return [(g, h) for g in guns for h in hexes if h in targets(variant, w, [g])]


def defensive_fire_answers(variant: Variant, w: World, guns: Sequence[str], attacker_hexes: Sequence[str],
                           per_stack: bool) -> list[dict[str, str]]:
    """The fires the defender may answer an assault with (commands.DefensiveFire; the refusal is each game's):
    a gun and an attacking hex of its own (caldiero §11.4.5; arrivano §11.4.4 reading `each_gun`), or `per_stack`
    an attacking hex for the stack's one fire, no gun named (arrivano §11.4.4 reading `one_target`)."""
    fire = defensive_targets(variant, w, guns, attacker_hexes)
    if per_stack:
        return [{"type": "defensive_fire", "target": h} for h in sorted({h for _, h in fire})]
    return [{"type": "defensive_fire", "artillery": g, "target": h} for g, h in fire]


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
