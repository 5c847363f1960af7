"""Arrivano i Francesi!'s data files (adjudicator/arrivano/data/, laid out and read as every Para Bellum game's are:
parabellum/loader.py): the schemas only its book prints, each an extension of the kernel's
(adjudicator/parabellum/data.py) where the kernel has one, and the cross-file checks only they need (flags, march
orders, redoubts, Franceschi's column, victory; `ArrivanoFolder.scenario_problems`), each problem naming file, JSON
path and fault: ``montebello/oob.json: $.reinforcements[0].entry: entry flag 'Z' is not defined in ...``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from arbitro.adjudicator.datafiles import DataProblem, StrictModel as _Strict, Where
from arbitro.adjudicator.maps.hexgrid import parse_hex
from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.parabellum import data as pb, weather_track
from arbitro.adjudicator.parabellum.book_rules import BookRules
from arbitro.adjudicator.parabellum.loader import DataFolder, ScenarioData
from arbitro.adjudicator.parabellum.data import (HexStr, LeaderId, Meta, OrderName, OrderOfBattle, Place, Side, SpDrm,
                                                  UnitData, VictoryLevel)
from pydantic import ConfigDict, Field

FireResult = Literal["•", "D", "D1", "DR"]


# --- scenario.json -------------------------------------------------------------------------------------
class FirstTurn(_Strict):
    only_side_activates: Side
    rule: str


class FlagHex(_Strict):
    hex: HexStr
    provisional: bool
    notes: str = ""


class MarchDirection(_Strict):
    """arrivano §17.1.5 "L'esercito austriaco aveva l'ordine di marciare verso Stradella": where the army marches, off
    the map: `place`, a place of the map whose hexes lie on its `map_edge` (the cross-file check reads both). Each
    march order's own objective is what the code enforces (our copy of the section is cut after its first lines)."""

    toward: str
    map_edge: Literal["higher_columns", "lower_columns", "higher_rows", "lower_rows"]
    place: Place
    rule: str


class MarchOrder(_Strict):
    id: str
    leader: str
    formation: str
    objective: HexStr
    objective_name: str
    units: list[str] = Field(min_length=1)
    units_provisional: bool
    rule: str
    notes: str = ""


class MarchOrderRules(_Strict):
    """arrivano §17.1.5: a march order ends when an enemy is in sight (the one end this build plays), its formation
    then taking `then_order`; its units move as Manoeuvre, in command or not (the one reading played: `true`); it is
    fulfilled once `release_fraction` of its units (artillery aside) stand in or next to the objective ("almeno metà")."""

    ends_when: Literal["enemy_in_los"]
    then_order: OrderName
    moves_out_of_command: Literal[True]
    release_fraction: tuple[int, int]
    rule: str

    def problems(self) -> list[tuple[Where, str]]:
        num, den = self.release_fraction
        return [] if 0 < num <= den else [(("release_fraction",), f"{num}/{den} is not a fraction of the units (0 < n <= d)")]


class HqCounters(_Strict):
    model_config = ConfigDict(extra="allow", frozen=True)  # one key per seat
    rule: str
    notes: str = ""

    def by_side(self) -> dict[str, str]:
        return {k: v for k, v in (self.model_extra or {}).items()}


class LightInfantry(_Strict):
    rule: str
    basis: Literal["listed", "infantry_movement_3"]
    notes: str = ""


class Redoubt(_Strict):
    hex: HexStr
    name: str
    battery: str


