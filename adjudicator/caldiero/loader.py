"""Caldiero 1796's data files (adjudicator/caldiero/data/, laid out and read as every Para Bellum game's are:
parabellum/loader.py): the schemas only its book prints (its weather table, scenario file with its versions and
optional rules) and the checks only they need.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from arbitro.adjudicator.datafiles import DataProblem, StrictModel as _Strict, Where
from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.parabellum import data as pb
from arbitro.adjudicator.parabellum.data import (FormationData, FormationId, HexStr, OrderOfBattle, Place, UnitId,
                                                  VictoryLevel)
from arbitro.adjudicator.parabellum.weather_track import WeatherBox, WeatherTrack
from arbitro.adjudicator.parabellum.chief_limits import CommanderLimit, limit_problems
from arbitro.adjudicator.parabellum.loader import SCENARIO_FILES, DataFolder, ScenarioData

# --- weather.json -------------------------------------------------------------------------------------
class CaldieroBox(WeatherBox):
    """A box of caldiero §17's track: the kernel's effects and the two values its box prints for other rules, each
    required (a folder without it is refused at its path), never read off the box's number."""

    # caldiero §6.1: the Austrians' initiative value "pari al numero nel riquadro del Tempo atmosferico"
    austrian_initiative: int = Field(ge=0)
    # caldiero §20.4.1 (fog of war): the line of sight's hexes "ridotto del valore indicato nel riquadro"
    fog_reach_less: int = Field(ge=0)


class WeatherTable(WeatherTrack):
    """caldiero §17: the kernel's track (its `change`: the table the Austrian player rolls on, provisional; each box's
    effects, the ice storm's move to box 2 at the turn's end its `end_phase_box`, §17.1.3; the Austrians' initiative
    and the fog's reach, §6.1, §20.4.1) and the confusion die's table (§17.2)."""

    boxes: list[CaldieroBox]  # type: ignore[assignment]  # the kernel's boxes with Caldiero's two values
    confusion: dict[str, int]


# --- scenario.json ------------------------------------------------------------------------------------
class AttackDirection(_Strict):
    """caldiero §19.1: the formation's units may not go `barred` of the `road` (its two ends: "la strada che corre da
    1014 a 2714", a road of the map) until one enters `until`; `rule` the section its refusals cite (a citation of this
    rulebook's §19.1, refused at load otherwise: rev-l L7)."""

    rule: Annotated[str, StringConstraints(pattern=r"^caldiero §19\.1(\.\d+)*$")]
    formation: FormationId
    road: Annotated[list[HexStr], Field(min_length=2, max_length=2)]
    barred: Literal["north", "south"]
    until: list[Place]


class ScenarioVersion(_Strict):
    """One version of the battle in scenario.json's `scenarios`: the historical one (caldiero §21) or an
    alternative of §19 (its weather, reinforcement timing and the places that cost the French points)."""

    title: str
    rule: str
    fixed_weather: int | None
    reinforcement_shift: int
    french_vp_malus_places: list[Place]  # caldiero §19.2.3: places the map names


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
    flanked_neighbours: int | None = Field(default=None, ge=1, le=6)  # caldiero §20.5 "cinque dei sei esagoni": 5

    def problems(self) -> list[tuple[Where, str]]:
        """A formation comes with the printed one whose units it takes (new_state reads them as a pair), and is on
        the map from the first turn, never a reserve: new_state reads neither `arrival_turn` nor `reserve` of it."""
        found: list[tuple[Where, str]] = []
        if (self.formation is None) != (self.takes is None):
            found.append((("takes",), "required with `formation`: the printed formation whose units it takes")
                         if self.takes is None else
                         (("formation",), "required with `takes`: the formation that takes its units"))
        if self.formation is not None and self.formation.arrival_turn != 1:
            found.append((("formation", "arrival_turn"), "an option's formation is there from the first turn: omit it"))
        if self.formation is not None and self.formation.reserve:
            found.append((("formation", "reserve"), "an option's formation is never a reserve: omit it"))
        return found


INTERVENTION = "bonaparte_intervention"  # caldiero §20.1: the option that must bring a formation (Bonaparte's)
FLANKS = "flank_attacks"  # caldiero §20.5: the option that needs how many of the six neighbours flank a defender


