"""The assault declaration (arrivano §12.2): who may attack, which hexes an assault must include, and the
declaration itself with its Attack? tests; what follows it (defensive fire, odds, results) is assault.py."""

from __future__ import annotations

from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano.assault import odds_now, proceed
from arbitro.adjudicator.arrivano.flow import Game, stack_roll
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.arrivano.world import World
from arbitro.adjudicator.parabellum import declare as sys_declare
from arbitro.adjudicator.parabellum import efficiency as sys_eff
from arbitro.adjudicator.parabellum.efficiency import failed as failed_tests
from arbitro.events import arrivano as ev


def may_attack(w: World, uid: str, formation: str, ic: set[str]) -> bool:
    """arrivano §12.2: Attack must, Advance may (with a test); a unit attacks once per turn (§12.2.3); disordered
    and routed units never attack (§15.1); artillery never assaults (§11.0.2)."""
    unit = w.state.units[uid]
    if unit.formation != formation or not sys_declare.fit_to_attack(w, uid) or not w.acts_now(uid):
        return False
    if unit.fired_turn == w.state.turn:  # §16.3.1: fired, no assault
        return False
    return w.order_of(uid, ic) in sys_declare.ATTACKING_ORDERS


def required_targets(w: World, attackers: list[str]) -> list[str]:
    """The hexes an assault by `attackers` must include (the kernel's §12.2.1): a hex fired at in open order this
    activation need not be assaulted, though it may be (arrivano §12.2.1 with §16.3)."""
    return [h for h in zoc_targets(w, attackers) if h not in w.state.fired_hexes]


def zoc_targets(w: World, attackers: list[str]) -> list[str]:
    """The hexes an assault by `attackers` may not leave out but for open-order fire (the kernel's §12.2.1)."""
    return sys_declare.hexes_to_attack(w, w.state.units[attackers[0]].side, attackers)


def declare(g: Game, attackers: list[str], targets: list[str]) -> None:
    w = g.world()
    act = g.state.activation
    if g.state.step != "combat" or act is None:
        g.reject(R.COMBAT_STEP, "assaults are declared in the combat sub-phase of an activation")
    assert act is not None
    if len(set(attackers)) != len(attackers) or len(set(targets)) != len(targets):
        g.reject(R.DECLARE, "a unit or hex is named twice")
    ic = w.in_command(act.formation)
    for u in attackers:
        if u not in g.state.units or g.state.units[u].side != g.ctx.seat:
            g.reject(R.DECLARE, "attackers must be your units")
        if g.state.units[u].fired_turn == g.state.turn:
            g.reject(R.FIRE_NO_ASSAULT, f"{u} fired in open order this turn and may not assault")
        if g.state.units[u].attacked_turn == g.state.turn:
            g.reject(ARRIVANO_VARIANT.rules.ONCE, "a unit attacks only once per turn")
        if g.state.units[u].status != "good":
            g.reject(R.NO_ATTACK_UNFIT, f"{u} is {g.state.units[u].status}: disordered and routed units never attack")
        if not may_attack(w, u, act.formation, ic):
            g.reject(R.DECLARE, "only good-order infantry and cavalry of the active formation with Attack or Advance "
                                "may attack")
    for t in targets:
        if t not in w.s.map.grid.hexes() or not any(g.state.units[u].side != g.ctx.seat for u in w.units_at(t)):
            g.reject(ARRIVANO_VARIANT.rules.COMBAT, f"{t} holds no enemy unit")
        if t in g.state.attacked_hexes:
            g.reject(ARRIVANO_VARIANT.rules.ONCE, f"{t} was already attacked in this combat segment")
        for u in attackers:
            if not w.grid.is_adjacent(g.state.units[u].hex, t):
                g.reject(R.MULTI_HEX, "every attacker must be adjacent to every defending hex")
    chargers = [u for u in attackers if u in g.state.charges]
    if chargers and len(chargers) != len(attackers):
        g.reject(R.CHARGE_MIX, "a hex is not attacked by a charge and other units together")
    if chargers and sorted({g.state.charges[u] for u in chargers}) != sorted(targets):
        g.reject(ARRIVANO_VARIANT.rules.CHARGE, "charging cavalry attacks the hex it charged")
    missing = [h for h in required_targets(w, attackers) if h not in targets]
    if missing:
        g.reject(R.EVERY_ZOC, f"the attack must include every enemy hex whose ZoC reaches the attackers: {', '.join(missing)}")
    orders = [w.order_of(u, ic) for u in attackers]
    forced = "attack" in orders
    odds = odds_now(g, attackers, targets)
    if odds.below_minimum and not ARRIVANO_VARIANT.below_minimum_declarable(orders, g.reading):  # D24
        g.reject(ARRIVANO_VARIANT.rules.BELOW_1_5, f"odds worse than 1-5 ({odds.column.odds}) may not be declared")
    g.emit(ev.AssaultDeclared(attackers=sorted(attackers), targets=sorted(targets), rule=str(R.DECLARE)))
    # Advance-order attackers take the Attack? test (arrivano §12.2, §12.2.2): failing stacks do not attack.
    testing = [u for u in attackers if w.order_of(u, ic) == "advance"]
    failed = failed_tests(sys_eff.stack_tests(ARRIVANO_VARIANT, w, sorted(testing),
                                              stack_roll(g, lambda h: f"{R.DECLARE} Attack? test in {h}")))
    keep = sorted(u for u in attackers if u not in failed)
    if not keep:
        g.emit(ev.AssaultResolved(attackers=[], defenders=[], targets=sorted(targets), result="cancelled",
                                  reason="every Attack? test failed", rule=str(R.DECLARE)))
        return
    proceed(g, {"attackers": keep, "targets": sorted(targets), "forced": forced, "seat": g.ctx.seat,
                "tested": len(keep) < len(attackers)})
