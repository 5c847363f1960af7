"""Caldiero's map rules, asked by its own modules and by its Variant (`closed_to`, `combat_sp`): the Austrians'
forbidden 10xx row (caldiero §9.2.1), the attack directions of Augereau and Massena (caldiero §19.1), the commanders
in chief's limits (§4.2.2), the storm from the east (§20.3.1). The assault's column shifts only Caldiero has are
CaldieroVariant's hooks (`elan_columns`, `assault_column_shifts`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.maps.hexgrid import parse_hex
from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.ruleset import Rule


def north_south_of_road(world: World, h: str) -> str:
    """'north', 'south' or 'road' relative to the 1014-2714 road (caldiero §19.1; higher rows are north)."""
    rows = _road_rows(world)
    col, row = parse_hex(h)
    if col not in rows:
        return "road"
    lo, hi = rows[col]
    return "north" if row > hi else "south" if row < lo else "road"


_ROAD_ROWS = Memo(64)  # per map (a user's data folder or an override makes its own), the 64 most recently used


def _road_rows(world: World) -> dict[int, tuple[int, int]]:
    """Each column's rows of the 1014-2714 road, worked out once per map."""
    return _ROAD_ROWS.get((world.hexmap,), "road rows", lambda: _rows_of(world.hexmap))


def _rows_of(hexmap: HexMap) -> dict[int, tuple[int, int]]:
    rows: dict[int, tuple[int, int]] = {}
    for road in hexmap.roads:
        if road.kind != "strada" or not ("1014" in road.hexes or "2714" in road.hexes):
            continue
        for h in road.hexes:
            c, r = parse_hex(h)
            lo, hi = rows.get(c, (r, r))
            rows[c] = (min(lo, r), max(hi, r))
    return rows


def direction_problem(world: World, formation: str, h: str) -> str | None:
    """caldiero §19.1: Augereau not north, Massena not south of the road until their objective is entered."""
    if formation in world.state.direction_released:
        return None
    where = north_south_of_road(world, h)
    if formation == "augereau" and where == "north":
        return f"{h} is north of the 1014-2714 road: Augereau's formation may not go there before entering Caldiero (caldiero §19.1.1)"
    if formation == "massena" and where == "south":
        return f"{h} is south of the 1014-2714 road: Massena's formation may not go there before entering Colognola (caldiero §19.1.2)"
    return None


def closed_row(world: World, side: str, h: str) -> tuple[Rule, str] | None:
    """caldiero §9.2.1: the Austrians never enter the 10xx row (the variant's `closed_to`)."""
    if side == "austria" and parse_hex(h)[0] == world.scenario.austrian_forbidden_column:  # type: ignore[attr-defined]
        return R.NO_10XX, f"{h}: Austrian units never enter the 10xx row (caldiero §9.2.1)"
    return None


def formation_hex_problem(world: World, formation: str, h: str) -> tuple[Rule, str] | None:
    """caldiero §19.1: why the formation's units may not go to or attack h (its direction of attack), or None."""
    problem = direction_problem(world, formation, h)
    return (R.DIRECTION, problem) if problem else None


def leader_limit(world: World, leader: str) -> tuple[Hashable, Callable[[str], bool]] | None:
    """caldiero §4.2.2: the hexes a commander in chief may move into, with what decides them (a kept search's key), or
    None for a commander without a limit (Bonaparte intervening: §20.1.1). "Non può mai muovere a più di due esagoni
    da 1014" / "non può muovere oltre la linea di esagoni 24xx" read the most defensible way: every hex of his move,
    not only where it ends ("mai"), stays within the limit."""
    scen = world.scenario
    if leader == "bonaparte" and not world.option("bonaparte_intervention"):
        anchor, most = scen.bonaparte_anchor, scen.bonaparte_max_distance
        return ("bonaparte", anchor, most), lambda h: world.grid.distance(h, anchor) <= most
    if leader == "alvinczy":
        limit = scen.alvinczy_min_column + (1 if world.reading("alvinczy_limit") == "east_of_24" else 0)
        return ("alvinczy", limit), lambda h: parse_hex(h)[0] >= limit
    return None


def limit_problem(world: World, leader: str, hexes: Iterable[str]) -> tuple[Rule, str] | None:
    """caldiero §4.2.2: the refusal of a move into the first of `hexes` beyond the commander in chief's limit."""
    limit = leader_limit(world, leader)
    beyond = next((h for h in hexes if limit is not None and not limit[1](h)), None)
    if beyond is None:
        return None
    return R.CINC_LIMITS, (f"{leader} may not move into {beyond}: at no point of his move may Bonaparte be more than "
                           f"two hexes from 1014, nor Alvinczy west of the 24xx line ({R.CINC_LIMITS})")


def attack_strength(w: World, u: str, value: int, defender_hexes: list[str]) -> int:
    """caldiero §20.3.1: in boxes 2-3, units attacking eastward (column XX onto XX+1) lose 1 strength."""
    storm = w.scenario.options["storm_from_east"]
    h = w.state.units[u].hex
    if w.option("storm_from_east") and w.state.weather in storm.weather_boxes and h:
        if any(parse_hex(d)[0] == parse_hex(h)[0] + 1 for d in defender_hexes):
            return max(0, value - storm.strength_malus)
    return value
