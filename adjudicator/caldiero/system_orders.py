"""The four orders (caldiero §5.1, arrivano §5.1) and what each allows."""

from __future__ import annotations

from arbitro.adjudicator.caldiero.system_world import World
from arbitro.adjudicator.parabellum.movement import OrderMove


ALLOWS_COLUMN = {"advance": True, "attack": False, "defence": False, "manoeuvre": True}  # §5.1.1, §5.1.4
# caldiero §5.1.1-§5.1.4, §8.2.1: what each order lets a moving unit do with enemy ZoCs (Advance and Attack enter;
# Defence only where a friendly unit already is, never from one EZoC hex to another, one hex; Manoeuvre never).
ORDER_MOVES = {
    "advance": OrderMove("advance", "yes", ezoc_to_ezoc=True, max_hexes=None),
    "attack": OrderMove("attack", "yes", ezoc_to_ezoc=True, max_hexes=None),
    "defence": OrderMove("defence", "with_friend", ezoc_to_ezoc=False, max_hexes=1),
    "manoeuvre": OrderMove("manoeuvre", "no", ezoc_to_ezoc=True, max_hexes=None),
}
ALLOWS_REORGANISE = {"advance": False, "attack": False, "defence": True, "manoeuvre": False}  # §5.1.3, §15.3


def unit_order(world: World, u: str) -> str:
    """The order a unit acts under in the current activation (or, outside one, its standing order)."""
    state = world.state
    act = state.activation
    if act is not None and u in act.unit_orders:
        return act.unit_orders[u]
    if state.weather == 3:
        return "defence"  # caldiero §17.1.3
    if act is not None and u in act.out_of_command:
        return "defence"  # caldiero §5.3
    formation = state.formations.get(world.formation_of(u))
    if formation is None or formation.order is None:
        return "defence"
    return formation.order