class MinorRoadColumn(_Strict):
    """caldiero §9.3.1 "un punto movimento in meno (ma mai meno di 1)", in half MP: what a march column saves along a
    minor road and the floor, where the reading minor_road_cost: other_terrain prices the minor road as the other
    terrain (CaldieroVariant.road_costs; the default reading's flat 1 MP is tables/movement.json's own cost). The
    floor is at least 1 half-point: a free step is refused here as in a movement table (maps/costs.FREE_STEP). No
    `rule` of its own (one was loaded and read by nothing until the twenty-second session): a step's cost is cited as
    every step's, the terrain effects' (caldiero §9.2), and this docstring names §9.3.1."""

    reduce_by: int = Field(ge=0)
    minimum: int = Field(ge=1)


class ElanColumns(_Strict):
    """caldiero §16.1 "Se lo supera l'attaccante riceve 1d6 colonne di vantaggio nel rapporto di forze": the dice
    (d6) whose total shifts a passed Elan's assault that many columns in the attacker's favour (right)."""

    rule: str
    dice: int = Field(ge=1)


class CaldieroScenario(pb.ScenarioFile):
    """Caldiero's scenario file: the kernel's, and what caldiero §4.2.2, §9.2.1, §16, §18-§21 print."""

    french_initiative: int
    elan_uses: int
    elan_columns: ElanColumns  # caldiero §16.1
    commander_limits: list[CommanderLimit]  # caldiero §4.2.2
    austrian_forbidden_column: int
    victory_hexes: list[pb.ObjectiveHex]  # caldiero §18
    victory_levels: list[VictoryLevel]  # caldiero §18: each by its `min` alone, the highest reached counting
    attack_directions: list[AttackDirection]  # caldiero §19.1
    scenarios: dict[str, ScenarioVersion]
    options: dict[str, OptionEffects]
    weather: Literal[True]  # every version is played with its weather track (caldiero §17)
    minor_road_column: MinorRoadColumn  # caldiero §9.3.1 under the reading minor_road_cost: other_terrain

    @model_validator(mode="before")
    @classmethod
    def _older(cls, data: object) -> object:
        """A scenario file from before §20.1's formation was data (it has `french_entry`): ONE problem naming every
        edit it needs, not only the unknown key (dropped alone, the folder would play §20.1 without the formation)."""
        if not isinstance(data, dict) or "french_entry" not in data:
            return data
        option = (data.get("options") or {}).get(INTERVENTION) or {}
        edits = ["delete `french_entry` (each arrival names its entry hex in oob.json)"] + [
            f"add options.{INTERVENTION}.{key} ({what})" for key, what in (
                ("formation", 'the formation §20.1 brings: {"id": "bonaparte", "side": "france", "general": '
                              '"bonaparte", "initial_order": "advance"}'),
                ("takes", 'the printed formation whose units it takes: "reserve"')) if key not in option]
        raise ValueError("a scenario file older than caldiero §20.1's formation as data (docs/exchange-format.md, "
                         "thirteenth session): " + "; ".join(edits))

    def problems(self) -> list[tuple[Where, str]]:
        """caldiero §20.1's option brings Bonaparte's formation: without it the option would be played with the
        reserve joining Massena or Augereau (§15.4.3) and the Austrian bonus still counted."""
        found, option = super().problems(), self.options.get(INTERVENTION)
        if option is not None and option.formation is None and option.takes is None:
            found.append((("options", INTERVENTION), f"{option.rule} brings Bonaparte's formation: add its `formation` "
                                                    "and the printed formation it `takes` (the reserve)"))
        flanks = self.options.get(FLANKS)
        if flanks is not None and flanks.flanked_neighbours is None:
            found.append((("options", FLANKS, "flanked_neighbours"), f"required: how many of the defender's six "
                          f"neighbours the attack must hold or control ({flanks.rule}: 5)"))
        return found


BATTLE = "caldiero"  # the scenario folder: every version of the battle (scenario.json's `scenarios`) is played on it
UNIT_CLASS = "unit"  # costs do not depend on the arm in Caldiero (terrain effects table): every move is priced so


