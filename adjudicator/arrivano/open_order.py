"""Open order (optional rules arrivano §16.3-§16.3.5; scenario rules §17.1.7, §17.2.11).

Three options, each chosen at creation (data/options.json, `requires` making the dependencies explicit):
- `open_order` (§16.3-§16.3.3): a light infantry unit of the activated group with Manoeuvre or Advance may, in the
  movement sub-phase, move (entering EZoC even under Manoeuvre), fire alone at an adjacent enemy hex on the
  infantry fire table (provisional data), then fall back one hex with the MP left (a pending decision of its
  owner). It does not assault in the following combat sub-phase (§16.3.1). The target unit "in cima allo stack" is
  chosen by the target's owner (interpretation open_order_top_unit: owner_order) or is the strongest (strongest);
  artillery is never the target unit (§16.3.3).
- `physical_exhaustion` (§16.3.4): V markers, F after two consecutive turns, the fatigue test.
- `light_troops_retreat` (§16.3.5): a V unit may retreat one hex before an assault, a decision of its owner during
  the assault's steps (assault.declared, beside the cavalry retreat of §14.1).
"""

from __future__ import annotations

from collections.abc import Container
from typing import Any

from arbitro.adjudicator.arrivano import movement as M
from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano.flow import commander_checks, push
from arbitro.adjudicator.parabellum.act import Act, stack_test
from arbitro.adjudicator.arrivano.data_model import EXHAUSTION, LIGHT_RETREAT, OPEN_ORDER, FireTable
from arbitro.adjudicator.arrivano.variant import ARRIVANO, ARRIVANO_VARIANT
from arbitro.adjudicator.arrivano.world import acts_now, in_command
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum import efficiency, orders, retreat_frame, rout, sight
from arbitro.adjudicator.maps.costs import step_cost
from arbitro.adjudicator.parabellum.movement import costs_in_force, end_fits
from arbitro.adjudicator.parabellum.retreat_ground import before_combat_asked
from arbitro.adjudicator.parabellum.stacking import fits
from arbitro.adjudicator.parabellum.unit_moves import moves
from arbitro.adjudicator.ruleset import Rule
from arbitro.adjudicator.tables import Modifier
from arbitro.events import arrivano as ev
from arbitro.events import core


def light_rule(w: World) -> Rule:
    """The scenario rule saying which units are light infantry."""
    return R.CT_LIGHT if w.scenario.light_infantry.basis == "infantry_movement_3" else R.MB_LIGHT


# ================================================================================================
# Who may fire, from where, at what (arrivano §16.3, §16.3.1)
# ================================================================================================


def why_not_fire(w: World, uid: str) -> tuple[Rule | str, str] | None:
    """(citation, reason) why the unit may not use open order now, or None."""
    state = w.state
    if OPEN_ORDER not in state.options:
        return R.OPEN_ORDER, "the optional rule of open order was not chosen for this game"
    if state.step != "movement" or state.activation is None:
        return R.FIRE_NO_ASSAULT, "open-order fire happens in the movement sub-phase of the unit's activation"
    unit = state.units[uid]
    if not w.scenario.is_light(w.counters.unit(uid)):
        return light_rule(w), f"{uid} is not light infantry: only light troops use open order (arrivano §16.3)"
    why = M.may_move(w, uid)
    if why is not None:
        return why, f"{uid} cannot move now, and open-order fire is part of its move"
    if unit.status != "good":
        return ARRIVANO.DISORDER, f"{uid} is {unit.status}: only good-order units attack"
    box = w.weather_box()
    if box is not None and not box.open_order_allowed:
        return R.CT_WEATHER, "no open order in this weather"
    if M.march_of(w, uid) is not None:
        return M.march_rule(w), f"{uid} obeys a march order toward its objective"
    if unit.fatigue_defence_turn == state.turn:
        return R.EXHAUSTION, f"{uid} failed its fatigue test and has Defence for this turn"
    order = orders.order_of(w, uid, in_command(w, state.activation.formation))
    if not w.order_rules(order).open_order:
        return R.OPEN_ORDER, f"open order is a variant of Manoeuvre or Advance; {uid} has {order}"
    return None


