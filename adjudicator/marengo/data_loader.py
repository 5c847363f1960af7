"""Load and check Marengo's data files (map, armies, tables): typed schemas, precise errors.

The shipped data are read once per process (`load_data()`); a user's own data folder (`arbitro new marengo
marengo --data DIR`, Ruleset.read_data) is carried by its game and built once per process and content hash
(`load_files`). The rules read the data in force through `current()`: the shipped data, or the files a game
carries while the ruleset is working on that game (`bound`). Errors name the file, the JSON path and what is
wrong, every problem of both files at once (marengo §4-§6 data).
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
ARMIES_FILE = DATA_DIR / "armies.json"
FILES = ("armies.json", "map.json")  # a data folder's files, by name

Side = Literal["france", "austria"]
Arm = Literal["infantry", "cavalry", "artillery"]
ARMS: tuple[Arm, ...] = ("infantry", "cavalry", "artillery")
SIDES: tuple[Side, ...] = ("austria", "france")
_M = TypeVar("_M", bound=BaseModel)


class _Problems:
    """Collects every problem of one file, so a data author sees them all at once."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self.found: list[DataProblem] = []

    def __call__(self, path: str, problem: str) -> None:
        self.found.append(DataProblem(str(self.file), path, problem))

    def raise_if_any(self) -> None:
        if self.found:
            raise DataError(self.found)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Meta(_Strict):
    title: str
    rule: str
    provisional: bool
    note: str


class Penalty(_Strict):
    infantry: int = Field(ge=0, le=3)
    cavalry: int = Field(ge=0, le=3)
    artillery: int = Field(ge=0, le=3)