class RedoubtRules(_Strict):
    """arrivano §17.2.6, Campotenese's redoubts, as this build plays them: each value is the one the code and the terrain
    table carry out (the redoubt's `requires_defence_order` and `may_stay`; a counter's `redoubt_battery`: its range
    the sight's, never turned to Moved nor moved, no retreat nor defensive fire, damaged by the results the reading
    `redoubt_battery_adverse` names, firing only stacked with units in Defence). A folder saying otherwise is refused
    here, not played as if it said this."""

    rule: str
    benefits_need_order: Literal["defence"]
    may_stay_in_defence: Literal[True]
    battery_fires_at_any_target_in_los: Literal[True]
    battery_flips_when_firing: Literal[False]
    battery_moves: Literal[False]
    battery_retreats: Literal[False]
    battery_defensive_fire: Literal[False]
    battery_damaged_by_adverse_result: Literal[True]
    battery_fires_only_with_defence_units: Literal[True]


class Franceschi(_Strict):
    leader: str
    formation: str
    general: str
    units: list[str]
    rule: str


class StepDifferential(_Strict):
    side: Side
    vp_per_step: int
    commander_steps: Literal[1]  # arrivano §17.2.12 "ogni comandante conta come uno step": the fold's count (steps_lost)


class FlagCapture(_Strict):
    side: Side
    leaders: list[str]
    die_min: int = Field(ge=1, le=6)
    vp: int


class AutomaticVictory(_Strict):
    winner: Side
    condition: Literal["leader_lost", "occupy_all"]
    leaders: list[LeaderId] = []
    places: list[Place] = []
    hexes: list[HexStr] = []
    when: Literal["any_time", "end_of_last_turn"]
    rule: str


class Victory(_Strict):
    rule: str
    objectives: list[pb.ObjectiveHex]
    objectives_score_for: list[Side]
    most_steps_eliminated_vp: int | None
    step_differential: StepDifferential | None
    flag_capture: FlagCapture | None
    automatic: list[AutomaticVictory]
    levels: list[VictoryLevel]
    winner_rule: Literal["higher_vp", "levels"]
    notes: str = ""

    def problems(self) -> list[tuple[Where, str]]:
        return [(("levels",), "`winner_rule` 'levels' needs `levels`")] if self.winner_rule == "levels" and not self.levels else []


class ArrivanoScenario(pb.ScenarioFile):
    """An Arrivano scenario file: the kernel's, and what arrivano §17 prints for each scenario."""

    id: str
    title: str
    rule: str
    minutes_per_turn: Literal[30]  # arrivano §17.1.1, §17.2 "30 minuti per turno": no rule of the build reads it
    first_turn: FirstTurn | None
    initiative_tie_winner: Side  # arrivano §6.1.1
    march_column_forbidden: list[Side]
    march_column_rule: str = ""
    charges_allowed: bool
    charges_rule: str = ""
    entry_hexes: dict[str, FlagHex]
    retreat_hexes: dict[str, FlagHex]
    retreat_hexes_side: Side | None = None  # whose retreat flags they are (arrivano §17.2.1: the Neapolitans')
    march_direction: MarchDirection | None
    march_orders: list[MarchOrder]
    march_order_rules: MarchOrderRules | None
    hq_counters: HqCounters
    light_infantry: LightInfantry
    redoubts: list[Redoubt]
    redoubt_rules: RedoubtRules | None = None
    franceschi: Franceschi | None = None
    victory: Victory

    def problems(self) -> list[tuple[Where, str]]:
        found = super().problems()
        if self.march_column_forbidden and not self.march_column_rule:
            found.append((("march_column_rule",), "required with `march_column_forbidden`: the scenario's rule "
                          "forbidding their march column (arrivano §17.1.4), cited where it refuses one"))
        if not self.charges_allowed and not self.charges_rule:
            found.append((("charges_rule",), "required when `charges_allowed` is false: the scenario's rule "
                          "forbidding charges (arrivano §17.2.5), cited where it refuses one"))
        return found

    def is_light(self, unit: UnitData) -> bool:
        """Light infantry for open order (arrivano §17.1.7 listed; §17.2.11 infantry with movement 3)."""
        if unit.arm != "infantry":
            return False
        if self.light_infantry.basis == "infantry_movement_3":
            return unit.movement == 3
        return unit.light