def fire_targets(w: World, uid: str, h: str, visible: Container[str]) -> list[str]:
    """Adjacent enemy hexes holding a unit other than artillery (§16.3.3; interpretation
    open_order_artillery_target: not_a_target), among those the seat may examine now (`visible`, §11.3.2): a
    target is chosen by sight, so neither legal() nor a rejection tells anything of a stack out of sight. `visible`
    is asked only of the hexes holding such a unit (`Examinable` works each out alone)."""
    side = w.state.units[uid].side
    out = []
    for n in sorted(w.grid.neighbours(h)):
        enemy = [u for u in w.units_at(n) if w.state.units[u].side != side]
        if any(w.state.units[u].arm != "artillery" for u in enemy) and n in visible:
            out.append(n)
    return out


class Examinable:
    """The map hexes whose stacks `side` may examine now (arrivano §11.3.2), asked one hex at a time
    (`sight.unexaminable`: the lines from the side's pieces near it alone), the same answers as membership of
    `sight.visible_hexes`, which traces the whole view of every piece: judging one fire needs at most six hexes
    (issue 15: a fresh verify traced every view, ~10 % of arrivano-montebello-options's)."""

    def __init__(self, w: World, side: str) -> None:
        self.w, self.side = w, side

    def __contains__(self, h: object) -> bool:
        return isinstance(h, str) and self.w.grid.contains(h) and not sight.unexaminable(self.w, self.side, [h])


def fire_positions(w: World, uid: str) -> dict[str, tuple[tuple[str, ...], int, list[str]]]:
    """Where the unit may fire from: hex -> (path, half-points spent, target hexes). Its own hex (firing in place)
    or any hex it may reach with open order's movement (EZoC allowed, entering it stops, §16.3)."""
    out = {}
    visible = sight.visible_hexes(w, w.state.units[uid].side)
    for h, (path, spent) in sorted(_fire_spots(w, uid).items()):
        targets = fire_targets(w, uid, h, visible)
        if targets:
            out[h] = (path, spent, targets)
    return out


def fire_position(w: World, uid: str, to: str) -> tuple[tuple[str, ...], int, list[str]] | None:
    """`fire_positions(w, uid).get(to)`, the sight of `to`'s neighbours alone worked out (`Examinable`): a fire
    names its hex (issue 15)."""
    spot = _fire_spots(w, uid).get(to)
    if spot is None:
        return None
    targets = fire_targets(w, uid, to, Examinable(w, w.state.units[uid].side))
    return (*spot, targets) if targets else None


def _fire_spots(w: World, uid: str) -> dict[str, tuple[tuple[str, ...], int]]:
    """Where the unit may stand to fire: hex -> (path, half-points spent), its own hex where it fits there."""
    act = w.state.activation
    assert act is not None
    p = M.plan(w, uid, False, in_command(w, act.formation), open_order=True)
    assert not isinstance(p, str)
    spots: dict[str, tuple[tuple[str, ...], int]] = {}
    if fits(w, p.origin, [uid]):
        spots[p.origin] = ((p.origin,), 0)  # firing in place
    for h, move in moves(ARRIVANO_VARIANT, w, p, end_fits(w, (uid,), False)).items():  # the kernel's kept search
        spots[h] = (move.reach.path(h), move.reach.costs[h])
    return spots


def fire_commands(w: World, seat: str, only: str | None = None) -> list[dict[str, Any]]:
    """Every open-order fire the seat may order now (legal()); `only`: that unit's."""
    act = w.state.activation
    if act is None or OPEN_ORDER not in w.state.options or w.state.formations[act.formation].side != seat:
        return []
    out: list[dict[str, Any]] = []
    for uid in sorted(w.state.units):
        unit = w.state.units[uid]
        if unit.side != seat or only not in (None, uid) or unit.where not in ("map", "waiting") or why_not_fire(w, uid) is not None:
            continue
        for h, (_, _, targets) in fire_positions(w, uid).items():
            out += [{"type": "fire", "unit": uid, "to": h, "target": t} for t in targets]
    return out


