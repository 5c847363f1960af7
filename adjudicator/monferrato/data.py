"""Load and check Monferrato's data files (map, order of battle, scenario, chit table): typed schemas, every
problem of every file at once in the kit's one :class:`DataError` (file, JSON path, what is wrong).

The shipped data are read once per process (`load()`); a user's own data folder (`arbitro new monferrato 1628 --data
DIR`, Ruleset.read_data) is carried by its game (`MonferratoState.data_files`) and built once per process and content
hash (`load_files`). The rules read the data in force through `current()`: the shipped data, or the files of the game
the ruleset is working on (`bound`). The game state never copies terrain or counter values. What the text does not
print is marked provisional in the files, and `provisional_items` lists it for `status` and `verify`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from arbitro.adjudicator.datafiles import DataError, DataProblem, OwnData, json_path, json_problem, read_text
from arbitro.adjudicator.errors import JsonUnreadable, read_outside_json
from arbitro.adjudicator.maps.areas import AreaGraph, graph_problems

DATA_DIR = Path(__file__).parent / "data"
MAP_FILE = DATA_DIR / "map.json"
OOB_FILE = DATA_DIR / "oob.json"
SCENARIO_FILE = DATA_DIR / "scenario.json"
CHITS_FILE = DATA_DIR / "chits.json"
FILES = (MAP_FILE, OOB_FILE, SCENARIO_FILE, CHITS_FILE)
NAMES = tuple(f.name for f in FILES)  # a data folder's files

SEATS = ("pro_france", "pro_spain")
Seat = Literal["pro_france", "pro_spain"]
Kind = Literal["garrison", "infantry", "cavalry", "artillery", "sapper", "commander", "camp"]
COMBAT_KINDS = ("garrison", "infantry", "cavalry", "artillery", "sapper")
_M = TypeVar("_M", bound=BaseModel)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Meta(_Strict):
    title: str
    rule: str
    provisional: bool
    note: str


class Zone(_Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    inset: Literal["monferrato", "mantova", "valtellina"]
    region: str
    terrain: Literal["open", "difficult"]
    town: bool
    fortress: bool
    vp: int = Field(ge=0)


class Wall(_Strict):
    side: int = Field(ge=1)
    level: int = Field(ge=0, le=9)


class Border(_Strict):
    zones: tuple[str, str]
    kind: Literal["land", "river", "impassable", "passage"]
    bridge: bool = False
    wall: Wall | None = None
    cost: Literal["1", "all"] | None = None  # a special passage's cost (monferrato §2.3.1)


class Edges(_Strict):
    """The zones on the edge of the map, from which units leave it (monferrato §6): the text does not give them."""

    provisional: bool
    note: str
    zones: tuple[str, ...]


class MapFile(_Strict):
    meta: Meta
    regions: dict[str, str]
    zones: tuple[Zone, ...]
    borders: tuple[Border, ...]
    edges: Edges | None = None  # none: no unit can leave the map


class UnitSpec(_Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    nation: str
    command: str
    kind: Kind
    fire: int = Field(default=0, ge=0, le=6)
    defence: int | None = Field(default=None, ge=1, le=6)  # two-value infantry (monferrato §14.2), garrisons
    major: bool = False  # monferrato §14.3
    leadership: int = Field(default=0, ge=0, le=6)
    replacement: str | None = None  # the commander on the back (monferrato §7.4.1)
    provisional: bool = False

    @property
    def combat(self) -> bool:
        return self.kind in COMBAT_KINDS


class GroupSpec(_Strict):
    id: str
    title: str
    command: str
    entry: str
    units: tuple[str, ...] = Field(min_length=1)
    provisional: bool = False


class OobFile(_Strict):
    meta: Meta
    factions: dict[Seat, tuple[str, ...]]
    commands: dict[str, str]  # command -> nation (its army)
    units: tuple[UnitSpec, ...]
    groups: tuple[GroupSpec, ...]


class TurnSpec(_Strict):
    id: str
    name: str
    year: int
    winter: bool  # cavalry moves 4 (monferrato §14.4)
    morale_minus: bool  # "Morale -1" printed on the box (monferrato §4 e, §15)


class Prudence(_Strict):
    nation: str
    region: str
    vp_to: Seat
    vp: int
    rule: str


class ClosedRegion(_Strict):
    region: str
    until_group: str


class Lakes(_Strict):
    fortress: str
    fire: int


class MoraleBands(_Strict):
    high: int = Field(ge=2, le=9)  # this value and above: high (monferrato §15)
    medium: int = Field(ge=2, le=9)  # this value and above, below high: medium; below: low
    provisional: bool = False


class SetUpChoice(_Strict):
    """A choice the scenario's set-up leaves to a player (monferrato scenario, "Setup iniziale"), asked in order on
    the engine's decision stack (adjudicator/monferrato/setup.py): `together` (all `units` to one of the zones),
    `each` (each unit to any of the zones), `one_of` (one of `units` to the zone, the others with `rest_with`), `fort`
    (one fort counter to one of the zones). The zones: `zones`, or every zone of `regions`, or of `inset` (with
    `narrow_region` the zones of that region only, under the reading `mantova_inset_fort: duchy`)."""

    seat: Seat
    how: Literal["together", "each", "one_of", "fort"]
    text: str  # the scenario's words
    units: tuple[str, ...] = ()
    zones: tuple[str, ...] = ()
    regions: tuple[str, ...] = ()
    inset: str | None = None
    narrow_region: str | None = None
    rest_with: str | None = None
    values: tuple[int, ...] = ()  # a one_of choice's "a scelta" values, chosen per counter under scelta_3_o_4: value_each


class ScenarioFile(_Strict):
    meta: Meta
    morale_bands: MoraleBands
    first_player: Seat
    initial_commands: tuple[str, ...]
    morale: int = Field(ge=1, le=9)
    hand: int = Field(ge=1)
    opening_chits: dict[Seat, tuple[str, ...]]
    setup: dict[str, dict[str, tuple[str, ...]]]
    setup_choices: tuple[SetUpChoice, ...] = ()
    setup_provisional: tuple[str, ...]
    forts: dict[str, tuple[Seat, ...]]
    fort_counters: dict[Seat, int]
    supply_sources: dict[str, tuple[str, ...]]
    always_supplied: dict[Seat, tuple[str, ...]]
    raid_regions: dict[str, tuple[str, ...]]
    raid_everyone: tuple[str, ...]
    victory_zones: dict[str, int]
    prudence: tuple[Prudence, ...]
    closed_region: ClosedRegion
    no_camp: tuple[str, ...]
    lakes: Lakes
    timeline: tuple[TurnSpec, ...] = Field(min_length=1)
    first_turn: str
    last_turn: str
    red_chits_from: str


class Effect(_Strict):
    kind: Literal["none", "morale", "vp", "reinforcements", "replacements", "end", "steady"]
    target: Literal["own", "enemy", "all"] | None = None
    delta: int = 0
    unit_kinds: tuple[Kind, ...] = ()
    count: int = 0


class ChitSpec(_Strict):
    id: str = Field(pattern=r"^chit[0-9]{2}$")  # two digits: no id is a substring of another (the leak tests)
    number: int
    name: str
    colour: Literal["blue", "red"]
    mandatory: Literal["no", "yes", "conditional"]
    date: str | None
    reinforcements: str | None
    remove_if_used: bool
    response: bool
    effect: Effect
    provisional: bool = False


class ChitsFile(_Strict):
    meta: Meta
    chits: tuple[ChitSpec, ...]


class _Approach(_Strict):
    """One side of a border, as the area graph indexes it (maps.areas): `zone`'s side facing `toward`."""

    id: str
    zone: str
    toward: str
    impassable: bool
    border: int  # index into MapFile.borders


