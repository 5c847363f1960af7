"""Caldiero's map rules that the system modules ask about through `World.hooks` (an Arrivano ruleset
supplies its own hooks object, or none): the Austrians' forbidden 10xx row (caldiero §9.2.1), the attack
directions of Augereau and Massena (caldiero §19.1), the commanders in chief's limits (caldiero §4.2.2)."""

from __future__ import annotations

from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.system_world import World
from arbitro.adjudicator.hexgrid import parse_hex
from arbitro.adjudicator.ruleset import Rule


def north_south_of_road(world: World, h: str) -> str:
    """'north', 'south' or 'road' relative to the 1014-2714 road (caldiero §19.1; higher rows are north)."""
    rows = _road_rows(world)
    col, row = parse_hex(h)
    if col not in rows:
        return "road"
    lo, hi = rows[col]
    return "north" if row > hi else "south" if row < lo else "road"


def _road_rows(world: World) -> dict[int, tuple[int, int]]:
    cache = world.board._cache
    if "road_rows" not in cache:
        rows: dict[int, tuple[int, int]] = {}
        for kind, _name, hexes in world.board.map.road_lines:
            if kind != "strada" or not ("1014" in hexes or "2714" in hexes):
                continue
            for h in hexes:
                c, r = parse_hex(h)
                lo, hi = rows.get(c, (r, r))
                rows[c] = (min(lo, r), max(hi, r))
        cache["road_rows"] = rows
    return cache["road_rows"]  # type: ignore[no-any-return]


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



def _leader_may_end(world: World, leader: str, h: str) -> bool:
    scen = world.data.scenario
    if leader == "bonaparte" and not world.option("bonaparte_intervention"):
        return world.board.distance(h, scen.bonaparte_anchor) <= scen.bonaparte_max_distance  # §4.2.2
    if leader == "bonaparte":
        return True  # caldiero §20.1.1: no longer subject to §4.2.2
    if leader == "alvinczy":
        col = parse_hex(h)[0]
        limit = scen.alvinczy_min_column + (1 if world.reading("alvinczy_limit") == "east_of_24" else 0)
        return col >= limit  # caldiero §4.2.2
    return True


class CaldieroHooks:
    """The hooks object the system modules call (see system_world.World.hooks)."""

    def entry_problem(self, world: World, side: str, h: str) -> tuple[Rule, str] | None:
        if side == "austria" and parse_hex(h)[0] == world.data.scenario.austrian_forbidden_column:
            return R.NO_10XX, f"{h}: Austrian units never enter the 10xx row (caldiero §9.2.1)"
        return None

    def formation_hex_problem(self, world: World, formation: str, h: str) -> tuple[Rule, str] | None:
        problem = direction_problem(world, formation, h)
        return (R.DIRECTION, problem) if problem else None

    def leader_may_end(self, world: World, leader: str, h: str) -> bool:
        return _leader_may_end(world, leader, h)


HOOKS = CaldieroHooks()