# ================================================================================================
# The fire (arrivano §16.3.2-§16.3.3)
# ================================================================================================


def fire(g: Act, uid: str, to: str, target: str) -> None:
    w = g.world()
    if uid not in g.state.units or g.state.units[uid].side != g.ctx.seat:
        g.reject(R.OPEN_ORDER, "you may order only your own units to fire")
    why = why_not_fire(w, uid)
    if why is not None:
        g.reject(why[0], why[1])
    unit = g.state.units[uid]
    assert g.state.activation is not None
    p = M.plan(w, uid, False, in_command(w, g.state.activation.formation), open_order=True)
    assert not isinstance(p, str)
    side = unit.side
    enemy_here = [u for u in w.units_at(target) if w.state.units[u].side != side] if target in w.hexmap.grid.hexes() else []
    if enemy_here and all(w.state.units[u].arm == "artillery" for u in enemy_here) \
            and target in Examinable(w, side):  # said only of a stack the seat may examine (§11.3.2)
        g.reject(R.FIRE_RESULTS, f"infantry fire never affects artillery: {target} holds enemy artillery alone")
    position = fire_position(w, uid, to)
    if position is None:
        g.reject(R.OPEN_ORDER, f"{uid} cannot reach {to} and fire from there at an enemy hex in sight (movement "
                               "points, enemy units, stacking; EZoC may be entered, and entering it stops the unit)")
    path, spent, targets = position
    if target not in targets:
        g.reject(R.FIRE_TABLE, f"{target} is not an enemy hex in your sight (§11.3.2) adjacent to {to}")
    if EXHAUSTION in g.state.options and unit.open_order == "F" and not fatigue_test(g, [uid]):
        return  # arrivano §16.3.4: failed, Defence for the turn; the unit stays and does not fire
    M.emit_move(g, uid, list(path), R.OPEN_ORDER)
    if len(path) > 1:  # its arrival, before the fire: routed enemies (§15.2) and commanders (§4.5.6, §8.2.3)
        rout.checks(g, ARRIVANO_VARIANT, to)
        commander_checks(g, to)
    result = roll_fire(g, uid, to, target)
    mark(g, uid)
    budget = p.budget  # the allowance (less the entry hex of a reinforcement, §15.4)
    push(g, "fall_back", g.state.units[uid].side, str(R.OPEN_ORDER),
           ev.FallBackAwaited(unit=uid, target=target, left=max(0, budget - spent), budget=budget, moved=len(path) > 1))
    if result != "•":
        choose_target_unit(g, target, result)


def roll_fire(g: Act, uid: str, h: str, target: str) -> str:
    """The infantry fire table (provisional): column = the firer's strength alone (§16.3.2), modifiers for the
    target hex's grouping and terrain, +1 with a general or officer of its formation in its hex (interpretation
    open_order_commander_drm)."""
    w = g.world()
    table = g.data.tables.own["infantry_fire"]
    assert isinstance(table, FireTable)
    column = str(min(table.max_column, max(1, w.strength(uid))))
    sp = sum(w.strength(u) for u in w.units_at(target) if w.state.units[u].arm != "artillery")
    mods: list[Modifier] = []
    grouping = next((c.drm for c in table.stacking_drm if sp >= c.min_sp), 0)
    if grouping:
        mods.append(Modifier(f"{sp} SP in the target hex ({R.FIRE_TABLE})", grouping))
    terrain = min(t.bombard_drm for t in w.terrains(target))  # the defender picks among the hex's terrains (§10)
    if terrain:
        mods.append(Modifier(f"terrain of {target} ({R.FIRE_TABLE})", terrain))
    fid = w.state.units[uid].formation
    if any(w.state.leaders[lid].role in ("general", "officer") and w.state.leaders[lid].formation == fid
           for lid in w.leaders_at(h)):
        mods.append(Modifier(f"general or officer stacked ({table.commander_drm_rule})", table.commander_drm))
    total = sum(m.value for m in mods)
    (die,) = g.roll(f"{R.FIRE_TABLE} open-order fire at {target}", {
        "table": "infantry fire", "column": column, "from": h, "target": target,
        "modifiers": ", ".join(f"{m.reason} {m.value:+d}" for m in mods) or "none"}, about=(h, target))
    row = table.row(die + total)
    result = table.rows[str(row)][column]
    record = {"table": "arrivano infantry fire", "provisional": table.meta.provisional, "column": column, "die": die,
              "modifiers": [{"reason": m.reason, "value": m.value} for m in mods], "modified_die": die + total,
              "row": row, "result": result, "results_rule": table.results_rule}
    g.emit(ev.InfantryFired(unit=uid, hex=h, target=target, result=result, record=record, rule=str(R.FIRE_TABLE)))
    return result


