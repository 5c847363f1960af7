"""Caldiero-specific hooks called by the system modules: attack directions (caldiero §19.1) and cavalry
charges (caldiero §20.2). Arrivano i Francesi! supplies its own (or none).
"""

from __future__ import annotations


from arbitro.adjudicator.caldiero import ground
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.map_rules import attack_direction
from arbitro.adjudicator.caldiero.system_movement import Way, step_cost
from arbitro.adjudicator.parabellum.world import World
from arbitro.events import caldiero as ev
from arbitro.adjudicator.parabellum.act import Act


def charge_targets(w: World, units: tuple[str, ...], route: Way) -> list[str]:
    """caldiero §20.2: enemy hexes in the plain the charging cavalry could still enter from the end of its move."""
    end = route.path[-1]
    side = w.state.units[units[0]].side
    ma = min(w.counters.unit(u).movement for u in units) * 2
    out = []
    for n in w.grid.neighbours(end):
        if not w.enemy_units_at(n, side) or not ground.plain(w, n) or w.crossing_prohibited(end, n):
            continue  # §20.2.1: only units in the plain
        if route.cost_half + step_cost(w, end, n, False) <= ma:
            out.append(n)
    return sorted(out)


def chargers(w: World, units: tuple[str, ...]) -> bool:
    """caldiero §20.2: whether every unit is cavalry that may charge (its counter says so), whatever its order."""
    return all(w.counters.unit(u).charge and w.state.units[u].arm == "cavalry" for u in units)


def charge_problem(w: World, units: tuple[str, ...], order: str, route: Way) -> str | None:
    if not w.option("cavalry_charges"):
        return "cavalry charges are an optional rule not in use in this game (caldiero §20.2)"
    if order != "attack" or not chargers(w, units):
        return "only the Austrian hussars and Erz. Jozsef cavalry with an Attack order may charge (caldiero §20.2)"
    if not charge_targets(w, units, route):
        return "a charge stops next to an enemy in the plain that the cavalry could still enter (caldiero §20.2, §20.2.1)"
    return None


def check_direction_release(a: Act, units: tuple[str, ...]) -> None:
    """caldiero §19.1: a formation is freed when one of its units enters a place its `attack_direction` names."""
    for u in units:
        w = a.world()
        f = w.formation_of(u)
        if f in a.state.direction_released or (d := attack_direction(w, f)) is None:
            continue
        if any(a.state.units[u].hex in w.hexmap.place(place) for place in d.until):
            a.emit(ev.DirectionReleased(formation=f, rule=str(R.DIRECTION)))