# --- weather.json ----------------------------------------------------------------------------------------
class WeatherTrack(weather_track.WeatherTrack):
    """arrivano §17.2.7: the kernel's track, boxes 1..n, each naming its movement costs (§17.2.8); the die that moves
    it is rolled at the end of each turn (turn.py)."""

    def problems(self) -> list[tuple[Where, str]]:
        found = super().problems()
        numbers = sorted(b.box for b in self.boxes)
        if numbers != list(range(1, len(numbers) + 1)):
            found.append((("boxes",), f"boxes must be numbered 1..n without gaps, got {numbers}"))
        return found + [(("boxes", i, "movement_table"), "required: the movement costs of the box (arrivano §17.2.8)")
                        for i, b in enumerate(self.boxes) if b.movement_table is None]


# --- tables ------------------------------------------------------------------------------------------------
class ArrivanoRules(BookRules):
    """tables/rules.json: the kernel's book-wide values and arrivano §13.2's, the same in both scenarios."""

    # arrivano §13.2 "Si applica un modificatore di -1 al dado": a commander in the unit's hex, on its efficiency test
    commander_die_modifier: int = Field(le=0)


class FireTable(pb.DieTable):
    """The infantry fire table of open order (arrivano §16.3.2): a column per strength up to `max_column`."""

    max_column: int
    commander_drm: int
    commander_drm_rule: str
    stacking_drm: list[SpDrm]
    terrain_drm_from: Literal["bombard_drm"]
    results: dict[FireResult, str]
    results_rule: str
    never_affects_artillery: Literal[True]  # §16.3.3: played so (open_order.py); a folder saying otherwise is refused
    rows: dict[str, dict[str, FireResult]]


# The optional rules (arrivano §16) this build implements. options.json only describes an option (title, rule,
# summary); what it does is code: hq_orders (§16.1) and independent_columns (§16.2) in activation.py, the three of
# open order (§16.3-§16.3.5) in open_order.py, each reading its name from here. A key of options.json outside this set
# is refused at load: offered, it would be a game played as if the option were absent.
HQ_ORDERS, COLUMNS = "hq_orders", "independent_columns"
OPEN_ORDER, EXHAUSTION, LIGHT_RETREAT = "open_order", "physical_exhaustion", "light_troops_retreat"
IMPLEMENTED_OPTIONS = frozenset({HQ_ORDERS, COLUMNS, OPEN_ORDER, EXHAUSTION, LIGHT_RETREAT})


class OptionData(_Strict):
    title: str
    rule: str
    summary: str
    scenario_rules: list[str]
    requires: list[str] = []  # options that must be chosen with this one (e.g. arrivano §16.3.4 needs §16.3)


class OptionsFile(_Strict):
    meta: Meta
    options: dict[str, OptionData]

    def problems(self) -> list[tuple[Where, str]]:
        implemented = ", ".join(sorted(IMPLEMENTED_OPTIONS))
        return [(("options", name), f"no rule of this build implements it (implemented: {implemented})")
                for name in self.options if name not in IMPLEMENTED_OPTIONS] + [
            (("options", name, "requires", i), f"option {name} requires unknown option {r!r}")
            for name, option in self.options.items() for i, r in enumerate(option.requires)
            if r not in self.options or r == name]

    def missing_requirements(self, chosen: tuple[str, ...] | list[str]) -> list[tuple[str, str, str]]:
        """(option, required option, its rule) for every chosen option whose requirement was not chosen."""
        return [(name, req, self.options[name].rule) for name in sorted(chosen) if name in self.options
                for req in self.options[name].requires if req not in chosen]


# --- cross-file checks ----------------------------------------------------------------------------------------
class ArrivanoFolder(DataFolder):
    """Arrivano's data folder: the kernel's layout and checks, and what only its scenario files must agree on."""

    def scenario_problems(self, s: ScenarioData) -> list[DataProblem]:
        assert isinstance(s.scenario, ArrivanoScenario)
        c = _Check(s.scenario, s.oob, s.map, f"{s.name}/scenario.json", f"{s.name}/oob.json")
        for check in (_check_formations, _check_reinforcements, _check_flags, _check_march_orders, _check_redoubts,
                      _check_franceschi, _check_victory):
            check(c)
        return c.problems


