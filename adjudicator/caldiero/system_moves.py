"""Movement commands (caldiero §9, §5.1, §4.1.4, §4.2; the system's movement step): which units move
together, under which order, the obligations of Attack and Advance orders, leaders' movement.
"""

from __future__ import annotations

from collections.abc import Callable

from arbitro.adjudicator.caldiero import commands as C
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.system_movement import (
    Group, Route, Way, any_destination, check_path, group_mover, make_group, own_step_problem, reachable, route_to,
)
from arbitro.adjudicator.parabellum.commander_move import commander_may_move
from arbitro.adjudicator.parabellum.move_problems import destination_problem, unreachable
from arbitro.adjudicator.caldiero.system_orders import in_command_moves_over
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO, CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import command
from arbitro.adjudicator.parabellum.movement import column_problem, tends_toward, toward_enemy
from arbitro.adjudicator.parabellum import rout
from arbitro.adjudicator.parabellum.orders import Counted, artillery_orders, obligation_problem, order_of
from arbitro.adjudicator.parabellum.zoc import enemy_zoc
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import caldiero as ev
from arbitro.adjudicator.caldiero.system_procedure import arrival_turn, leader_due, lone_leaders, unit_due
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.parabellum.act import Act, refuse
from arbitro.adjudicator.caldiero.scenario_rules import charge_problem, check_direction_release


def mover_orders(w: World, units: tuple[str, ...], column: bool = False) -> list[str]:
    """Orders every unit of the group may act under, the group's own first; `column`: those allowing march column
    (§9.3, the orders table's `march_column`). Once per World and group (issue 15: a movement listing asks it of
    every group twice, for its moves and whether it may march, and again for a march column's moves)."""
    return list(w.cached(("mover orders", units, column), lambda: tuple(_mover_orders(w, units, column))))


def _mover_orders(w: World, units: tuple[str, ...], column: bool) -> list[str]:
    sets = []
    for u in units:
        sets.append(set(artillery_orders(w.orders, order_of(w, u))) if w.is_artillery(u) else {order_of(w, u)})
    common = {o for o in set.intersection(*sets) if not column or w.order_rules(o).march_column}
    first = order_of(w, units[0])
    return sorted(common, key=lambda o: (o != first, o))


def check_movers(w: World, seat: str, units: tuple[str, ...]) -> None:
    act = w.state.activation
    assert act is not None
    if len(set(units)) != len(units):
        refuse(CALDIERO.MOVEMENT, "a unit is listed twice")
    locations = set()
    for u in units:
        s = w.state.units.get(u)
        if s is None or s.side != seat:
            refuse(CALDIERO.MOVEMENT, f"{u} is not one of your units")
        if u not in act.units:
            refuse(R.ACTION_PHASE, f"{u} does not belong to the active formation {act.formation} (caldiero §3.1 B)")
        if u in act.moved:
            refuse(CALDIERO.MOVEMENT, f"{u} has already moved in this activation (caldiero §9.1)")
        if u not in act.out_of_command and in_command_moves_over(w):
            refuse(R.OOC_AFTER_MOVES, f"{u} is in command: the in-command units' movement ended when the "
                         "out-of-command units tried to change order (caldiero §3.1 B-3)")
        if s.where == "offmap" and not unit_due(w, u):
            refuse(CALDIERO.REINFORCEMENTS, f"{u} is not due to arrive before turn {arrival_turn(w, w.counters.unit(u).arrival.turn) if w.counters.unit(u).arrival else '?'} (caldiero §15.4)")
        if s.where not in ("map", "offmap"):
            refuse(CALDIERO.MOVEMENT, f"{u} is not on the map")
        if s.status == "routed":
            refuse(CALDIERO.ROUT, f"{u} is routed: routed units do not move (caldiero §15.2)")
        locations.add(s.hex if s.where == "map" else f"entry:{w.counters.unit(u).arrival.entry if w.counters.unit(u).arrival else ''}")
    if len(locations) != 1:
        refuse(CALDIERO.MOVEMENT, "units moving together must start in the same hex (caldiero §9.1)")


