"""Initiative and activation (caldiero §6, §5.2.2, §5.3.1, §4.3.1, §15.4.3; the system's formations and orders):
which formations may be activated, the roll, the activation record, the general's and out-of-command
units' orders.
"""

from __future__ import annotations

from arbitro.adjudicator.caldiero import commands as C
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.variant import CALDIERO, CALDIERO_VARIANT, reserves
from arbitro.adjudicator.caldiero.system_moves import movement_obligation_problem
from arbitro.adjudicator.caldiero.system_orders import in_command_moves_over, ooc_test_after_moves
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum import command, reinforcements
from arbitro.adjudicator.parabellum.movement import nearest_enemy_distance
from arbitro.events import caldiero as ev
from arbitro.adjudicator.caldiero.system_procedure import arrival_turn, leader_due, unit_due
from arbitro.adjudicator.parabellum.act import Act, refuse, stack_test
from arbitro.adjudicator.ruleset import Rule


def formation_present(w: World, f: str) -> bool:
    fs = w.state.formations[f]
    if arrival_turn(w, w.formation_arrival(f)) > w.state.turn:
        return False
    members = [u for u, s in w.state.units.items() if s.formation == f]
    if any(w.state.units[u].where == "map" or unit_due(w, u) for u in members):
        return True
    return w.leader_on_map(fs.general) is not None or (fs.general is not None and leader_due(w, fs.general))


def eligible_formations(w: World) -> list[str]:
    return sorted(f for f, s in w.state.formations.items() if not s.activated and formation_present(w, f))


def check_activate(w: World, seat: str, cmd: C.Activate) -> None:
    if cmd.formation not in w.state.formations:
        refuse(R.ACTIVATION, f"no formation {cmd.formation!r}")
    if cmd.formation not in eligible_formations(w):
        refuse(R.ACTIVATION, f"{cmd.formation} is already activated this turn or not on the map (caldiero §6.2)")
    # §3.2 "L'iniziativa è automaticamente del Francese che deve obbligatoriamente attivare una delle sue Formazioni":
    # the obligation goes with that one initiative, the game's first activation's; the next are rolled and chosen (§6.2)
    first = w.state.first_turn and not any(f.activated for f in w.state.formations.values())
    if first and w.state.formations[cmd.formation].side != "france":
        refuse(CALDIERO.FIRST_TURN, "the game's first activation is the French's, of one of their own formations "
               "(caldiero §3.2)")


def reserve_joining(w: World, f: str) -> list[str]:
    """French reserve units joining the activated formation this turn (caldiero §15.4.3; reading
    `reserve_attachment`: those in its general's range or out of every range; once per turn)."""
    rest, side, general = reserves(w), w.state.formations[f].side, w.state.formations[f].general
    if not any(w.counters.oob.formation(r).side == side for r in rest):  # (under §20.1 none is left to join)
        return []
    own_reach = w.command_reach(general) if general else frozenset()
    other_reach = frozenset().union(*(w.command_reach(g.general) for g in w.state.formations.values()
                                      if g.side == side and g.general not in (None, general)))
    out = []
    for u, s in sorted(w.state.units.items()):
        if s.formation not in rest or s.activated_turn == w.state.turn:
            continue
        if s.where == "offmap" and unit_due(w, u):
            out.append(u)
        elif s.where == "map" and s.hex:
            if s.hex in own_reach or s.hex not in other_reach:
                out.append(u)
    return out


def do_activate(a: Act, by: str, formation: str) -> None:
    w = a.world()
    joined = reserve_joining(w, formation)
    members = sorted(u for u, s in w.state.units.items() if s.formation == formation) + joined
    # command is judged with the joined reserve counted as members of the formation (§15.4.3)
    on_map = [u for u in members if w.state.units[u].where == "map"]
    commanded = command.in_command(CALDIERO_VARIANT, w, formation, on_map)
    ooc = tuple(sorted(u for u in on_map if u not in commanded))
    a.emit(ev.FormationActivated(formation=formation, by=by, rule=str(R.ACTIVATION), out_of_command=ooc,
                                 reserve_joined=tuple(joined)))
    w = a.world()
    dists = {u: d for u in on_map if (d := nearest_enemy_distance(w, w.state.units[u].hex or "", w.state.units[u].side))
             is not None}
    if dists:
        a.emit(ev.DistancesTaken(distances=dists, rule=str(CALDIERO.ADVANCE)))
    reinforcements.enter_with_order(a, [u for u in members if unit_due(a.world(), u)])  # §15.4.2
    seat = a.state.formations[formation].side
    a.steps.begin("activation_orders", a, seat)