ARRIVANO_DATA = ArrivanoFolder(Path(__file__).parent / "data", "arrivano_data", ("montebello", "campotenese"),
                               ArrivanoScenario, WeatherTrack, tables={"rules": ArrivanoRules, "infantry_fire": FireTable},
                               files={"options": OptionsFile})


@dataclass
class _Check:
    """What the cross-file checks of one scenario share: the loaded parts, indexes, and the problems found."""

    scenario: ArrivanoScenario
    oob: OrderOfBattle
    map: HexMap
    sc: str  # label of scenario.json
    ob: str  # label of oob.json
    problems: list[DataProblem] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.seats = set(self.scenario.seats)
        self.formations = {f.id: f for f in self.oob.formations}
        self.leaders = {leader.id: leader for leader in self.oob.leaders}
        self.units = {u.id: u for u in self.oob.units}

    def add(self, where: str, message: str) -> None:
        """``where`` is 'file: $.json.path' (the checks build it from the labels ``sc`` and ``ob``)."""
        file, _, path = where.partition(": ")
        self.problems.append(DataProblem(file, path, message))


def _check_formations(c: _Check) -> None:
    if set(c.oob.sides) != c.seats:
        c.add(f"{c.ob}: $.sides", f"sides {sorted(c.oob.sides)} differ from the scenario seats {sorted(c.seats)}")
    for i, f in enumerate(c.oob.formations):
        if f.general is None:  # arrivano §17: every formation has its general
            c.add(f"{c.ob}: $.formations[{i}].general", f"formation {f.id!r} needs its general")
    for i, u in enumerate(c.oob.units):
        if u.arm == "artillery" and u.strength != 0:
            c.add(f"{c.ob}: $.units[{i}].strength", "artillery never counts in assaults (arrivano §11.0.2): must be 0")


def _check_reinforcements(c: _Check) -> None:
    for i, g in enumerate(c.oob.reinforcements):
        where = f"{c.ob}: $.reinforcements[{i}]"
        if g.entry not in c.scenario.entry_hexes:
            c.add(f"{where}.entry", f"entry flag {g.entry!r} is not defined in {c.sc} $.entry_hexes")


def _check_flags(c: _Check) -> None:
    rules = c.scenario
    for side in sorted(set(rules.hq_counters.by_side()) - c.seats):
        c.add(f"{c.sc}: $.hq_counters.{side}", f"unknown side {side!r} (seats: {', '.join(rules.seats)})")
    for key, flags in (("entry_hexes", rules.entry_hexes), ("retreat_hexes", rules.retreat_hexes)):
        for letter, flag in sorted(flags.items()):
            where = f"{c.sc}: $.{key}.{letter}.hex"
            if c.map.grid.contains(flag.hex) and not c.map.grid.is_edge(flag.hex):
                c.add(where, f"hex {flag.hex} is not on the map edge")


def _check_march_orders(c: _Check) -> None:
    rules = c.scenario
    if rules.march_orders and rules.march_order_rules is None:
        c.add(f"{c.sc}: $.march_order_rules", "required when there are march orders (arrivano §17.1.5)")
    for i, order in enumerate(rules.march_orders):
        where = f"{c.sc}: $.march_orders[{i}]"
        _members(c, where, order.formation, order.leader, order.units)
        if c.map.grid.contains(order.objective):
            named = c.map.hex(order.objective).name
            if named is not None and named != order.objective_name:
                c.add(f"{where}.objective_name",
                      f"the map calls {order.objective} {named!r}, not {order.objective_name!r}")
    if rules.march_direction is not None:
        _check_march_direction(c, rules.march_direction)
    grouped = Counter(u for order in rules.march_orders for u in order.units)
    for unit_id, count in sorted(grouped.items()):
        if count > 1:
            c.add(f"{c.sc}: $.march_orders", f"unit {unit_id!r} is in {count} march-order groups")