class CaldieroFolder(DataFolder):
    """Caldiero's data folder: the kernel's layout, one scenario folder (BATTLE) with its weather track (caldiero §17)."""

    def scenario_problems(self, s: ScenarioData) -> list[DataProblem]:
        """The commanders in chief's limits (caldiero §4.2.2) agree with the order of battle, the options and the
        readings."""
        assert isinstance(s.scenario, CaldieroScenario)
        file = f"{s.name}/scenario.json"
        return (limit_problems(file, s.scenario.commander_limits, s.oob, s.scenario.options, s.interpretations)
                + option_formation_problems(file, s.scenario.options, s.oob)
                + direction_road_problems(file, s.scenario.attack_directions, s.map))

    def moved(self, data_dir: Path) -> list[DataProblem]:
        """A folder in the flat layout Caldiero's data had before 0.41.0 (every file at the root): each file named
        with where it goes now (docs/exchange-format.md), tables into tables/, the battle's files into its folder; Caldiero's
        weather boxes name no table of their own now (box 3 scales the minor roads of tables/movement.json)."""
        tables = {f"{t}.json" for t in self.tables} | {"movement.json"}
        return [DataProblem(p.name, "$", "the data folder's layout changed: " + (
                    f"move it to {'tables' if p.name in tables else BATTLE}/{p.name}" if not p.name.startswith("movement_")
                    else f"delete it (and its box's movement_table in {BATTLE}/weather.json): the box scales "
                         "tables/movement.json's roads by its scaled_roads"))
                for p in sorted(data_dir.glob("*.json"))
                if p.name in tables or p.name in SCENARIO_FILES or p.name.startswith("movement_")]


CALDIERO_DATA = CaldieroFolder(Path(__file__).parent / "data", "caldiero_data", (BATTLE,), CaldieroScenario,
                               WeatherTable, priced=(UNIT_CLASS,))


def option_formation_problems(file: str, options: dict[str, OptionEffects], oob: OrderOfBattle) -> list[DataProblem]:
    """An option's formation (caldiero §20.1) is a new one, under a general of its side who commands no printed
    formation, taking the reserve's units (new_state would otherwise overwrite a printed formation, give its units to
    the other side, or leave §15.4.3's joining, which reads the reserve, to a formation that no longer exists)."""
    printed = {f.id: f for f in oob.formations}
    leaders = {leader.id: leader for leader in oob.leaders}
    problems = []
    for name, f, takes in sorted((n, o.formation, o.takes) for n, o in options.items() if o.formation is not None):
        if takes in printed and not printed[takes].reserve:  # §15.4.3's code joins only the reserve's units
            problems.append(DataProblem(file, f"$.options.{name}.takes", f"{takes!r} is not the reserve (caldiero "
                                                                         "§15.4.3): an option's formation takes its units"))
        where = f"$.options.{name}.formation"
        if f.id in printed:
            problems.append(DataProblem(file, f"{where}.id", f"{f.id!r} is a formation of the order of battle: an "
                                                             "option's formation is a new one"))
        general = leaders.get(f.general) if f.general is not None else None  # an unknown one: unknown_names
        if general is not None and general.side != f.side:
            problems.append(DataProblem(file, f"{where}.general", f"{f.general!r} is a leader of {general.side}, "
                                                                  f"not of the formation's side {f.side}"))
        elif general is not None and general.formation not in (None, f.id):
            problems.append(DataProblem(file, f"{where}.general", f"{f.general!r} is a leader of the printed "
                                                                  f"formation {general.formation!r}"))
    return problems


def direction_road_problems(file: str, directions: list[AttackDirection], hexmap: HexMap) -> list[DataProblem]:
    """caldiero §19.1: each direction's `road` names the two ends of a road of the map (north and south are read from
    its course: map_rules.north_south_of_road)."""
    return [DataProblem(file, f"$.attack_directions[{i}].road", f"no road of the map runs from {a} to {b} "
                                                                 "(caldiero §19.1: north or south of it is barred)")
            for i, d in enumerate(directions) for a, b in [d.road] if not road_between(hexmap, a, b)]


def road_between(hexmap: HexMap, a: str, b: str) -> list[str]:
    """The hexes of the map's roads from a to b, both included: the stretch each road through both runs between them
    ("la strada che corre da 1014 a 2714": north and south are read of that stretch, not of the whole road)."""
    stretches = []
    for road in hexmap.roads:
        if a in road.hexes and b in road.hexes:
            i, j = sorted((road.hexes.index(a), road.hexes.index(b)))
            stretches.extend(road.hexes[i:j + 1])
    return stretches
