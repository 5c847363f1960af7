"""Movement (arrivano §5.1, §7, §8, §9, §11.0.1, §15.4; §17.1.4-§17.1.5, §17.2.7-§17.2.8) on the shared path finding
(reachable/check_path through adjudicator/parabellum/movement.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, TypeVar

from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano.flow import commander_checks, push
from arbitro.adjudicator.parabellum.act import Act, stack_test
from arbitro.adjudicator.arrivano.variant import ARRIVANO, ARRIVANO_VARIANT
from arbitro.adjudicator.arrivano.world import acts_now, column_of, in_command
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.maps.costs import step_cost
from arbitro.adjudicator.maps.movement import check_path
from arbitro.adjudicator.parabellum import command, orders, rout
from arbitro.adjudicator.parabellum.movement import (
    Mover, column_problem, costs_in_force, end_fits, entry_spent, nearest_enemy_distance, one_hex_rule, order_moves,
    tends_toward, toward_enemy, unit_rules,
)
from arbitro.adjudicator.parabellum.commander_move import commander_may_move, move_leader as move_leader_to
from arbitro.adjudicator.parabellum.move_problems import destination_problem, unreachable
from arbitro.adjudicator.parabellum.orders import order_hidden_from, order_of, ORDERS
from arbitro.adjudicator.parabellum.unit_moves import moves
from arbitro.adjudicator.parabellum.zoc import enemy_zoc
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import arrivano as ev
from arbitro.events import core

T = TypeVar("T")


def march_of(w: World, uid: str) -> str | None:
    """The Montebello march order binding a unit, if in force (arrivano §17.1.5)."""
    for m in w.scenario.march_orders:
        if w.state.march_orders.get(m.id) and uid in m.units:
            return m.id
    return None


def movement_order(w: World, uid: str, ic: set[str], chosen: str | None = None) -> str:
    """A marching unit moves as Manoeuvre even out of command (§17.1.5); artillery under the order its owner
    chose among artillery_orders (Manoeuvre when none is given); otherwise the unit's order (§5.3: Defence out of
    command)."""
    if march_of(w, uid) is not None:
        return "manoeuvre"
    if w.state.units[uid].arm == "artillery":
        return chosen if chosen in artillery_orders(w, uid, ic) else "manoeuvre"
    return order_of(w, uid, ic)


def artillery_orders(w: World, uid: str, ic: set[str]) -> list[str]:
    """arrivano §11 "possono sempre scegliere di avere un Ordine di Manovra o Difesa": the orders an artillery unit
    may move under - Manoeuvre, Defence, or the order it has (its formation's, Defence out of command); only
    Manoeuvre under a Montebello march order (§17.1.5)."""
    if march_of(w, uid) is not None:
        return ["manoeuvre"]
    return orders.artillery_orders(w.orders, order_of(w, uid, ic))


def may_move(w: World, uid: str) -> str | None:
    """Why the unit cannot move now (a citation), or None."""
    unit = w.state.units[uid]
    act = w.state.activation
    if act is None or not acts_now(w, uid):
        return str(ARRIVANO.MOVEMENT)
    if unit.where not in ("map", "waiting"):
        return str(ARRIVANO.MOVEMENT)
    if unit.moved_turn == w.state.turn:
        return str(ARRIVANO.MOVEMENT)
    if unit.status == "routed":
        return str(ARRIVANO.ROUT)
    if w.counters.unit(uid).redoubt_battery:
        return str(R.CT_REDOUBTS)
    if unit.arm == "artillery" and unit.art_moved:
        return str(ARRIVANO.ARTILLERY)
    return None


def plan(w: World, uid: str, column: bool, ic: set[str] | frozenset[str], chosen: str | None = None,
         open_order: bool = False) -> Mover | str:
    """What the kernel's search reads of the unit now (its order's ZoC permissions as they apply: D7, open order;
    `chosen`: an artillery unit's order), or the citation forbidding a march column. `open_order`: the move of a light unit about to fire, which may enter EZoC (and stops there) even under
    Manoeuvre (arrivano §16.3). Worked out once per World (issue 15: a move asks it, then its listing)."""
    ic = frozenset(ic)  # the same object for a World's in_command
    return w.cached(("plan", uid, column, chosen, open_order, ic), lambda: _plan(w, uid, column, ic, chosen, open_order))


def _plan(w: World, uid: str, column: bool, ic: frozenset[str], chosen: str | None, open_order: bool) -> Mover | str:
    unit = w.state.units[uid]
    order = movement_order(w, uid, ic, chosen)
    rules_o = w.order_rules(order)
    if column and unit.side in w.scenario.march_column_forbidden:
        return w.scenario.march_column_rule  # the scenario's (arrivano §17.1.4 at Montebello)
    problem = column_problem(ARRIVANO_VARIANT, w, [order], unit.hex) if column else None
    if problem:
        return str(problem[0])
    ezoc = enemy_zoc(w, unit.side)
    start = unit.hex
    # arrivano §15.4: the entry hex is paid for (its cost counted in the move's: `unit_moves.Move.cost_half`)
    spent = entry_spent(ARRIVANO_VARIANT, w, unit.arm, start) if unit.where == "waiting" else 0
    budget = max(0, w.counters.unit(uid).movement * 2 - spent)
    enter = rules_o.enter_ezoc
    if enter == "with_friend" and rules_o.ezoc_to_ezoc_test and start in ezoc and unit.where == "map":
        enter = "yes"  # arrivano §5.1.3 (D7): from EZoC to EZoC even without a friend there, with a test
    if open_order:
        enter = "yes"
    return Mover(unit.side, start, unit.where == "map", budget, unit.arm, column,
                 replace(order_moves(w.orders)[order], enter_ezoc=enter),
                 one_hex=one_hex_rule(ARRIVANO_VARIANT, rules_o, ARRIVANO_VARIANT.weather_one_hex(w)), spent=spent)


def destinations(w: World, uid: str, column: bool, ic: set[str],
                 chosen: str | None = None) -> dict[str, tuple[str, ...]]:
    """Hexes the unit may end its move in, with the path (arrivano §9), honouring a march order (§17.1.5) and, for a
    unit the Attack order binds, its direction (§5.1.2, the kernel's `toward_enemy`)."""
    return toward_only(w, uid, ic, _reached(w, uid, column, ic, chosen))


def toward_only(w: World, uid: str, ic: set[str], moves: dict[str, T]) -> dict[str, T]:
    """The `moves` (by destination) that the unit may make under §5.1.2: all of them unless its Attack order binds
    it (`attack_binds`), else those ending in an enemy ZoC or nearer the closest enemy (the kernel's `toward_enemy`)."""
    if not moves or not attack_binds(w, uid, ic):
        return moves
    unit = w.state.units[uid]
    toward = tends_toward(w, unit.side, unit.hex, enemy_zoc(w, unit.side))  # unworded: a refusal's words unasked
    return {h: found for h, found in moves.items() if toward(h)}


def attack_binds(w: World, uid: str, ic: set[str]) -> bool:
    """Whether each move of this unit must tend toward the nearest enemy (arrivano §5.1.2): it is on the map, obeys
    its group's Attack order and is counted for it (§5.1.5: `counts_for_obligations`)."""
    unit = w.state.units[uid]
    return unit.where == "map" and counts_for_obligations(w, uid, ic, "attack") and group_order(w) == "attack"


def _reached(w: World, uid: str, column: bool, ic: set[str] | frozenset[str],
             chosen: str | None) -> dict[str, tuple[str, ...]]:
    """`destinations` but for the Attack order's direction (§5.1.2): what `why_not` explains. Worked out once per
    World (a move, its refusal, the listing and the obligations ask it): do not modify the answer."""
    ic = frozenset(ic)
    return w.cached(("reached", uid, column, chosen, ic), lambda: _search(w, uid, column, ic, chosen))


def destination(w: World, uid: str, column: bool, ic: set[str], chosen: str | None, to: str) -> tuple[str, ...] | None:
    """`destinations(...).get(to)`: the path of a move to `to`, searched only as far as `to` (issue 15: a move names
    its destination; the kernel's `moves` with `to`), or None."""
    return toward_only(w, uid, ic, _search(w, uid, column, frozenset(ic), chosen, to)).get(to)


def _search(w: World, uid: str, column: bool, ic: frozenset[str], chosen: str | None,
            to: str | None = None) -> dict[str, tuple[str, ...]]:
    """Every destination but for the Attack order's direction, with its path; `to`: that one alone, if it is one."""
    p = plan(w, uid, column, ic, chosen)
    if isinstance(p, str):
        return {}
    found = moves(ARRIVANO_VARIANT, w, p, end_fits(w, (uid,), column), to=to)
    out = {h: move.reach.path(h) for h, move in found.items()}  # from its hex, or its entry hex (§15.4)
    march = march_of(w, uid)
    if march is not None:
        obj = next(m.objective for m in w.scenario.march_orders if m.id == march)
        here = w.grid.distance(p.origin, obj)
        out = {h: path for h, path in out.items() if w.grid.distance(h, obj) < here}
    return dict(sorted(out.items()))


def charge_permitted(w: World, h: str) -> bool:
    """arrivano §14.2, §10.2.1, §10.3: a charge moves only through hexes whose every terrain allows it."""
    return all(t.charge_allowed for t in w.terrains(h))


def charges(w: World, uid: str, ic: set[str]) -> dict[str, tuple[tuple[str, ...], list[str]]]:
    """Charge moves (arrivano §14.2), each a move its Attack order binds as any other (§5.1.2, `destinations`): the
    direction test keeps those that end in an enemy ZoC or nearer the closest enemy. Returns destination -> (path,
    target hexes)."""
    return toward_only(w, uid, ic, _charge_moves(w, uid, ic))


def _charge_moves(w: World, uid: str, ic: set[str]) -> dict[str, tuple[tuple[str, ...], list[str]]]:
    """`charges` but for the Attack order's direction (§5.1.2): good-order Attack-order cavalry, through charge
    terrain only, ending next to an enemy hex it still has the MP to enter (arrivano §14.2)."""
    unit = w.state.units[uid]
    if not w.scenario.charges_allowed or unit.arm != "cavalry" or unit.status != "good" or unit.where != "map":
        return {}
    if movement_order(w, uid, ic) != "attack" or may_move(w, uid) is not None:
        return {}
    p = plan(w, uid, False, ic)
    if isinstance(p, str):
        return {}
    # the unit's own kept search, through charge terrain only: its one-hex and other limits kept (a storm's, §17.2.7);
    # kept under the terrain table its step veto reads (`charge_permitted`)
    found = moves(ARRIVANO_VARIANT, w, p, end_fits(w, (uid,), False), "charge", (w.terrain_table,),
                  step=lambda a, b: charge_permitted(w, b))
    costs = costs_in_force(ARRIVANO_VARIANT, w)
    out: dict[str, tuple[tuple[str, ...], list[str]]] = {}
    for dest in sorted(found, key=lambda h: (found[h].reach.costs[h], h)):  # a charge is a move (arrivano §14.2)
        spent, targets = found[dest].reach.costs[dest], []
        for t in sorted(w.grid.neighbours(dest)):
            if w.side_at(t) != w.enemy(unit.side) or not charge_permitted(w, t):
                continue
            cost = step_cost(w.hexmap, costs, dest, t, unit.arm)
            if not cost.prohibited and not cost.all_points and spent + cost.half_points <= p.budget:
                targets.append(t)
        if targets:  # never after a minimum move (§9.1.1), which spends every point
            out[dest] = (found[dest].reach.path(dest), targets)
    return out


def charge(g: Act, uid: str, to: str, target: str) -> None:
    w = g.world()
    if not g.data.scenario.charges_allowed:
        rule = g.data.scenario.charges_rule  # the scenario's own (arrivano §17.2.5), required with charges_allowed false
        g.reject(rule, f"there are no cavalry charges in this scenario ({rule})")
    assert g.state.activation is not None
    ic = in_command(w, g.state.activation.formation)
    options = charges(w, uid, ic)
    moves = _charge_moves(w, uid, ic)
    if to not in options and to in moves and target in moves[to][1]:  # a charge, but not toward the enemy (§5.1.2)
        unit = w.state.units[uid]
        toward = toward_enemy(ARRIVANO_VARIANT, w, unit.side, unit.hex, enemy_zoc(w, unit.side))(to)
        if toward is not None:
            g.reject(str(toward[0]), toward[1])
    if to not in options or target not in options[to][1]:
        g.reject(ARRIVANO.CHARGE, "a charge needs good-order Attack-order cavalry moving through charge terrain to a hex "
                           "next to the target, with the movement points to enter it")
    charge_on(g, uid, list(options[to][0]), target, 0, ())


def charge_on(g: Act, uid: str, path: list[str], target: str, at: int, offered: Sequence[str]) -> None:
    """The charge walks on from `path[at]` (arrivano §14.2). Where it enters a hex next to enemy cavalry that may
    counter-charge (§14.2.4; `offered`: those who just declined) it walks that far, no marker yet, so the enemy is
    asked about a charger in his sight as at the table (§11.3.2); the rest is the charger's (redact_frame)."""
    w = g.world()
    for i in range(at + 1, len(path)):
        counter = [c for c in counter_chargers(w, uid, path[i]) if c not in offered]
        if counter:
            emit_move(g, uid, path[at:i + 1], ARRIVANO.CHARGE)
            passed_beside(g, uid, path[at + 1:i + 1])
            push(g, "countercharge", w.enemy(w.state.units[uid].side), str(R.COUNTERCHARGE),
                   ev.CounterchargeAwaited(unit=uid, path=tuple(path), stop=i, target=target, counter=tuple(counter)))
            return
    finish_charge(g, uid, path[at:], target)


def emit_move(g: Act, uid: str, walked: list[str], rule: Rule, column: bool = False, charge: str | None = None) -> None:
    """The system's move event for one unit along `walked` (a movement search's path, its start first): the hexes
    entered, so the start is left out unless the unit came onto the map there (its entry hex, arrivano §15.4)."""
    entered = walked[1:] if g.state.units[uid].where == "map" else walked
    g.emit(ev.UnitsMoved(units=(uid,), path=tuple(entered), rule=str(rule), column=column, charge=charge))


def finish_charge(g: Act, uid: str, path: list[str], target: str) -> None:
    """The charge's last leg from `path[0]` (none entered where a counter-charge declined met it), its marker on."""
    emit_move(g, uid, path, ARRIVANO.CHARGE, charge=target)
    passed_beside(g, uid, path[1:])
    rout.checks(g, ARRIVANO_VARIANT, path[-1])
    commander_checks(g, path[-1])


def passed_beside(g: Act, uid: str, entered: Sequence[str]) -> None:
    """A charge is judged at each hex it enters against the stacks beside it (arrivano §14.2.4 "passa in un esagono
    adiacente"), so the charger had a line of sight to them as it passed (nothing lies between adjacent hexes, §11.3)
    and examines them (§11.3.2 "si può esaminare uno stack nemico solo se si ha una LoS all'esagono"): the enemy
    pieces there it never examined are its sighting, as any_time records what it sees where it stands. A charge that
    ran on told the charger what those stacks were not (rev-k K5); it is shown what they are."""
    w = g.world()
    side = w.state.units[uid].side
    enemy, known = w.enemy(side), set(w.state.seen.get(side, []))
    beside = {n for h in entered for n in w.grid.neighbours(h)}
    pieces = sorted({p for n in beside for p in (*w.units_at(n), *w.leaders_at(n, enemy))
                     if p not in known and (p in w.state.leaders or w.state.units[p].side == enemy)})
    if pieces:
        g.emit(ev.PiecesSighted(seat=side, pieces=tuple(pieces), rule=str(ARRIVANO.FOG)))


def counter_chargers(w: World, uid: str, h: str) -> list[str]:
    """arrivano §14.2.4 (interpretation countercharge_trigger: alone_adjacent): enemy cavalry not disordered, alone
    in a hex adjacent to `h` the charge enters, with the Defence the rule asks (`may_countercharge`) or an order the
    charger, served whether the question opens, may not tell (§11.3.2, orders.order_hidden_from): that unit is asked
    whatever its order, and without it may only decline."""
    side = w.state.units[uid].side
    out = []
    for n in sorted(w.grid.neighbours(h)):
        units = w.units_at(n)
        if len(units) == 1 and w.state.units[units[0]].side != side:
            c = units[0]
            if w.state.units[c].arm == "cavalry" and w.state.units[c].status == "good" and c not in w.state.countercharges \
                    and (may_countercharge(w, c) or order_hidden_from(w, side, c)):
                out.append(c)
    return out


def may_countercharge(w: World, c: str) -> bool:
    """arrivano §14.2.4 "Le unità di Cavalleria con un Ordine di Difesa possono reagire": its true order."""
    return order_of(w, c) == "defence"


def countercharge_refusal(w: World, frame: core.Frame[Any], answer: dict[str, Any], opts: list[dict[str, Any]]) -> tuple[Rule, str]:
    """Why a counter-charge not listed is refused, to its owner, and what he may answer (rev-j R-j-5)."""
    u, may = answer["unit"], [o["unit"] for o in opts if o["unit"] is not None]
    why = (f"{u} has an order of {order_of(w, u)}: only cavalry \"con un Ordine di Difesa\" may counter-charge" if u in frame.ctx.counter
           else f"{u} is not cavalry in good order alone beside this charge (reading countercharge_trigger: alone_adjacent)")
    return R.COUNTERCHARGE, why + (f"; may: {', '.join(may)}, or decline (unit null)" if may else "; it may only decline (unit null)")


def countercharge_answer(g: Act, data: ev.CounterchargeAwaited, unit: str | None) -> None:
    """The counter-charger stops the charger where it met him (`charge_on`); the counter-charge is fought first in the
    coming combat sub-phase, in the charger's hex, the counter-charger attacking (§14.2.4). Declined: it goes on."""
    uid, stop, path = data.unit, data.stop, list(data.path)
    if unit is None:
        charge_on(g, uid, path, data.target, stop, list(data.counter))
        return
    g.emit(ev.CounterChargeDeclared(unit=unit, against=uid, hex=path[stop], rule=str(R.COUNTERCHARGE)))


def move(g: Act, uid: str, to: str, column: bool, chosen: str | None = None) -> None:
    w = g.world()
    if uid not in g.state.units or g.state.units[uid].side != g.ctx.seat:
        g.reject(ARRIVANO.MOVEMENT, "you may move only your own units")
    why = may_move(w, uid)
    if why is not None:
        g.reject(why, "this unit cannot move now")
    assert g.state.activation is not None
    ic = in_command(w, g.state.activation.formation)
    if g.state.units[uid].arm == "artillery" and chosen not in artillery_orders(w, uid, ic):
        g.reject(R.ARTILLERY_ORDER, f"artillery moves under an order its owner names: "
                                    f"{', '.join(artillery_orders(w, uid, ic))}")
    if g.state.units[uid].arm != "artillery" and chosen is not None:
        g.reject(ARRIVANO.ORDERS, "only artillery chooses the order it moves under; other units obey their formation's")
    p = plan(w, uid, column, ic, chosen)
    if isinstance(p, str):
        g.reject(p, "this unit may not move in march column now" + command.held_note(ARRIVANO_VARIANT, w, [uid]))
    path = destination(w, uid, column, ic, chosen, to)
    if path is None:
        toward = None
        if to in _reached(w, uid, column, ic, chosen):  # reached, but not toward the enemy (§5.1.2)
            toward = toward_enemy(ARRIVANO_VARIANT, w, g.ctx.seat, p.origin, enemy_zoc(w, g.ctx.seat))(to)  # type: ignore[union-attr]
        rule, message = (str(toward[0]), toward[1]) if toward else why_not(w, uid, to, p)  # type: ignore[arg-type]
        g.reject(rule, message + command.held_note(ARRIVANO_VARIANT, w, [uid]))
    unit = w.state.units[uid]
    start_in_ezoc = unit.where == "map" and unit.hex in enemy_zoc(w, unit.side)
    ezoc_to_ezoc = start_in_ezoc and to in enemy_zoc(w, unit.side) and len(path) > 1 and p.move.order == "defence"  # type: ignore[union-attr]
    if ezoc_to_ezoc and g.reading("defence_ezoc_to_ezoc") == "test_first":
        # arrivano §5.1.3 (interpretation defence_ezoc_to_ezoc: test_first): failure disorders, the unit stays
        # where it is and its move is spent
        if not stack_test(g, [uid], f"{ARRIVANO.DEFENCE} Defence from EZoC to EZoC toward {to}")[uid]:
            emit_move(g, uid, [path[0]], ARRIVANO.DEFENCE)  # none entered: the move is spent
            rout.disorder(g, ARRIVANO_VARIANT, uid, ARRIVANO.DEFENCE)
            return
        ezoc_to_ezoc = False  # passed: the move is made, no second test
    emit_move(g, uid, list(path), R.MARCH_COLUMN if column else ARRIVANO.MOVEMENT, column=column)
    data = g.data.unit(uid)
    if data.arm == "artillery":
        rules = unit_rules(ARRIVANO_VARIANT, w, p)  # type: ignore[arg-type]
        spent = check_path(g.data.map, costs_in_force(ARRIVANO_VARIANT, w), path, rules).spent if len(path) > 1 else 0
        if not (data.horse and spent <= (data.movement // 2) * 2):  # arrivano §11.0.1
            g.emit(ev.ArtilleryTurned(units=[uid], moved=True, rule=str(ARRIVANO.ARTILLERY)))
    w = g.world()
    if ezoc_to_ezoc:
        # arrivano §5.1.3 (interpretation defence_ezoc_to_ezoc: move_then_test): failure costs a disorder level
        results = stack_test(g, [uid], f"{ARRIVANO.DEFENCE} Defence from EZoC to EZoC in {to}")
        if not results[uid]:
            rout.disorder(g, ARRIVANO_VARIANT, uid, ARRIVANO.DEFENCE)
    rout.checks(g, ARRIVANO_VARIANT, to)
    commander_checks(g, to)


def march_rule(w: World) -> str:
    """The scenario's rule of its march orders (`march_order_rules.rule`: arrivano §17.1.5 at Montebello), cited where
    one binds its units or ends."""
    rules = w.scenario.march_order_rules
    assert rules is not None  # required with march orders (data_model._check_march_orders)
    return rules.rule


def why_not(w: World, uid: str, to: str, p: Mover) -> tuple[str, str]:
    """The most specific citation for a destination the unit cannot reach: its march order's objective (§17.1.5),
    else the kernel's (`destination_problem`, `unreachable`)."""
    if march_of(w, uid) is not None:
        return march_rule(w), f"{to} is not closer to the march order's objective"
    rule, message = destination_problem(ARRIVANO_VARIANT, w, p, (uid,), to) or unreachable(
        ARRIVANO_VARIANT, to, (uid,), (p.move.order,))
    return str(rule), message


def move_leader(g: Act, lid: str, to: str) -> None:
    w = g.world()
    if lid not in g.state.leaders or not commander_may_move(w, lid, g.ctx.seat):
        g.reject(R.CHIEF_MOVE if lid in g.state.leaders and g.state.leaders[lid].role == "commander_in_chief"
                 else R.COMMANDER_MOVE, "this commander cannot move now")
    move_leader_to(ARRIVANO_VARIANT, g, w, lid, to, R.COMMANDER_MOVE)  # searched only as far as `to`


# --- movement obligations (arrivano §5.1.1, §5.1.2, §5.1.5) ----------------------------------------------------


def group_order(w: World) -> str:
    """The order of the group now activated: its column's, or its formation's."""
    act = w.state.activation
    assert act is not None
    return w.state.columns[act.column].order if act.column else w.state.formations[act.formation].order


def counts_for_obligations(w: World, u: str, ic: set[str], order: str) -> bool:
    """Whether unit u of the activated group counts for its `order`'s obligations: not artillery, out of command,
    disordered, or in a redoubt or village (arrivano §5.1.5); marching units follow their march order instead."""
    unit = w.state.units[u]
    if not acts_now(w, u) or unit.arm == "artillery" or order_of(w, u, ic) != order or unit.status != "good":
        return False
    return not (any(t.not_counted_for_orders for t in w.terrains(unit.hex)) or march_of(w, u) is not None)


def counted(w: World, fid: str, ic: set[str]) -> list[str]:
    """Units counted for the obligations of the activated group's order (arrivano §5.1.5)."""
    order = group_order(w)
    return [u for u in w.units_of(w.state.formations[fid].side) if counts_for_obligations(w, u, ic, order)]


def obligation_problem(w: World) -> tuple[Rule, str] | None:
    """The kernel's refusal (§5.1.1, §5.1.2: `orders.obligation_problem`) while the group's order still obliges a
    move that is possible, naming the units that still could; counted as §5.1.5 says (`counted`)."""
    act = w.state.activation
    assert act is not None
    fid, order, turn = act.formation, group_order(w), w.state.turn
    side, ic = w.state.formations[fid].side, in_command(w, fid)

    def row(u: str) -> orders.Counted:
        unit = w.state.units[u]
        moved = unit.moved_turn == turn
        start = act.starts.get(u, unit.hex) if moved else unit.hex  # "": it entered the map (§15.4.1)
        return orders.Counted(u, order, start, nearest_enemy_distance(w, start, side) if start else None, moved)

    return orders.obligation_problem(ARRIVANO_VARIANT, w, side, [row(u) for u in counted(w, fid, ic)],
                                     lambda u: destinations(w, u, False, ic) if may_move(w, u) is None else {})


# --- officers and out-of-command units (arrivano §3.1 B-4) ------------------------------------------------------


def officer_order_units(w: World, lid: str) -> list[str]:
    """Out-of-command units of the officer's formation stacked with him that have not moved (arrivano §3.1 B-4)."""
    le = w.state.leaders[lid]
    act = w.state.activation
    if act is None or act.column is not None or le.role != "officer" or le.where != "map" or le.formation != act.formation:
        return []
    if lid in act.officer_tries or w.state.leaders[lid].side != w.state.formations[act.formation].side:
        return []
    ic = in_command(w, act.formation)
    return [u for u in w.units_at(le.hex) if w.state.units[u].formation == act.formation and u not in ic
            and u not in act.unit_orders and column_of(w, u) is None and w.state.units[u].moved_turn != w.state.turn]


def officer_orders(w: World, lid: str) -> list[str]:
    """The orders an officer may try to give his out-of-command stack (arrivano §3.1 B-4, interpretation
    officer_order_change): `efficiency_test` any order but Defence (which they have already); `formation_order`
    only the formation's current order (none if it is Defence)."""
    if not officer_order_units(w, lid):
        return []
    if ARRIVANO_VARIANT.order_try_barred(w, w.state.leaders[lid].side) is not None:  # arrivano §4.5.5
        return []
    act = w.state.activation
    assert act is not None
    if w.reading("officer_order_change") == "formation_order":
        current = w.state.formations[act.formation].order
        return [current] if current != "defence" else []
    return [o for o in ORDERS if o != "defence"]


def officer_order(g: Act, lid: str, order: str) -> None:
    """arrivano §3.1 B-4 (interpretation officer_order_change): one test for the stack with the officer's -1
    (§13.2); success: those units obey `order` for this activation; failure: they keep Defence."""
    if lid not in g.state.leaders or g.state.leaders[lid].side != g.ctx.seat:
        g.reject(R.MOVE_STEP, "not one of your officers")
    units = officer_order_units(g.world(), lid)
    if not units:
        g.reject(R.MOVE_STEP, "this officer is not stacked with out-of-command units of the active formation that "
                              "have not moved, or has already tried")
    barred = ARRIVANO_VARIANT.order_try_barred(g.world(), g.ctx.seat)  # arrivano §4.5.5
    if barred is not None:
        g.reject(*barred)
    allowed = officer_orders(g.world(), lid)
    if order not in allowed:
        g.reject(R.MOVE_STEP, f"the officer may give his stack only {', '.join(allowed) or 'no order'} "
                                  f"(interpretation officer_order_change: {g.reading('officer_order_change')})")
    results = stack_test(g, units, f"{R.MOVE_STEP} officer's order change")
    ok = all(results.values())
    g.emit(ev.OfficerOrderTried(officer=lid, units=units, order=order, succeeded=ok, rule=str(R.MOVE_STEP)))
