"""Caldiero 1796 as a variant of the Para Bellum kernel (adjudicator/parabellum/variant.py): its values and
hook overrides, each with its citation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Literal

from arbitro.adjudicator.caldiero import ground, map_rules
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.loader import FLANKS, CaldieroBox, MinorRoadColumn, WeatherTable
from arbitro.adjudicator.maps.costs import MovementTable, RoadCost, RoadRule
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum import efficiency, exchange, sight
from arbitro.adjudicator.parabellum.chief_limits import ChiefLimit
from arbitro.adjudicator.parabellum.rules import Rulebook, read_rulebook
from arbitro.adjudicator.parabellum.variant import Reading, Rolls, Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum.zoc import exerts_zoc
from arbitro.adjudicator.ruleset import Rule
from arbitro.adjudicator.tables import Modifier, halved
from arbitro.events import caldiero as ev
from arbitro.events.parabellum import DieModifier


class CaldieroVariant(Variant):
    book: ClassVar[str] = "caldiero"
    rules: ClassVar[Rulebook] = read_rulebook(Path(__file__).with_name("rulebook.json"))  # the book's sections
    crt_name: ClassVar[str] = "caldiero_crt"
    units_block_sight: ClassVar[bool] = True  # caldiero §11.3.1: hexes holding units block (D18)
    # caldiero §6.2: with one formation left nobody has a choice to win, so it is activated without a roll
    roll_for_last_formation: ClassVar[bool] = False
    escape_through_ezoc: ClassVar[bool] = True  # caldiero §8.2.3: captured only when surrounded by enemy units (D12)
    path_tie_break: ClassVar[Literal["first", "path"]] = "path"  # the paths its recorded games keep (§9.1)
    entry_hex_is_first_step: ClassVar[bool] = True  # caldiero §15.4: entering, the entry hex is the move's first hex
    closes_hexes: ClassVar[bool] = True  # caldiero §9.2.1: the Austrians never enter the 10xx row (`closed_to`)
    commander_class: ClassVar[str] = "unit"  # caldiero's terrain effects table: one class, every arm alike (D31)
    fog_option: ClassVar[str | None] = "fog_of_war"  # caldiero §20.4: an optional rule
    command_as_activated: ClassVar[bool] = True  # caldiero §5.3.1: out of command as found at activation (D8)

    def fog_reach(self, w: World) -> int:
        """caldiero §20.4.1: the line of sight's hexes less the turn's weather box's `fog_reach_less`."""
        return max(0, w.sight_range() - box_in_force(w).fog_reach_less)

    def dice_record(self, state: Any, purpose: str, detail: dict[str, str | int]) -> tuple[str, dict[str, str | int]]:
        """caldiero §20.4: with fog of war a roll's words name no unit, only its arm, so the public roll log hides
        the stack."""
        if self.fog_option in state.options:
            detail = {k: _anonymous(v, state) for k, v in detail.items()}
            purpose = str(_anonymous(purpose, state))
        return purpose, detail

    def sightings(self, w: World, event: Any) -> list[Any]:
        """caldiero §20.4: with fog of war, after an event that can change what a seat sees, the enemy units each seat
        examines for the first time (PiecesSighted; commanders' names are public, so only units)."""
        if self.fog_option not in w.state.options or not isinstance(event, SIGHT_EVENTS):
            return []
        return sight.sightings(w, str(self.rules.FOG), self.fog_reach(w), commanders=False)

    def initiative_values(self, w: World) -> dict[str, int]:
        """caldiero §6.1: the French the scenario's value, the Austrians the weather box's `austrian_initiative`."""
        return {"france": w.scenario.french_initiative, "austria": box_in_force(w).austrian_initiative}

    def initiative_rolls(self, values: Mapping[str, int]) -> list[tuple[str, dict[str, str | int], tuple[str, ...]]]:
        """caldiero §6.1: one roll of both dice, the French first."""
        return [(f"{self.rules.INITIATIVE} initiative", {"france": f"1d6+{values['france']}",
                 "austria": f"1d6+{values['austria']} (weather box)"}, ("france", "austria"))]

    def leader_roll(self, w: World, leader: str, cause: str) -> tuple[str, dict[str, str | int]]:
        """caldiero §4.4.3: the die against his initiative (a commander in chief's: 1, the book's `leader_loss`)."""
        value = w.book_rules.leader_loss.limit(w.leader_role(leader), w.leader_initiative(leader))
        return f"{self.rules.LEADER_TEST} {leader} test", {"test": "roll > initiative", "initiative": value, "cause": cause}

    def fire_roll(self, w: World, guns: Sequence[str], target: str, column: int, modifiers: Sequence[DieModifier],
                  defensive: bool) -> tuple[str, dict[str, str | int], tuple[str, ...]]:
        """caldiero §11.4.4 (§11.4.5 defensive fire): the provisional table's column and each modifier named."""
        wording = "; ".join(f"{m.reason}: {m.value:+d}" for m in modifiers) or "none"
        rule = self.rules.DEFENSIVE_FIRE if defensive else self.rules.BOMBARD_TABLE
        return (f"{rule} bombardment of {target}", {"table": "bombardment (provisional)", "column": column,
                "modifiers": wording, "drm": sum(m.value for m in modifiers)},
                (target, *(w.state.units[u].hex for u in guns)))

    def bonus_reach(self, world: World, h: str) -> tuple[str, ...]:
        """caldiero §13.2: the general "nel suo esagono o in quello adiacente"."""
        return (h, *sorted(world.grid.neighbours(h))) if world.grid.contains(h) else (h,)

    def commander_value_bonus(self, world: World, u: str) -> int:
        """caldiero §13.2: the unit's own general in or next to its hex adds his initiative to its value (D9)."""
        general = world.general_of(u)
        where, h = world.leader_on_map(general), world.hex_of(u)
        if general is None or where is None or h is None:
            return 0
        return world.leader_initiative(general) if where == h or world.grid.is_adjacent(where, h) else 0

    def combat_sp(self, w: World, u: str, attacking: bool, defenders: Sequence[str], targets: Sequence[str]) -> int:
        """caldiero §14, §20.2 (D27-D28): attacking cavalry doubles, never twice, when charging or when every defender
        is infantry demoralised (interpretation `demoralised`: routed, or disordered too) in the plain; the scenario's
        own adjustment after that (map_rules.attack_strength: §20.3.1 the storm from the east)."""
        value = w.strength(u)
        if not attacking:
            return value
        demoralised = {"disordered", "routed"} if w.reading("demoralised") == "disordered_or_routed" else {"routed"}
        bonus = bool(defenders) and all(w.arm(d) == "infantry" and w.status(d) in demoralised
                                        and ground.plain(w, w.hex_of(d) or "") for d in defenders)
        if w.arm(u) == "cavalry" and (bonus or w.charging(u)):
            value *= w.crt.cavalry_multiplier
        return map_rules.attack_strength(w, u, value, list(targets))

    def hex_sp(self, w: World, h: str, total: int) -> int:
        """caldiero §10.2: a marsh hex's units fight at half strength, rounded as its terrain says (§1.4: up) (D17)."""
        return halved(total, ground.strength_halving(w, h))

    def initiative_tie_winner(self, w: World) -> str | None:
        """caldiero §6 prints no tie rule: roll again, unless the interpretation `initiative_tie` gives it to
        the French (D13)."""
        return "france" if w.reading("initiative_tie") == "french" else None

    def below_minimum_declarable(self, orders: Sequence[str], reading: Reading) -> bool:
        """caldiero §12.4.2: never, unless every attacker has an Attack order and the interpretation
        `forced_attack_below_1_5` reads it as an automatic Ae (D24)."""
        return all(o == "attack" for o in orders) and reading("forced_attack_below_1_5") == "auto_ae"

    def ex_attacker_losses(self, w: World, attackers: Sequence[str], used: int, sp: Mapping[str, int]) -> list[str]:
        """caldiero §12.5.4 Ex: a unit of the attacker's choice whose efficiency is at least the value used (D26)."""
        return [u for u in attackers if w.efficiency(u) >= used]

    def ex_defender_losses(self, w: World, defenders: Sequence[str], lost: int,
                           sp: Mapping[str, int]) -> list[list[str]]:
        """caldiero §12.5.4 Ex: the defender loses at least as many SP as the attacker lost ("almeno uguale",
        interpretation `ex_defender_loss`): `minimal_sets` the sets with no unit to spare, `any_sufficient` any set
        that covers them, so a defender may give up more than needed (D26)."""
        if w.reading("ex_defender_loss") == "any_sufficient":
            return exchange.sufficient_sets(defenders, sp, lost)
        return exchange.covering_sets(defenders, sp, lost)

    def road_costs(self, w: World, table: MovementTable) -> MovementTable:
        """The terrain effects table's "Strada minore 1 MP", interpretation `minor_road_cost`: `flat_1` (default), as
        movement.json gives it; `other_terrain`, the other terrain's cost, in march column less the scenario's
        `minor_road_column` (§9.3.1: `other_terrain_minor_roads`)."""
        if w.reading("minor_road_cost") != "other_terrain":
            return table
        return other_terrain_minor_roads(table, w.scenario.minor_road_column)

    def commander_limit(self, w: World, leader: str) -> ChiefLimit | None:
        """caldiero §4.2.2: Bonaparte's and Alvinczy's limits, the scenario's data (`map_rules.leader_limit`)."""
        return map_rules.leader_limit(w, leader)

    def closed_to(self, w: World, side: str, h: str) -> tuple[Rule, str] | None:
        """caldiero §9.2.1: the Austrians never enter the 10xx row (D30)."""
        return map_rules.closed_row(w, side, h)

    def return_commanders(self, w: World, u: str) -> list[str | None]:
        """caldiero §15.4.3: the reserve returns with either general of its side (§12.8: any other unit with its own)."""
        if w.formation_of(u) not in reserves(w):
            return super().return_commanders(w, u)
        return [f.general for f in w.counters.oob.formations if f.side == w.side_of(u) and f.general is not None]

    def order_change_free(self, w: World, giver: str) -> Rule | None:
        """caldiero §20.1.1: a commander in chief commanding a formation (Bonaparte) changes its order without a die."""
        return R.BONAPARTE if w.leader_role(giver) == "commander_in_chief" else None

    def order_try_barred(self, w: World, seat: str) -> tuple[Rule, str] | None:
        """caldiero §17.1.3: in an ice storm every formation holds a Defence order (its weather box's
        `formations_defence`): no general tries, told so citing and naming the box in force (a user's track's)."""
        box = w.weather_box()
        return (box.cited(), f"{box.words()} every formation holds a Defence order") \
            if box is not None and box.formations_defence else None

    def formations_at_rest(self, w: World, units: Sequence[str]) -> list[str]:
        """caldiero §7.1 with §15.4.3: a French Reserve unit joins either formation turn by turn (reading
        `reserve_attachment`), so a stack it formed lawfully beside one formation's unit is still lawful when it has
        joined the other formation, or none, since: at rest it stacks as its neighbours' (D39)."""
        own, rest = [w.state.units[u].formation for u in units], reserves(w)
        printed = sorted({f for f in own if f not in rest})
        return [printed[0] if f in rest and len(printed) == 1 else f for f in own]

    def unoccupied_objective_holder(self, reading: Reading) -> str | None:
        """caldiero §18 "in base all'occupazione": with the reading `vp_control: austrian_unless_french` an empty
        victory hex stays Austrian (the Austrians hold the ground at the start); by default nobody's (D33)."""
        return "austria" if reading("vp_control") == "austrian_unless_french" else None

    def elan_columns(self, game: Rolls, w: World, unit: str, notes: list[str]) -> int | None:
        """caldiero §16.1 Elan (D30): an unmodified test; passed, as many columns right as the scenario's
        `elan_columns` dice show (1d6 shipped); failed, the unit is disordered (None: it no longer attacks, §15.1)."""
        (roll,) = game.roll(f"{R.ELAN_TEST} Elan test of {unit}", {"test": "efficiency, no modifier",
                                                                    "value": w.efficiency(unit)}, about=(w.hex_of(unit),))
        ok = efficiency.passes(self, roll, w.efficiency(unit))
        dice = w.scenario.elan_columns.dice
        columns = sum(game.roll(f"{R.ELAN_TEST} Elan columns", {"table": f"{dice}d6 columns right"}, count=dice)) \
            if ok else 0
        game.emit(ev.ElanSpent(unit=unit, passed=ok, columns=columns, rule=str(R.ELAN_TEST)))
        if ok:
            notes.append(f"Elan: {columns} columns right")
            return columns
        game.emit(ev.StatusChanged(unit=unit, status="disordered" if w.status(unit) == "good" else "routed",
                                   rule=str(R.ELAN_TEST)))
        notes.append(f"Elan failed: {unit} disordered")
        return None

    def assault_column_shifts(self, game: Rolls, w: World, attackers: Sequence[str], defender_hexes: Sequence[str],
                              defender_side: str, notes: list[str]) -> tuple[int, int]:
        """Weather (caldiero §17.1.1-§17.1.3: the box's 1, 2, 3 columns left) with its confusion die (§17.2, in boxes
        1-3: one left, none, one right), flank attacks (optional, §20.5.1: 2 right when every attacked hex is
        flanked) (D29-D30)."""
        left = right = 0
        box = w.weather_box()  # what the box in force does: its data (caldiero/weather.json), not its number
        if box is not None and box.assault_columns_left:
            left += box.assault_columns_left
            notes.append(f"weather {box.assault_columns_left}L")
        if box is not None and box.confusion_die:
            (die,) = game.roll(f"{R.CONFUSION} confusion", {"table": "1-2 one left, 3-4 none, 5-6 one right",
                                                            "box": w.state.weather})
            assert isinstance(w.weather, WeatherTable)  # a box in force: the scenario's track, with its confusion die
            shift = w.weather.confusion[str(die)]
            left -= shift
            notes.append(f"confusion {die}: {shift:+d} column")
        if w.option(FLANKS) and all(flanked(w, h, attackers, defender_side) for h in defender_hexes):
            right += w.scenario.options[FLANKS].shift_right
            notes.append(f"flank attack {w.scenario.options[FLANKS].shift_right}R")
        return left, right

    def shifts_beyond_last(self, reading: Reading) -> bool:
        """caldiero §12.4.3 (D23), interpretation `shift_beyond_6_1`: "capped", only the odds themselves add levels
        above 6-1, not the column shifts."""
        return reading("shift_beyond_6_1") != "capped"

    def assault_modifiers(self, w: World, attackers: Sequence[str], targets: Sequence[str], fighting: Sequence[str],
                          shift: int, mods: list[Modifier]) -> tuple[int, list[Modifier]]:
        """caldiero §14.0: defenders all cavalry in a fortress give the attacker the fortress's `cavalry_defence_drm`
        (terrain.json: -1), instead of its columns under `cavalry_in_fortress=drm_instead_of_shift`; the terrain
        effects table: -1 when every attacker attacks across a canal (§10.3), -1 when every attacker climbs to every
        attacked hex. A fortress whose `cavalry_defence_drm` is 0 (a user's folder) has no such rule: its cavalry
        fights as any unit there, with the fortress's columns and no "+0" modifier."""
        out = list(mods)
        fortresses = [drm for h in targets
                      if ground.fortress(w, h) and (drm := ground.effect(w, h).cavalry_defence_drm)]
        if fighting and fortresses and all(w.arm(d) == "cavalry" for d in fighting):
            out.append(Modifier(f"cavalry in a fortress ({R.CAVALRY})", min(fortresses)))
            shift = 0 if w.reading("cavalry_in_fortress") == "drm_instead_of_shift" else shift
        if all(ground.canal_for_combat(w, w.hex_of(u) or "", h) for u in attackers for h in targets):
            out.append(Modifier(f"across a canal ({R.CANAL_DRM})", w.terrain_table.hexsides["canale"].assault_drm))
        if all(ground.climbs(w, w.hex_of(u) or "", h) for h in targets for u in attackers):
            out.append(Modifier("uphill (terrain effects table)", w.terrain_table.climb.assault_drm))
        return shift, out

    def table_result(self, w: World, targets: Sequence[str], result: str, reading: Reading, notes: list[str]) -> str:
        """caldiero §12.5.4 with the terrain effects table: a Dr against a fortification becomes Dd (or Ex,
        interpretation `dr_in_fortress`), against a village Ex."""
        if result != "Dr":
            return result
        if any(ground.fortress(w, h) for h in targets):
            notes.append("Dr in fortification")
            return "Dd" if reading("dr_in_fortress") == "dd" else "Ex"
        if any(ground.effect(w, h).dr_becomes == "Ex" for h in targets):
            notes.append("Dr in village becomes Ex")
            return "Ex"
        return "Dr"