def move_options(w: World, units: tuple[str, ...], column: bool) -> dict[str, tuple[str, Way]]:
    """dest -> (order used, cheapest route), for every order the group may act under. Worked out once per
    World (legal() and the movement obligations both ask): do not modify the answer."""
    return w.cached(("move_options", units, column), lambda: _move_options(w, units, column))


def move_option(w: World, units: tuple[str, ...], column: bool, to: str) -> tuple[str, Way] | None:
    """`move_options(w, units, column).get(to)`, each order's searches only as far as `to` where they are not worked
    out (issue 15: a move names its destination)."""
    known = w.known(("move_options", units, column))
    return (known if known is not None else _move_options(w, units, column, to)).get(to)  # type: ignore[no-any-return]


def any_move(w: World, units: tuple[str, ...], column: bool) -> str | None:
    """A destination of `move_options(w, units, column)`, or None when there is none: each order's searches stopped
    at the first it finds (issue 15: the movement step's "anything left?" after every command)."""
    known = w.known(("move_options", units, column))
    if known is not None:
        return min(known, default=None)  # type: ignore[no-any-return]
    for order in mover_orders(w, units, column):
        g = make_group(w, units, order, column)
        found = any_destination(w, g, lambda h, toward=attack_toward(w, g): toward(h) is None)  # type: ignore[misc]
        if found is not None:
            return found
    return None


def _move_options(w: World, units: tuple[str, ...], column: bool,
                  to: str | None = None) -> dict[str, tuple[str, Way]]:
    out: dict[str, tuple[str, Way]] = {}
    for order in mover_orders(w, units, column):
        g = make_group(w, units, order, column)
        # §5.1.2 asked only where it binds, unworded (`attack_toward` finds nothing where it holds)
        toward = tends_toward(w, g.side, g.start, enemy_zoc(w, g.side)) if toward_binds(g) and g.start else None
        routes = reachable(w, g) if to is None else {to: r for r in [route_to(w, g, to)] if r is not None}
        if not out:  # each route taken as it is (issue 15: most groups have one order)
            out = {dest: (order, route) for dest, route in routes.items() if toward is None or toward(dest)}
            continue
        for dest, route in routes.items():
            if (toward is None or toward(dest)) and (dest not in out or route.cost_half < out[dest][1].cost_half):
                out[dest] = (order, route)
    return out


def toward_binds(g: Group) -> bool:
    """Whether caldiero §5.1.2's direction binds the group's move (`attack_toward`): an Attack order, no guns, from the
    map (not units entering it)."""
    return g.order == "attack" and not g.artillery and g.start is not None


def attack_toward(w: World, g: Group) -> Callable[[str], tuple[Rule, str] | None]:
    """caldiero §5.1.2 (the kernel's `toward_enemy`): why an Attack-order group's move ending in a hex is refused (it
    ends neither in EZoC nor nearer the closest enemy); never when the group is not bound (`toward_binds`: another
    order, artillery, units entering the map)."""
    start = g.start
    if start is None or not toward_binds(g):
        return lambda end: None
    return toward_enemy(CALDIERO_VARIANT, w, g.side, start, enemy_zoc(w, g.side))


def check_move(w: World, seat: str, cmd: C.GroupMove) -> tuple[str, Way]:
    """The order the group moves under and its route, or the refusal, saying which movers hold a Defence order
    only because they are out of command (§5.3, issue 19 item 16)."""
    units = tuple(cmd.units)
    check_movers(w, seat, units)
    try:
        return _order_and_route(w, units, cmd)
    except IllegalCommand as e:
        note = command.held_note(CALDIERO_VARIANT, w, units)
        if not note:
            raise
        refuse(e.rule, e.message + note)


