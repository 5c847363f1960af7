"""Hex maps as data: loading and validating map files (docs/hexmap-format.md, first part), terrain look-ups.

No game rule lives here: a map file says what is where.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import Field

from arbitro.adjudicator.datafiles import (
    Bool,
    DataError,
    Int,
    Problem,
    Str,
    StrictModel,
    check_unique,
    read_json,
    validated,
)
from arbitro.adjudicator.maps.hexgrid import Grid, HexError, HexId, HexsideId, parse_hex


class MapMeta(StrictModel):
    title: Str
    provisional: Bool
    notes: Str = ""
    default_terrain: Str
    default_elevation: Int = 0
    default_provisional: Bool = True


class Compass(StrictModel):
    higher_columns: Literal["N", "E", "S", "W"]
    higher_rows: Literal["N", "E", "S", "W"]


class GridSpec(StrictModel):
    orientation: Literal["flat-top", "pointy-top"]
    first_column: Int = Field(ge=0, le=99)
    last_column: Int = Field(ge=0, le=99)
    first_row: Int = Field(ge=0, le=99)
    last_row: Int = Field(ge=0, le=99)
    shifted_columns: Literal["odd", "even"] | None = None
    shifted_rows: Literal["odd", "even"] | None = None
    missing_hexes: tuple[Str, ...] = ()
    parity_source: Str = ""
    compass: Compass | None = None


class HexSpec(StrictModel):
    terrain: Str | None = None
    other_terrain: tuple[Str, ...] = ()
    elevation: Int | None = None
    features: tuple[Str, ...] = ()
    name: Str | None = None
    provisional: Bool = False
    notes: Str = ""


class HexsideSpec(StrictModel):
    hexes: tuple[Str, Str]
    features: tuple[Str, ...] = Field(min_length=1)
    provisional: Bool = False
    notes: Str = ""


class RoadSpec(StrictModel):
    kind: Str
    name: Str = ""
    hexes: tuple[Str, ...] = Field(min_length=2)
    provisional: Bool = False
    notes: Str = ""


class MapFile(StrictModel):
    meta: MapMeta
    grid: GridSpec
    terrain_types: tuple[Str, ...] = Field(min_length=1)
    hex_features: tuple[Str, ...] = ()
    hexside_features: tuple[Str, ...] = ()
    road_kinds: tuple[Str, ...] = ()
    hexes: dict[Str, HexSpec] = {}
    hexsides: tuple[HexsideSpec, ...] = ()
    roads: tuple[RoadSpec, ...] = ()
    places: dict[Str, tuple[Str, ...]] = {}


# ================================================================================================
# The loaded map
# ================================================================================================


@dataclass(frozen=True, slots=True)
class HexInfo:
    """Everything the map says about one hex (defaults filled in)."""

    id: HexId
    terrain: str
    other_terrain: tuple[str, ...]
    elevation: int
    features: tuple[str, ...]
    name: str | None
    provisional: bool

    @property
    def terrains(self) -> tuple[str, ...]:
        """Main terrain first, then any others present in the hex."""
        return (self.terrain, *self.other_terrain)


@dataclass(frozen=True, slots=True)
class HexMap:
    """A validated map: geometry plus what lies on each hex and hexside. Build with :func:`load_map`."""

    source: str
    meta: MapMeta
    grid: Grid
    terrain_types: tuple[str, ...]
    hex_feature_types: tuple[str, ...]
    hexside_feature_types: tuple[str, ...]
    road_kinds: tuple[str, ...]
    places: Mapping[str, tuple[HexId, ...]]
    compass: Compass | None
    """Compass direction in which column and row numbers grow, if the map file gives it."""
    _hexes: Mapping[HexId, HexInfo] = field(repr=False)
    _side_features: Mapping[HexsideId, tuple[str, ...]] = field(repr=False)
    _side_provisional: Mapping[HexsideId, bool] = field(repr=False)
    _side_roads: Mapping[HexsideId, tuple[str, ...]] = field(repr=False)
    _hex_roads: Mapping[HexId, tuple[str, ...]] = field(repr=False)
    roads: tuple[RoadSpec, ...] = field(repr=False, default=())

    @property
    def provisional(self) -> bool:
        return self.meta.provisional

    def hexes(self) -> tuple[HexId, ...]:
        return self.grid.hexes()

    def hex(self, hex_id: str) -> HexInfo:
        info = self._hexes.get(HexId(hex_id))
        if info is None:
            self.grid.require(hex_id)
        assert info is not None
        return info

    def terrain(self, hex_id: str) -> str:
        return self.hex(hex_id).terrain

    def elevation(self, hex_id: str) -> int:
        return self.hex(hex_id).elevation

    def hexside_features(self, a: str, b: str) -> tuple[str, ...]:
        """Features on the edge between two adjacent hexes (sorted; empty if none)."""
        return self._side_features.get(self.grid.hexside(a, b), ())

    def is_hexside_provisional(self, a: str, b: str) -> bool:
        return self._side_provisional.get(self.grid.hexside(a, b), False)

    def roads_between(self, a: str, b: str) -> tuple[str, ...]:
        """Road kinds that run from ``a`` to the adjacent ``b`` (crossing their hexside), sorted."""
        return self._side_roads.get(self.grid.hexside(a, b), ())

    def roads_at(self, hex_id: str) -> tuple[str, ...]:
        """Road kinds passing through a hex, sorted."""
        self.hex(hex_id)
        return self._hex_roads.get(HexId(hex_id), ())

    def place(self, name: str) -> tuple[HexId, ...]:
        try:
            return self.places[name]
        except KeyError:
            known = ", ".join(sorted(self.places))
            raise KeyError(f"{self.source}: no place named {name!r} (known: {known})") from None


def load_map(path: str | Path, *, source: str | None = None) -> HexMap:
    """Read and validate a map file. Raises :class:`DataError` listing every problem."""
    path = Path(path)
    label = source or str(path)
    return parse_map(read_json(path, label), source=label)


def parse_map(data: object, *, source: str = "<map>") -> HexMap:
    """Validate already-decoded map JSON; see :func:`load_map`."""
    spec = validated(MapFile, data, source)
    problems: list[Problem] = []
    grid = _build_grid(spec.grid, problems)
    if grid is None:
        raise DataError.in_file(source, problems)
    _check_map(spec, grid, problems)
    if problems:
        raise DataError.in_file(source, problems)
    return _assemble(spec, grid, source)


def _build_grid(spec: GridSpec, problems: list[Problem]) -> Grid | None:
    wanted, unwanted = (
        ("shifted_columns", "shifted_rows") if spec.orientation == "flat-top" else ("shifted_rows", "shifted_columns")
    )
    parity = getattr(spec, wanted)
    if parity is None:
        problems.append(Problem(f"$.grid.{wanted}", f"required for a {spec.orientation} grid"))
    if getattr(spec, unwanted) is not None:
        problems.append(Problem(f"$.grid.{unwanted}", f"not allowed for a {spec.orientation} grid (use {wanted})"))
    if spec.first_column > spec.last_column:
        problems.append(Problem("$.grid.last_column", "must not be smaller than first_column"))
    if spec.first_row > spec.last_row:
        problems.append(Problem("$.grid.last_row", "must not be smaller than first_row"))
    for i, h in enumerate(spec.missing_hexes):
        try:
            parse_hex(h)
        except HexError as exc:
            problems.append(Problem(f"$.grid.missing_hexes[{i}]", str(exc)))
    if problems:
        return None
    return Grid(
        orientation=spec.orientation, shifted=parity, first_column=spec.first_column,
        last_column=spec.last_column, first_row=spec.first_row, last_row=spec.last_row,
        missing=spec.missing_hexes,
    )


def _check_hex_id(grid: Grid, hex_id: str, path: str, problems: list[Problem]) -> bool:
    try:
        grid.require(hex_id)
    except HexError as exc:
        problems.append(Problem(path, str(exc)))
        return False
    return True


def _check_names(values: Iterable[str], allowed: tuple[str, ...], what: str, path: str,
                 problems: list[Problem]) -> None:
    for i, value in enumerate(values):
        if value not in allowed:
            problems.append(Problem(f"{path}[{i}]", f"unknown {what} {value!r} ({_declared(allowed)})"))


def _declared(names: Iterable[str]) -> str:
    listed = ", ".join(names)
    return f"declared: {listed}" if listed else "none declared"


def _check_map(spec: MapFile, grid: Grid, problems: list[Problem]) -> None:
    for key in ("terrain_types", "hex_features", "hexside_features", "road_kinds"):
        check_unique(getattr(spec, key), f"$.{key}", problems)
    if spec.meta.default_terrain not in spec.terrain_types:
        problems.append(Problem("$.meta.default_terrain",
                                f"unknown terrain {spec.meta.default_terrain!r} ({_declared(spec.terrain_types)})"))
    for hex_id, hex_spec in spec.hexes.items():
        path = f"$.hexes.{hex_id}"
        _check_hex_id(grid, hex_id, path, problems)
        if hex_spec.terrain is not None and hex_spec.terrain not in spec.terrain_types:
            problems.append(Problem(f"{path}.terrain",
                                    f"unknown terrain {hex_spec.terrain!r} ({_declared(spec.terrain_types)})"))
        _check_names(hex_spec.other_terrain, spec.terrain_types, "terrain", f"{path}.other_terrain", problems)
        _check_names(hex_spec.features, spec.hex_features, "hex feature", f"{path}.features", problems)
    seen_sides: dict[HexsideId, int] = {}
    for i, side in enumerate(spec.hexsides):
        path = f"$.hexsides[{i}]"
        a, b = side.hexes
        ok = _check_hex_id(grid, a, f"{path}.hexes[0]", problems)
        ok = _check_hex_id(grid, b, f"{path}.hexes[1]", problems) and ok
        _check_names(side.features, spec.hexside_features, "hexside feature", f"{path}.features", problems)
        check_unique(side.features, f"{path}.features", problems)
        if not ok:
            continue
        if not grid.is_adjacent(a, b):
            problems.append(Problem(f"{path}.hexes", f"{a} and {b} are not adjacent"))
            continue
        side_id = grid.hexside(a, b)
        if side_id in seen_sides:
            problems.append(Problem(f"{path}.hexes", f"hexside {side_id} already listed at $.hexsides[{seen_sides[side_id]}]"))
        seen_sides.setdefault(side_id, i)
    for i, road in enumerate(spec.roads):
        path = f"$.roads[{i}]"
        if road.kind not in spec.road_kinds:
            problems.append(Problem(f"{path}.kind", f"unknown road kind {road.kind!r} ({_declared(spec.road_kinds)})"))
        previous: str | None = None
        for j, h in enumerate(road.hexes):
            ok = _check_hex_id(grid, h, f"{path}.hexes[{j}]", problems)
            if ok and previous is not None and not grid.is_adjacent(previous, h):
                problems.append(Problem(f"{path}.hexes[{j}]", f"{h} is not adjacent to the previous hex {previous}"))
            previous = h if ok else None
    for name, hexes in spec.places.items():
        if not hexes:
            problems.append(Problem(f"$.places.{name}", "a place needs at least one hex"))
        for j, h in enumerate(hexes):
            _check_hex_id(grid, h, f"$.places.{name}[{j}]", problems)
    _check_provisional_flag(spec, problems)


def _check_provisional_flag(spec: MapFile, problems: list[Problem]) -> None:
    reasons = []
    if spec.meta.default_provisional:
        reasons.append("meta.default_provisional is true")
    reasons += [f"hex {h} is provisional" for h, s in spec.hexes.items() if s.provisional][:1]
    reasons += [f"$.hexsides[{i}] is provisional" for i, s in enumerate(spec.hexsides) if s.provisional][:1]
    reasons += [f"$.roads[{i}] is provisional" for i, s in enumerate(spec.roads) if s.provisional][:1]
    if reasons and not spec.meta.provisional:
        problems.append(Problem("$.meta.provisional", f"must be true: {reasons[0]}"))


def _assemble(spec: MapFile, grid: Grid, source: str) -> HexMap:
    hexes: dict[HexId, HexInfo] = {}
    for h in grid.hexes():
        given = spec.hexes.get(h)
        if given is None:
            hexes[h] = HexInfo(h, spec.meta.default_terrain, (), spec.meta.default_elevation, (), None,
                               spec.meta.default_provisional)
            continue
        hexes[h] = HexInfo(
            id=h,
            terrain=given.terrain if given.terrain is not None else spec.meta.default_terrain,
            other_terrain=given.other_terrain,
            elevation=given.elevation if given.elevation is not None else spec.meta.default_elevation,
            features=given.features,
            name=given.name,
            provisional=given.provisional,
        )
    side_features: dict[HexsideId, tuple[str, ...]] = {}
    side_provisional: dict[HexsideId, bool] = {}
    for side in spec.hexsides:
        side_id = grid.hexside(*side.hexes)
        side_features[side_id] = tuple(sorted(side.features))
        side_provisional[side_id] = side.provisional
    side_roads: dict[HexsideId, set[str]] = {}
    hex_roads: dict[HexId, set[str]] = {}
    for road in spec.roads:
        for a, b in zip(road.hexes, road.hexes[1:]):
            side_roads.setdefault(grid.hexside(a, b), set()).add(road.kind)
        for road_hex in road.hexes:
            hex_roads.setdefault(HexId(road_hex), set()).add(road.kind)
    return HexMap(
        source=source,
        meta=spec.meta,
        grid=grid,
        terrain_types=spec.terrain_types,
        hex_feature_types=spec.hex_features,
        hexside_feature_types=spec.hexside_features,
        road_kinds=spec.road_kinds,
        places={name: tuple(HexId(h) for h in hs) for name, hs in spec.places.items()},
        compass=spec.grid.compass,
        _hexes=hexes,
        _side_features=side_features,
        _side_provisional=side_provisional,
        _side_roads={k: tuple(sorted(v)) for k, v in side_roads.items()},
        _hex_roads={k: tuple(sorted(v)) for k, v in hex_roads.items()},
        roads=spec.roads,
    )