_OTHER_TERRAIN = Memo(64)


def other_terrain_minor_roads(table: MovementTable, column: MinorRoadColumn) -> MovementTable:
    """Interpretation minor_road_cost: other_terrain (the terrain effects table's "Strada minore 1 MP" read as the other
    terrain's cost): a step along a minor road costs the hex's other terrain, in march column `column`'s saving but
    never below its floor (§9.3.1: one MP less, never below 1 MP); weighed by the weather as the table's minor road is
    (`scaled`: §17.1.3). Made once a table."""
    def build() -> MovementTable:
        minor = table.roads["strada_minore"]
        scaled = minor.always.scaled if minor.always is not None else False
        other = RoadRule(always=RoadCost(reduce_by=0, scaled=scaled), in_column=RoadCost(
            reduce_by=column.reduce_by, minimum=column.minimum, scaled=scaled))
        return table.model_copy(update={"roads": {**table.roads, "strada_minore": other}})

    return _OTHER_TERRAIN.get((table, column), "other terrain", build)


# Events after which what a seat can see may have changed (caldiero §20.4).
SIGHT_EVENTS = (ev.UnitPlaced, ev.LeaderPlaced, ev.UnitsMoved, ev.LeaderMoved, ev.UnitRetreated, ev.UnitsAdvanced,
                ev.UnitEliminated, ev.WeatherChanged, ev.LeaderLost)


