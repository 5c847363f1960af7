"""Hex maps as data: loading and validating map files, terrain look-ups, movement, retreat, command range.

No game rule lives here. A map file (``docs/hexmap-format.md``) says what is where; a ruleset's
movement table (same document, second part) says what terrain costs; the ruleset passes its policies
(zones of control, who may enter or stop where, the minimum-move rule) as data and predicates.

Movement costs are integers in **half movement points** (Caldiero's road costs half a point), so a
unit with 4 MP has a budget of 8.

Everything that decides an outcome is deterministic: ties are broken by hex id, never by set order.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Literal

from arbitro.adjudicator.datafiles import json_path
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from .hexgrid import Grid, HexError, HexId, HexsideId, parse_hex

# ================================================================================================
# Errors
# ================================================================================================


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a data file: where (a JSON path like ``$.roads[2].hexes[5]``) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class MapDataError(ValueError):
    """A map or movement-table file is invalid. Lists every problem found, each with its JSON path."""

    def __init__(self, source: str, problems: Iterable[Problem]) -> None:
        self.source = source
        self.problems = tuple(problems)
        lines = [f"{source}: {p}" for p in self.problems]
        super().__init__("\n".join(lines) if lines else f"{source}: invalid")


def _pydantic_problems(error: ValidationError) -> list[Problem]:
    return [Problem(json_path(e["loc"]), e["msg"].removeprefix("Value error, ")) for e in error.errors()]


def _read_json(path: Path, source: str) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MapDataError(source, [Problem("$", f"cannot read file: {exc.strerror}")]) from None
    except json.JSONDecodeError as exc:
        raise MapDataError(source, [Problem("$", f"not valid JSON: {exc.msg} at line {exc.lineno}")]) from None


# ================================================================================================
# Map file schema
# ================================================================================================


class _Strict(BaseModel):
    # Unknown keys are errors (typos); scalars are strict (no "2" for 2, no 1 for true).
    model_config = ConfigDict(extra="forbid", frozen=True)


Int = StrictInt
Bool = StrictBool
Str = StrictStr


class MapMeta(_Strict):
    title: Str
    provisional: Bool
    notes: Str = ""
    default_terrain: Str
    default_elevation: Int = 0
    default_provisional: Bool = True


class Compass(_Strict):
    higher_columns: Literal["N", "E", "S", "W"]
    higher_rows: Literal["N", "E", "S", "W"]


class GridSpec(_Strict):
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


class HexSpec(_Strict):
    terrain: Str | None = None
    other_terrain: tuple[Str, ...] = ()
    elevation: Int | None = None
    features: tuple[Str, ...] = ()
    name: Str | None = None
    provisional: Bool = False
    notes: Str = ""


class HexsideSpec(_Strict):
    hexes: tuple[Str, Str]
    features: tuple[Str, ...] = Field(min_length=1)
    provisional: Bool = False
    notes: Str = ""


class RoadSpec(_Strict):
    kind: Str
    name: Str = ""
    hexes: tuple[Str, ...] = Field(min_length=2)
    provisional: Bool = False
    notes: Str = ""


class MapFile(_Strict):
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
    # Step costs are pure functions of (map, table, class, formation, multiplier): memoised per map.
    _step_costs: dict[tuple[int, str, bool, int], tuple[object, dict[tuple[HexId, HexId], StepCost]]] = field(
        repr=False, compare=False, default_factory=dict
    )

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
    """Read and validate a map file. Raises :class:`MapDataError` listing every problem."""
    path = Path(path)
    label = source or str(path)
    return parse_map(_read_json(path, label), source=label)


def parse_map(data: object, *, source: str = "<map>") -> HexMap:
    """Validate already-decoded map JSON; see :func:`load_map`."""
    try:
        spec = MapFile.model_validate(data)
    except ValidationError as exc:
        raise MapDataError(source, _pydantic_problems(exc)) from None
    problems: list[Problem] = []
    grid = _build_grid(spec.grid, problems)
    if grid is None:
        raise MapDataError(source, problems)
    _check_map(spec, grid, problems)
    if problems:
        raise MapDataError(source, problems)
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


def _check_unique(values: tuple[str, ...], path: str, problems: list[Problem]) -> None:
    for i, value in enumerate(values):
        if value in values[:i]:
            problems.append(Problem(f"{path}[{i}]", f"{value!r} is declared twice"))


def _check_map(spec: MapFile, grid: Grid, problems: list[Problem]) -> None:
    for key in ("terrain_types", "hex_features", "hexside_features", "road_kinds"):
        _check_unique(getattr(spec, key), f"$.{key}", problems)
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
        _check_unique(side.features, f"{path}.features", problems)
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


# ================================================================================================
# Movement table (a ruleset's terrain effects on movement), costs in half movement points
# ================================================================================================

_RESERVED_KEYS = ("default", "cost", "on_road", "cancelled_by")


@dataclass(frozen=True, slots=True)
class StopCost:
    """A cost after which the unit must stop (terrain it may enter but not pass through)."""

    cost: int | Literal["all"]


def _parse_cost(value: object) -> int | Literal["all", "prohibited"] | StopCost:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if value == "all":
        return "all"
    if value == "prohibited":
        return "prohibited"
    if isinstance(value, StopCost):
        return value
    if isinstance(value, dict) and set(value) == {"cost", "stop"} and value["stop"] is True:
        inner = _parse_cost(value["cost"])
        if inner != "prohibited" and not isinstance(inner, StopCost):
            return StopCost(inner)
    raise ValueError(
        f"{value!r} is not a cost: expected half-points (an integer >= 0), \"all\", \"prohibited\" "
        "or {\"cost\": <half-points or \"all\">, \"stop\": true}"
    )


def _parse_road_amount(value: object) -> int | Literal["all"] | None:
    if value is None or value == "all" or (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        return value
    raise ValueError(f"{value!r} is not a road cost: expected half-points (an integer >= 0) or \"all\"")


CostValue = Annotated[int | Literal["all", "prohibited"] | StopCost, PlainValidator(_parse_cost)]
"""Half-points (>= 0), ``"all"`` (all movement points), ``"prohibited"``, or ``{"cost": n, "stop": true}``."""


class TerrainRule(_Strict):
    """Cost to enter a hex of this terrain, per unit class (``default`` for the rest)."""

    cost: dict[Str, CostValue]
    on_road: dict[Str, CostValue] | None = None


class HexsideRule(TerrainRule):
    """Extra cost to cross a hexside feature; ``cancelled_by`` lists features that annul it (bridges)."""

    cancelled_by: tuple[Str, ...] = ()


class RoadCost(_Strict):
    """A road step's cost: a fixed ``cost``, or the normal cost less ``reduce_by`` but not below ``minimum``.

    ``scaled``: the terrain multiplier (weather) applies to this road cost too; by default a road is spared
    (caldiero §17.1.3 spares only the main road: the minor road's cost doubles)."""

    cost: Annotated[int | Literal["all"] | None, PlainValidator(_parse_road_amount)] = None
    reduce_by: Int | None = Field(default=None, ge=0)
    minimum: Int = Field(default=0, ge=0)
    scaled: Bool = False

    @model_validator(mode="after")
    def _one_way(self) -> RoadCost:
        if (self.cost is None) == (self.reduce_by is None):
            raise ValueError("give exactly one of 'cost' and 'reduce_by'")
        return self


class RoadRule(_Strict):
    """``in_column``: cost in march column along this road; ``always``: cost along it in any formation."""

    in_column: RoadCost | None = None
    always: RoadCost | None = None


class MovementTable(_Strict):
    title: Str
    provisional: Bool
    notes: Str = ""
    unit_classes: tuple[Str, ...] = Field(min_length=1)
    terrain: dict[Str, TerrainRule]
    hexside: dict[Str, HexsideRule] = {}
    climb: dict[Str, Annotated[Int, Field(ge=0)]] = {}
    roads: dict[Str, RoadRule] = {}
    all_points: Literal["first_step_only", "any_step_then_stop"] = "first_step_only"


def load_movement_table(path: str | Path, *, hexmap: HexMap | None = None, source: str | None = None) -> MovementTable:
    """Read and validate a movement table; with ``hexmap``, also check it covers that map's names."""
    path = Path(path)
    label = source or str(path)
    return parse_movement_table(_read_json(path, label), hexmap=hexmap, source=label)


def parse_movement_table(data: object, *, hexmap: HexMap | None = None, source: str = "<movement>") -> MovementTable:
    try:
        table = MovementTable.model_validate(data)
    except ValidationError as exc:
        raise MapDataError(source, _pydantic_problems(exc)) from None
    problems = _table_problems(table)
    if hexmap is not None:
        problems += table_map_problems(table, hexmap)
    if problems:
        raise MapDataError(source, problems)
    return table


def _check_class_costs(table: MovementTable, costs: Mapping[str, CostValue], path: str,
                       problems: list[Problem]) -> None:
    for key, value in costs.items():
        if key != "default" and key not in table.unit_classes:
            problems.append(Problem(f"{path}.{key}", f"unknown unit class (declared: {', '.join(table.unit_classes)})"))
    if "default" not in costs:
        missing = [c for c in table.unit_classes if c not in costs]
        if missing:
            problems.append(Problem(path, f"no 'default' and no cost for: {', '.join(missing)}"))


def _table_problems(table: MovementTable) -> list[Problem]:
    problems: list[Problem] = []
    _check_unique(table.unit_classes, "$.unit_classes", problems)
    for i, c in enumerate(table.unit_classes):
        if c in _RESERVED_KEYS:
            problems.append(Problem(f"$.unit_classes[{i}]", f"{c!r} is a reserved key"))
    for section in ("terrain", "hexside"):
        rules: Mapping[str, TerrainRule] = getattr(table, section)
        for name, rule in rules.items():
            _check_class_costs(table, rule.cost, f"$.{section}.{name}.cost", problems)
            if rule.on_road is not None:
                _check_class_costs(table, rule.on_road, f"$.{section}.{name}.on_road", problems)
    for name, hs_rule in table.hexside.items():
        for j, other in enumerate(hs_rule.cancelled_by):
            if other not in table.hexside:
                problems.append(Problem(f"$.hexside.{name}.cancelled_by[{j}]", f"no hexside rule for {other!r}"))
    for key in table.climb:
        if key != "default" and key not in table.unit_classes:
            problems.append(Problem(f"$.climb.{key}", f"unknown unit class (declared: {', '.join(table.unit_classes)})"))
    return problems


def table_map_problems(table: MovementTable, hexmap: HexMap) -> list[Problem]:
    """Names the map uses that the table does not price (each is an error: no silent defaults)."""
    problems = [
        Problem(f"$.terrain.{t}", f"missing: {hexmap.source} uses terrain {t!r}")
        for t in hexmap.terrain_types if t not in table.terrain
    ]
    problems += [
        Problem(f"$.hexside.{f}", f"missing: {hexmap.source} uses hexside feature {f!r}")
        for f in hexmap.hexside_feature_types if f not in table.hexside
    ]
    problems += [
        Problem(f"$.roads.{k}", f"missing: {hexmap.source} uses road kind {k!r}")
        for k in hexmap.road_kinds if k not in table.roads
    ]
    return problems


# ================================================================================================
# Step costs
# ================================================================================================

PROHIBITED: Literal["prohibited"] = "prohibited"
ALL: Literal["all"] = "all"


@dataclass(frozen=True, slots=True)
class StepCost:
    """Price of one step. ``half_points`` is meaningful when neither ``prohibited`` nor ``all_points``."""

    half_points: int = 0
    all_points: bool = False
    prohibited: bool = False
    stop: bool = False
    road: str | None = None
    """Road kind whose road cost was used, if any."""
    blocked_by: str | None = None
    """When prohibited: ``"terrain:<name>"`` or ``"hexside:<name>"``."""


def _class_cost(costs: Mapping[str, CostValue], unit_class: str) -> CostValue:
    return costs[unit_class] if unit_class in costs else costs["default"]


def _as_step(value: CostValue, blocked_by: str) -> StepCost:
    if value == PROHIBITED:
        return StepCost(prohibited=True, blocked_by=blocked_by)
    if isinstance(value, StopCost):
        inner = _as_step(value.cost, blocked_by)
        return StepCost(inner.half_points, inner.all_points, False, True)
    if value == ALL:
        return StepCost(all_points=True)
    assert isinstance(value, int)
    return StepCost(half_points=value)


def _rank(cost: StepCost) -> tuple[int, int, bool]:
    # Cheapest first: ordinary costs, then "all points", then prohibited; a stop is worse than none.
    return (2 if cost.prohibited else 1 if cost.all_points else 0, cost.half_points, cost.stop)


def _combine(parts: Iterable[StepCost]) -> StepCost:
    total = StepCost()
    for part in parts:
        if total.prohibited:
            break
        total = StepCost(
            half_points=total.half_points + part.half_points,
            all_points=total.all_points or part.all_points,
            prohibited=part.prohibited,
            stop=total.stop or part.stop,
            blocked_by=part.blocked_by,
        )
    return total


def step_cost(
    hexmap: HexMap,
    table: MovementTable,
    a: str,
    b: str,
    unit_class: str,
    *,
    march_column: bool = False,
    terrain_multiplier: int = 1,
) -> StepCost:
    """What it costs ``unit_class`` to step from ``a`` into the adjacent ``b``.

    - terrain: the cheapest of the terrains in ``b`` (a hex with several terrains lets the mover use
      the most favourable, arrivano §10, caricat §6); its ``on_road`` cost if a road joins a and b;
    - climbing: ``climb`` per elevation level gained;
    - hexside: the sum over the features of the crossed edge not cancelled by another feature there;
    - road: along a road (a and b consecutive on it), the road's ``in_column`` cost when in march
      column, else its ``always`` cost, replaces terrain and climbing (hexside costs still count);
      the cheaper of the road and the normal cost is used;
    - ``terrain_multiplier`` (weather) multiplies every cost except a road cost.
    """
    if unit_class not in table.unit_classes:
        raise ValueError(f"unknown unit class {unit_class!r} (table has {', '.join(table.unit_classes)})")
    roads = hexmap.roads_between(a, b)
    on_road = bool(roads)
    terrain = min(
        (_terrain_step(table, t, unit_class, on_road) for t in hexmap.hex(b).terrains), key=_rank
    )
    levels = max(0, hexmap.elevation(b) - hexmap.elevation(a))
    climb = StepCost(half_points=levels * table.climb.get(unit_class, table.climb.get("default", 0)))
    side = _hexside_step(table, hexmap.hexside_features(a, b), unit_class, on_road)
    normal = _scale(_combine((terrain, climb, side)), terrain_multiplier)
    best = normal
    for kind in roads:
        rule = table.roads[kind]
        road_cost = rule.in_column if march_column and rule.in_column is not None else rule.always
        if road_cost is None:
            continue
        base = _combine((terrain, climb))
        along = _road_step(road_cost, base, kind)
        if road_cost.scaled:
            along = _scale(along, terrain_multiplier)
        candidate = _combine((along, _scale(side, terrain_multiplier)))
        if candidate.prohibited:
            continue
        candidate = StepCost(candidate.half_points, candidate.all_points, False, candidate.stop, kind)
        if _rank(candidate) < _rank(best):
            best = candidate
    return best


def _scale(cost: StepCost, factor: int) -> StepCost:
    return StepCost(cost.half_points * factor, cost.all_points, cost.prohibited, cost.stop, cost.road, cost.blocked_by)


def _terrain_step(table: MovementTable, terrain: str, unit_class: str, on_road: bool) -> StepCost:
    rule = table.terrain[terrain]
    costs = rule.on_road if on_road and rule.on_road is not None else rule.cost
    return _as_step(_class_cost(costs, unit_class), f"terrain:{terrain}")


def _hexside_step(table: MovementTable, features: tuple[str, ...], unit_class: str, on_road: bool) -> StepCost:
    parts = []
    for feature in features:
        rule = table.hexside[feature]
        if any(other in features for other in rule.cancelled_by):
            continue
        costs = rule.on_road if on_road and rule.on_road is not None else rule.cost
        parts.append(_as_step(_class_cost(costs, unit_class), f"hexside:{feature}"))
    return _combine(parts)


def _road_step(road: RoadCost, base: StepCost, kind: str) -> StepCost:
    if road.cost is not None:
        return StepCost(all_points=True, road=kind) if road.cost == ALL else StepCost(half_points=road.cost, road=kind)
    assert road.reduce_by is not None
    if base.prohibited or base.all_points:
        return base
    return StepCost(half_points=max(road.minimum, base.half_points - road.reduce_by), stop=base.stop, road=kind)


# ================================================================================================
# Zones of control and move rules supplied by the ruleset
# ================================================================================================


@dataclass(frozen=True, slots=True)
class ZocRules:
    """Enemy zones of control as the ruleset computes them, and how they constrain this move.

    ``hexes``: hexes in enemy ZOC for the moving unit (the ruleset applies exceptions such as
    "ZOC does not extend into a fortress", caldiero §10.5.1). ``entry``: ``stop`` (the move ends on
    entering, caldiero §8.2.1), ``continue`` (no stop, caricat §5) or ``prohibited`` (e.g. a unit in
    march column, caldiero §9.3.2). ``may_enter``: per-hex permission to enter (caldiero §5.1.3:
    only where a friendly unit already is). ``may_leave``: whether the unit may step out of an enemy
    ZOC hex at all (caldiero §8.1). ``zoc_to_zoc``: whether a step may go straight from one enemy ZOC
    hex to another. ``leave_cost``: extra half-points for a step out of an enemy ZOC hex (caricat §6).
    """

    hexes: frozenset[HexId]
    entry: Literal["stop", "continue", "prohibited"] = "stop"
    may_enter: Callable[[HexId], bool] | None = None
    may_leave: bool = True
    zoc_to_zoc: bool = True
    leave_cost: int = 0


@dataclass(frozen=True, slots=True)
class MoveRules:
    """Everything a ruleset decides about one unit's move, passed to :func:`reachable`/:func:`check_path`.

    ``budget``: movement allowance in half-points. ``minimum_move``: the unit may always move one hex
    if that step is not prohibited, even when it costs more than the budget (caldiero §9.1.1).
    ``can_enter(hex)``: False for hexes the unit may never enter (enemy units, forbidden rows).
    ``can_end(hex)``: False for hexes it may pass through but not stop in (stacking).
    ``may_step(a, b)``: extra veto on individual steps (e.g. "only along roads").
    """

    unit_class: str
    budget: int
    march_column: bool = False
    minimum_move: bool = True
    terrain_multiplier: int = 1
    can_enter: Callable[[HexId], bool] | None = None
    can_end: Callable[[HexId], bool] | None = None
    may_step: Callable[[HexId, HexId], bool] | None = None
    zoc: ZocRules | None = None


class MoveBlock(StrEnum):
    """Why a step or a path is not allowed; rulesets map these to their own rule citations."""

    NOT_ADJACENT = "not_adjacent"
    OFF_MAP = "off_map"
    CANNOT_ENTER = "cannot_enter"
    STEP_VETOED = "step_vetoed"
    PROHIBITED_TERRAIN = "prohibited_terrain"
    PROHIBITED_HEXSIDE = "prohibited_hexside"
    ALL_POINTS_NOT_FIRST = "all_points_not_first_step"
    NOT_ENOUGH_POINTS = "not_enough_points"
    ALREADY_STOPPED = "already_stopped"
    ZOC_ENTRY_PROHIBITED = "zoc_entry_prohibited"
    ZOC_CANNOT_LEAVE = "zoc_cannot_leave"
    ZOC_TO_ZOC = "zoc_to_zoc"
    CANNOT_END_HERE = "cannot_end_here"


class StopReason(StrEnum):
    ENEMY_ZOC = "enemy_zoc"
    TERRAIN = "terrain"
    ALL_POINTS = "all_points"
    MINIMUM_MOVE = "minimum_move"


@dataclass(frozen=True, slots=True)
class _Arrival:
    spent: int
    stop: StopReason | None
    forced: bool = False  # by the minimum-move rule: it really cost more than the budget recorded in `spent`


_STEP_CACHE_LIMIT = 64


def _step_memo(hexmap: HexMap, table: MovementTable, rules: MoveRules) -> dict[tuple[HexId, HexId], StepCost]:
    key = (id(table), rules.unit_class, rules.march_column, rules.terrain_multiplier)
    entry = hexmap._step_costs.get(key)
    if entry is None or entry[0] is not table:  # the table is kept in the entry, so its id stays unique
        if len(hexmap._step_costs) >= _STEP_CACHE_LIMIT:
            hexmap._step_costs.clear()  # tables made per move (weather copies) must not pile up
        entry = (table, {})
        hexmap._step_costs[key] = entry
    return entry[1]


def _memo_step_cost(hexmap: HexMap, table: MovementTable, rules: MoveRules, a: HexId, b: HexId,
                    memo: dict[tuple[HexId, HexId], StepCost] | None = None) -> StepCost:
    if memo is None:
        memo = _step_memo(hexmap, table, rules)
    cost = memo.get((a, b))
    if cost is None:
        cost = step_cost(hexmap, table, a, b, rules.unit_class, march_column=rules.march_column,
                         terrain_multiplier=rules.terrain_multiplier)
        memo[(a, b)] = cost
    return cost


def cached_step_cost(hexmap: HexMap, table: MovementTable, a: str, b: str, rules: MoveRules) -> StepCost:
    """:func:`step_cost` for ``rules``' unit class, formation and multiplier, memoised as :func:`reachable` does."""
    return _memo_step_cost(hexmap, table, rules, HexId(a), HexId(b))


def _try_step(
    hexmap: HexMap, table: MovementTable, rules: MoveRules, a: HexId, b: HexId, spent: int, first: bool,
    memo: dict[tuple[HexId, HexId], StepCost] | None = None,
) -> _Arrival | MoveBlock:
    """The one place that decides a step; shared by the path finder and the path checker.

    ``a`` and ``b`` must be adjacent on-map hexes (checked by :func:`check_path`, given by the grid in
    :func:`reachable`).
    """
    if rules.can_enter is not None and not rules.can_enter(b):
        return MoveBlock.CANNOT_ENTER
    if rules.may_step is not None and not rules.may_step(a, b):
        return MoveBlock.STEP_VETOED
    zoc = rules.zoc
    extra = 0
    stop: StopReason | None = None
    if zoc is not None:
        from_zoc, into_zoc = a in zoc.hexes, b in zoc.hexes
        if from_zoc and not zoc.may_leave:
            return MoveBlock.ZOC_CANNOT_LEAVE
        if from_zoc and into_zoc and not zoc.zoc_to_zoc:
            return MoveBlock.ZOC_TO_ZOC
        if into_zoc and (zoc.entry == "prohibited" or (zoc.may_enter is not None and not zoc.may_enter(b))):
            return MoveBlock.ZOC_ENTRY_PROHIBITED
        if into_zoc and zoc.entry == "stop":
            stop = StopReason.ENEMY_ZOC
        if from_zoc:
            extra = zoc.leave_cost
    cost = _memo_step_cost(hexmap, table, rules, a, b, memo)
    if cost.prohibited:
        return MoveBlock.PROHIBITED_HEXSIDE if (cost.blocked_by or "").startswith("hexside") else MoveBlock.PROHIBITED_TERRAIN
    if cost.all_points:
        if table.all_points == "first_step_only" and not first:
            return MoveBlock.ALL_POINTS_NOT_FIRST
        if spent >= rules.budget and not first:
            return MoveBlock.NOT_ENOUGH_POINTS
        return _Arrival(max(rules.budget, spent), stop or StopReason.ALL_POINTS)
    total = spent + cost.half_points + extra
    if cost.stop and stop is None:
        stop = StopReason.TERRAIN
    if total <= rules.budget:
        return _Arrival(total, stop)
    if first and rules.minimum_move:
        # caldiero §9.1.1 / arrivano §9.1.1: one hex is always possible; it ends the move.
        return _Arrival(rules.budget, stop or StopReason.MINIMUM_MOVE, forced=True)
    return MoveBlock.NOT_ENOUGH_POINTS


# ================================================================================================
# Path finding and path checking
# ================================================================================================


_State = tuple[HexId, bool]  # (hex, arrived with a forced stop)


@dataclass(frozen=True, slots=True)
class Reach:
    """Where a unit can go this move: cheapest cost (half-points) and a path to each reachable hex."""

    start: HexId
    costs: Mapping[HexId, int]
    stops: Mapping[HexId, StopReason | None]
    """Why the move must end at each hex (None: it may go on from there)."""
    endable: frozenset[HexId]
    _chosen: Mapping[HexId, _State] = field(repr=False)
    _parents: Mapping[_State, _State | None] = field(repr=False)

    def hexes(self) -> tuple[HexId, ...]:
        """Reachable hexes (the start included) ordered by (cost, id)."""
        return tuple(sorted(self.costs, key=lambda h: (self.costs[h], h)))

    def destinations(self) -> tuple[HexId, ...]:
        """Reachable hexes other than the start where the unit may end its move, by (cost, id)."""
        return tuple(h for h in self.hexes() if h != self.start and h in self.endable)

    def path(self, hex_id: str) -> tuple[HexId, ...]:
        """The cheapest path from the start to ``hex_id`` (both included); ties broken by hex id."""
        state = self._chosen.get(HexId(hex_id))
        if state is None:
            raise KeyError(f"{hex_id} is not reachable from {self.start}")
        path: list[HexId] = []
        current: _State | None = state
        while current is not None:
            path.append(current[0])
            current = self._parents[current]
        return tuple(reversed(path))


TieBreak = Literal["first", "path"]


def reachable(hexmap: HexMap, table: MovementTable, start: str, rules: MoveRules, *,
              tie_break: TieBreak = "first") -> Reach:
    """Dijkstra over (hex, must-stop) states from ``start`` within ``rules.budget``.

    Deterministic: states are expanded in (cost, hex id) order. With ``tie_break="first"`` a parent is
    replaced only by a strictly cheaper one. With ``"path"``, among equally cheap arrivals the path
    that is smallest hex by hex from the start wins (Caldiero's order, kept so that its recorded
    games still verify), and an arrival by the minimum-move rule, which really costs more than the
    budget, loses every tie. A hex where the move must stop (enemy ZOC, "all points", minimum move)
    is reached but not expanded; for each hex the cheapest arrival is reported, and at equal cost one
    that may continue.
    """
    origin = hexmap.grid.require(start)
    first: _State = (origin, False)
    best: dict[_State, int] = {first: 0}
    parents: dict[_State, _State | None] = {first: None}
    reasons: dict[_State, StopReason | None] = {first: None}
    heap: list[tuple[int, HexId, bool]] = [(0, origin, False)]
    done: set[_State] = set()
    forced: set[_State] = set()  # states last reached by the minimum-move rule (tie_break="path")
    memo = _step_memo(hexmap, table, rules)
    while heap:
        spent, here, stopped = heapq.heappop(heap)
        state = (here, stopped)
        if state in done or stopped:
            done.add(state)
            continue
        done.add(state)
        for there in hexmap.grid.neighbours(here):
            if there == origin:
                continue
            arrival = _try_step(hexmap, table, rules, here, there, spent, here == origin, memo)
            if isinstance(arrival, MoveBlock):
                continue
            key = (there, arrival.stop is not None)
            if key not in best or arrival.spent < best[key]:
                best[key] = arrival.spent
                parents[key] = state
                reasons[key] = arrival.stop
                heapq.heappush(heap, (arrival.spent, there, key[1]))
            elif tie_break == "path" and arrival.spent == best[key] and key not in done \
                    and _better_tie(parents, key in forced, arrival.forced, state, parents[key], there):
                parents[key] = state
                reasons[key] = arrival.stop
            else:
                continue
            if tie_break != "path":
                continue  # `forced` is read only by the "path" tie-break
            if arrival.forced:
                forced.add(key)
            else:
                forced.discard(key)
    chosen: dict[HexId, _State] = {}
    for key in sorted(best, key=lambda k: (k[0], best[k], k[1])):
        chosen.setdefault(key[0], key)
    return Reach(
        start=origin,
        costs={h: best[s] for h, s in chosen.items()},
        stops={h: reasons[s] for h, s in chosen.items()},
        endable=frozenset(h for h in chosen if rules.can_end is None or rules.can_end(h)),
        _chosen=chosen,
        _parents=parents,
    )


def _better_tie(parents: Mapping[_State, _State | None], old_forced: bool, new_forced: bool,
                new_parent: _State, old_parent: _State | None, there: HexId) -> bool:
    """For ``tie_break="path"``: whether an arrival at ``there`` at the same cost replaces the recorded one
    (an arrival by the minimum-move rule, which really cost more, loses to any other)."""
    if old_forced != new_forced:
        return old_forced
    return (*_path_to(parents, new_parent), there) < (*_path_to(parents, old_parent), there)


def _path_to(parents: Mapping[_State, _State | None], state: _State | None) -> tuple[HexId, ...]:
    path: list[HexId] = []
    while state is not None:
        path.append(state[0])
        state = parents[state]
    return tuple(reversed(path))


def _geometry_block(hexmap: HexMap, a: HexId, b: HexId) -> MoveBlock | None:
    if not hexmap.grid.contains(b):
        return MoveBlock.OFF_MAP
    if not hexmap.grid.is_adjacent(a, b):
        return MoveBlock.NOT_ADJACENT
    return None


@dataclass(frozen=True, slots=True)
class PathCheck:
    """Result of :func:`check_path`: cost so far, and the first problem (``None`` if the path is legal)."""

    path: tuple[HexId, ...]
    spent: int
    block: MoveBlock | None = None
    at_step: int | None = None
    """Index into ``path`` of the hex that could not be entered (or ended in)."""
    stop: StopReason | None = None

    @property
    def ok(self) -> bool:
        return self.block is None


def check_path(hexmap: HexMap, table: MovementTable, path: Iterable[str], rules: MoveRules) -> PathCheck:
    """Check a commanded path step by step with exactly the rules :func:`reachable` uses."""
    hexes = tuple(HexId(h) for h in path)
    if not hexes:
        raise ValueError("a path needs at least its starting hex")
    hexmap.grid.require(hexes[0])
    spent = 0
    stop: StopReason | None = None
    for i in range(1, len(hexes)):
        if stop is not None:
            return PathCheck(hexes, spent, MoveBlock.ALREADY_STOPPED, i, stop)
        arrival = _geometry_block(hexmap, hexes[i - 1], hexes[i]) or _try_step(
            hexmap, table, rules, hexes[i - 1], hexes[i], spent, i == 1)
        if isinstance(arrival, MoveBlock):
            return PathCheck(hexes, spent, arrival, i, stop)
        spent, stop = arrival.spent, arrival.stop
    if len(hexes) > 1 and rules.can_end is not None and not rules.can_end(hexes[-1]):
        return PathCheck(hexes, spent, MoveBlock.CANNOT_END_HERE, len(hexes) - 1, stop)
    return PathCheck(hexes, spent, None, None, stop)


# ================================================================================================
# Retreats and command range
# ================================================================================================


@dataclass(frozen=True, slots=True)
class RetreatOption:
    """A retreat path and how it ends relative to the enemy."""

    path: tuple[HexId, ...]
    """Hexes entered, in order (the starting hex excluded)."""
    nearest_enemy: int
    """Distance from the end hex to the nearest enemy unit."""
    farther_from_all: bool
    """True if the end hex is farther than the start from every enemy unit."""

    @property
    def end(self) -> HexId:
        return self.path[-1]


def retreat_options(
    grid: Grid,
    start: str,
    enemies: Iterable[str],
    *,
    hexes: int = 1,
    can_enter: Callable[[HexId], bool] | None = None,
) -> tuple[RetreatOption, ...]:
    """Every retreat of exactly ``hexes`` steps through enterable hexes, best first.

    Ranking (caldiero §12.6, arrivano §12.6: end farther from all enemy units if possible): first the
    options ending farther from every enemy than the start, then by distance to the nearest enemy
    (larger first), then by path (hex ids ascending) so the order is fully deterministic. The owner
    still chooses (caldiero §12.6); :func:`best_retreats` keeps only the top-ranked ones.
    """
    origin = grid.require(start)
    enemy_hexes = sorted({HexId(e) for e in enemies})
    found: list[tuple[HexId, ...]] = []

    def extend(path: tuple[HexId, ...]) -> None:
        if len(path) == hexes:
            found.append(path)
            return
        here = path[-1] if path else origin
        for n in grid.neighbours(here):
            if n == origin or n in path or (can_enter is not None and not can_enter(n)):
                continue
            extend((*path, n))

    if hexes > 0:
        extend(())
    options = [
        RetreatOption(
            path=p,
            nearest_enemy=min((grid.distance(p[-1], e) for e in enemy_hexes), default=0),
            farther_from_all=all(grid.distance(p[-1], e) > grid.distance(origin, e) for e in enemy_hexes),
        )
        for p in found
    ]
    return tuple(sorted(options, key=lambda o: (not o.farther_from_all, -o.nearest_enemy, o.path)))


def best_retreats(options: tuple[RetreatOption, ...]) -> tuple[RetreatOption, ...]:
    """The options tied for the best rank (same ``farther_from_all`` and ``nearest_enemy`` as the first)."""
    if not options:
        return ()
    top = (options[0].farther_from_all, options[0].nearest_enemy)
    return tuple(o for o in options if (o.farther_from_all, o.nearest_enemy) == top)


def command_distances(grid: Grid, origin: str, radius: int, passable: Callable[[HexId], bool], *,
                      may_cross: Callable[[HexId, HexId], bool] | None = None) -> dict[HexId, int]:
    """Hexes a command line from ``origin`` reaches within ``radius`` hexes, with their distance.

    The line is traced hex by hex (caldiero §4.3.3, arrivano §4.4.3): it may end in any hex, but may
    only continue through hexes ``passable`` accepts (not impassable terrain, not enemy units).
    ``may_cross(a, b)``: whether the line may step from a into b at all (an impassable hexside; in
    Caldiero a hex with enemy units, which the line may not even end in); by default every step.
    """
    start = grid.require(origin)
    reached = {start: 0}
    frontier = [start]
    for distance in range(1, radius + 1):
        nxt: list[HexId] = []
        for h in frontier:
            if h != start and not passable(h):
                continue
            for n in grid.neighbours(h):
                if n not in reached and (may_cross is None or may_cross(h, n)):
                    reached[n] = distance
                    nxt.append(n)
        frontier = sorted(nxt)
    return reached


def in_command_range(grid: Grid, commander: str, unit: str, radius: int, passable: Callable[[HexId], bool]) -> bool:
    """Whether ``unit`` is within ``radius`` hexes of ``commander`` by a traceable command line."""
    return grid.require(unit) in command_distances(grid, commander, radius, passable)
