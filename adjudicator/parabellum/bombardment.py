"""Bombardment (caldiero §11.2-§11.4.4, arrivano §11.2-§11.4.3).

Range and targets: how far a gun fires (its range, sight, the weather's limit) and the enemy-occupied hexes a
battery (or batteries stacked together, at the shortest of their ranges, caldiero §11.4.1 / arrivano §11.4.1) may
fire at: in range, in line of sight, a target under the variant's rules (D15b: a hex of artillery alone is no
target in arrivano §11.4.3; caldiero has no such rule). What a gun's range is, what the weather allows and where no
fire enters are the World's answers.
The fire (`fire`): a column per bombardment value, die modifiers for range, the target's terrain, the strength points
in the target hex and firing uphill (each a value of the game's tables: caldiero's climb is -1, arrivano's 0), the
modified die kept within the rows, the commanders a natural 6 makes test. What a result does ('D' disorders every
non-artillery unit in the hex, 'R' also retreats the stack one hex, §11.4, §11.1 in both) is each game's: arrivano's
guns may follow the retreat and its redoubt batteries take damage (§11.1, §17.2.6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arbitro.adjudicator.parabellum import sight
from arbitro.adjudicator.parabellum.data import BombardmentTable, BombardResult, SpDrm
from arbitro.adjudicator.parabellum.act import Act, refuse
from arbitro.adjudicator.parabellum.leaders import leader_test
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.tables import halved
from arbitro.events.parabellum import ArtilleryFired, DieModifier


def fire_range(w: World, u: str) -> int:
    """How far the gun fires now: its range (§11.2 in both; `World.artillery_range`), never beyond sight (§11.3 in
    both: a target must be in line of sight) nor the weather's limit (caldiero §17.1.1, arrivano §17.2.7)."""
    reach = min(w.artillery_range(u), w.sight_range())
    cap = w.weather_range_cap()
    return reach if cap is None else min(reach, cap)


def weather_silences(w: World) -> None:
    """Refuse a bombardment where the weather box in force silences every gun (its data's `artillery_fires`: caldiero
    §17.1.2-§17.1.3, arrivano §17.2.7 "Le artiglierie non sparano"), citing the box's rule and naming it: the one
    check for both books (Arrivano refused it as guns that could not fire together, the weather unnamed)."""
    box = w.weather_box()
    if box is not None and not box.artillery_fires:
        refuse(box.rule, f"artillery cannot fire in this weather: {box.name} ({box.rule})")


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
    distance = w.grid.distance  # the enemy's hexes within reach are the only ones a target may be in
    return [h for h in sorted(w.hexes_held(w.enemy(side))) if h != origin and distance(origin, h) <= reach
            and not w.no_fire_into(h)
            and (variant.bombard_artillery_alone or any(w.arm(u) != "artillery" for u in w.units_at(h)
                                                        if w.side_of(u) != side))
            and sight.sees(w, origin, h, reach)]


def defensive_targets(variant: Variant, w: World, guns: Sequence[str], attacker_hexes: Sequence[str]) -> list[tuple[str, str]]:
    """Each gun of an assaulted hex with each attacking hex it may bombard before the assault, gun order then hex
    order (caldiero §11.4.5, arrivano §11.4.4: "uno degli esagoni dove sono presenti unità attaccanti"): an
    attacking hex among the gun's `targets`."""
    hexes = sorted(set(attacker_hexes))
    return [(g, h) for g in guns for h in hexes if h in targets(variant, w, [g])]


def ready(w: World, guns: Sequence[str]) -> list[str]:
    """The guns of a defensive fire still able to fire: on the map, not on their Moved side (caldiero §11.4.5,
    arrivano §11.4.4)."""
    return [u for u in guns if w.on_map(u) and not w.state.units[u].art_moved]


def defensive_hexes(variant: Variant, w: World, guns: Sequence[str], attackers: Sequence[str]) -> list[str]:
    """The attacking hexes (of `attackers`) a ready gun of `guns` may bombard before the assault, in hex order."""
    hexes = [w.state.units[u].hex for u in attackers]
    return sorted({h for _, h in defensive_targets(variant, w, ready(w, guns), hexes)})