@dataclass(kw_only=True)
class MonferratoData(AreaGraph[Zone, _Approach, _Approach]):
    """The checked data with the look-ups the rules need: the zone graph (maps.areas), units, groups, chits."""

    map: MapFile
    oob: OobFile
    scenario: ScenarioFile
    chit_table: ChitsFile
    units: dict[str, UnitSpec] = field(default_factory=dict)
    groups: dict[str, GroupSpec] = field(default_factory=dict)
    chits: dict[str, ChitSpec] = field(default_factory=dict)
    turn_index: dict[str, int] = field(default_factory=dict)
    factions: dict[str, str] = field(default_factory=dict)  # unit -> its faction, asked for every unit a line passes

    def border(self, a: str, b: str) -> Border:
        return self.map.borders[self.approach(a, b).border]

    def on_edge(self, zone: str) -> bool:
        """A zone on the map's edge: units may leave the map from it (monferrato §6)."""
        return self.map.edges is not None and zone in self.map.edges.zones

    def faction_of_nation(self, nation: str) -> str:
        return next(s for s, nations in self.oob.factions.items() if nation in nations)

    def faction(self, unit: str) -> str:
        known = self.factions.get(unit)
        return known if known is not None else self.faction_of_nation(self.units[unit].nation)

    def army(self, command: str) -> str:
        return self.oob.commands[command]

    def turn(self, index: int) -> TurnSpec:
        return self.scenario.timeline[min(index, len(self.scenario.timeline) - 1)]

    def provisional_items(self) -> list[str]:
        items = [f"{path.name}: {meta.note}" for path, meta in (
            (MAP_FILE, self.map.meta), (OOB_FILE, self.oob.meta), (SCENARIO_FILE, self.scenario.meta),
            (CHITS_FILE, self.chit_table.meta)) if meta.provisional]
        if self.map.edges and self.map.edges.provisional:
            items.append(f"map.json: the map's edge zones (units leave the map from them, §6): {self.map.edges.note}")
        items += [f"scenario.json: set-up choice fixed: {s}" for s in self.scenario.setup_provisional]
        n = sum(1 for u in self.oob.units if u.provisional)
        if n:
            items.append(f"oob.json: the values of {n} counters")
        n = sum(1 for c in self.chit_table.chits if c.provisional)
        if n:
            items.append(f"chits.json: {n} of {len(self.chit_table.chits)} chits")
        return items