def _anonymous(value: str | int, state: Any) -> str | int:
    """Dice words name units; under the fog they say only the arm."""
    if not isinstance(value, str):
        return value
    for u in sorted(state.units, key=len, reverse=True):
        if u in value:
            value = value.replace(u, state.units[u].arm)
    return value


CALDIERO_VARIANT = CaldieroVariant()
# The book's section for each concept of the system, by its name: CALDIERO.RETREAT is "caldiero §12.6".
CALDIERO: Rulebook = CALDIERO_VARIANT.rules


def box_in_force(w: World) -> CaldieroBox:
    """The box of caldiero §17's track in force: every version is played with its track (scenario.json `weather`),
    and the state's weather is one of its boxes (parabellum/ruleset.py's position problems)."""
    box = w.weather_box()
    assert isinstance(box, CaldieroBox)
    return box


def reserves(w: World) -> frozenset[str]:
    """caldiero §15.4.3: the formations the order of battle marks `reserve` (the French R), whatever their ids."""
    return frozenset(f.id for f in w.counters.oob.formations if f.reserve)


def flanked(w: World, h: str, attackers: Sequence[str], defender_side: str) -> bool:
    """caldiero §20.5: five of `h`'s six neighbours (the option's `flanked_neighbours`) held or controlled by the
    engaged `attackers`, none by friends."""
    if w.may_stay(h) or w.grid.is_edge(h):
        return False
    attacker_hexes = {w.hex_of(u) for u in attackers}
    controlled = {n for u in attackers if exerts_zoc(w, u) for n in w.grid.neighbours(w.hex_of(u) or "")}
    return sum(1 for n in w.grid.neighbours(h) if not w.side_units_at(n, defender_side)
               and (n in attacker_hexes or n in controlled)) >= w.scenario.options[FLANKS].flanked_neighbours
