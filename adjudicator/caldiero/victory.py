"""Victory (caldiero §18), with "Il tempo regge" (§19.2.3) and Bonaparte's intervention (§20.1)."""

from __future__ import annotations

from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.system_world import World
from arbitro.events import caldiero as ev


def hex_holder(w: World, h: str) -> str | None:
    sides = {w.state.units[u].side for u in w.units_at(h)}
    if len(sides) == 1:
        return sides.pop()
    if not sides and w.reading("vp_control") == "austrian_unless_french":
        return "austria"
    return None


def points(w: World) -> dict[str, int]:
    scen = w.data.scenario
    malus_places = set(scen.scenarios[w.state.scenario].french_vp_malus_places)
    total = {"france": 0, "austria": 0}
    for vh in scen.victory_hexes:
        holder = hex_holder(w, vh.hex)
        if holder is None:
            continue
        value = vh.points
        if holder == "france" and vh.place in malus_places:
            value -= 1  # caldiero §19.2.3
        total[holder] += value
    if w.option("bonaparte_intervention"):
        total["austria"] += scen.options["bonaparte_intervention"].austrian_vp_bonus  # caldiero §20.1
    return total


def level_for(w: World, difference: int) -> str:
    for level in sorted(w.data.scenario.victory_levels, key=lambda x: -x.min):
        if difference >= level.min:
            return level.level
    return "draw"


def final_result(w: World) -> ev.GameEnded:
    pts = points(w)
    leader = "france" if pts["france"] > pts["austria"] else "austria" if pts["austria"] > pts["france"] else None
    diff = abs(pts["france"] - pts["austria"])
    level = level_for(w, diff)
    winner = None if level == "draw" else leader
    return ev.GameEnded(points=pts, winner=winner, level=level, difference=diff, rule=str(R.VICTORY))