def top_candidates(g: Act, target: str) -> list[str]:
    """The units that may be "in cima allo stack" (interpretation open_order_top_unit): any non-artillery unit, the
    owner choosing (owner_order), or those of the highest strength (strongest; the owner chooses among ties)."""
    w = g.world()
    units = [u for u in w.units_at(target) if w.state.units[u].arm != "artillery"]
    if g.reading("open_order_top_unit") == "strongest" and units:
        best = max(w.strength(u) for u in units)
        units = [u for u in units if w.strength(u) == best]
    return units


def choose_target_unit(g: Act, target: str, result: str) -> None:
    units = top_candidates(g, target)
    if len(units) == 1:
        apply_fire_result(g, units[0], result)
    elif units:
        push(g, "fire_target", g.state.units[units[0]].side, str(R.FIRE_RESULTS),
               ev.FireTargetAwaited(hex=target, units=tuple(units), result=result))


def target_options(w: World, frame: core.Frame[Any]) -> list[dict[str, Any]]:
    h = frame.ctx.hex
    return [{"type": "fire_target", "unit": u} for u in frame.ctx.units
            if w.state.units[u].where == "map" and w.state.units[u].hex == h]


def apply_fire_result(g: Act, uid: str, result: str) -> None:
    """arrivano §16.3.3: D: test, fail = disorder and one hex back; D1: the same with +1 to the die; DR: test,
    fail = rout (and the §15.2.1 retreat), pass = disorder and one hex back. Artillery is never the target."""
    h = g.state.units[uid].hex
    passed = stack_test(g, [uid], f"{R.FIRE_RESULTS} {result} result in {h}", extra=1 if result == "D1" else 0)[uid]
    g.emit(ev.OpenOrderTested(unit=uid, test=result, passed=passed, rule=str(R.FIRE_RESULTS)))
    if result in ("D", "D1") and not passed:
        disorder_and_retreat(g, uid)
    elif result == "DR":
        if passed:
            disorder_and_retreat(g, uid)
        else:
            if g.state.units[uid].status != "routed":
                g.emit(ev.StatusChanged(unit=uid, status="routed", rule=str(R.FIRE_RESULTS)))
            retreat_frame.opened(g, {uid: 2}, ARRIVANO.ROUT_COMBAT)


def disorder_and_retreat(g: Act, uid: str) -> None:
    """Disordered (a second disorder routs, §15.1.1, and the routed retreat two hexes, §15.2.1), one hex back."""
    rout.disorder(g, ARRIVANO_VARIANT, uid, R.FIRE_RESULTS)
    if g.state.units[uid].status == "routed":
        retreat_frame.opened(g, {uid: 2}, ARRIVANO.ROUT_COMBAT)
    else:
        retreat_frame.opened(g, {uid: 1}, R.FIRE_RESULTS)


# ================================================================================================
# Falling back after the fire (arrivano §16.3; interpretation open_order_fall_back: away_from_target)
# ================================================================================================


