"""Caldiero 1796's data files (adjudicator/caldiero/data/, laid out and read as every Para Bellum game's are:
parabellum/loader.py): the schemas only its book prints (its weather table, scenario file with its versions and
optional rules) and the checks only they need.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from arbitro.adjudicator.datafiles import DataProblem, StrictModel as _Strict
from arbitro.adjudicator.parabellum import data as pb
from arbitro.adjudicator.parabellum.data import (FormationData, FormationId, HexStr, Place, UnitId, VictoryLevel,
                                                  WeatherTrack)
from arbitro.adjudicator.parabellum.chief_limits import CommanderLimit, limit_problems
from arbitro.adjudicator.parabellum.loader import SCENARIO_FILES, DataFolder, ScenarioData

# --- weather.json -------------------------------------------------------------------------------------
class WeatherTable(WeatherTrack):
    """caldiero §17: the kernel's track (its `change`: the table the Austrian player rolls on, provisional), the box
    after an ice storm (§17.1.3) and the confusion die (§17.2)."""

    after_ice_storm: int
    confusion: dict[str, int]


# --- scenario.json ------------------------------------------------------------------------------------
class VictoryHex(_Strict):
    hex: HexStr  # caldiero §18
    place: Place
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
    points, a formation it brings and the printed one whose units it takes, the units it concerns, weather boxes,
    strength malus, column shift."""

    rule: str
    austrian_vp_bonus: int = 0
    formation: FormationData | None = None  # caldiero §20.1: Bonaparte's, there from the first turn
    takes: FormationId | None = None  # caldiero §20.1: the reserve's units are his (out of command until he arrives)
    units: list[UnitId] = []
    weather_boxes: list[int] = []
    strength_malus: int = 0
    shift_right: int = 0


class CaldieroScenario(pb.ScenarioFile):
    """Caldiero's scenario file: the kernel's, and what caldiero §4.2.2, §9.2.1, §16, §18-§21 print."""

    french_initiative: int
    elan_uses: int
    commander_limits: list[CommanderLimit]  # caldiero §4.2.2
    austrian_forbidden_column: int
    victory_hexes: list[VictoryHex]  # caldiero §18
    victory_levels: list[VictoryLevel]  # caldiero §18: each by its `min` alone, the highest reached counting
    scenarios: dict[str, ScenarioVersion]
    options: dict[str, OptionEffects]
    weather: Literal[True]  # every version is played with its weather track (caldiero §17)


BATTLE = "caldiero"  # the scenario folder: every version of the battle (scenario.json's `scenarios`) is played on it
UNIT_CLASS = "unit"  # costs do not depend on the arm in Caldiero (terrain effects table): every move is priced so


class CaldieroFolder(DataFolder):
    """Caldiero's data folder: the kernel's layout, one scenario folder (BATTLE) with its weather track (caldiero §17)."""

    def scenario_problems(self, s: ScenarioData) -> list[DataProblem]:
        """The commanders in chief's limits (caldiero §4.2.2) agree with the order of battle, the options and the
        readings."""
        assert isinstance(s.scenario, CaldieroScenario)
        return limit_problems(f"{s.name}/scenario.json", s.scenario.commander_limits, s.oob, s.scenario.options,
                              s.interpretations)

    def moved(self, data_dir: Path) -> list[DataProblem]:
        """A folder in the flat layout Caldiero's data had before 0.41.0 (every file at the root): each file named
        with where it goes now (docs/exchange-format.md), tables into tables/, the battle's files into its folder; a
        weather box's own table is no longer read (box 3 scales the minor roads of tables/movement.json)."""
        tables = {f"{t}.json" for t in self.tables} | {"movement.json"}
        return [DataProblem(p.name, "$", "the data folder's layout changed: " + (
                    f"move it to {'tables' if p.name in tables else BATTLE}/{p.name}" if not p.name.startswith("movement_")
                    else f"delete it (and its box's movement_table in {BATTLE}/weather.json): the box scales "
                         "tables/movement.json's roads by its scaled_roads"))
                for p in sorted(data_dir.glob("*.json"))
                if p.name in tables or p.name in SCENARIO_FILES or p.name.startswith("movement_")]


CALDIERO_DATA = CaldieroFolder(Path(__file__).parent / "data", "caldiero_data", (BATTLE,), CaldieroScenario,
                               WeatherTable, priced=(UNIT_CLASS,))
