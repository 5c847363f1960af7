"""Caricat!'s data files (adjudicator/caricat/data/), validated by the kit's one loader: every problem of every
file at once, each naming the file, the JSON path and what is wrong (datafiles.DataError).

- system.json: the values the rulebook's text gives (levels, movement, melee bands, modifiers);
- terrain.json: the terrain effects table (not in the text: provisional), a movement table in the kit's format
  (docs/hexmap-format.md) and the combat effects;
- <scenario>.json and <scenario>_map.json: each scenario's order of battle, set-up, scenario rules and map.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import Field

from arbitro.adjudicator.datafiles import (
    Bool, DataError, DataProblem, Int, OwnData, Problem, Str, StrictModel, check_unique, json_problem, read_text,
    validated,
)
from arbitro.adjudicator.errors import JsonUnreadable, read_outside_json
from arbitro.adjudicator.maps.costs import MovementTable, parse_movement_table, table_map_problems
from arbitro.adjudicator.maps.hexgrid import HexError
from arbitro.adjudicator.maps.hexmap import HexMap, parse_map

DATA = Path(__file__).parent / "data"
SIDES = ("italian", "austrian")
SCENARIOS = ("pastrengo", "montebello")
Side = Literal["italian", "austrian"]
Level = Literal["attack", "advance", "hold", "reserve"]


class Meta(StrictModel):
    title: Str
    provisional: Bool
    notes: Str = ""


class Cited(StrictModel):
    rule: Str


class Movement(Cited):
    infantry: Int
    cavalry: Int
    leader: Int


class Points(Cited):
    points: Int


class CavalryActivation(Cited):
    italian: Int
    austrian: Int


class MeleeBand(Cited):
    low: Int
    high: Int
    loser_losses: Int
    winner_losses: Int
    retreat: Int
    advance: Int
    full_retreat: Bool
    recover: Int


class Modifiers(Cited):
    attack_melee: Int
    attack_fire_die: Int
    hold_defensive_fire_die: Int
    reserve_fire_dice: Int
    morale_melee: Int
    positional_fire_dice: Int
    positional_melee: Int
    charge_melee: Int
    routed_melee_value: Int
    staff_level_drm: Int
    recovery_leader_drm: Int


class Charge(Cited):
    min_distance: Int
    max_distance: Int
    terrain: Str
    extra_loss: Int


class Hexes(Cited):
    hexes: Int


class Named(Cited):
    order: tuple[Str, ...] = ()
    levels: tuple[Str, ...] = ()


class System(StrictModel):
    meta: Meta
    levels: Named
    movement: Movement
    road_bonus: Points
    zoc_leave_points: Points
    cavalry_activation: CavalryActivation
    melee_bands: tuple[MeleeBand, ...] = Field(min_length=1)
    morale: Named
    modifiers: Modifiers
    charge: Charge
    loc_distance: Hexes
    positional: Hexes


class TerrainCombat(StrictModel):
    fire_dice: Int
    melee: Int


class HexsideCombat(StrictModel):
    melee: Int
    prohibited: Bool
    cancelled_by: tuple[Str, ...] = ()


class CombatTable(StrictModel):
    terrain: dict[Str, TerrainCombat]
    hexside: dict[Str, HexsideCombat] = {}


class TerrainFile(StrictModel):
    meta: Meta
    movement: dict[str, object]
    combat: CombatTable


class Loc(Cited):
    hexes: tuple[Str, ...] = Field(min_length=1)


class Objective(StrictModel):
    hex: Str
    name: Str
    vp: dict[Side, Int] = {}
    controller: Side
    friendly_for: tuple[Side, ...] = ()
    provisional: Bool = True


class EliminationVp(Cited):
    infantry: Int
    cavalry: Int
    leader: Int


class Band(StrictModel):
    high: Int
    result: Str
    winner: Side


class Victory(Cited):
    kind: Literal["difference", "most"]
    bands: tuple[Band, ...] = ()


class Nearby(StrictModel):
    hex: Str
    radius: Int


class Automatic(StrictModel):
    turn: Int
    level: Level


class Lock(Cited):
    """When a leader may first try to change his level (caricat §13.1.2-13.1.3, §14.1.2-14.1.6)."""

    leader: Str
    from_turn: Int
    unless_attacked: Bool = False
    enemy_within: Nearby | None = None
    automatic: Automatic | None = None


class March(Cited):
    """A leader whose units must march on a place, then hold it (caricat §13.2.1)."""

    leader: Str
    place: Str
    then: Level
    until_turn: Int
    unless_option: Str = ""


class Bridge(Cited):
    hex: Str
    across: Str
    owner: Side


class OptionRule(Cited):
    name: Str
    side: Side
    vp: Int
    announce: Literal["start", "turn"]
    leader: Str = ""
    turn: Int = 0
    from_turn: Int = 0
    entry: Str = ""  # where the brigade enters once called (replacing its units' own entry)
    level: Level | None = None
    until_called: Bool = False  # the brigade is not in the game until called (caricat §13.3.3)


class UnitData(StrictModel):
    id: Str
    name: Str
    side: Side
    kind: Literal["infantry", "cavalry"]
    leader: Str | None
    melee: tuple[Int, Int]
    fire: tuple[Int, Int]
    morale: Int = Field(ge=1, le=12)
    hex: Str | None = None
    entry: Str | None = None
    provisional: Bool = True


class LeaderData(StrictModel):
    id: Str
    name: Str
    side: Side
    unit: Str
    command: Int = Field(ge=0)
    assault: Int
    value: Int = Field(ge=2, le=12)
    level: Level
    option: Str = ""  # in play only with this optional rule
    replaces: Str = ""  # with his option, he takes this leader's units (caricat §13.3.1)
    provisional: Bool = True


class ScenarioFile(StrictModel):
    meta: Meta
    rule: Str
    turns: Int = Field(ge=1)
    first_time: Str
    minutes_per_turn: Int
    first_commitment: Side
    first_activation: Side
    loc: dict[Side, Loc]
    objectives: tuple[Objective, ...]
    elimination_vp: EliminationVp
    victory: Victory
    locks: tuple[Lock, ...] = ()
    march: tuple[March, ...] = ()
    bridge: Bridge | None = None
    options: tuple[OptionRule, ...] = ()
    leaders: tuple[LeaderData, ...]
    units: tuple[UnitData, ...]

    def unit(self, unit_id: str) -> UnitData:
        return next(u for u in self.units if u.id == unit_id)

    def leader(self, leader_id: str) -> LeaderData:
        return next(le for le in self.leaders if le.id == leader_id)

    def option(self, name: str) -> OptionRule | None:
        return next((o for o in self.options if o.name == name), None)


@dataclass(frozen=True)
class Scenario:
    name: str
    file: ScenarioFile
    map: HexMap


@dataclass(frozen=True)
class CaricatData:
    system: System
    movement: MovementTable
    combat: CombatTable
    terrain_meta: Meta
    scenarios: dict[str, Scenario]


def data_files() -> list[Path]:
    return sorted(DATA.glob("*.json"))


def _scenario_problems(s: ScenarioFile, hexmap: HexMap, system: System) -> list[Problem]:
    problems: list[Problem] = []
    unit_ids = tuple(u.id for u in s.units)
    leader_ids = tuple(le.id for le in s.leaders)
    check_unique(unit_ids, "$.units", problems)
    check_unique(leader_ids, "$.leaders", problems)

    def on_map(h: str | None, path: str) -> None:
        if h is None:
            return
        try:
            hexmap.grid.require(h)
        except HexError as exc:
            problems.append(Problem(path, str(exc)))

    taken: dict[str, str] = {}
    for i, u in enumerate(s.units):
        on_map(u.hex, f"$.units[{i}].hex")
        on_map(u.entry, f"$.units[{i}].entry")
        if (u.hex is None) == (u.entry is None):
            problems.append(Problem(f"$.units[{i}]", "give exactly one of hex (set-up) and entry (arrival)"))
        if u.kind == "cavalry" and (u.leader is not None or any(u.fire)):
            problems.append(Problem(f"$.units[{i}]", "cavalry has no leader and no fire value (caricat §1.3, §4.2)"))
        if u.kind == "infantry" and u.leader not in leader_ids:
            problems.append(Problem(f"$.units[{i}].leader", f"no leader {u.leader!r}"))
        if u.hex is not None and u.hex in taken:  # caricat §5: one combat unit per hex
            problems.append(Problem(f"$.units[{i}].hex", f"{u.hex} already holds {taken[u.hex]} (caricat §5)"))
        if u.hex is not None:
            taken.setdefault(u.hex, u.id)
    for i, le in enumerate(s.leaders):
        if le.unit not in unit_ids or s.unit(le.unit).leader != le.id and not le.option:
            problems.append(Problem(f"$.leaders[{i}].unit", f"{le.unit!r} is not one of {le.id}'s units"))
    for side, loc in s.loc.items():
        for j, h in enumerate(loc.hexes):
            on_map(h, f"$.loc.{side}.hexes[{j}]")
    for i, o in enumerate(s.objectives):
        on_map(o.hex, f"$.objectives[{i}].hex")
    for key, items in (("locks", s.locks), ("march", s.march)):
        for i, item in enumerate(items):
            if item.leader not in leader_ids:
                problems.append(Problem(f"$.{key}[{i}].leader", f"no leader {item.leader!r}"))
    for i, o in enumerate(s.options):
        if o.leader and o.leader not in leader_ids:
            problems.append(Problem(f"$.options[{i}].leader", f"no leader {o.leader!r}"))
        on_map(o.entry or None, f"$.options[{i}].entry")
    if s.bridge is not None:
        on_map(s.bridge.hex, "$.bridge.hex")
        on_map(s.bridge.across, "$.bridge.across")
    return problems


FILES = ("system.json", "terrain.json", *(f"{n}.json" for n in SCENARIOS), *(f"{n}_map.json" for n in SCENARIOS))


@cache
def default_data() -> CaricatData:
    return load_data(DATA)


def load_data(folder: Path) -> CaricatData:
    """Every data file of the ruleset in `folder`, or one DataError listing every problem in every file."""
    return build(*_read(folder))


def read_folder(folder: Path) -> dict[str, str]:
    """A user's data folder (`arbitro new caricat SCENARIO --data DIR`): its six files as name -> text, checked as
    the shipped data are, every problem of every file at once (DataError)."""
    if not folder.is_dir():
        raise DataError([DataProblem(str(folder), "$", f"not a folder: --data names a folder holding {', '.join(FILES)}")])
    texts, problems = _read(folder)
    build(texts, problems)
    return texts


def _read(folder: Path) -> tuple[dict[str, str], list[DataProblem]]:
    texts: dict[str, str] = {}
    problems: list[DataProblem] = []
    for name in FILES:
        try:
            texts[name] = read_text(folder / name, name)
        except DataError as e:
            problems.extend(e.problems)
    return texts, problems


def _decoded(texts: Mapping[str, str], name: str, problems: list[DataProblem]) -> object | None:
    if name not in texts:
        if not any(p.file == name for p in problems):
            problems.append(DataProblem(name, "$", "file not found"))
        return None
    try:
        return read_outside_json(texts[name])
    except JsonUnreadable as e:  # nested too deeply, an overlong number too: a DataProblem, not a traceback
        problems.append(json_problem(name, e))
        return None


def build(texts: Mapping[str, str], found: list[DataProblem] | None = None) -> CaricatData:
    """The ruleset's data from its files' texts, or one DataError listing every problem in every file (with those
    already `found` reading them)."""
    problems: list[DataProblem] = list(found or ())

    def read(name: str, model: type) -> object:
        decoded = _decoded(texts, name, problems)
        if decoded is None:
            return None
        try:
            return validated(model, decoded, name)
        except DataError as exc:
            problems.extend(exc.problems)
            return None

    system = read("system.json", System)
    terrain = read("terrain.json", TerrainFile)
    movement = None
    if isinstance(terrain, TerrainFile):
        try:
            movement = parse_movement_table(terrain.movement, source="terrain.json")
        except DataError as exc:
            problems.extend(DataProblem(p.file, p.path.replace("$", "$.movement", 1), p.problem) for p in exc.problems)
    scenarios: dict[str, Scenario] = {}
    for name in SCENARIOS:
        spec = read(f"{name}.json", ScenarioFile)
        decoded_map = _decoded(texts, f"{name}_map.json", problems)
        if decoded_map is None:
            continue
        try:
            hexmap = parse_map(decoded_map, source=f"{name}_map.json")
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        if isinstance(spec, ScenarioFile) and isinstance(system, System):
            found_s = _scenario_problems(spec, hexmap, system)
            problems.extend(DataError.in_file(f"{name}.json", found_s).problems if found_s else ())
            scenarios[name] = Scenario(name, spec, hexmap)
        if movement is not None:
            found_t = table_map_problems(movement, hexmap)
            if found_t:
                problems.extend(DataError.in_file("terrain.json", found_t).problems)
    if problems:
        raise DataError(problems)
    assert isinstance(system, System) and isinstance(terrain, TerrainFile) and movement is not None
    return CaricatData(system, movement, terrain.combat, terrain.meta, scenarios)


# a game's own data folder, built once per process and content hash; `current()` is the data in force
OWN: OwnData[CaricatData] = OwnData("caricat_data", build, default_data)
load_files, current, bound = OWN.load, OWN.current, OWN.bound


def provisional_items(data: CaricatData, scenario: str) -> list[str]:
    """The reconstructed (not printed) data a game of this scenario uses (Ruleset.provisional)."""
    s = data.scenarios[scenario]
    items = []
    if data.terrain_meta.provisional:
        items.append(f"terrain effects table: {data.terrain_meta.title}")
    if s.map.provisional:
        items.append(f"{scenario} map: {s.map.meta.title}")
    if s.file.meta.provisional:
        items.append(f"{scenario} set-up and scenario data: {s.file.meta.title}")
    counters = sum(1 for c in (*s.file.units, *s.file.leaders) if c.provisional)
    if counters:
        items.append(f"{scenario}: counter values of {counters} units and leaders (melee, fire, morale, command, "
                     "assault, initial value)")
    objectives = sum(1 for o in s.file.objectives if o.provisional)
    if objectives:
        items.append(f"{scenario}: {objectives} objectives' places and VP values")
    return items
