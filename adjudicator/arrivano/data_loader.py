"""Typed loading of the Arrivano i Francesi! data files (adjudicator/arrivano/data/).

Layout (docs/rulesets/arrivano.md §6):

    tables/crt.json, bombardment.json, infantry_fire.json, terrain.json, orders.json, movement.json
    options.json, interpretations.json
    <scenario>/scenario.json, oob.json, map.json   (montebello, campotenese)
    campotenese/weather.json, movement_<box>.json

Every file is validated by a pydantic schema when loaded, and then checked against the others (a set-up hex
that is not on its map, a unit of an unknown formation, a reinforcement entry letter the scenario does not
define...). Every problem is reported, each naming the file (relative to the data folder), the JSON path and
what is wrong: ``montebello/oob.json: $.units[3].setup.hexes[0]: hex 9912 is not on the map``. Maps and
movement tables are read by the shared ``hexmap`` module (docs/hexmap-format.md).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

import pydantic
from arbitro.adjudicator.datafiles import DataError, DataProblem, StrictModel as _Strict
from arbitro.adjudicator.maps.costs import MovementTable
from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.parabellum import data as pb
from arbitro.adjudicator.parabellum.data import BombardmentTable, Meta, OrderName, SpDrm
from arbitro.adjudicator.parabellum.loader import check_counters, label as _label, load_hexmap, load_model, load_movement
from arbitro.adjudicator.ruleset import Interpretation, Scenario
from pydantic import ConfigDict, Field

DATA_DIR = Path(__file__).parent / "data"
SCENARIOS: tuple[str, ...] = ("montebello", "campotenese")

LeaderRole = Literal["commander_in_chief", "general", "officer"]
FireResult = Literal["•", "D", "D1", "DR"]
HexStr = Annotated[str, pydantic.StringConstraints(pattern=r"^[0-9]{4}$")]


# --- oob.json ----------------------------------------------------------------------------------------
class Setup(_Strict):
    hexes: list[HexStr] = Field(min_length=1, max_length=2)  # two hexes: arrivano §17.2 '2811-2813'


class UnitData(pb.UnitData):
    """The kernel's unit (adjudicator/parabellum/data.py) with Arrivano's light infantry (§17.1.7), horse
    artillery and redoubt batteries (§17.2.6), set up by hex or arriving with a reinforcement group."""

    light: bool = False
    horse: bool = False
    redoubt_battery: bool = False
    setup: Setup | None = None
    arrival: str | None = None
    notes: str = ""

    @pydantic.model_validator(mode="after")
    def _coherent(self) -> "UnitData":
        if (self.setup is None) == (self.arrival is None):
            raise ValueError("a unit needs exactly one of `setup` and `arrival`")
        if self.arm == "artillery":
            if self.strength != 0:
                raise ValueError("artillery never counts in assaults (arrivano §11.0.2): `strength` must be 0")
        else:
            if self.bombard is not None or self.range is not None or self.horse or self.redoubt_battery:
                raise ValueError("only artillery has `bombard`, `range`, `horse`, `redoubt_battery`")
            if self.strength < 1:
                raise ValueError("infantry and cavalry need `strength` >= 1")
            if self.reduced is not None and self.reduced >= self.strength:
                raise ValueError(f"`reduced` ({self.reduced}) must be below `strength` ({self.strength})")
        if self.redoubt_battery and self.movement != 0:
            raise ValueError("a redoubt battery never moves (arrivano §17.2.6): `movement` must be 0")
        return self

    @property
    def steps(self) -> int:
        """Steps the unit can lose (arrivano §12.8: a reduced side is one more step)."""
        return 2 if self.reduced is not None else 1


class LeaderData(pb.LeaderData):
    """The kernel's commander with Arrivano's officers (§4.2) and cavalry officers (§4.6)."""

    role: LeaderRole
    cavalry: bool = False  # arrivano §4.6
    setup: Setup | None = None
    arrival: str | None = None
    notes: str = ""

    @pydantic.model_validator(mode="after")
    def _coherent(self) -> "LeaderData":
        if (self.setup is None) == (self.arrival is None):
            raise ValueError("a leader needs exactly one of `setup` and `arrival`")
        if self.role != "commander_in_chief" and self.formation is None:
            raise ValueError("generals and officers belong to a formation")
        if self.cavalry and self.role != "officer":
            raise ValueError("only officers can be cavalry officers (arrivano §4.6)")
        return self


class FormationData(pb.FormationData):
    name: str
    general: str  # every formation has its general; an `initial_order` of None: the owner chooses (arrivano §17.1.2)


class ReinforcementGroup(_Strict):
    id: str
    turn: int = Field(ge=1)
    entry: str
    formation: str
    order: OrderName | Literal["any"]
    leaders: list[str]
    units: list[str]
    rule: str


class SideData(_Strict):
    name: str
    commander_in_chief: str


class OrderOfBattle(_Strict):
    meta: Meta
    sides: dict[str, SideData]
    formations: list[FormationData]
    leaders: list[LeaderData]
    units: list[UnitData]
    reinforcements: list[ReinforcementGroup]


# --- scenario.json -------------------------------------------------------------------------------------
class FirstTurn(_Strict):
    only_side_activates: str
    rule: str


class FlagHex(_Strict):
    hex: HexStr
    provisional: bool
    notes: str = ""


class StackPattern(_Strict):
    infantry: int = Field(default=0, ge=0)
    cavalry: int = Field(default=0, ge=0)
    artillery: int = Field(default=0, ge=0)
    infantry_or_cavalry: int = Field(default=0, ge=0)
    same_formation: bool = False


class Stacking(_Strict):
    rule: str
    allowed: list[StackPattern] = Field(min_length=1)
    notes: str = ""


class MarchDirection(_Strict):
    toward: str
    map_edge: Literal["higher_columns", "lower_columns", "higher_rows", "lower_rows"]
    place: str
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
    ends_when: Literal["enemy_in_los"]
    then_order: OrderName
    moves_out_of_command: bool
    release_fraction: tuple[int, int]
    rule: str


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
    rule: str
    benefits_need_order: OrderName
    may_stay_in_defence: bool
    battery_fires_at_any_target_in_los: bool
    battery_flips_when_firing: bool
    battery_moves: bool
    battery_retreats: bool
    battery_defensive_fire: bool
    battery_damaged_by_adverse_result: bool
    battery_fires_only_with_defence_units: bool


class Franceschi(_Strict):
    leader: str
    formation: str
    general: str
    units: list[str]
    rule: str


class Objective(_Strict):
    hex: HexStr
    place: str | None
    vp: int = Field(ge=0)
    provisional: bool


class StepDifferential(_Strict):
    side: str
    vp_per_step: int
    commander_steps: int


class FlagCapture(_Strict):
    side: str
    leaders: list[str]
    die_min: int = Field(ge=1, le=6)
    vp: int


class AutomaticVictory(_Strict):
    winner: str
    condition: Literal["leader_lost", "occupy_all"]
    leaders: list[str] = []
    places: list[str] = []
    hexes: list[HexStr] = []
    when: Literal["any_time", "end_of_last_turn"]
    rule: str


class VictoryLevel(_Strict):
    min: int | None
    max: int | None
    result: str
    name: str


class Victory(_Strict):
    rule: str
    objectives: list[Objective]
    objectives_score_for: list[str]
    most_steps_eliminated_vp: int | None
    step_differential: StepDifferential | None
    flag_capture: FlagCapture | None
    automatic: list[AutomaticVictory]
    levels: list[VictoryLevel]
    winner_rule: Literal["higher_vp", "levels"]
    notes: str = ""

    @pydantic.model_validator(mode="after")
    def _levels_cover(self) -> "Victory":
        if self.winner_rule == "levels" and not self.levels:
            raise ValueError("`winner_rule` 'levels' needs `levels`")
        return self


class ScenarioFile(_Strict):
    meta: Meta
    id: str
    title: str
    rule: str
    map: str
    oob: str
    seats: list[str] = Field(min_length=2, max_length=2)
    turns: int = Field(ge=1)
    turns_provisional: bool
    minutes_per_turn: int
    first_turn: FirstTurn | None
    initiative_tie_winner: str  # arrivano §6.1.1
    los_range: int = Field(ge=1)
    los_rule: str
    commander_movement: int = Field(ge=1)
    commander_movement_rule: str
    march_column_forbidden: list[str]
    march_column_rule: str = ""
    charges_allowed: bool
    charges_rule: str = ""
    stacking: Stacking
    entry_hexes: dict[str, FlagHex]
    retreat_hexes: dict[str, FlagHex]
    retreat_hexes_side: str | None = None  # whose retreat flags they are (arrivano §17.2.1: the Neapolitans')
    march_direction: MarchDirection | None
    march_orders: list[MarchOrder]
    march_order_rules: MarchOrderRules | None
    hq_counters: HqCounters
    light_infantry: LightInfantry
    redoubts: list[Redoubt]
    redoubt_rules: RedoubtRules | None = None
    weather: str | None
    franceschi: Franceschi | None = None
    victory: Victory


# --- weather.json ----------------------------------------------------------------------------------------
class WeatherBox(_Strict):
    box: int = Field(ge=1, le=3)
    name: str
    english: str
    artillery_range_max: int | None
    artillery_fires: bool
    neapolitan_defence_efficiency_bonus: int = Field(ge=0)
    move_one_hex_only: bool
    open_order_allowed: bool
    zoc: bool
    movement_table: str
    rule: str


class WeatherTrack(_Strict):
    meta: Meta
    start_box: int
    start_rule: str
    roll_when: Literal["end_of_turn_last"]
    roll_rule: str
    boxes: list[WeatherBox]
    transitions: dict[str, list[int]]
    transitions_notes: str = ""

    def checks(self) -> list[tuple[str, str]]:
        problems: list[tuple[str, str]] = []
        numbers = sorted(b.box for b in self.boxes)
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(("$.boxes", f"boxes must be numbered 1..n without gaps, got {numbers}"))
        if self.start_box not in numbers:
            problems.append(("$.start_box", f"{self.start_box} is not a box"))
        if sorted(self.transitions) != sorted(str(n) for n in numbers):
            problems.append(("$.transitions", "must have one entry per box"))
        for box, results in self.transitions.items():
            if len(results) != 6 or any(r not in numbers for r in results):
                problems.append((f"$.transitions.{box}", f"must give 6 boxes (one per die face) among {numbers}"))
        return problems

    def box(self, number: int) -> WeatherBox:
        return {b.box: b for b in self.boxes}[number]

    def next_box(self, current: int, die: int) -> int:
        """The weather box after a die roll at the end of phase C (arrivano §17.2.7)."""
        return self.transitions[str(current)][die - 1]


# --- tables ------------------------------------------------------------------------------------------------
class CombatTable(pb.CombatTable):
    """The kernel's CRT, which Arrivano's file also annotates with the values of its rules (the variant holds
    them: adjudicator/arrivano/variant.py)."""

    drm_cap: int
    drm_cap_rule: str
    excess_odds_drm_per_level: int
    excess_odds_rule: str
    below_minimum: Literal["forbidden_to_declare"]
    below_minimum_rule: str


class FireTable(_Strict):
    meta: Meta
    columns: list[str]
    max_column: int
    commander_drm: int
    commander_drm_rule: str
    stacking_drm: list[SpDrm]
    terrain_drm_from: Literal["bombard_drm"]
    results: dict[FireResult, str]
    results_rule: str
    never_affects_artillery: bool
    rows: dict[str, dict[str, FireResult]]

    def checks(self) -> list[tuple[str, str]]:
        return pb.grid_problems(self.rows, self.columns)  # type: ignore[arg-type]


class TerrainEffect(pb.Provisional):
    bombard_drm: int
    assault_drm: int
    assault_shift_left: int = Field(ge=0)
    requires_defence_order: bool
    dr_options: list[Literal["exchange_on_test", "hold_on_test"]]
    blocks_los: bool
    no_zoc_into: bool
    may_stay: bool
    charge_allowed: bool
    cavalry_halved: bool
    impassable: bool
    cited: dict[str, str]
    printed: str

    @pydantic.model_validator(mode="after")
    def _cited_fields(self) -> "TerrainEffect":
        unknown = [name for name in self.cited if name not in type(self).model_fields]
        if unknown:
            raise ValueError(f"`cited` names unknown fields: {', '.join(unknown)}")
        return self


class ElevationEffect(_Strict):
    assault_drm: int
    bombard_drm: int
    affects: Literal["line_of_sight_only"]
    rule: str


class TerrainTable(_Strict):
    meta: Meta
    elevation: ElevationEffect
    terrain: dict[str, TerrainEffect]


class OrderRules(_Strict):
    movement_obligation: Literal["half_closer", "all_toward_nearest_enemy"] | None
    enter_ezoc: Literal["yes", "no", "with_friend"]
    ezoc_to_ezoc_test: bool
    assault: Literal["must", "test", "no"]
    march_column: bool
    recovery: Literal["yes", "no", "near_commander"]
    open_order: bool
    terrain_benefits: bool
    max_hexes: int | None
    rule: str


class OrdersTable(_Strict):
    meta: Meta
    orders: dict[OrderName, OrderRules]
    obligation_excludes: list[str]
    obligation_excludes_rule: str
    out_of_command_order: OrderName
    out_of_command_rule: str
    artillery_may_choose: list[OrderName]
    artillery_rule: str
    reinforcement_order: OrderName
    reinforcement_rule: str

    @pydantic.model_validator(mode="after")
    def _all_orders(self) -> "OrdersTable":
        missing = {"advance", "attack", "defence", "manoeuvre"} - set(self.orders)
        if missing:
            raise ValueError(f"missing orders: {', '.join(sorted(missing))}")
        return self


class OptionData(_Strict):
    title: str
    rule: str
    summary: str
    scenario_rules: list[str]
    requires: list[str] = []  # options that must be chosen with this one (e.g. arrivano §16.3.4 needs §16.3)


class OptionsFile(_Strict):
    meta: Meta
    options: dict[str, OptionData]

    @pydantic.model_validator(mode="after")
    def _requirements_known(self) -> "OptionsFile":
        for name, option in self.options.items():
            unknown = [r for r in option.requires if r not in self.options or r == name]
            if unknown:
                raise ValueError(f"option {name} requires unknown options {unknown}")
        return self

    def missing_requirements(self, chosen: tuple[str, ...] | list[str]) -> list[tuple[str, str, str]]:
        """(option, required option, its rule) for every chosen option whose requirement was not chosen."""
        return [(name, req, self.options[name].rule) for name in sorted(chosen) if name in self.options
                for req in self.options[name].requires if req not in chosen]


class InterpretationData(_Strict):
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    rule: str
    phrase: str = Field(min_length=1)
    default: str
    choices: list[str] = Field(min_length=1)
    explanation: str

    @pydantic.model_validator(mode="after")
    def _default_is_a_choice(self) -> "InterpretationData":
        if self.default not in self.choices:
            raise ValueError(f"default {self.default!r} is not one of the choices {self.choices}")
        return self


class InterpretationsFile(_Strict):
    meta: Meta
    interpretations: list[InterpretationData]


# --- assembled data ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Tables:
    crt: CombatTable
    bombardment: BombardmentTable
    infantry_fire: FireTable
    terrain: TerrainTable
    orders: OrdersTable
    movement: MovementTable


@dataclass(frozen=True)
class ScenarioData:
    """Everything one scenario needs: its rules, order of battle, map, movement tables (and weather)."""

    name: str
    scenario: ScenarioFile
    oob: OrderOfBattle
    map: HexMap
    movement: dict[int, MovementTable]  # by weather box; key 0 when the scenario has no weather
    weather: WeatherTrack | None
    _units: dict[str, UnitData] = field(init=False, repr=False)
    _leaders: dict[str, LeaderData] = field(init=False, repr=False)
    _formations: dict[str, FormationData] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_units", {u.id: u for u in self.oob.units})
        object.__setattr__(self, "_leaders", {leader.id: leader for leader in self.oob.leaders})
        object.__setattr__(self, "_formations", {f.id: f for f in self.oob.formations})

    def unit(self, unit_id: str) -> UnitData:
        return self._units[unit_id]

    def leader(self, leader_id: str) -> LeaderData:
        return self._leaders[leader_id]

    def formation(self, formation_id: str) -> FormationData:
        return self._formations[formation_id]

    def entry_hex(self, letter: str) -> str:
        return self.scenario.entry_hexes[letter].hex

    def is_light(self, unit: UnitData) -> bool:
        """Light infantry for open order (arrivano §17.1.7 listed; §17.2.11 infantry with movement 3)."""
        if unit.arm != "infantry":
            return False
        if self.scenario.light_infantry.basis == "infantry_movement_3":
            return unit.movement == 3
        return unit.light


@dataclass(frozen=True)
class ArrivanoData:
    tables: Tables
    options: OptionsFile
    interpretations: InterpretationsFile
    scenarios: dict[str, ScenarioData]


def load_tables(data_dir: Path = DATA_DIR) -> Tables:
    problems: list[DataProblem] = []
    tables = _load_tables(data_dir, problems)
    if problems or tables is None:
        raise DataError(problems)
    return tables


def _load_tables(data_dir: Path, problems: list[DataProblem]) -> Tables | None:
    t = data_dir / "tables"
    parts = {
        "crt": load_model(t / "crt.json", CombatTable, data_dir, problems),
        "bombardment": load_model(t / "bombardment.json", BombardmentTable, data_dir, problems),
        "infantry_fire": load_model(t / "infantry_fire.json", FireTable, data_dir, problems),
        "terrain": load_model(t / "terrain.json", TerrainTable, data_dir, problems),
        "orders": load_model(t / "orders.json", OrdersTable, data_dir, problems),
        "movement": load_movement(t / "movement.json", None, data_dir, problems),
    }
    if any(v is None for v in parts.values()):
        return None
    return Tables(**parts)  # type: ignore[arg-type]


def load_scenario(name: str, data_dir: Path = DATA_DIR) -> ScenarioData:
    """Load and cross-check one scenario (with the shared tables it uses)."""
    problems: list[DataProblem] = []
    tables = _load_tables(data_dir, problems)
    scenario = _load_scenario(name, data_dir, tables, problems)
    if problems or scenario is None:
        raise DataError(problems)
    return scenario


def _load_scenario(name: str, data_dir: Path, tables: Tables | None,
                   problems: list[DataProblem]) -> ScenarioData | None:
    folder = data_dir / name
    spec = load_model(folder / "scenario.json", ScenarioFile, data_dir, problems)
    if spec is None:
        return None
    oob = load_model(data_dir / spec.oob, OrderOfBattle, data_dir, problems)
    hexmap = load_hexmap(data_dir / spec.map, data_dir, problems)
    weather = load_model(data_dir / spec.weather, WeatherTrack, data_dir, problems) if spec.weather else None
    movement: dict[int, MovementTable] = {}
    if spec.weather and weather is not None:
        for box in weather.boxes:
            table = load_movement(data_dir / box.movement_table, hexmap, data_dir, problems)
            if table is not None:
                movement[box.box] = table
    elif tables is not None and hexmap is not None:
        table = load_movement(data_dir / "tables" / "movement.json", hexmap, data_dir, problems)
        if table is not None:
            movement[0] = table
    if oob is None or hexmap is None or (spec.weather and weather is None):
        return None
    loaded = ScenarioData(name=name, scenario=spec, oob=oob, map=hexmap, movement=movement, weather=weather)
    problems.extend(check_scenario(loaded, tables, data_dir))
    return loaded


def load(data_dir: Path = DATA_DIR) -> ArrivanoData:
    """Load every Arrivano data file; raise :class:`DataError` listing every problem found."""
    problems: list[DataProblem] = []
    tables = _load_tables(data_dir, problems)
    options = load_model(data_dir / "options.json", OptionsFile, data_dir, problems)
    interpretations = load_model(data_dir / "interpretations.json", InterpretationsFile, data_dir, problems)
    scenarios = {name: _load_scenario(name, data_dir, tables, problems) for name in SCENARIOS}
    if interpretations is not None:
        problems.extend(_check_interpretations(interpretations))
    if problems or tables is None or options is None or interpretations is None:
        raise DataError(problems)
    return ArrivanoData(tables=tables, options=options, interpretations=interpretations,
                        scenarios={k: v for k, v in scenarios.items() if v is not None})


@cache
def default_data() -> ArrivanoData:
    return load()


def ruleset_scenarios(data: ArrivanoData) -> dict[str, Scenario]:
    """The scenarios as the ruleset interface lists them (every optional rule of §16 is offered)."""
    options = tuple(sorted(data.options.options))
    return {name: Scenario(name=name, title=s.scenario.title, seats=tuple(s.scenario.seats), options=options,
                           description=s.scenario.rule)
            for name, s in sorted(data.scenarios.items())}


def ruleset_interpretations(data: ArrivanoData) -> dict[str, Interpretation]:
    """The interpretations of docs/rulesets/arrivano.md §4 as the ruleset interface takes them."""
    return {i.name: Interpretation(name=i.name, default=i.default, choices=tuple(i.choices), rule=i.rule,
                                   phrase=i.phrase, explanation=i.explanation)
            for i in sorted(data.interpretations.interpretations, key=lambda i: i.name)}


def data_files(data_dir: Path = DATA_DIR) -> list[Path]:
    """Every data file, sorted: hashed into each game so that verification detects changed data."""
    return sorted(p for p in data_dir.rglob("*.json") if p.is_file())


# --- cross-file checks ----------------------------------------------------------------------------------------
def _check_interpretations(spec: InterpretationsFile) -> list[DataProblem]:
    names = Counter(i.name for i in spec.interpretations)
    return [DataProblem("interpretations.json", "$.interpretations", f"duplicate name {name!r}")
            for name, count in sorted(names.items()) if count > 1]


@dataclass
class _Check:
    """What the cross-file checks of one scenario share: the loaded parts, indexes, and the problems found."""

    s: ScenarioData
    sc: str  # label of scenario.json
    ob: str  # label of oob.json
    problems: list[DataProblem]

    def __post_init__(self) -> None:
        self.seats = set(self.s.scenario.seats)
        self.formations = {f.id: f for f in self.s.oob.formations}
        self.leaders = {leader.id: leader for leader in self.s.oob.leaders}
        self.units = {u.id: u for u in self.s.oob.units}
        self.groups = {g.id: g for g in self.s.oob.reinforcements}

    def add(self, where: str, message: str) -> None:
        """``where`` is 'file: $.json.path' (the checks build it from the labels ``sc`` and ``ob``)."""
        file, _, path = where.partition(": ")
        assert path.startswith("$"), where
        self.problems.append(DataProblem(file, path, message))

    def on_map(self, hex_id: str, where: str) -> bool:
        if self.s.map.grid.contains(hex_id):
            return True
        self.add(where, f"hex {hex_id} is not on the map {self.s.scenario.map}")
        return False

    def side(self, side: str, where: str) -> None:
        if side not in self.seats:
            self.add(where, f"unknown side {side!r} (seats: {', '.join(self.s.scenario.seats)})")


def check_scenario(s: ScenarioData, tables: Tables | None, data_dir: Path = DATA_DIR) -> list[DataProblem]:
    """Cross-file consistency of one loaded scenario; each problem names file, JSON path and fault."""
    c = _Check(s, f"{s.name}/scenario.json", _label(data_dir / s.scenario.oob, data_dir), [])
    _check_sides_and_formations(c)
    for i, leader in enumerate(s.oob.leaders):
        _check_piece(c, f"{c.ob}: $.leaders[{i}]", leader)
    for i, unit in enumerate(s.oob.units):
        _check_piece(c, f"{c.ob}: $.units[{i}]", unit)
    _check_reinforcements(c)
    c.problems.extend(_check_setup_stacking(s, c.ob))
    _check_flags(c)
    _check_march_orders(c)
    _check_redoubts(c)
    _check_franceschi(c)
    _check_victory(c)
    if tables is not None:
        for t in s.map.terrain_types:
            if t not in tables.terrain.terrain:
                c.add("tables/terrain.json: $.terrain", f"no entry for terrain {t!r} of {s.scenario.map}")
    return c.problems


def _check_sides_and_formations(c: _Check) -> None:
    if set(c.s.oob.sides) != c.seats:
        c.add(f"{c.ob}: $.sides", f"sides {sorted(c.s.oob.sides)} differ from the scenario seats {sorted(c.seats)}")
    for side, data in sorted(c.s.oob.sides.items()):
        chief = c.leaders.get(data.commander_in_chief)
        if chief is None or chief.role != "commander_in_chief" or chief.side != side:
            c.add(f"{c.ob}: $.sides.{side}.commander_in_chief",
                  f"{data.commander_in_chief!r} is not a commander in chief of {side}")
    c.problems.extend(check_counters(c.ob, c.s.oob.units, c.s.oob.leaders, c.s.oob.formations, c.s.scenario.seats))


def _check_piece(c: _Check, where: str, item: UnitData | LeaderData) -> None:
    """A unit or leader (its side and formation: the kernel's check_counters): set-up on the map, arrival group
    listing it."""
    if item.setup is not None:
        for j, h in enumerate(item.setup.hexes):
            c.on_map(h, f"{where}.setup.hexes[{j}]")
    if item.arrival is not None:
        group = c.groups.get(item.arrival)
        if group is None:
            c.add(f"{where}.arrival", f"unknown reinforcement group {item.arrival!r}")
        elif item.id not in (group.units if isinstance(item, UnitData) else group.leaders):
            c.add(f"{where}.arrival", f"group {item.arrival!r} does not list {item.id!r}")


def _check_reinforcements(c: _Check) -> None:
    for i, g in enumerate(c.s.oob.reinforcements):
        where = f"{c.ob}: $.reinforcements[{i}]"
        if g.entry not in c.s.scenario.entry_hexes:
            c.add(f"{where}.entry", f"entry flag {g.entry!r} is not defined in {c.sc} $.entry_hexes")
        if g.formation not in c.formations:
            c.add(f"{where}.formation", f"unknown formation {g.formation!r}")
        if g.turn > c.s.scenario.turns:
            c.add(f"{where}.turn", f"turn {g.turn} is after the last turn {c.s.scenario.turns}")
        for j, unit_id in enumerate(g.units):
            unit = c.units.get(unit_id)
            if unit is None or unit.arrival != g.id:
                c.add(f"{where}.units[{j}]", f"{unit_id!r} does not arrive with this group")
        for j, leader_id in enumerate(g.leaders):
            leader = c.leaders.get(leader_id)
            if leader is None or leader.arrival != g.id:
                c.add(f"{where}.leaders[{j}]", f"{leader_id!r} does not arrive with this group")


def _check_flags(c: _Check) -> None:
    rules = c.s.scenario
    c.side(rules.initiative_tie_winner, f"{c.sc}: $.initiative_tie_winner")
    if rules.first_turn is not None:
        c.side(rules.first_turn.only_side_activates, f"{c.sc}: $.first_turn.only_side_activates")
    for j, side in enumerate(rules.march_column_forbidden):
        c.side(side, f"{c.sc}: $.march_column_forbidden[{j}]")
    for side in sorted(rules.hq_counters.by_side()):
        c.side(side, f"{c.sc}: $.hq_counters.{side}")
    for key, flags in (("entry_hexes", rules.entry_hexes), ("retreat_hexes", rules.retreat_hexes)):
        for letter, flag in sorted(flags.items()):
            where = f"{c.sc}: $.{key}.{letter}.hex"
            if c.on_map(flag.hex, where) and not c.s.map.grid.is_edge(flag.hex):
                c.add(where, f"hex {flag.hex} is not on the map edge")


def _check_march_orders(c: _Check) -> None:
    rules = c.s.scenario
    if rules.march_direction is not None and not _place(c.s.map, rules.march_direction.place):
        c.add(f"{c.sc}: $.march_direction.place", f"no place {rules.march_direction.place!r} on the map")
    for i, order in enumerate(rules.march_orders):
        where = f"{c.sc}: $.march_orders[{i}]"
        leader = c.leaders.get(order.leader)
        if leader is None or leader.formation != order.formation:
            c.add(f"{where}.leader", f"{order.leader!r} is not a leader of formation {order.formation!r}")
        if c.on_map(order.objective, f"{where}.objective"):
            named = c.s.map.hex(order.objective).name
            if named is not None and named != order.objective_name:
                c.add(f"{where}.objective_name",
                      f"the map calls {order.objective} {named!r}, not {order.objective_name!r}")
        for j, unit_id in enumerate(order.units):
            unit = c.units.get(unit_id)
            if unit is None or unit.formation != order.formation:
                c.add(f"{where}.units[{j}]", f"{unit_id!r} is not a unit of formation {order.formation!r}")
    grouped = Counter(u for order in rules.march_orders for u in order.units)
    for unit_id, count in sorted(grouped.items()):
        if count > 1:
            c.add(f"{c.sc}: $.march_orders", f"unit {unit_id!r} is in {count} march-order groups")


def _check_redoubts(c: _Check) -> None:
    rules = c.s.scenario
    for i, r in enumerate(rules.redoubts):
        where = f"{c.sc}: $.redoubts[{i}]"
        if c.on_map(r.hex, f"{where}.hex") and c.s.map.terrain(r.hex) != "ridotta":
            c.add(f"{where}.hex", f"hex {r.hex} is {c.s.map.terrain(r.hex)!r} on the map, not 'ridotta'")
        battery = c.units.get(r.battery)
        if battery is None or not battery.redoubt_battery:
            c.add(f"{where}.battery", f"{r.battery!r} is not a redoubt battery")
        elif battery.setup is None or battery.setup.hexes != [r.hex]:
            c.add(f"{where}.battery", f"{r.battery!r} is not set up in {r.hex}")
    batteries = {r.battery for r in rules.redoubts}
    for i, u in enumerate(c.s.oob.units):
        if u.redoubt_battery and u.id not in batteries:
            c.add(f"{c.ob}: $.units[{i}].redoubt_battery", f"{u.id!r} is in no redoubt of {c.sc}")
    if rules.redoubts and rules.redoubt_rules is None:
        c.add(f"{c.sc}: $.redoubt_rules", "required when there are redoubts")


def _check_franceschi(c: _Check) -> None:
    fr = c.s.scenario.franceschi
    if fr is None:
        return
    leader = c.leaders.get(fr.leader)
    if leader is None or leader.formation != fr.formation:
        c.add(f"{c.sc}: $.franceschi.leader", f"{fr.leader!r} is not an officer of {fr.formation!r}")
    formation = c.formations.get(fr.formation)
    if formation is None or formation.general != fr.general:
        c.add(f"{c.sc}: $.franceschi.general", f"{fr.general!r} does not command {fr.formation!r}")
    for j, unit_id in enumerate(fr.units):
        unit = c.units.get(unit_id)
        if unit is None or unit.formation != fr.formation:
            c.add(f"{c.sc}: $.franceschi.units[{j}]", f"{unit_id!r} is not a unit of {fr.formation!r}")


def _check_victory(c: _Check) -> None:
    v = c.s.scenario.victory
    for i, o in enumerate(v.objectives):
        where = f"{c.sc}: $.victory.objectives[{i}]"
        if c.on_map(o.hex, f"{where}.hex") and o.place is not None and o.hex not in _place(c.s.map, o.place):
            c.add(f"{where}.place", f"the map's place {o.place!r} does not contain hex {o.hex}")
    for j, side in enumerate(v.objectives_score_for):
        c.side(side, f"{c.sc}: $.victory.objectives_score_for[{j}]")
    for i, a in enumerate(v.automatic):
        where = f"{c.sc}: $.victory.automatic[{i}]"
        c.side(a.winner, f"{where}.winner")
        for j, leader_id in enumerate(a.leaders):
            if leader_id not in c.leaders:
                c.add(f"{where}.leaders[{j}]", f"unknown leader {leader_id!r}")
        for j, place in enumerate(a.places):
            if not _place(c.s.map, place):
                c.add(f"{where}.places[{j}]", f"no place {place!r} on the map")
        for j, h in enumerate(a.hexes):
            c.on_map(h, f"{where}.hexes[{j}]")
    if v.flag_capture is not None:
        for j, leader_id in enumerate(v.flag_capture.leaders):
            leader = c.leaders.get(leader_id)
            if leader is None or leader.side == v.flag_capture.side:
                c.add(f"{c.sc}: $.victory.flag_capture.leaders[{j}]", f"{leader_id!r} is not an enemy leader")


def _place(hexmap: HexMap, name: str) -> tuple[str, ...]:
    return tuple(hexmap.places.get(name, ()))


def fits_stacking(arms: list[str], formations: list[str], patterns: list[StackPattern]) -> bool:
    """Whether combat units (arm and formation each) may share a hex under one of the allowed patterns."""
    count = Counter(arms)
    for p in patterns:
        if p.same_formation and len(set(formations)) > 1:
            continue
        spare_inf = count["infantry"] - p.infantry
        spare_cav = count["cavalry"] - p.cavalry
        if count["artillery"] > p.artillery:
            continue
        if max(spare_inf, 0) + max(spare_cav, 0) <= p.infantry_or_cavalry:
            return True
    return False


def _check_setup_stacking(s: ScenarioData, ob: str) -> list[DataProblem]:
    """The printed set-up (first hex of each unit) obeys the scenario's stacking limits (arrivano §7.1, §17.2.3)."""
    by_hex: dict[str, list[UnitData]] = {}
    for u in s.oob.units:
        if u.setup is not None:
            by_hex.setdefault(u.setup.hexes[0], []).append(u)
    problems: list[DataProblem] = []
    for h, stack in sorted(by_hex.items()):
        if not fits_stacking([u.arm for u in stack], [u.formation for u in stack], s.scenario.stacking.allowed):
            names = ", ".join(u.id for u in stack)
            problems.append(DataProblem(ob, "$.units", f"set-up hex {h} holds {names}, over the stacking limit "
                                                       f"({s.scenario.stacking.rule})"))
    return problems


def provisional_items(s: ScenarioData, tables: Tables) -> list[str]:
    """Human-readable list of the provisional data a game of this scenario uses (Ruleset.provisional)."""
    items: list[str] = []
    for label, meta in (
        ("combat results table", tables.crt.meta), ("bombardment table", tables.bombardment.meta),
        ("infantry fire table (open order)", tables.infantry_fire.meta), ("terrain effects", tables.terrain.meta),
        (f"{s.name} scenario rules", s.scenario.meta), (f"{s.name} order of battle", s.oob.meta),
    ):
        if meta.provisional:
            items.append(f"{label}: {meta.title}")
    if s.map.provisional:
        items.append(f"{s.name} map: {s.map.meta.title} (reconstruction)")
    if any(t.provisional for t in s.movement.values()):
        items.append(f"{s.name} movement costs (reconstruction of the terrain effects table)")
    if s.scenario.turns_provisional:
        items.append(f"{s.name}: game length of {s.scenario.turns} turns (not in the rulebook)")
    counters = sum(1 for item in [*s.oob.units, *s.oob.leaders] if item.provisional)
    if counters:
        items.append(f"{s.name}: counter values of {counters} units and commanders")
    return items