# The column or row index of a hex id (XXYY) and its value on each map edge a march direction may name
_EDGES: dict[str, tuple[int, str]] = {"higher_columns": (0, "last_column"), "lower_columns": (0, "first_column"),
                                      "higher_rows": (1, "last_row"), "lower_rows": (1, "first_row")}


def _check_march_direction(c: _Check, direction: MarchDirection) -> None:
    """arrivano §17.1.5: every hex of the direction's place on the map edge it says (an unknown place: the names'
    check reports it)."""
    index, edge = _EDGES[direction.map_edge]
    off = [h for h in c.map.places.get(direction.place, ()) if parse_hex(h)[index] != getattr(c.map.grid, edge)]
    if off:
        c.add(f"{c.sc}: $.march_direction.map_edge",
              f"{direction.place!r} has hexes off the {direction.map_edge} edge: {', '.join(off)}")


def _check_redoubts(c: _Check) -> None:
    rules = c.scenario
    for i, r in enumerate(rules.redoubts):
        where = f"{c.sc}: $.redoubts[{i}]"
        if c.map.grid.contains(r.hex) and c.map.terrain(r.hex) != "ridotta":
            c.add(f"{where}.hex", f"hex {r.hex} is {c.map.terrain(r.hex)!r} on the map, not 'ridotta'")
        battery = c.units.get(r.battery)
        if battery is None or not battery.redoubt_battery:
            c.add(f"{where}.battery", f"{r.battery!r} is not a redoubt battery")
        elif battery.setup is None or battery.setup.hexes != [r.hex]:
            c.add(f"{where}.battery", f"{r.battery!r} is not set up in {r.hex}")
    batteries = {r.battery for r in rules.redoubts}
    for i, u in enumerate(c.oob.units):
        if u.redoubt_battery and u.id not in batteries:
            c.add(f"{c.ob}: $.units[{i}].redoubt_battery", f"{u.id!r} is in no redoubt of {c.sc}")
    if rules.redoubts and rules.redoubt_rules is None:
        c.add(f"{c.sc}: $.redoubt_rules", "required when there are redoubts")


def _check_franceschi(c: _Check) -> None:
    fr = c.scenario.franceschi
    if fr is None:
        return
    _members(c, f"{c.sc}: $.franceschi", fr.formation, fr.leader, fr.units)
    formation = c.formations.get(fr.formation)
    if formation is None or formation.general != fr.general:
        c.add(f"{c.sc}: $.franceschi.general", f"{fr.general!r} does not command {fr.formation!r}")


def _members(c: _Check, where: str, formation: str, leader: str, units: list[str]) -> None:
    """A column's commander and units are of its formation (a march order's, arrivano §17.1.5; Franceschi's, §17.2.9)."""
    if leader not in c.leaders or c.leaders[leader].formation != formation:
        c.add(f"{where}.leader", f"{leader!r} is not a leader of formation {formation!r}")
    for j, unit_id in enumerate(units):
        if unit_id not in c.units or c.units[unit_id].formation != formation:
            c.add(f"{where}.units[{j}]", f"{unit_id!r} is not a unit of formation {formation!r}")


def _check_victory(c: _Check) -> None:
    v = c.scenario.victory  # (an objective's place holds its hex: the kernel's loader.unknown_names)
    if v.flag_capture is not None:
        for j, leader_id in enumerate(v.flag_capture.leaders):
            leader = c.leaders.get(leader_id)
            if leader is None or leader.side == v.flag_capture.side:
                c.add(f"{c.sc}: $.victory.flag_capture.leaders[{j}]", f"{leader_id!r} is not an enemy leader")

