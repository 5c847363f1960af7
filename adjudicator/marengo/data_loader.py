"""Load and check Marengo's data files (map, armies, tables): typed schemas, precise errors.

Everything here is read once per process (`load_data()` caches); the game state never copies terrain.
Errors name the file, the JSON path and what is wrong (marengo §4-§6 data).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from arbitro.adjudicator.datafiles import DataError, DataProblem, json_path, read_json
from arbitro.adjudicator.maps.areas import AreaGraph, graph_problems

DATA_DIR = Path(__file__).parent / "data"
MAP_FILE = DATA_DIR / "map.json"
ARMIES_FILE = DATA_DIR / "armies.json"

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


class ApproachSpec(_Strict):
    id: str
    zone: str
    toward: str
    width: Literal["narrow", "wide"]
    penalty: Penalty
    cavalry_obstacle: bool
    impassable: bool


class RoadSpec(_Strict):
    id: str
    name: str
    kind: Literal["main", "secondary"]
    zones: tuple[str, ...] = Field(min_length=2)


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


class AtStartSpec(_Strict):
    blocks: tuple[str, ...]
    provisional: bool = False


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
            items.append(f"armies.json: type and strength of {n} blocks")
        return items


def _parse(model: type[_M], file: Path) -> _M:
    raw = read_json(file, str(file))
    try:
        # JSON mode: strict types, but JSON arrays are accepted for tuples
        return model.model_validate_json(json.dumps(raw))
    except ValidationError as exc:
        problems = [DataProblem(str(file), json_path(err["loc"]), f"{err['msg']} (got {err.get('input')!r})"[:300])
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
    stars = [z for z in m.zones if z.star]
    if len(stars) != 8 or len({z.star for z in stars}) != 3:
        report("$.zones", "marengo §14 needs eight star zones in three colours")
    report.raise_if_any()


def check_armies(a: ArmiesFile, m: MapFile, file: Path = ARMIES_FILE) -> None:
    """Cross-references of the order of battle (marengo §4, §6). Raises DataError listing every problem."""
    report = _Problems(file)
    seen: dict[str, int] = {}
    for i, b in enumerate(a.blocks):
        if b.id in seen:
            report(f"$.blocks[{i}].id", f"duplicate block {b.id!r}")
        seen.setdefault(b.id, i)
        if b.id.startswith("FRA") != (b.side == "france"):
            report(f"$.blocks[{i}].id", f"prefix of {b.id!r} disagrees with side {b.side!r}")
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
    marks = sum(z.at_start for z in m.zones)
    if marks != len(a.at_start.blocks):
        report("$.at_start.blocks", f"{len(a.at_start.blocks)} blocks but the map's At Start marks total {marks}")
    entries = {e.id: e for e in m.entry_points}
    for i, t in enumerate(a.reinforcements):
        if t.entry not in entries:
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
    m = _parse(MapFile, map_file)
    check_map(m, map_file)
    a = _parse(ArmiesFile, armies_file)
    check_armies(a, m, armies_file)
    return build(m, a)


@lru_cache(maxsize=1)
def load_data() -> MarengoData:
    return load_from(MAP_FILE, ARMIES_FILE)
