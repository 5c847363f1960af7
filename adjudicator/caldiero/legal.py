"""Legal command listing. Candidates are generated per step and kept only if the same `check_*` that
`decide` runs accepts them, so everything listed is accepted.

Two deliberate limits (documented in docs/rulesets/caldiero.md): moves are listed by destination without
a path (decide then takes the cheapest legal path; an explicit `path` is also accepted when legal: a template,
docs/ruleset-interface.md), in line and in march column wherever each goes, and
attacks are listed for every set of defender hexes (a unit alone, a whole stack, every unit that may join:
a template whose attackers any selection of decide also accepts; without Elan and with each attacker that may try it).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

from arbitro.adjudicator.caldiero import ground, map_rules
from arbitro.adjudicator.caldiero import commands as C
from arbitro.adjudicator.caldiero import flow as F
from arbitro.adjudicator.parabellum.bombardment import targets
from arbitro.adjudicator.caldiero.scenario_rules import charge_problem, chargers
from arbitro.adjudicator.caldiero.system_activation import (activate_formation, check_activate, check_unit_order,
                                                            eligible_formations, unit_order_test, unit_orders_problem)
from arbitro.adjudicator.caldiero.system_artillery import check_bombard, do_bombard
from arbitro.adjudicator.caldiero.system_assault import do_attack
from arbitro.adjudicator.caldiero.system_declare import attack_problem
from arbitro.adjudicator.caldiero.system_moves import (any_move, check_move, check_movers, do_move,
                                                       movable_leaders, move_options, movement_obligation_problem,
                                                       mover_orders)
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum.assault import general_choices
from arbitro.adjudicator.parabellum.declare import ATTACKING_ORDERS, fit_to_attack, hex_sets, hexes_to_attack
from arbitro.adjudicator.parabellum import activation, chief_orders, efficiency, initiative, reinforcements
from arbitro.adjudicator.parabellum.commander_move import leader_commands, move_leader
from arbitro.adjudicator.parabellum.movement import may_march
from arbitro.adjudicator.parabellum.orders import order_of, ORDERS
from arbitro.adjudicator.parabellum.sequence import CHOOSE_ACTIVATION, Step, Steps
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.system_procedure import unit_due
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.parabellum.act import Act, refuse
from arbitro.adjudicator.caldiero.variant import CALDIERO


def _ok(check: Any, *args: Any) -> bool:
    try:
        check(*args)
    except IllegalCommand:
        return False
    return True


# --- each step's commands, listed: built from the checks their handlers make -----------------------------------
def _reorganisations(w: World, seat: str) -> Iterator[dict[str, Any]]:
    for h in sorted({w.state.units[u].hex or "" for u in w.on_map_units() if w.state.units[u].side == seat}):
        if _ok(F.check_reorganise, w, seat, C.Reorganise(type="reorganise", hex=h)):
            yield {"type": "reorganise", "hex": h}


def _replacements(w: World, seat: str) -> Iterator[dict[str, Any]]:
    return ({"type": "place", "piece": u, "hex": h} for u in reinforcements.due(w, seat)
            for h in reinforcements.return_hexes(CALDIERO_VARIANT, w, u))


def _activations(w: World, seat: str) -> Iterator[dict[str, Any]]:
    return ({"type": "activate", "formation": f} for f in eligible_formations(w)
            if _ok(check_activate, w, seat, C.Activate(type="activate", formation=f)))


def _order_tries(w: World, seat: str) -> Iterator[dict[str, Any]]:
    yield from activation.tries(CALDIERO_VARIANT, w, seat)
    yield from _unit_orders(w, seat)


def _movement(w: World, seat: str) -> Iterator[dict[str, Any]]:
    yield from _move_commands(w, seat)
    yield from _unit_orders(w, seat)


def _leader_moves(w: World, seat: str, only: str | None = None) -> Iterator[dict[str, Any]]:
    """Each leader's moves, by leader and hex; `only`: that leader's alone (his search alone)."""
    return leader_commands(CALDIERO_VARIANT, w, [x for x in movable_leaders(w, seat) if only in (None, x)])


# --- each step's commands, carried out: the same checks, then the procedure ------------------------------------
def _move(a: Act, seat: str, cmd: C.GroupMove) -> None:
    order, route = check_move(a.world(), seat, cmd)
    do_move(a, seat, cmd, order, route)


def _move_leader(a: Act, seat: str, cmd: C.MoveLeader) -> None:
    """The leader's own move (the kernel's `move_leader`: a path he is given is the one he walks, if he may, as a
    unit's: caldiero §9.1), if he may move now."""
    w = a.world()
    if cmd.leader not in movable_leaders(w, seat):
        refuse(R.GENERAL_MOVE, f"{cmd.leader} may not move now: the active formation's general moves after its movement, "
                     "a commander in chief once per turn (caldiero §4.1.4, §4.2.1)")
    cinc = w.counters.leader(cmd.leader).role == "commander_in_chief"
    move_leader(CALDIERO_VARIANT, a, w, cmd.leader, cmd.to, R.CINC_MOVE if cinc else R.GENERAL_MOVE, cmd.path)