class ZoneSpec(_Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    capacity: int = Field(ge=1, le=8)
    star: Literal["red", "green", "blue"] | None
    at_start: int = Field(ge=0, le=4)
    provisional: bool = False
    source: str = ""  # the public source of what it settles (issue 19); provisional says what it does not


class ApproachSpec(_Strict):
    id: str
    zone: str
    toward: str
    width: Literal["narrow", "wide"]
    penalty: Penalty
    cavalry_obstacle: bool
    impassable: bool
    provisional: bool = False
    source: str = ""


class RoadSpec(_Strict):
    id: str
    name: str
    kind: Literal["main", "secondary"]
    zones: tuple[str, ...] = Field(min_length=2)
    provisional: bool = False
    source: str = ""


class EntryPointSpec(_Strict):
    id: str
    side: Side
    zone: str
    road: str


class PontoonSpec(_Strict):
    side: Side
    zone: str
    per_turn: int = Field(ge=1)
    rule: str


class MapFile(_Strict):
    meta: Meta
    # the reference map's locale numbers -> zones (adjudicator/marengo/aliases.py); a transcriber's names
    locales: dict[str, str] = Field(default_factory=dict)
    locales_source: str = ""
    zones: tuple[ZoneSpec, ...]
    approaches: tuple[ApproachSpec, ...]
    roads: tuple[RoadSpec, ...]
    entry_points: tuple[EntryPointSpec, ...]
    pontoon: PontoonSpec


class TimeSpec(_Strict):
    first_hour: int = Field(ge=0, le=23)
    rounds: int = Field(ge=1)
    activation_free_hour: int


class SideSpec(_Strict):
    name: str
    morale: int = Field(ge=1)
    provisional: bool = False


class BlockSpec(_Strict):
    id: str = Field(pattern=r"^(FRA|AUT)_[A-Z0-9_]+$")
    side: Side
    arm: Arm
    strength: int = Field(ge=1, le=3)
    name: str
    provisional: bool = False
    source: str = ""


class PieceSetSpec(_Strict):
    """The strengths the box has a piece for, per arm (marengo §4: a reduced piece is swapped for a weaker one)."""

    infantry: tuple[int, ...]
    cavalry: tuple[int, ...]
    artillery: tuple[int, ...]
    source: str = ""


class AtStartSpec(_Strict):
    blocks: tuple[str, ...]
    provisional: bool = False
    source: str = ""


class ArrivalSpec(_Strict):
    hour: int
    blocks: tuple[str, ...] = Field(min_length=1)


class ReinforcementTable(_Strict):
    id: str
    side: Side
    title: str
    entry: str
    arrivals: tuple[ArrivalSpec, ...]
    provisional: bool = False


class ArmiesFile(_Strict):
    meta: Meta
    time: TimeSpec
    sides: dict[Side, SideSpec]
    blocks: tuple[BlockSpec, ...]
    piece_set: PieceSetSpec
    at_start: AtStartSpec
    reinforcements: tuple[ReinforcementTable, ...]


@dataclass(frozen=True)
class RoadSegment:
    """A road crossing one pair of approaches: from `a` to `b` (zones), through approach `a/b`."""

    road: str
    kind: str
    a: str
    b: str


@dataclass(kw_only=True)
class MarengoData(AreaGraph[ZoneSpec, ApproachSpec, RoadSpec]):
    """The checked data with the look-ups the rules need (built once): the zone graph (maps.areas) and the armies."""

    map: MapFile
    armies: ArmiesFile
    blocks: dict[str, BlockSpec] = field(default_factory=dict)
    entries: dict[str, EntryPointSpec] = field(default_factory=dict)
    tables: dict[str, ReinforcementTable] = field(default_factory=dict)

    def provisional_items(self) -> list[str]:
        items: list[str] = []
        if self.map.meta.provisional:
            items.append(f"map.json: {self.map.meta.note}")
        if len(set(self.map.locales.values())) < len(self.map.zones):
            items.append(f"map.json: the reference map's locale numbers of {len(set(self.map.locales.values()))} "
                         f"of {len(self.map.zones)} zones are known")
        for what, specs in (("zones", self.map.zones), ("approaches", self.map.approaches), ("roads", self.map.roads)):
            n = sum(1 for x in specs if x.provisional)
            if n:
                items.append(f"map.json: {n} of {len(specs)} {what} (position and values)")
        if self.armies.meta.provisional:
            items.append(f"armies.json: {self.armies.meta.note}")
        for side in SIDES:
            if self.armies.sides[side].provisional:
                items.append(f"armies.json: initial morale of {side} ({self.armies.sides[side].morale})")
        if self.armies.at_start.provisional:
            items.append("armies.json: the French At Start table")
        for t in self.armies.reinforcements:
            if t.provisional:
                items.append(f"armies.json: reinforcement table {t.id} ({t.title})")
        n = sum(1 for b in self.armies.blocks if b.provisional)
        if n:
            items.append(f"armies.json: type and strength of {n} of {len(self.armies.blocks)} blocks")
        return items


def _parse(model: type[_M], file: Path) -> _M:
    return _parse_text(model, read_text(file, str(file)) if file.exists() else None, str(file))


def _parse_text(model: type[_M], text: str | None, file: str) -> _M:
    """`text` (the content of `file`; None: missing) as `model`, or a DataError naming every problem in it."""
    if text is None:
        raise DataError([DataProblem(file, "$", "file not found")])
    try:
        raw = read_outside_json(text)
    except JsonUnreadable as e:  # nested too deeply, an overlong number too: a DataProblem, not a traceback
        raise DataError([json_problem(file, e)]) from None
    try:
        # JSON mode: strict types, but JSON arrays are accepted for tuples
        return model.model_validate_json(json.dumps(raw))
    except ValidationError as exc:
        problems = [DataProblem(file, json_path(err["loc"]), f"{err['msg']} (got {err.get('input')!r})"[:300])
                    for err in exc.errors()]
        raise DataError(problems) from exc


def check_map(m: MapFile, file: Path = MAP_FILE) -> None:
    """Cross-references of the map (marengo §5): the zone graph's (maps.areas.graph_problems), entry points,
    the pontoon and the star zones.
    Raises DataError listing every problem found."""
    report = _Problems(file)
    graph_problems(m.zones, m.approaches, m.roads, report)
    zones = {z.id for z in m.zones}
    roads = {r.id: r for r in m.roads}
    for i, e in enumerate(m.entry_points):
        if e.zone not in zones:
            report(f"$.entry_points[{i}].zone", f"unknown zone {e.zone!r}")
        if e.road not in roads:
            report(f"$.entry_points[{i}].road", f"unknown road {e.road!r}")
        elif e.zone not in (roads[e.road].zones[0], roads[e.road].zones[-1]):
            report(f"$.entry_points[{i}].zone", f"{e.zone!r} is not an end of road {e.road!r}")
    if m.pontoon.zone not in zones:
        report("$.pontoon.zone", f"unknown zone {m.pontoon.zone!r}")
    for number, zone in sorted(m.locales.items()):
        if zone not in zones:
            report(f"$.locales.{number}", f"unknown zone {zone!r}")
        if number in zones or "/" in number:
            report(f"$.locales.{number}", "a locale name may be neither a zone id nor hold '/'")
    report.raise_if_any()


def scenario_problems(m: MapFile, a: ArmiesFile, map_file: str, armies_file: str) -> list[DataProblem]:
    """What the scenario needs beyond a well-formed map and order of battle: eight star zones of three colours
    (marengo §14) and as many At Start marks as At Start blocks (§6). A map made for a rules question (a
    position on a user's data folder) need not have them."""
    out: list[DataProblem] = []
    stars = [z for z in m.zones if z.star]
    if len(stars) != 8 or len({z.star for z in stars}) != 3:
        out.append(DataProblem(map_file, "$.zones", "marengo §14 needs eight star zones in three colours"))
    marks = sum(z.at_start for z in m.zones)
    if marks != len(a.at_start.blocks):
        out.append(DataProblem(armies_file, "$.at_start.blocks",
                               f"{len(a.at_start.blocks)} blocks but the map's At Start marks total {marks} (marengo §6)"))
    return out


def check_armies(a: ArmiesFile, m: MapFile | None, file: Path = ARMIES_FILE) -> None:
    """Cross-references of the order of battle (marengo §4, §6), with the map's entry points when the map is
    readable (None: those are left for when it is). Raises DataError listing every problem."""
    report = _Problems(file)
    seen: dict[str, int] = {}
    for i, b in enumerate(a.blocks):
        if b.id in seen:
            report(f"$.blocks[{i}].id", f"duplicate block {b.id!r}")
        seen.setdefault(b.id, i)
        if b.id.startswith("FRA") != (b.side == "france"):
            report(f"$.blocks[{i}].id", f"prefix of {b.id!r} disagrees with side {b.side!r}")
        if b.strength not in getattr(a.piece_set, b.arm):
            report(f"$.blocks[{i}].strength", f"the piece set has no {b.arm} piece of strength {b.strength} "
                                              f"(marengo §4; piece_set.{b.arm}: {list(getattr(a.piece_set, b.arm))})")
    for side in SIDES:
        if side not in a.sides:
            report("$.sides", f"missing side {side!r}")
        arts = [b.id for b in a.blocks if b.side == side and b.arm == "artillery"]
        if len(arts) != 1:
            report("$.blocks", f"marengo §10: {side} must have exactly one artillery block")
    placed: dict[str, str] = {}

    def place(bid: str, where: str, path: str, side: str) -> None:
        if bid not in seen:
            report(path, f"unknown block {bid!r}")
            return
        if bid in placed:
            report(path, f"block {bid!r} is already in {placed[bid]}")
        placed.setdefault(bid, where)
        if a.blocks[seen[bid]].side != side:
            report(path, f"marengo §6: {bid!r} is not {side}'s")

    for j, bid in enumerate(a.at_start.blocks):
        place(bid, "the At Start table", f"$.at_start.blocks[{j}]", "france")
    entries = {e.id: e for e in m.entry_points} if m is not None else None
    for i, t in enumerate(a.reinforcements):
        if entries is None:
            pass
        elif t.entry not in entries:
            report(f"$.reinforcements[{i}].entry", f"unknown entry point {t.entry!r}")
        elif entries[t.entry].side != t.side:
            report(f"$.reinforcements[{i}].entry", f"entry {t.entry!r} is not {t.side}'s")
        for j, arr in enumerate(t.arrivals):
            for k, bid in enumerate(arr.blocks):
                place(bid, f"table {t.id!r}", f"$.reinforcements[{i}].arrivals[{j}].blocks[{k}]", t.side)
    for i, b in enumerate(a.blocks):
        if b.id not in placed:
            report(f"$.blocks[{i}]", f"block {b.id!r} is in no table (At Start or reinforcements)")
    report.raise_if_any()


def build(m: MapFile, a: ArmiesFile) -> MarengoData:
    d = MarengoData(map=m, armies=a)
    d.index(m.zones, m.approaches, m.roads)
    d.blocks = {b.id: b for b in a.blocks}
    d.entries = {e.id: e for e in m.entry_points}
    d.tables = {t.id: t for t in a.reinforcements}
    return d


def load_from(map_file: Path, armies_file: Path) -> MarengoData:
    """The shipped layout of two files, checked whole, the scenario's invariants included."""
    files = {name: read_text(path, str(path)) for name, path in (("map.json", map_file), ("armies.json", armies_file))
             if path.exists()}
    return _build(files, str(map_file), str(armies_file), scenario=True)


def _build(files: Mapping[str, str], map_file: str, armies_file: str, *, scenario: bool) -> MarengoData:
    """Both files parsed and cross-checked; every problem found in either is reported at once."""
    problems: list[DataProblem] = []
    parsed: dict[str, BaseModel] = {}
    for name, model, file in (("map.json", MapFile, map_file), ("armies.json", ArmiesFile, armies_file)):
        try:
            parsed[name] = _parse_text(model, files.get(name), file)
        except DataError as e:
            problems.extend(e.problems)
    m, a = parsed.get("map.json"), parsed.get("armies.json")
    if isinstance(m, MapFile):
        problems.extend(_problems_of(check_map, m, Path(map_file)))
    if isinstance(a, ArmiesFile):
        problems.extend(_problems_of(check_armies, a, m if isinstance(m, MapFile) else None, Path(armies_file)))
    if isinstance(m, MapFile) and isinstance(a, ArmiesFile):
        if scenario:
            problems.extend(scenario_problems(m, a, map_file, armies_file))
    if problems:
        raise DataError(problems)
    assert isinstance(m, MapFile) and isinstance(a, ArmiesFile)
    return build(m, a)


def _problems_of(check: object, *args: object) -> list[DataProblem]:
    try:
        check(*args)  # type: ignore[operator]
    except DataError as e:
        return list(e.problems)
    return []


def read_folder(folder: Path) -> dict[str, str]:
    """A user's data folder (map.json, armies.json) as name -> text, checked as the shipped data are, every
    problem of both files at once; the scenario's invariants are checked when a game is set up from it."""
    if not folder.is_dir():
        raise DataError([DataProblem(str(folder), "$", "not a folder: --data names a folder holding map.json and armies.json")])
    files = {name: read_text(folder / name, str(folder / name)) for name in FILES if (folder / name).is_file()}
    _build(files, str(folder / "map.json"), str(folder / "armies.json"), scenario=False)
    return files


def _build_own(files: Mapping[str, str]) -> MarengoData:
    return _build(files, "map.json", "armies.json", scenario=False)


def check_scenario(d: MarengoData) -> None:
    """Raise DataError unless `d` can be played as the scenario (marengo §6, §14)."""
    problems = scenario_problems(d.map, d.armies, "map.json", "armies.json")
    if problems:
        raise DataError(problems)


@lru_cache(maxsize=1)
def load_data() -> MarengoData:
    """The shipped data, read once per process."""
    return load_from(MAP_FILE, ARMIES_FILE)


# a game's own files (load_files), built once per process and content hash (never by folder or game name, so two
# games on different data in one process never share an answer: issue 19 point 15); `current()` is the data in
# force: the files of the game the ruleset is working on (`bound`), else the shipped data
OWN: OwnData[MarengoData] = OwnData("marengo_data", _build_own, load_data)
load_files, current, bound = OWN.load, OWN.current, OWN.bound
