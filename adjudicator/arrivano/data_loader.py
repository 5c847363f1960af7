"""Typed loading of the Arrivano i Francesi! data files (adjudicator/arrivano/data/).

Layout (docs/rulesets/arrivano.md §6):

    tables/crt.json, bombardment.json, infantry_fire.json, terrain.json, orders.json, movement.json
    options.json, interpretations.json
    <scenario>/scenario.json, oob.json, map.json   (montebello, campotenese)
    campotenese/weather.json, movement_<box>.json

Every file is validated by its pydantic schema (data_model.py) when loaded, and then checked against the others (a set-up hex
that is not on its map, a unit of an unknown formation, a reinforcement entry letter the scenario does not
define...). Every problem is reported, each naming the file (relative to the data folder), the JSON path and
what is wrong: ``montebello/oob.json: $.units[3].setup.hexes[0]: hex 9912 is not on the map``. Maps and
movement tables are read by the shared ``hexmap`` module (docs/hexmap-format.md).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from arbitro.adjudicator.arrivano.data_model import (
    ArrivanoData,
    FireTable,
    OptionsFile,
    ScenarioData,
    ArrivanoScenario,
    Tables,
    WeatherTrack,
)
from arbitro.adjudicator.datafiles import DataError, DataProblem
from arbitro.adjudicator.maps.costs import MovementTable
from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.parabellum.data import BombardmentTable, CombatTable, OrderOfBattle, OrdersTable, TerrainTable
from arbitro.adjudicator.parabellum.loader import (DataFolder, check_counters, decoded, files_digest, label as _label,
                                                    load_hexmap, load_model, load_movement, load_movement_by_box,
                                                    placement_problems, provisional_markers)
from arbitro.adjudicator.parabellum.readings import InterpretationsFile


_FOLDER = Path(__file__).parent / "data"
SCENARIOS: tuple[str, ...] = ("montebello", "campotenese")


def load_tables(data_dir: Path = _FOLDER) -> Tables:
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


def load_scenario(name: str, data_dir: Path = _FOLDER) -> ScenarioData:
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
    spec = load_model(folder / "scenario.json", ArrivanoScenario, data_dir, problems)
    if spec is None:
        return None
    oob = load_model(data_dir / spec.oob, OrderOfBattle, data_dir, problems)
    hexmap = load_hexmap(data_dir / spec.map, data_dir, problems)
    weather = load_model(data_dir / spec.weather, WeatherTrack, data_dir, problems) if spec.weather else None
    movement: dict[int, MovementTable] = {}
    if (spec.weather and weather is not None) or (tables is not None and hexmap is not None):  # else reported once
        base = None if spec.weather else data_dir / "tables" / "movement.json"  # each box names its own (§17.2.8)
        movement = load_movement_by_box(base, weather, hexmap, data_dir, problems)
    if oob is None or hexmap is None or (spec.weather and weather is None):
        return None
    problems.extend(check_scenario(name, spec, oob, hexmap, tables, data_dir))
    if tables is None:
        return None
    read = [folder / "scenario.json", data_dir / spec.oob, data_dir / spec.map, *(data_dir / "tables").glob("*.json")]
    if spec.weather and weather is not None:
        read += [data_dir / spec.weather, *(data_dir / box.movement_table for box in weather.boxes if box.movement_table)]
    return ScenarioData(name=name, scenario=spec, oob=oob, map=hexmap, movement=movement, weather=weather,
                        digest=files_digest(read, data_dir), tables=tables,
                        provisional=provisional_markers(decoded(read, data_dir)))


class ArrivanoFolder(DataFolder[ArrivanoData]):
    """Arrivano's data folder, laid out as the module's docstring says."""

    def read(self, data_dir: Path) -> ArrivanoData:
        """Every Arrivano data file; raises :class:`DataError` listing every problem found."""
        problems: list[DataProblem] = []
        tables = _load_tables(data_dir, problems)
        options = load_model(data_dir / "options.json", OptionsFile, data_dir, problems)
        interpretations = load_model(data_dir / "interpretations.json", InterpretationsFile, data_dir, problems)
        scenarios = {name: _load_scenario(name, data_dir, tables, problems) for name in SCENARIOS}
        if problems or tables is None or options is None or interpretations is None:
            raise DataError(problems)
        return ArrivanoData(tables=tables, options=options, interpretations=interpretations,
                            scenarios={k: v for k, v in scenarios.items() if v is not None})


ARRIVANO_DATA = ArrivanoFolder(_FOLDER, "arrivano_data")


# --- cross-file checks ----------------------------------------------------------------------------------------
@dataclass
class _Check:
    """What the cross-file checks of one scenario share: the loaded parts, indexes, and the problems found."""

    name: str
    scenario: ArrivanoScenario
    oob: OrderOfBattle
    map: HexMap
    sc: str  # label of scenario.json
    ob: str  # label of oob.json
    problems: list[DataProblem]

    def __post_init__(self) -> None:
        self.seats = set(self.scenario.seats)
        self.formations = {f.id: f for f in self.oob.formations}
        self.leaders = {leader.id: leader for leader in self.oob.leaders}
        self.units = {u.id: u for u in self.oob.units}
        self.groups = {g.id: g for g in self.oob.reinforcements}

    def add(self, where: str, message: str) -> None:
        """``where`` is 'file: $.json.path' (the checks build it from the labels ``sc`` and ``ob``)."""
        file, _, path = where.partition(": ")
        assert path.startswith("$"), where
        self.problems.append(DataProblem(file, path, message))

    def on_map(self, hex_id: str, where: str) -> bool:
        if self.map.grid.contains(hex_id):
            return True
        self.add(where, f"hex {hex_id} is not on the map {self.scenario.map}")
        return False

    def side(self, side: str, where: str) -> None:
        if side not in self.seats:
            self.add(where, f"unknown side {side!r} (seats: {', '.join(self.scenario.seats)})")


def check_scenario(name: str, spec: ArrivanoScenario, oob: OrderOfBattle, hexmap: HexMap, tables: Tables | None,
                   data_dir: Path = _FOLDER) -> list[DataProblem]:
    """Cross-file consistency of one scenario's files (and the shared tables, when they could be read); each problem
    names file, JSON path and fault."""
    c = _Check(name, spec, oob, hexmap, f"{name}/scenario.json", _label(data_dir / spec.oob, data_dir), [])
    s = c
    _check_sides_and_formations(c)
    c.problems.extend(placement_problems(c.ob, s.oob, s.scenario, s.map, s.scenario.map,
                                         tables.terrain if tables is not None else None, "tables/terrain.json"))
    _check_reinforcements(c)
    _check_flags(c)
    _check_march_orders(c)
    _check_redoubts(c)
    _check_franceschi(c)
    _check_victory(c)
    return c.problems


def _check_sides_and_formations(c: _Check) -> None:
    if set(c.oob.sides) != c.seats:
        c.add(f"{c.ob}: $.sides", f"sides {sorted(c.oob.sides)} differ from the scenario seats {sorted(c.seats)}")
    c.problems.extend(check_counters(c.ob, c.oob, c.scenario.seats))
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
        if g.turn > c.scenario.turns:
            c.add(f"{where}.turn", f"turn {g.turn} is after the last turn {c.scenario.turns}")


def _check_flags(c: _Check) -> None:
    rules = c.scenario
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
            if c.on_map(flag.hex, where) and not c.map.grid.is_edge(flag.hex):
                c.add(where, f"hex {flag.hex} is not on the map edge")


def _check_march_orders(c: _Check) -> None:
    rules = c.scenario
    if rules.march_direction is not None and not _place(c.map, rules.march_direction.place):
        c.add(f"{c.sc}: $.march_direction.place", f"no place {rules.march_direction.place!r} on the map")
    for i, order in enumerate(rules.march_orders):
        where = f"{c.sc}: $.march_orders[{i}]"
        leader = c.leaders.get(order.leader)
        if leader is None or leader.formation != order.formation:
            c.add(f"{where}.leader", f"{order.leader!r} is not a leader of formation {order.formation!r}")
        if c.on_map(order.objective, f"{where}.objective"):
            named = c.map.hex(order.objective).name
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
    rules = c.scenario
    for i, r in enumerate(rules.redoubts):
        where = f"{c.sc}: $.redoubts[{i}]"
        if c.on_map(r.hex, f"{where}.hex") and c.map.terrain(r.hex) != "ridotta":
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
    v = c.scenario.victory
    for i, o in enumerate(v.objectives):
        where = f"{c.sc}: $.victory.objectives[{i}]"
        if c.on_map(o.hex, f"{where}.hex") and o.place is not None and o.hex not in _place(c.map, o.place):
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
            if not _place(c.map, place):
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

