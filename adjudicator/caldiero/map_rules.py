"""Caldiero's map rules, asked by its own modules and by its Variant (`closed_to`, `combat_sp`): the Austrians'
forbidden 10xx row (caldiero §9.2.1), the attack directions of Augereau and Massena (caldiero §19.1), the commanders
in chief's limits (§4.2.2), the storm from the east (§20.3.1). The assault's column shifts only Caldiero has are
CaldieroVariant's hooks (`elan_columns`, `assault_column_shifts`)."""

from __future__ import annotations

from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.loader import AttackDirection, road_between
from arbitro.adjudicator.maps.hexgrid import parse_hex
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum.chief_limits import ChiefLimit, CommanderLimit
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.ruleset import Rule


def north_south_of_road(world: World, road: tuple[str, str], h: str) -> str:
    """'north', 'south' or 'road' relative to the road running between `road`'s two ends (caldiero §19.1; higher rows
    are north; a column the road does not cross counts as the road's)."""
    rows = _ROAD_ROWS.get((world.hexmap,), ("road rows", *road), lambda: _rows_of(road_between(world.hexmap, *road)))
    col, row = parse_hex(h)
    if col not in rows:
        return "road"
    lo, hi = rows[col]
    return "north" if row > hi else "south" if row < lo else "road"


_ROAD_ROWS = Memo(64)
"""Each road's rows by column, per map (a user's data folder or an override makes its own) and road, the 64 most
recent. The road's two ends are the key's content, not an anchor: a caller's tuple of them is made anew at each call,
and an anchor is named by its identity, so keyed so every call missed (issue 15: its rows were worked out again at
every ask, 7 ms of a formation's first closed hexes)."""


def _rows_of(hexes: list[str]) -> dict[int, tuple[int, int]]:
    """Each column's lowest and highest row of the road's hexes."""
    rows: dict[int, tuple[int, int]] = {}
    for h in hexes:
        c, r = parse_hex(h)
        lo, hi = rows.get(c, (r, r))
        rows[c] = (min(lo, r), max(hi, r))
    return rows


def attack_direction(world: World, formation: str) -> AttackDirection | None:
    """caldiero §19.1: the formation's direction of attack (scenario.json's `attack_directions`), or None."""
    directions: list[AttackDirection] = world.scenario.attack_directions  # type: ignore[attr-defined]
    return next((d for d in directions if d.formation == formation), None)


def direction_problem(world: World, formation: str, h: str) -> str | None:
    """caldiero §19.1: why the formation's units may not go to h (its `attack_direction`, unless released), or None."""
    d = None if formation in world.state.direction_released else attack_direction(world, formation)
    if d is None or (where := north_south_of_road(world, (d.road[0], d.road[1]), h)) != d.barred:
        return None
    general = world.state.formations[formation].general
    who = world.counters.leader(general).name if general else formation  # the book names it by its general
    return (f"{h} is {where} of the {d.road[0]}-{d.road[1]} road: {who}'s formation may not go there before entering "
            f"{' or '.join(d.until)} ({d.rule})")


def closed_row(world: World, side: str, h: str) -> tuple[Rule, str] | None:
    """caldiero §9.2.1: the Austrians never enter the 10xx row (the variant's `closed_to`)."""
    if side == "austria" and parse_hex(h)[0] == world.scenario.austrian_forbidden_column:  # type: ignore[attr-defined]
        return R.NO_10XX, f"{h}: Austrian units never enter the 10xx row (caldiero §9.2.1)"
    return None


def formation_hex_problem(world: World, formation: str, h: str) -> tuple[Rule, str] | None:
    """caldiero §19.1: why the formation's units may not go to or attack h (its direction of attack), or None."""
    problem = direction_problem(world, formation, h)
    return (R.DIRECTION, problem) if problem else None


def commander_limit(world: World, leader: str) -> CommanderLimit | None:
    """caldiero §4.2.2: the limit in force on a commander in chief as his scenario sets it (scenario.json
    `commander_limits`), or None for a commander without one or whose limit an optional rule lifts (Bonaparte
    intervening, §20.1.1)."""
    limits: list[CommanderLimit] = world.scenario.commander_limits  # type: ignore[attr-defined]
    return next((lim for lim in limits if lim.leader == leader
                 and (lim.lifted_by is None or not world.option(lim.lifted_by))), None)


def leader_limit(world: World, leader: str) -> ChiefLimit | None:
    """caldiero §4.2.2 "Bonaparte non può mai muovere a più di due esagoni da 1014, Alvinczy non può muovere oltre
    la linea di esagoni 24xx": the commander in chief's limit (`commander_limit`, the scenario's data) under the
    readings in force, or None for a commander without one."""
    limit = commander_limit(world, leader)
    if limit is None:
        return None
    scope = world.reading("cinc_limit_scope")
    whole, name = scope == "whole_move", world.counters.leader(leader).name
    if limit.near is not None and limit.max_distance is not None:
        near, most = limit.near, limit.max_distance
        return ChiefLimit((leader, near, most, scope), lambda h: max(0, world.grid.distance(h, near) - most),
                         whole, f"{name} may not move more than {most} hexes from {near} (reading {scope})",
                         R.CINC_LIMITS, leader)
    column, read = limit.min_column, f"reading {scope}"
    if limit.reading is not None:
        reading = world.reading(limit.reading)
        column, read = limit.reading_columns.get(reading, column), f"readings {reading}, {scope}"
    assert column is not None  # CommanderLimit.problems: `near` with `max_distance`, or `min_column`
    return ChiefLimit((leader, column, scope), lambda h: max(0, column - parse_hex(h)[0]), whole,
                     f"{name} may not move west of the {column}xx line ({read})", R.CINC_LIMITS, leader)


def attack_strength(w: World, u: str, value: int, defender_hexes: list[str]) -> int:
    """caldiero §20.3.1: in boxes 2-3, units attacking eastward (column XX onto XX+1) lose 1 strength."""
    storm = w.scenario.options["storm_from_east"]
    h = w.state.units[u].hex
    if w.option("storm_from_east") and w.state.weather in storm.weather_boxes and h:
        if any(parse_hex(d)[0] == parse_hex(h)[0] + 1 for d in defender_hexes):
            return max(0, value - storm.strength_malus)
    return value