def fall_back_hexes(w: World, data: ev.FallBackAwaited) -> list[str]:
    uid = data.unit
    unit = w.state.units[uid]
    if unit.where != "map" or unit.status == "routed":
        return []
    box = w.weather_box()
    if box is not None and box.move_one_hex_only and data.moved:
        return []  # arrivano §17.2.7: one hex in all
    here, target = unit.hex, data.target
    out = []
    for n in sorted(w.grid.neighbours(here)):
        if w.side_at(n) == w.enemy(unit.side) or not fits(w, n, [uid]):
            continue
        if w.grid.distance(n, target) <= w.grid.distance(here, target):
            continue
        cost = step_cost(w.hexmap, costs_in_force(ARRIVANO_VARIANT, w), here, n, unit.arm)
        if cost.prohibited:
            continue
        if cost.all_points and data.left < data.budget:
            continue
        if not cost.all_points and cost.half_points > data.left:
            continue
        out.append(n)
    return out


def fall_back_options(w: World, frame: core.Frame[Any]) -> list[dict[str, Any]]:
    return [{"type": "fall_back", "to": h} for h in fall_back_hexes(w, frame.ctx)] + [{"type": "fall_back", "to": None}]


def fall_back(g: Act, frame: core.Frame[Any], to: str | None) -> None:
    if to is None:
        return
    uid = frame.ctx.unit
    here = g.state.units[uid].hex
    M.emit_move(g, uid, [here, to], R.OPEN_ORDER)
    rout.checks(g, ARRIVANO_VARIANT, to)
    commander_checks(g, to)


# ================================================================================================
# Physical exhaustion (arrivano §16.3.4)
# ================================================================================================


def mark(g: Act, uid: str) -> None:
    """V after acting in open order; a V of the previous turn flips to F (two consecutive turns)."""
    if EXHAUSTION not in g.state.options:
        return
    unit = g.state.units[uid]
    if unit.open_order == "V" and unit.marker_turn == g.state.turn - 1:
        g.emit(ev.OpenOrderMarked(unit=uid, marker="F", rule=str(R.EXHAUSTION)))
    elif unit.open_order != "F":
        g.emit(ev.OpenOrderMarked(unit=uid, marker="V", rule=str(R.EXHAUSTION)))


def fatigue_test(g: Act, units: list[str]) -> bool:
    """One die per stack (§13.1.2): pass removes F; fail gives Defence for the turn. True if all passed."""
    ok = True
    for h, stack in efficiency.stacks(g.world(), sorted(units)):
        results = stack_test(g, stack, f"{R.EXHAUSTION} fatigue test in {h}")
        for u in stack:
            g.emit(ev.OpenOrderTested(unit=u, test="fatigue", passed=results[u], rule=str(R.EXHAUSTION)))
            ok = ok and results[u]
    return ok


def fatigue_tests_at_movement(g: Act) -> None:
    """F units of the activated group with Advance or Attack test as the movement sub-phase begins (interpretation
    fatigue_test_timing: before_acting)."""
    if EXHAUSTION not in g.state.options or g.state.activation is None:
        return
    w = g.world()
    ic = in_command(w, g.state.activation.formation)
    units = [u for u in sorted(g.state.units) if g.state.units[u].open_order == "F" and g.state.units[u].where == "map"
             and acts_now(w, u) and orders.order_of(w, u, ic) in ("advance", "attack")]
    if units:
        fatigue_test(g, units)


# ================================================================================================
# Retreat of light troops before an assault (arrivano §16.3.5)
# ================================================================================================


def light_retreat_candidates(w: World, h: str) -> list[str]:
    """V units of the assaulted hex that are not routed and are asked where to go (retreat_ground.before_combat_asked:
    under the fog, which is always Arrivano's, wherever a line starts)."""
    if LIGHT_RETREAT not in w.state.options:
        return []
    return [u for u in w.units_at(h) if w.state.units[u].open_order == "V" and w.state.units[u].status != "routed"
            and before_combat_asked(ARRIVANO_VARIANT, w, [u])]