def _order_and_route(w: World, units: tuple[str, ...], cmd: C.GroupMove) -> tuple[str, Way]:
    column = column_problem(CALDIERO_VARIANT, w, mover_orders(w, units), w.state.units[units[0]].hex) if cmd.column else None
    if column:
        refuse(*column)
    if cmd.path is None:
        option = move_option(w, units, cmd.column, cmd.to)
        if option is None:
            refuse(*_why_not(w, units, cmd))
        return option
    path = tuple(cmd.path)
    if path[-1] != cmd.to:
        refuse(CALDIERO.MOVEMENT, f"the path ends at {path[-1]}, not at {cmd.to}")
    last: tuple[Rule, str] | None = None
    for order in mover_orders(w, units, cmd.column):
        g = make_group(w, units, order, cmd.column)
        route = check_path(w, g, path)
        problem = attack_toward(w, g)(route.path[-1]) if isinstance(route, Route) else route
        if problem:
            last = problem
            continue
        return order, route  # type: ignore[return-value]
    refuse(*(last or (CALDIERO.MOVEMENT, "no order allows this move")))


def _why_not(w: World, units: tuple[str, ...], cmd: C.GroupMove) -> tuple[Rule, str]:
    """The most specific reason a destination is not reachable under any of the group's orders: the kernel's
    `destination_problem` with Caldiero's step vetoes, then §5.1.2's direction for a route found."""
    orders = mover_orders(w, units, cmd.column)
    for order in orders:
        g = make_group(w, units, order, cmd.column)
        route = reachable(w, g).get(cmd.to)
        problem = attack_toward(w, g)(route.path[-1]) if route is not None else destination_problem(
            CALDIERO_VARIANT, w, group_mover(w, g), units, cmd.to, own_step_problem(w, g))
        if problem:
            return problem
    return unreachable(CALDIERO_VARIANT, cmd.to, units, orders)


def do_move(a: Act, seat: str, cmd: C.GroupMove, order: str, route: Way) -> None:
    units = tuple(cmd.units)
    if cmd.charge:
        problem = charge_problem(a.world(), units, order, route)
        if problem:
            refuse(CALDIERO.CHARGE, problem)
    a.emit(ev.UnitsMoved(units=units, path=route.path, rule=str(R.COLUMN if cmd.column else CALDIERO.MOVEMENT),
                         column=cmd.column, cost_half=route.cost_half, charge="" if cmd.charge else None))
    check_direction_release(a, units)
    dest = route.path[-1]
    lone_leaders(a, dest, seat)
    rout.checks(a, CALDIERO_VARIANT, dest)  # caldiero §15.2


def movement_obligation_problem(w: World) -> tuple[Rule, str] | None:
    """caldiero §5.1.1 and §5.1.2 (the kernel's `obligation_problem`), checked when the movement step ends (under
    §3.1 B-3's reading they were met when the out-of-command units tested, after which no in-command unit moves).
    Counted: the activation's units on the map since it began, but artillery, the out-of-command and units that may
    stay put where they began (§10.1, §10.5.2); a routed unit has no move."""
    act = w.state.activation
    assert act is not None
    if in_command_moves_over(w):
        return None
    counted = [Counted(u, order_of(w, u), start, act.start_dist.get(u), u in act.moved)
               for u in act.units if w.state.units[u].where == "map" and (start := act.start_hex.get(u)) is not None
               and not w.is_artillery(u) and u not in act.out_of_command and not w.may_stay(start)]
    return obligation_problem(CALDIERO_VARIANT, w, w.state.formations[act.formation].side, counted,
                              lambda u: () if w.status(u) == "routed" else move_options(w, (u,), False))


def movable_leaders(w: World, seat: str) -> list[str]:
    """Who may move (the kernel's `commander_may_move`): the activated formation's general first, then the commander
    in chief, unless he commands a formation (§20.1: Bonaparte's), when he moves only as its general."""
    act = w.state.activation
    assert act is not None
    cinc: str | None = w.commander_in_chief(seat)
    if any(f.general == cinc for f in w.state.formations.values()):
        cinc = None
    leaders = dict.fromkeys(x for x in (w.state.formations[act.formation].general, cinc) if x in w.state.leaders)
    return [x for x in leaders if commander_may_move(w, x, seat, lambda due: leader_due(w, due))]