def activate_formation(a: Act, seat: str, cmd: C.Activate) -> None:
    check_activate(a.world(), seat, cmd)
    do_activate(a, seat, cmd.formation)


def ooc_units_at(w: World, h: str) -> list[str]:
    """The out-of-command units at h that may still test for an order (§5.3.1): not tested, not ordered, not moved."""
    act = w.state.activation
    assert act is not None
    return [u for u in w.units_at(h) if u in act.out_of_command and u not in act.ooc_tested
            and u not in act.unit_orders and u not in act.moved]


def unit_orders_problem(w: World) -> tuple[Rule, str] | None:
    """Why no out-of-command stack may try to change order now, whatever its hex and order (§3.1 B-3, §5.3.1: the
    step the reading `ooc_order_test` names, the in-command units' moves first), or None: `check_unit_order`'s first
    refusals, which a listing asks once, not once for every stack and order (issue 15)."""
    after_moves = ooc_test_after_moves(w)
    if after_moves and w.state.step != "movement":
        return R.OOC_AFTER_MOVES, ("out-of-command units try to change order in the movement sub-phase, once every "
                                   "in-command unit has moved (caldiero §3.1 B-3; reading ooc_order_test: "
                                   "after_in_command_moves)")
    if not after_moves and w.state.step == "movement":
        return R.OOC_TEST, ("out-of-command units try to change order when their formation is activated, before it "
                            "moves (caldiero §5.3.1; reading ooc_order_test: at_activation)")
    if after_moves and not in_command_moves_over(w):
        problem = movement_obligation_problem(w)
        if problem:
            return R.OOC_AFTER_MOVES, f"the in-command units move first: {problem[1]} (caldiero §3.1 B-3)"
    return None


def check_unit_order(w: World, seat: str, cmd: C.UnitOrder) -> None:
    problem = unit_orders_problem(w)
    if problem:
        refuse(*problem)
    units = ooc_units_at(w, cmd.hex)
    if not units:
        refuse(R.OOC_TEST, f"no out-of-command unit of the active formation at {cmd.hex} may still choose an order (caldiero §5.3.1)")
    box = w.weather_box()  # caldiero §17.1.3: the ice storm's box allows no test (its data, `ooc_order_tests`)
    if box is not None and not box.ooc_order_tests and cmd.hex not in w.chief_reach(seat):
        refuse(box.cited(), f"{box.words()} out-of-command units may not try to change order")
    if cmd.order == "defence":
        refuse(CALDIERO.OUT_OF_COMMAND, "out-of-command units already hold a Defence order (caldiero §5.3)")


def unit_order_test(a: Act, seat: str, cmd: C.UnitOrder) -> None:
    check_unit_order(a.world(), seat, cmd)
    w = a.world()
    units = ooc_units_at(w, cmd.hex)
    a.emit(ev.OrderTestTaken(units=tuple(units), rule=str(R.OOC_TEST)))
    # One die a stack (§5.3.1), rolled in the chief's range too, where it decides nothing: §4.3.1 "si considerano
    # avere l'Ordine che desiderano (non si applica 5.3)" read as the order taken whatever the die. A roll is public
    # (engine-rules §V.4): rolled only out of range, it told the enemy whether an unseen chief stands in range (rev-l L6).
    # The die names its hex, not the order asked: §5.3.1 "se riesce l'unità ... può scegliere l'Ordine che vuole", no
    # counter shows it, and the enemy who may examine the stack is served the die's words (§20.4).
    passed = stack_test(a, units, f"{R.OOC_TEST} out of command at {cmd.hex}")
    in_range = cmd.hex in w.chief_reach(seat)
    for u in units:
        if in_range or passed[u]:
            a.emit(ev.UnitOrderSet(unit=u, order=cmd.order, rule=str(R.CINC_RANGE if in_range else R.OOC_TEST)))