def defensive_fire_answers(variant: Variant, w: World, battery: Sequence[str], per_stack: bool) -> list[dict[str, str]]:
    """The fires the defender may answer an assault with (commands.DefensiveFire; the refusal is each game's): a
    `ready` gun of `battery` and a hex of its own where an attacker of the assault in progress now stands
    (`World.assault`, read live: a retreat made above the fire moves them), caldiero §11.4.5, arrivano §11.4.4 reading
    `each_gun`; or `per_stack` an attacking hex for the stack's one fire, no gun named (reading `one_target`)."""
    hexes = [h for u in w.assault().attackers if (h := w.hex_of(u))]
    fire = defensive_targets(variant, w, ready(w, battery), hexes)
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
    row = table.row(modified)
    return row, table.rows[str(row)][str(column)]


def fire_value(w: World, guns: Sequence[str]) -> int:
    """The column a fire reads before the table's limit: the guns' bombardment values added (§11.4.1 in both: guns
    stacked together combine), halved in a weather box that says so, rounded as it says (caldiero §17.1.1, up by
    §1.4)."""
    value = sum(w.counters.unit(g).bombard or 0 for g in guns)
    box = w.weather_box()
    return halved(value, box.bombard_halved if box is not None else None)


def fire_modifiers(variant: Variant, w: World, origin: str, target: str, odds: FireOdds) -> list[DieModifier]:
    """The die modifiers of a fire from `origin` at `target` (caldiero §11.4.4, arrivano §11.4.3), each with its
    rule: the range's; the target's terrain, the best for the defender among the hex's terrains (arrivano §10: he
    picks; a caldiero hex has one); the strength points in the target hex; firing up a level (the tables' climb:
    caldiero -1, arrivano 0). A modifier of 0 is left out, the range's never."""
    rules = variant.rules
    out = [DieModifier(reason=f"range {odds.distance} ({rules.ARTILLERY_RANGE})", value=odds.range_drm)]
    terrain = min(t.bombard_drm for t in w.terrains(target))
    if terrain:
        out.append(DieModifier(reason=f"terrain of {target} ({rules.BOMBARD_TABLE})", value=terrain))
    if odds.band is not None and odds.band.drm:
        out.append(DieModifier(reason=f"{odds.target_sp} SP in the target hex ({rules.BOMBARD_TABLE})", value=odds.band.drm))
    climb = w.terrain_table.climb.bombard_drm
    if climb and w.elevation(target) > w.elevation(origin):
        out.append(DieModifier(reason=f"firing uphill ({rules.BOMBARD_TABLE})", value=climb))
    return out


def fire(game: Act, variant: Variant, table: BombardmentTable, guns: Sequence[str], target: str,
         defensive: bool) -> ArtilleryFired:
    """One bombardment by `guns` (one, or stacked together) at `target` (§11.4 in both; `defensive`: in an enemy
    assault, caldiero §11.4.5, arrivano §11.4.4): the table read with its modifiers (`fire_value`,
    `fire_modifiers`), the event, then on a natural 6 the enemy commanders in the target hex test (caldiero §4.4.1,
    arrivano §4.5.1: the attacker's unmodified 6; whether a defensive fire's 6 counts is the variant's reading,
    `bombard_six_tests_leaders`). Returns the event: what its result does is the game's."""
    w = game.world()
    origin = w.hex_of(guns[0]) or ""
    odds = fire_odds(w, table, origin, target, fire_value(w, guns))
    modifiers = fire_modifiers(variant, w, origin, target, odds)
    drm = sum(m.value for m in modifiers)
    die = game.fire_die(guns, target, odds.column, modifiers, defensive)
    row, result = fire_result(table, odds.column, die + drm)
    rules = variant.rules
    fired = ArtilleryFired(artillery=tuple(sorted(guns)), target=target, result=result, column=odds.column, roll=die,
                           drm=drm, row=row, modifiers=tuple(modifiers), defensive=defensive,
                           provisional=table.meta.provisional,
                           rule=str(rules.DEFENSIVE_FIRE if defensive else rules.BOMBARDMENT))
    game.emit(fired)
    if die == 6 and variant.bombard_six_tests_leaders(defensive, w.reading):
        side = w.side_of(guns[0])
        for leader in game.world().leaders_at(target, w.enemy(side)):
            leader_test(game, game.world(), leader, f"{rules.LEADER_SIX} a natural 6 in the bombardment of {target}")
    return fired