class _Problems:
    def __init__(self, file: str) -> None:
        self.file, self.found = file, []  # type: ignore[var-annotated]

    def __call__(self, path: str, problem: str) -> None:
        self.found.append(DataProblem(self.file, path, problem))


def _parse(model: type[_M], text: str | None, file: str, found: list[DataProblem]) -> _M | None:
    """`text` (the content of `file`; None: missing) as `model`; its problems are added to `found`."""
    if text is None:
        found.append(DataProblem(file, "$", "file not found"))
        return None
    try:
        raw = read_outside_json(text)
    except JsonUnreadable as e:  # nested too deeply, an overlong number too: a DataProblem, not a traceback
        found.append(json_problem(file, e))
        return None
    try:
        return model.model_validate_json(json.dumps(raw))
    except ValidationError as exc:
        found += [DataProblem(file, json_path(e["loc"]), e["msg"][:200]) for e in exc.errors()]
        return None


def approaches(m: MapFile) -> list[_Approach]:
    out = []
    for i, b in enumerate(m.borders):
        a, c = b.zones
        out.append(_Approach(id=f"{a}/{c}", zone=a, toward=c, impassable=b.kind == "impassable", border=i))
        out.append(_Approach(id=f"{c}/{a}", zone=c, toward=a, impassable=b.kind == "impassable", border=i))
    return out


def check_map(m: MapFile, report: _Problems) -> None:
    graph_problems(m.zones, approaches(m), (), report)
    zones = {z.id: z for z in m.zones}
    for i, z in enumerate(m.zones):
        if z.region not in m.regions:
            report(f"$.zones[{i}].region", f"unknown region {z.region!r}")
    for i, b in enumerate(m.borders):
        if b.wall and not any(zones.get(x) and zones[x].fortress for x in b.zones):
            report(f"$.borders[{i}].wall", "a wall side must border a fortress zone (monferrato §2.3)")
        if b.bridge and b.kind != "river":
            report(f"$.borders[{i}].bridge", "only a river border has a bridge (monferrato §2.3)")
        if (b.kind == "passage") != (b.cost is not None):
            report(f"$.borders[{i}].cost", "a passage, and only a passage, has a cost (monferrato §2.3.1)")
    for j, zone in enumerate(m.edges.zones if m.edges else ()):
        if zone not in zones:
            report(f"$.edges.zones[{j}]", f"unknown zone {zone!r}")
    for z in m.zones:
        if z.fortress and not any(b.wall for b in m.borders if z.id in b.zones):
            report("$.zones", f"fortress {z.id!r} has no wall sides (monferrato §2.3)")