def _bombard(a: Act, seat: str, cmd: C.Bombard) -> None:
    check_bombard(a.world(), seat, cmd)
    do_bombard(a, cmd)


def _attack(a: Act, seat: str, cmd: C.Attack) -> None:
    attack_problem(a.world(), seat, cmd)
    do_attack(a, seat, cmd)


def _unit_orders(w: World, seat: str) -> list[dict[str, Any]]:
    """The out-of-command stacks' order tests (§5.3.1; in the orders or the movement sub-phase by the reading
    `ooc_order_test`, the same check as decide's)."""
    act = w.state.activation
    assert act is not None
    hexes = sorted({w.state.units[u].hex or "" for u in act.out_of_command if w.state.units[u].where == "map"})
    if not hexes or unit_orders_problem(w) is not None:  # refused whatever the stack: no command made to be refused
        return []
    return [{"type": "unit_order", "hex": h, "order": order} for h in hexes for order in ORDERS
            if _ok(check_unit_order, w, seat, C.UnitOrder(type="unit_order", hex=h, order=order))]


def _setup(w: World, seat: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    pieces = sorted(u for u, s in w.state.units.items() if s.side == seat and w.counters.unit(u).setup)
    pieces += sorted(l for l, s in w.state.leaders.items() if s.side == seat and w.counters.leader(l).setup)
    for piece in pieces:
        current = w.state.units[piece].hex if piece in w.state.units else w.state.leaders[piece].hex
        for h in F.setup_hexes(w, piece):
            cmd = C.Place(type="place", piece=piece, hex=h)
            if h != current and _ok(F.check_setup_place, w, seat, cmd):
                out.append(cmd.model_dump())
    for f in F.orders_chosen_at_setup(w, seat):  # caldiero §21.2
        for order in ORDERS:
            if w.state.formations[f].order != order:
                out.append({"type": "change_order", "formation": f, "order": order})
    return out


def _first_movement(w: World, seat: str) -> Iterator[dict[str, Any]]:
    """`_movement`'s commands as far as the first, in another order (the step's `first`: "anything left?" after every
    command): a move of the first group with anywhere to go, each group's searches stopped at the first destination
    they find (`any_move`, issue 15), then the order tests; whether a group may march asked only once its line moves
    are exhausted."""
    for g in _mover_groups(w, seat):
        for column in (False, True):
            if column and not _may_march(w, g):
                break
            dest = any_move(w, g, column)
            if dest is not None:
                yield {"type": "move", "units": list(g), "to": dest, "path": None, "column": column, "charge": False}
    yield from _unit_orders(w, seat)


def _move_commands(w: World, seat: str, only: str | None = None) -> Iterator[dict[str, Any]]:
    """Every group's moves (`_mover_groups`); `only`: those of the groups holding that unit (their searches alone)."""
    for g in _mover_groups(w, seat, only):
        plain = move_options(w, g, False)
        if w.option("cavalry_charges") and chargers(w, g):  # asked once a group, not once an end
            yield from _charging_moves(w, g, plain)
        else:  # made in one list, not a generator's step each (issue 15: a slow listing lists ~1,000 moves)
            yield from [{"type": "move", "units": list(g), "to": dest, "path": None, "column": False, "charge": False}
                        for dest in sorted(plain)]
        if _may_march(w, g):  # also where a line move goes: another move (§9.3)
            yield from [{"type": "move", "units": list(g), "to": dest, "path": None, "column": True, "charge": False}
                        for dest in sorted(move_options(w, g, True))]


def _charging_moves(w: World, g: tuple[str, ...], plain: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The line moves of a group of cavalry that may charge (§20.2): each, then its charge where `charge_problem`
    finds none."""
    for dest in sorted(plain):
        yield {"type": "move", "units": list(g), "to": dest, "path": None, "column": False, "charge": False}
        order, route = plain[dest]
        if charge_problem(w, g, order, route) is None:
            yield {"type": "move", "units": list(g), "to": dest, "path": None, "column": False, "charge": True}


def _may_march(w: World, g: tuple[str, ...]) -> bool:
    """Whether the group may move in march column (§9.3, the kernel's `column_problem`: `may_march`)."""
    return may_march(CALDIERO_VARIANT, w, mover_orders(w, g), w.state.units[g[0]].hex)


def _mover_groups(w: World, seat: str, only: str | None = None) -> Iterator[tuple[str, ...]]:
    """The groups that may move (`check_movers`): each unit of the activation yet to move, and each pair starting in
    the same hex (or entering at the same entry hex, §15.4), by place; `only`: those holding that unit."""
    act = w.state.activation
    assert act is not None
    groups: list[tuple[str, ...]] = []
    candidates = [u for u in act.units if u not in act.moved and w.state.units[u].status != "routed"
                  and (w.state.units[u].where == "map" or unit_due(w, u))]
    by_place: dict[str, list[str]] = {}  # a hex, or the entry hex of units arriving (they enter together, §15.4)
    for u in candidates:
        s = w.state.units[u]
        arrival = w.counters.unit(u).arrival
        key = s.hex if s.where == "map" else f"entry:{arrival.entry if arrival else ''}"
        by_place.setdefault(key or "", []).append(u)
    for key, units in sorted(by_place.items()):
        for u in units:
            groups.append((u,))
        for pair in combinations(sorted(units), 2):  # in the order the command model stores (C.as_set)
            groups.append(pair)
    for g in groups:
        if only in (None, *g) and _ok(check_movers, w, seat, g):
            yield g


def _bombardments(w: World, seat: str) -> Iterator[dict[str, Any]]:
    act = w.state.activation
    assert act is not None
    arts = [u for u in act.units if w.state.units[u].arm == "artillery" and w.state.units[u].where == "map"]
    for h, units in efficiency.stacks(w, arts):
        groups = [(u,) for u in units] + list(combinations(units, 2))
        for g in groups:
            for t in targets(CALDIERO_VARIANT, w, list(g)):
                cmd = C.Bombard(type="bombard", artillery=list(g), target=t)
                if _ok(check_bombard, w, seat, cmd):
                    yield cmd.model_dump()


def _attacks(w: World, seat: str) -> list[dict[str, Any]]:
    """The attacks `_attack_candidates` finds, by defenders, attackers and Elan."""
    return sorted(_attack_candidates(w, seat), key=lambda c: (c["defenders"], c["attackers"], c["elan"] or ""))


def _attack_candidates(w: World, seat: str) -> Iterator[dict[str, Any]]:
    """For every set of enemy hexes some eligible unit may attack together (§12.4.1), holding those whose ZoC reaches
    it (§12.2.1), each unit alone, each attacking stack, and all the units that may join (caldiero §12.4.1: adjacent to
    each hex, owing no other, across no river hexside, §19.1 allowing it; charging or not alike, §20.2.4), without
    Elan and with each attacker that may try it (§16.1). The last group is a template (issue 19 item 7,
    docs/ruleset-interface.md): any non-empty selection of its attackers, in any order, is reachable."""
    act = w.state.activation
    assert act is not None
    eligible = [u for u in act.units if fit_to_attack(w, u) and order_of(w, u) in ATTACKING_ORDERS]
    for dset in _defender_sets(w, seat, eligible):
        joining = [u for u in eligible if _may_join(w, seat, u, dset)]
        for charging in (True, False):
            side = [u for u in joining if bool(w.state.units[u].charging) == charging]
            stacks: dict[str, list[str]] = {}
            for u in sorted(side):
                stacks.setdefault(w.state.units[u].hex or "", []).append(u)
            singles = [[u] for u in sorted(side)]
            several = [g for g in stacks.values() if len(g) > 1] if len(stacks) > 1 else []
            for group in singles + several:
                yield from _attack_commands(w, seat, group, list(dset))
            if len(side) > 1:
                yield from _templates(w, seat, sorted(side), list(dset), several)


def _templates(w: World, seat: str, side: list[str], dset: list[str], listed: list[list[str]]) -> list[dict[str, Any]]:
    """The attacks of every unit that may join (the template) or, where attack_problem refuses that whole group, of
    its Attack-order units (a second template): a group refused only for an Advance-order unit among them (odds
    below 1-5 under forced_attack_below_1_5=auto_ae, §12.4.2, D24) may still be accepted without it, and every
    selection of those units is then reachable (docs/ruleset-interface.md, a template's domain). `listed`: the
    stacks listed already."""
    whole = _attack_commands(w, seat, side, dset)
    attack_order = [u for u in side if order_of(w, u) == "attack"]
    if whole or len(attack_order) < 2 or attack_order == side or attack_order in listed:
        return whole
    return _attack_commands(w, seat, attack_order, dset)


def _defender_sets(w: World, seat: str, eligible: list[str]) -> list[tuple[str, ...]]:
    """Every set of enemy hexes one eligible unit may attack (the kernel's hex_sets); a charge's, one hex in the
    plain (§20.2.2). In a stable order."""
    found: set[tuple[str, ...]] = set()
    for u in eligible:
        if w.state.units[u].charging:
            found |= {d for d in hex_sets(w, seat, u, ()) if len(d) == 1 and ground.plain(w, d[0])}
        else:
            found |= hex_sets(w, seat, u, hexes_to_attack(w, seat, [u]))
    return sorted(found, key=lambda d: (len(d), d))


def _may_join(w: World, seat: str, u: str, dset: tuple[str, ...]) -> bool:
    """Whether `u` may be one of the attackers of `dset`, whoever the others are (attack_problem's conditions on a
    single attacker: adjacent to each hex, no river hexside, §19.1, every hex it must attack among them)."""
    h = w.state.units[u].hex or ""
    return (all(w.grid.is_adjacent(h, d) and not w.crossing_prohibited(h, d) for d in dset)
            and not any(map_rules.formation_hex_problem(w, w.formation_of(u), d) for d in dset)
            and set(hexes_to_attack(w, seat, [u])) <= set(dset))


def _attack_commands(w: World, seat: str, group: list[str], dset: list[str]) -> list[dict[str, Any]]:
    """The attacks of `group` on `dset` decide accepts: without Elan and with each attacker that may try it
    (§16.1), with or without a stacked general's +1 (§12.4.4 "può"). A tie of the attackers' efficiency values is
    asked at the start of the combat (§12.3, the kernel's assault_stages.efficiency_values), not named here."""
    out: list[dict[str, Any]] = []
    for elan in [None] + (group if seat == "france" and w.state.elan_left > 0 else []):
        cmd = C.Attack(type="attack", attackers=group, defenders=dset, elan=elan)
        if not _ok(attack_problem, w, seat, cmd):
            continue
        for use in general_choices(w, group):
            out.append({"type": "attack", "attackers": group, "defenders": dset, "elan": elan, "use_general": use})
    return out


SIDES = ("france", "austria")  # caldiero §3.1 A: each step of the command phase is France's, then Austria's

# Caldiero's steps of play in which a seat acts (caldiero §3.1, §21): what each takes, lists and how it ends. Every
# step a command ends ends by itself once its seat has nothing left to do in it (the kernel's sequence.NOTHING_LEFT),
# but under §20.4's fog (sequence.UNSEEN_WAITS) every one of them waits for its seat's end_step: what each offers
# hangs on pieces the enemy may not examine. The set-up: where the seat's pieces stand. The chief's orders: whether a
# general stands within his chief's command range (parabellum/chief_orders.chief_bar), a general out of sight
# included. The reorganisation: which stacks out of sight are disordered or routed, out of enemy ZoC. The
# replacements: whether a returning unit's general has room beside him (reinforcements.return_hexes). The
# activation's orders: which stacks are out of command (§5.3.1). Movement, leaders, bombardment, combat: which units
# may still move, fire or assault. The choice of the next activation has no end_step. The command phase's steps are
# France's, then Austria's (§3.1 A, `SIDES`); an activation's steps follow one another for its side (§3.1 B). The
# weather (§17) and the initiative (§6) are automatic rows.
CALDIERO_STEPS: Steps[Act, World] = Steps({
    "setup": Step(R.SETUP, {"place": F.place_at_setup, "change_order": F.order_at_setup}, _setup,
                  F.after_setup, F.setup_problem, unseen=True, phase="setup"),
    "orders": Step(CALDIERO.ORDER_CHANGES, {"change_order": chief_orders.change},
                   lambda w, seat: chief_orders.changes(CALDIERO_VARIANT, w, seat), unseen=True,
                   phase="command", seats=SIDES, then="weather"),
    "weather": Step(R.WEATHER, {}, run=F.roll_weather, phase="command", seats=("austria",), then="reorganise"),
    "reorganise": Step(CALDIERO.RECOVERY, {"reorganise": F.reorganise}, _reorganisations, unseen=True,
                       phase="command", seats=SIDES, then="replacements"),
    "replacements": Step(CALDIERO.ELIMINATED, {"place": F.replace}, _replacements,
                         end_problem=F.replacements_owed, unseen=True, phase="command", seats=SIDES, then="initiative"),
    "initiative": Step(CALDIERO.INITIATIVE, {}, run=lambda a, seat: initiative.next_activation(a), phase="command"),
    CHOOSE_ACTIVATION: Step(R.ACTIVATION, {"activate": activate_formation}, _activations, phase="action"),
    "activation_orders": Step(CALDIERO.ORDER_CHANGES, {"try_order_change": activation.try_order, "unit_order": unit_order_test},
                              _order_tries, unseen=True, phase="action", name="orders", then="movement",
                              begins=R.ACTION_PHASE),
    # unit_order in the movement step: caldiero §3.1 B-3's reading of ooc_order_test
    "movement": Step(CALDIERO.MOVEMENT, {"move": _move, "unit_order": unit_order_test}, _movement,
                     end_problem=lambda w, seat: movement_obligation_problem(w), first=_first_movement,
                     of_piece=_move_commands, unseen=True, phase="action", then="leaders"),  # a unit_order names a hex
    "leaders": Step(R.GENERAL_MOVE, {"move_leader": _move_leader}, _leader_moves, first=lambda w, seat: leader_commands(CALDIERO_VARIANT, w, movable_leaders(w, seat), True),
                    of_piece=_leader_moves, unseen=True, phase="action", then="bombardment"),
    "bombardment": Step(R.BOMBARDMENT, {"bombard": _bombard}, _bombardments, unseen=True, phase="action",
                        then="combat"),
    "combat": Step(CALDIERO.COMBAT, {"attack": _attack}, _attacks, end_problem=F.attack_owed,
                   first=_attack_candidates, unseen=True, phase="action", closing=activation.end,
                   then="activation_initiative"),
    "activation_initiative": Step(CALDIERO.INITIATIVE, {}, run=lambda a, seat: initiative.next_activation(a), phase="action",
                                  name="initiative"),
}, CALDIERO.SEQUENCE)
