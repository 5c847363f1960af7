"""A ruleset's movement table (docs/hexmap-format.md, second part) and the cost of one step on a hex map.

Costs are integers in **half movement points** (Caldiero's road costs half a point), so a unit with 4 MP
has a budget of 8. No game rule lives here: the table says what terrain costs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, PlainValidator

from arbitro.adjudicator.datafiles import (
    Bool,
    DataError,
    Int,
    Problem,
    Str,
    StrictModel,
    Where,
    check_unique,
    read_json,
    validated,
)
from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.memo import Memo


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


class TerrainRule(StrictModel):
    """Cost to enter a hex of this terrain, per unit class (``default`` for the rest)."""

    cost: dict[Str, CostValue]
    on_road: dict[Str, CostValue] | None = None


class HexsideRule(TerrainRule):
    """Extra cost to cross a hexside feature; ``cancelled_by`` lists features that annul it (bridges)."""

    cancelled_by: tuple[Str, ...] = ()


class RoadCost(StrictModel):
    """A road step's cost: a fixed ``cost``, or the normal cost less ``reduce_by`` but not below ``minimum``.

    ``scaled``: the terrain multiplier (weather) applies to this road cost too; by default a road is spared
    (caldiero §17.1.3 spares only the main road: the minor road's cost doubles)."""

    cost: Annotated[int | Literal["all"] | None, PlainValidator(_parse_road_amount)] = None
    reduce_by: Int | None = Field(default=None, ge=0)
    minimum: Int = Field(default=0, ge=0)
    scaled: Bool = False

    def problems(self) -> list[tuple[Where, str]]:
        return [((), "give exactly one of 'cost' and 'reduce_by'")] if (self.cost is None) == (self.reduce_by is None) else []


class RoadRule(StrictModel):
    """``in_column``: cost in march column along this road; ``always``: cost along it in any formation."""

    in_column: RoadCost | None = None
    always: RoadCost | None = None


class MovementTable(StrictModel):
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
    return parse_movement_table(read_json(path, label), hexmap=hexmap, source=label)


def parse_movement_table(data: object, *, hexmap: HexMap | None = None, source: str = "<movement>") -> MovementTable:
    table = validated(MovementTable, data, source)
    problems = _table_problems(table)
    if hexmap is not None:
        problems += table_map_problems(table, hexmap)
    if problems:
        raise DataError.in_file(source, problems)
    return table


FREE_STEP = ("a step costs at least 1 half-point: a free step would let a move pass through hexes for nothing, and "
             "the cheapest path's tie-break would no longer be the smallest hex by hex")


def _check_class_costs(table: MovementTable, costs: Mapping[str, CostValue], path: str,
                       problems: list[Problem], entering: bool = False) -> None:
    """`costs` per unit class: each class declared, every class priced; where they are what entering a hex costs
    (`entering`: a terrain's, not a hexside's extra), none is 0."""
    for key, value in costs.items():
        if key != "default" and key not in table.unit_classes:
            problems.append(Problem(f"{path}.{key}", f"unknown unit class (declared: {', '.join(table.unit_classes)})"))
        if entering and (value.cost if isinstance(value, StopCost) else value) == 0:
            problems.append(Problem(f"{path}.{key}", f"0 is not a cost here: {FREE_STEP}"))
    if "default" not in costs:
        missing = [c for c in table.unit_classes if c not in costs]
        if missing:
            problems.append(Problem(path, f"no 'default' and no cost for: {', '.join(missing)}"))


def _table_problems(table: MovementTable) -> list[Problem]:
    problems: list[Problem] = []
    check_unique(table.unit_classes, "$.unit_classes", problems)
    for i, c in enumerate(table.unit_classes):
        if c in _RESERVED_KEYS:
            problems.append(Problem(f"$.unit_classes[{i}]", f"{c!r} is a reserved key"))
    for section in ("terrain", "hexside"):
        rules: Mapping[str, TerrainRule] = getattr(table, section)
        for name, rule in rules.items():
            entering = section == "terrain"  # a hexside's cost is added to the terrain's: 0 is no extra
            _check_class_costs(table, rule.cost, f"$.{section}.{name}.cost", problems, entering)
            if rule.on_road is not None:
                _check_class_costs(table, rule.on_road, f"$.{section}.{name}.on_road", problems, entering)
    problems += [problem for name, road in table.roads.items() for problem in _road_problems(name, road)]
    for name, hs_rule in table.hexside.items():
        for j, other in enumerate(hs_rule.cancelled_by):
            if other not in table.hexside:
                problems.append(Problem(f"$.hexside.{name}.cancelled_by[{j}]", f"no hexside rule for {other!r}"))
    for key in table.climb:
        if key != "default" and key not in table.unit_classes:
            problems.append(Problem(f"$.climb.{key}", f"unknown unit class (declared: {', '.join(table.unit_classes)})"))
    return problems


def _road_problems(name: str, road: RoadRule) -> list[Problem]:
    """A road step that may cost nothing: a `cost` of 0, or a `reduce_by` with no `minimum` of at least 1."""
    found = []
    for way, cost in (("in_column", road.in_column), ("always", road.always)):
        if cost is not None and cost.cost == 0:
            found.append(Problem(f"$.roads.{name}.{way}.cost", f"0 is not a cost here: {FREE_STEP}"))
        if cost is not None and cost.reduce_by and cost.minimum < 1:
            found.append(Problem(f"$.roads.{name}.{way}.minimum", f"must be at least 1 where reduce_by takes off "
                                 f"{cost.reduce_by}: {FREE_STEP}"))
    return found


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

    It reads of the map only the step's kind (`step_kind`): steps of one kind cost the same (`kind_cost`).
    """
    return kind_cost(table, step_kind(hexmap, a, b), unit_class, march_column=march_column,
                     terrain_multiplier=terrain_multiplier)


StepKind = tuple[tuple[str, ...], int, tuple[str, ...], tuple[str, ...]]
"""What a step's cost is made of: (the terrains of the hex entered, the levels climbed, the features of the hexside
crossed, the road kinds along the step)."""


def step_kind(hexmap: HexMap, a: str, b: str) -> StepKind:
    """All that `step_cost` reads of the map for the step from ``a`` into the adjacent ``b``: a map has a few dozen
    kinds of step, so a caller pricing many steps prices each kind once (maps.movement, issue 15). Read once a step
    and map (`_STEP_KINDS`), whatever unit class prices it: maps.movement keeps a table of costs per class, formation
    and multiplier, each of which asked every step's kind anew (a verify of arrivano-montebello: 8,265 asks of 3,450
    steps)."""
    kinds = _STEP_KINDS.table((hexmap,), "kinds")
    kind: StepKind | None = kinds.get((a, b))  # type: ignore[assignment]
    if kind is None:
        kind = kinds[(a, b)] = (hexmap.hex(b).terrains, max(0, hexmap.elevation(b) - hexmap.elevation(a)),
                                hexmap.hexside_features(a, b), hexmap.roads_between(a, b))
    return kind


_STEP_KINDS = Memo(16)  # a table of each map's step kinds (a map's data never change: its object is the key)


def kind_cost(table: MovementTable, kind: StepKind, unit_class: str, *, march_column: bool = False,
              terrain_multiplier: int = 1) -> StepCost:
    """`step_cost` of a step of this kind (`step_kind`)."""
    if unit_class not in table.unit_classes:
        raise ValueError(f"unknown unit class {unit_class!r} (table has {', '.join(table.unit_classes)})")
    terrains, levels, features, roads = kind
    on_road = bool(roads)
    terrain = min((_terrain_step(table, t, unit_class, on_road) for t in terrains), key=_rank)
    climb = StepCost(half_points=levels * table.climb.get(unit_class, table.climb.get("default", 0)))
    side = _hexside_step(table, features, unit_class, on_road)
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