def check_oob(o: OobFile, zones: set[str], report: _Problems) -> None:
    ids = [u.id for u in o.units]
    nations = {n for ns in o.factions.values() for n in ns}
    for i, u in enumerate(o.units):
        if ids.index(u.id) != i:
            report(f"$.units[{i}].id", f"duplicate unit {u.id!r}")
        if u.command not in o.commands:
            report(f"$.units[{i}].command", f"unknown command {u.command!r}")
        elif o.commands[u.command] != u.nation:
            report(f"$.units[{i}].nation", f"command {u.command!r} belongs to {o.commands[u.command]!r}")
        if u.nation not in nations:
            report(f"$.units[{i}].nation", f"nation {u.nation!r} is in no faction")
        if u.kind == "commander" and u.leadership < 1:
            report(f"$.units[{i}].leadership", "a commander has a leadership value (monferrato §2.1)")
        if u.combat and u.fire < 1:
            report(f"$.units[{i}].fire", "a combat unit has a fire value (monferrato §2.1)")
    for i, g in enumerate(o.groups):
        if g.entry not in zones:
            report(f"$.groups[{i}].entry", f"unknown zone {g.entry!r}")
        for j, uid in enumerate(g.units):
            if uid not in ids:
                report(f"$.groups[{i}].units[{j}]", f"unknown unit {uid!r}")


def check_scenario(s: ScenarioFile, o: OobFile, zones: set[str], chits: ChitsFile, report: _Problems) -> None:
    ids = {u.id for u in o.units}
    placed: set[str] = set()
    for command, where in s.setup.items():
        for zone, units in where.items():
            if zone not in zones:
                report(f"$.setup.{command}.{zone}", f"unknown zone {zone!r}")
            for j, uid in enumerate(units):
                if uid not in ids:
                    report(f"$.setup.{command}.{zone}[{j}]", f"unknown unit {uid!r}")
                if uid in placed:
                    report(f"$.setup.{command}.{zone}[{j}]", f"unit {uid!r} set up twice")
                placed.add(uid)
    for i, choice in enumerate(s.setup_choices):
        for j, uid in enumerate(choice.units):
            if uid not in ids:
                report(f"$.setup_choices[{i}].units[{j}]", f"unknown unit {uid!r}")
            if uid in placed:
                report(f"$.setup_choices[{i}].units[{j}]", f"unit {uid!r} set up twice")
            placed.add(uid)
        for zone in choice.zones:
            if zone not in zones:
                report(f"$.setup_choices[{i}].zones", f"unknown zone {zone!r}")
        if choice.rest_with is not None and choice.rest_with not in placed:
            report(f"$.setup_choices[{i}].rest_with", f"{choice.rest_with!r} is not set up before this choice")
        if (choice.how == "fort") == bool(choice.units):
            report(f"$.setup_choices[{i}].units", "a fort choice places no unit; every other choice places some")
    grouped = {u for g in o.groups for u in g.units}
    for u in o.units:
        if (u.id in placed) == (u.id in grouped):
            report("$.setup", f"unit {u.id!r} must be in exactly one of the set-up and the reinforcement groups")
    turns = [t.id for t in s.timeline]
    for key in ("first_turn", "last_turn", "red_chits_from"):
        if getattr(s, key) not in turns:
            report(f"$.{key}", f"unknown turn {getattr(s, key)!r}")
    for zone in [*s.forts, *s.victory_zones, *(z for zs in s.supply_sources.values() for z in zs)]:
        if zone not in zones:
            report("$", f"unknown zone {zone!r}")
    for command in s.initial_commands:
        if command not in o.commands:
            report("$.initial_commands", f"unknown command {command!r}")
    chit_ids = {c.id for c in chits.chits}
    for seat, cs in s.opening_chits.items():
        for c in cs:
            if c not in chit_ids:
                report(f"$.opening_chits.{seat}", f"unknown chit {c!r}")


