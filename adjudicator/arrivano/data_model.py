"""The Arrivano i Francesi! data model: the schemas of its data files (adjudicator/arrivano/data/), each an
extension of the kernel's (adjudicator/parabellum/data.py) where the kernel has one, and the loaded data as the
rules read it (`Tables`, `ScenarioData`, `ArrivanoData`). Loading and the cross-file checks are in data_loader.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from arbitro.adjudicator.datafiles import StrictModel as _Strict, Where
from arbitro.adjudicator.maps.costs import MovementTable
from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.parabellum import data as pb
from arbitro.adjudicator.parabellum.readings import InterpretationsFile
from arbitro.adjudicator.parabellum.data import (BombardmentTable, HexStr, Marker, Meta, OrderName, OrderOfBattle, OrdersTable,
                                                  SpDrm, TerrainTable, UnitData, VictoryLevel)
from pydantic import ConfigDict, Field

FireResult = Literal["•", "D", "D1", "DR"]


# --- scenario.json -------------------------------------------------------------------------------------
class FirstTurn(_Strict):
    only_side_activates: str
    rule: str


class FlagHex(_Strict):
    hex: HexStr
    provisional: bool
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

    def problems(self) -> list[tuple[Where, str]]:
        return [(("levels",), "`winner_rule` 'levels' needs `levels`")] if self.winner_rule == "levels" and not self.levels else []


class ArrivanoScenario(pb.ScenarioFile):
    """An Arrivano scenario file: the kernel's, and what arrivano §17 prints for each scenario."""

    id: str
    title: str
    rule: str
    map: str
    oob: str
    minutes_per_turn: int
    first_turn: FirstTurn | None
    initiative_tie_winner: str  # arrivano §6.1.1
    commander_movement: int = Field(ge=1)
    commander_movement_rule: str
    march_column_forbidden: list[str]
    march_column_rule: str = ""
    charges_allowed: bool
    charges_rule: str = ""
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

    def is_light(self, unit: UnitData) -> bool:
        """Light infantry for open order (arrivano §17.1.7 listed; §17.2.11 infantry with movement 3)."""
        if unit.arm != "infantry":
            return False
        if self.light_infantry.basis == "infantry_movement_3":
            return unit.movement == 3
        return unit.light


# --- weather.json ----------------------------------------------------------------------------------------
class WeatherTrack(pb.WeatherTrack):
    """arrivano §17.2.7: the kernel's track, and the die roll at the end of each turn that moves it."""

    start_rule: str
    roll_when: Literal["end_of_turn_last"]
    roll_rule: str
    transitions: dict[str, list[int]]
    transitions_notes: str = ""

    def problems(self) -> list[tuple[Where, str]]:
        found = super().problems()
        numbers = sorted(b.box for b in self.boxes)
        if numbers != list(range(1, len(numbers) + 1)):
            found.append((("boxes",), f"boxes must be numbered 1..n without gaps, got {numbers}"))
        if sorted(self.transitions) != sorted(str(n) for n in numbers):
            found.append((("transitions",), "must have one entry per box"))
        found += [(("transitions", box), f"must give 6 boxes (one per die face) among {numbers}")
                  for box, results in self.transitions.items() if len(results) != 6 or any(r not in numbers for r in results)]
        found += [(("boxes", i, "movement_table"), "required: the movement costs of the box (arrivano §17.2.8)")
                  for i, b in enumerate(self.boxes) if b.movement_table is None]
        return found

    def next_box(self, current: int, die: int) -> int:
        """The weather box after a die roll at the end of phase C (arrivano §17.2.7)."""
        return self.transitions[str(current)][die - 1]


# --- tables ------------------------------------------------------------------------------------------------
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
        return [(("options", name, "requires", i), f"option {name} requires unknown option {r!r}")
                for name, option in self.options.items() for i, r in enumerate(option.requires)
                if r not in self.options or r == name]

    def missing_requirements(self, chosen: tuple[str, ...] | list[str]) -> list[tuple[str, str, str]]:
        """(option, required option, its rule) for every chosen option whose requirement was not chosen."""
        return [(name, req, self.options[name].rule) for name in sorted(chosen) if name in self.options
                for req in self.options[name].requires if req not in chosen]


# --- assembled data ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Tables:
    crt: pb.CombatTable
    bombardment: BombardmentTable
    infantry_fire: FireTable
    terrain: TerrainTable
    orders: OrdersTable
    movement: MovementTable


@dataclass(frozen=True)
class ScenarioData(pb.FindsCounters):
    """Everything one scenario needs (the kernel's parabellum/world.ScenarioOn): its rules, order of battle, map,
    movement tables (and weather), and the tables every scenario shares."""

    name: str
    scenario: ArrivanoScenario
    oob: OrderOfBattle
    map: HexMap
    movement: dict[int, MovementTable]  # by weather box; key 0 when the scenario has no weather
    weather: WeatherTrack | None
    digest: str  # the content hash of its files and the shared tables': what caches of its answers are keyed by
    provisional: tuple[Marker, ...]  # what those files mark as a reconstruction (parabellum/loader.py)
    tables: Tables

    @property
    def terrain(self) -> TerrainTable:
        return self.tables.terrain

    @property
    def orders(self) -> OrdersTable:
        return self.tables.orders

    @property
    def crt(self) -> pb.CombatTable:
        return self.tables.crt

    def entry_hex(self, letter: str) -> str:
        return self.scenario.entry_hexes[letter].hex


@dataclass(frozen=True)
class ArrivanoData:
    tables: Tables
    options: OptionsFile
    interpretations: InterpretationsFile
    scenarios: dict[str, ScenarioData]
