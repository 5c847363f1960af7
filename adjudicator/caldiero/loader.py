"""Typed loading of the Caldiero 1796 data files (adjudicator/caldiero/data/*.json).

Every file is validated by a pydantic schema at load; errors name the file, the JSON path and the problem
(`oob.json: $.units[3].arm: Input should be 'infantry', 'cavalry' or 'artillery'`). Cross-file checks
(units naming unknown formations, victory hexes off the map...) are in `check_consistency`.
"""

from __future__ import annotations

from pathlib import Path

from arbitro.adjudicator.datafiles import DataError, DataProblem, StrictModel as _Strict, Where
from arbitro.adjudicator.parabellum import data as pb
from arbitro.adjudicator.parabellum.data import (BombardmentTable, CombatTable, Marker, OrderOfBattle, OrdersTable, TerrainTable,
                                                  VictoryLevel, WeatherTrack)
from arbitro.adjudicator.maps.costs import MovementTable
from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.parabellum.chief_limits import CommanderLimit, limit_problems
from arbitro.adjudicator.parabellum.readings import InterpretationsFile
from arbitro.adjudicator.parabellum.loader import (DataFolder, check_counters, decoded, files_digest, load_hexmap,
                                                    load_model, load_movement_by_box, placement_problems,
                                                    provisional_markers)
from pydantic import BaseModel, ConfigDict

# --- weather.json -------------------------------------------------------------------------------------
class WeatherTable(WeatherTrack):
    """caldiero §17: the kernel's track, and the table the Austrian player rolls on for the next box (provisional),
    the box after an ice storm (§17.1.3) and the confusion die (§17.2)."""

    change: dict[str, list[int]]
    change_provisional: bool
    after_ice_storm: int
    confusion: dict[str, int]

    def problems(self) -> list[tuple[Where, str]]:
        return super().problems() + [
            (("change", box), f"change[{box}] must list 6 boxes in 0..3") for box, results in self.change.items()
            if len(results) != 6 or any(not 0 <= r <= 3 for r in results)]


# --- scenario.json ------------------------------------------------------------------------------------
class VictoryHex(_Strict):
    hex: str
    place: str
    points: int


class ScenarioVersion(_Strict):
    """One version of the battle in scenario.json's `scenarios`: the historical one (caldiero §21) or an
    alternative of §19 (its weather, reinforcement timing and the places that cost the French points)."""

    title: str
    rule: str
    fixed_weather: int | None
    reinforcement_shift: int
    french_vp_malus_places: list[str]


class OptionEffects(_Strict):
    """What choosing one optional rule of scenario.json's `options` changes (each cites its rule): Austrian
    points, the units it concerns, weather boxes, strength malus, column shift."""

    rule: str
    austrian_vp_bonus: int = 0
    units: list[str] = []
    weather_boxes: list[int] = []
    strength_malus: int = 0
    shift_right: int = 0


class CaldieroScenario(pb.ScenarioFile):
    """Caldiero's scenario file: the kernel's, and what caldiero §4.2.2, §9.2.1, §16, §18-§21 print."""

    french_initiative: int
    elan_uses: int
    french_entry: str
    commander_limits: list[CommanderLimit]  # caldiero §4.2.2
    austrian_forbidden_column: int
    victory_hexes: list[VictoryHex]
    victory_levels: list[VictoryLevel]  # caldiero §18: each by its `min` alone, the highest reached counting
    scenarios: dict[str, ScenarioVersion]
    options: dict[str, OptionEffects]


class CaldieroData(BaseModel, pb.FindsCounters):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    oob: OrderOfBattle
    terrain: TerrainTable
    crt: CombatTable
    bombardment: BombardmentTable
    weather: WeatherTable
    scenario: CaldieroScenario
    orders: OrdersTable  # what each order permits (caldiero §5.1), the kernel's orders table
    interpretations: InterpretationsFile  # the named readings (parabellum/readings.py)
    map: HexMap  # map.json, the ground the World reads (adjudicator/maps/hexmap.py)
    movement: dict[int, MovementTable]  # each weather box's costs (movement.json; the ice storm's movement_3.json, §17.1.3)
    digest: str  # the content hash of the files read (parabellum/world.ScenarioOn)
    provisional: tuple[Marker, ...]  # what the files read mark as a reconstruction (parabellum/loader.py)


FILES: dict[str, type[BaseModel]] = {
    "oob.json": OrderOfBattle, "terrain.json": TerrainTable, "crt.json": CombatTable,
    "bombardment.json": BombardmentTable, "weather.json": WeatherTable, "scenario.json": CaldieroScenario,
    "orders.json": OrdersTable, "interpretations.json": InterpretationsFile,
}


UNIT_CLASS = "unit"  # costs do not depend on the arm in Caldiero (terrain effects table): every move is priced so
MOVEMENT = "movement.json"  # the movement costs, a map kit table (docs/hexmap-format.md), a weather box's own beside it


class CaldieroFolder(DataFolder[CaldieroData]):
    """Caldiero's data folder: one file of each of FILES, map.json (CaldieroData.map, the ground the World reads) and
    the movement tables (movement.json and the weather boxes' own, CaldieroData.movement)."""

    def read(self, data_dir: Path) -> CaldieroData:
        """Every data file, checked; raises :class:`DataError` listing the problems of every file at once."""
        problems: list[DataProblem] = []
        parts = {name.removesuffix(".json"): load_model(data_dir / name, model, data_dir, problems)
                 for name, model in FILES.items()}
        hexmap = load_hexmap(data_dir / "map.json", data_dir, problems)
        weather = parts["weather"]
        movement = load_movement_by_box(data_dir / MOVEMENT, weather, hexmap, data_dir, problems, (UNIT_CLASS,))  # type: ignore[arg-type]
        if problems or hexmap is None:
            raise DataError(problems)
        tables = [data_dir / b.movement_table for b in weather.boxes if b.movement_table]  # type: ignore[union-attr]
        read = [data_dir / name for name in (*FILES, "map.json", MOVEMENT)] + tables
        data = CaldieroData(**parts, map=hexmap, movement=movement,  # type: ignore[arg-type]
                            digest=files_digest(read, data_dir), provisional=provisional_markers(decoded(read, data_dir)))
        problems = check_consistency(data, hexmap)
        if problems:
            raise DataError(problems)
        return data


CALDIERO_DATA = CaldieroFolder(Path(__file__).parent / "data", "caldiero_data")


def check_consistency(data: CaldieroData, hexmap: HexMap) -> list[DataProblem]:
    """The files agree: the order of battle with itself and the scenario's seats, its set-up and arrivals with the map
    and the stacking limits, the map with the terrain effects table (the kernel's checks), the optional rules' units
    with the order of battle."""
    oob = data.oob
    problems = check_counters("oob.json", oob, data.scenario.seats)
    problems += placement_problems("oob.json", oob, data.scenario, hexmap, "map.json", data.terrain, "terrain.json")
    problems += limit_problems("scenario.json", data.scenario.commander_limits, oob, hexmap, data.scenario.options,
                               data.interpretations)
    seen = {unit.id for unit in oob.units}
    for name, option in data.scenario.options.items():
        for unit_id in option.units:
            if unit_id not in seen:
                problems.append(DataProblem("scenario.json", f"$.options.{name}.units", f"unknown unit {unit_id!r}"))
    return problems