def check_chits(c: ChitsFile, o: OobFile, turns: set[str], report: _Problems) -> None:
    groups = {g.id for g in o.groups}
    ids = [x.id for x in c.chits]
    for i, x in enumerate(c.chits):
        if ids.index(x.id) != i:
            report(f"$.chits[{i}].id", f"duplicate chit {x.id!r}")
        if x.id != f"chit{x.number:02d}":
            report(f"$.chits[{i}].id", f"chit number {x.number} must have id chit{x.number:02d}")
        if x.date is not None and x.date not in turns:
            report(f"$.chits[{i}].date", f"unknown turn {x.date!r}")
        if (x.reinforcements is not None) != (x.effect.kind == "reinforcements"):
            report(f"$.chits[{i}].reinforcements", "a reinforcement chit (R) names its group (monferrato §16.3)")
        if x.reinforcements is not None and x.reinforcements not in groups:
            report(f"$.chits[{i}].reinforcements", f"unknown group {x.reinforcements!r}")
        if x.response != (x.effect.kind == "steady"):
            report(f"$.chits[{i}].response", "the response chits are those whose effect is 'steady'")


def load_from(map_file: Path = MAP_FILE, oob_file: Path = OOB_FILE, scenario_file: Path = SCENARIO_FILE,
              chits_file: Path = CHITS_FILE) -> MonferratoData:
    """Every file read and checked; a :class:`DataError` lists every problem of every file at once."""
    texts = {name: read_text(path, name) for name, path in zip(NAMES, (map_file, oob_file, scenario_file, chits_file))
             if path.is_file()}
    return build(texts)


def build(texts: Mapping[str, str], folder: str = "") -> MonferratoData:
    """The four files (name -> text) parsed and cross-checked; every problem of every file at once (DataError,
    each problem naming its file, under `folder` when given)."""
    found: list[DataProblem] = []
    label = {name: f"{folder.rstrip('/')}/{name}" if folder else name for name in NAMES}
    m = _parse(MapFile, texts.get("map.json"), label["map.json"], found)
    o = _parse(OobFile, texts.get("oob.json"), label["oob.json"], found)
    s = _parse(ScenarioFile, texts.get("scenario.json"), label["scenario.json"], found)
    c = _parse(ChitsFile, texts.get("chits.json"), label["chits.json"], found)
    reports = [_Problems(label[name]) for name in NAMES]
    zones = {z.id for z in m.zones} if m else set()
    if m:  # each check runs when the files it reads parsed, so one broken file hides no other file's problems
        check_map(m, reports[0])
    if m and o:
        check_oob(o, zones, reports[1])
    if m and o and s and c:
        check_scenario(s, o, zones, c, reports[2])
    if o and s and c:
        check_chits(c, o, {t.id for t in s.timeline}, reports[3])
    found += [p for r in reports for p in r.found]
    if found or m is None or o is None or s is None or c is None:
        raise DataError(found)
    d = MonferratoData(map=m, oob=o, scenario=s, chit_table=c)
    d.index(m.zones, approaches(m), ())
    d.units = {u.id: u for u in o.units}
    d.groups = {g.id: g for g in o.groups}
    d.chits = {x.id: x for x in c.chits}
    d.turn_index = {t.id: i for i, t in enumerate(s.timeline)}
    d.factions = {u.id: d.faction_of_nation(u.nation) for u in o.units}
    return d


@lru_cache(maxsize=1)
def load() -> MonferratoData:
    """The shipped data, read once per process."""
    return load_from()


# --- a user's own data folder (monferrato: `arbitro new monferrato 1628 --data DIR`) ----------------------
def read_folder(folder: Path) -> dict[str, str]:
    """A user's data folder as name -> text: the four files, each taken from the folder when it holds one and from
    the shipped data otherwise (so the game carries, and its hash covers, every value it is played with); checked
    as the shipped data are, every problem of every file at once."""
    if not folder.is_dir():
        raise DataError([DataProblem(str(folder), "$", "not a folder: --data names a folder holding any of "
                                                          + ", ".join(NAMES))])
    own = {name: read_text(folder / name, str(folder / name)) for name in NAMES if (folder / name).is_file()}
    if not own:
        raise DataError([DataProblem(str(folder), "$", "holds none of " + ", ".join(NAMES))])
    texts = {name: own.get(name) or read_text(path, name) for name, path in zip(NAMES, FILES)}
    build(texts, str(folder))
    return texts


# a game's own files (load_files), built once per process and content hash (never by folder or game name: two
# games on different data in one process never share an answer); `current()` is the data in force: the files of the
# game the ruleset is working on (`bound`), else the shipped data
OWN: OwnData[MonferratoData] = OwnData("monferrato_data", build, load)
load_files, current, bound = OWN.load, OWN.current, OWN.bound
