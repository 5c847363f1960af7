"""Caldiero's own rules that the system modules ask about through `World.hooks` / `Env.hooks` (an Arrivano
ruleset supplies its own hooks object, or none): the Austrians' forbidden 10xx row (caldiero §9.2.1), the
attack directions of Augereau and Massena (caldiero §19.1), the commanders in chief's limits (§4.2.2), and
the assault modifiers only Caldiero has: Elan (§16), weather columns (§17.1), confusion (§17.2), storm
from the east (§20.3), flank attacks (§20.5)."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.system_assault import flanked, withdraw_attackers
from arbitro.adjudicator.caldiero.system_world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.maps.hexgrid import parse_hex
from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.parabellum import efficiency
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import caldiero as ev


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


def _leader_may_end(world: World, leader: str, h: str) -> bool:
    scen = world.scenario
    if leader == "bonaparte" and not world.option("bonaparte_intervention"):
        return world.grid.distance(h, scen.bonaparte_anchor) <= scen.bonaparte_max_distance  # §4.2.2
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
        if side == "austria" and parse_hex(h)[0] == world.scenario.austrian_forbidden_column:
            return R.NO_10XX, f"{h}: Austrian units never enter the 10xx row (caldiero §9.2.1)"
        return None

    def formation_hex_problem(self, world: World, formation: str, h: str) -> tuple[Rule, str] | None:
        problem = direction_problem(world, formation, h)
        return (R.DIRECTION, problem) if problem else None

    def leader_may_end(self, world: World, leader: str, h: str) -> bool:
        return _leader_may_end(world, leader, h)

    # --- assault (system_assault.stage_resolve / CaldieroVariant.combat_sp) ----------------------------------------
    def attack_strength(self, w: World, u: str, value: int, defender_hexes: list[str]) -> int:
        """caldiero §20.3.1: in boxes 2-3, units attacking eastward (column XX onto XX+1) lose 1 strength."""
        storm = w.scenario.options["storm_from_east"]
        h = w.state.units[u].hex
        if w.option("storm_from_east") and w.state.weather in storm.weather_boxes and h:
            if any(parse_hex(d)[0] == parse_hex(h)[0] + 1 for d in defender_hexes):
                return max(0, value - storm.strength_malus)
        return value

    def before_odds(self, a: Any, notes: list[str]) -> int:
        """caldiero §16.1 Elan: an unmodified test; passed gives 1d6 columns right, failed disorders the unit
        (which then no longer attacks, §15.1). Returns the columns gained."""
        c = a.combat
        if c is None or c.elan is None or c.elan not in c.attackers:
            return 0
        w = a.w
        (roll,) = a.roll(f"{R.ELAN_TEST} Elan test of {c.elan}", {"test": "efficiency, no modifier", "value": w.efficiency(c.elan)},
                         about=(a.state.units[c.elan].hex,))
        ok = efficiency.passes(CALDIERO_VARIANT, roll, w.efficiency(c.elan))
        columns = 0
        if ok:
            (columns,) = a.roll(f"{R.ELAN_TEST} Elan columns", {"table": "1d6 columns right"})
        a.emit(ev.ElanSpent(unit=c.elan, passed=ok, columns=columns, rule=str(R.ELAN_TEST)))
        if not ok:
            status = "disordered" if a.state.units[c.elan].status == "good" else "routed"
            a.emit(ev.StatusChanged(unit=c.elan, status=status, rule=str(R.ELAN_TEST)))
            withdraw_attackers(a, (c.elan,), R.ELAN_TEST)
            notes.append(f"Elan failed: {c.elan} disordered")
        else:
            notes.append(f"Elan: {columns} columns right")
        return columns

    def column_shifts(self, a: Any, notes: list[str]) -> tuple[int, int]:
        """(columns left, columns right): weather (caldiero §17.1.1-§17.1.3: 1, 2, 3 left), confusion in boxes
        1-3 (§17.2), flank attacks (§20.5.1: 2 right)."""
        w = a.w
        c = a.combat
        left = right = 0
        if w.state.weather:
            left += w.state.weather
            notes.append(f"weather {w.state.weather}L")
            (conf,) = a.roll(f"{R.CONFUSION} confusion", {"table": "1-2 one left, 3-4 none, 5-6 one right", "box": w.state.weather})
            shift = a.env.data.weather.confusion[str(conf)]
            left -= shift
            notes.append(f"confusion {conf}: {shift:+d} column")
        if w.option("flank_attacks") and c is not None and all(flanked(w, h, c) for h in c.defender_hexes):
            right += w.scenario.options["flank_attacks"].shift_right
            notes.append("flank attack 2R")
        return left, right


HOOKS = CaldieroHooks()
