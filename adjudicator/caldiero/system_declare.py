"""Declaring an assault (caldiero §12.2-§12.4): whether an attack may be declared (the kernel's
parabellum/declare.py and parabellum/assault.py, with what only this book has: the river hexsides, the directions of
attack of §19.1, the charge in the plain of §20.2, Elan §16.1), the odds it would have (the kernel's assault.strengths:
§10.2 marsh, §14.0 and §20.2 cavalry and the map rules' own are CaldieroVariant.combat_sp / hex_sp), and the
Attack-order units that must still attack (§5.1.2).
"""

from __future__ import annotations

from arbitro.adjudicator.caldiero import ground, map_rules
from arbitro.adjudicator.caldiero import commands as C
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.parabellum.orders import order_of
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.parabellum.act import refuse
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO, CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import assault, resolution
from arbitro.adjudicator.parabellum.declare import ATTACKING_ORDERS, fit_to_attack, hexes_to_attack
from arbitro.adjudicator.parabellum.zoc import enemy_zoc, zoc_sources


def attack_problem(w: World, seat: str, cmd: C.Attack) -> None:
    act = w.state.activation
    assert act is not None
    attackers = list(dict.fromkeys(cmd.attackers))
    defenders_hexes = list(dict.fromkeys(cmd.defenders))
    for u in attackers:
        s = w.state.units.get(u)
        if s is None or s.side != seat or s.where != "map":
            refuse(R.ASSAULT, f"{u} is not one of your units on the map")
        if u not in act.units:
            refuse(R.ACTION_PHASE, f"{u} is not in the active formation (caldiero §3.1 B.5)")
        if s.arm == "artillery":
            refuse(R.ARTILLERY_COMBAT, f"{u}: artillery takes part in an attack only by bombarding (caldiero §11.0.1)")
        if s.status != "good":
            refuse(CALDIERO.DISORDER, f"{u} is {s.status}: disordered and routed units never attack (caldiero §15.1, §15.2)")
        if s.attacked_turn == w.state.turn:
            refuse(CALDIERO.ONCE, f"{u} has already attacked this turn (caldiero §12.2.3)")
        order = order_of(w, u)
        if order not in ATTACKING_ORDERS:
            refuse(R.DECLARATION, f"{u} has a {order} order: only Attack and Advance orders attack (caldiero §12.2)")
    for h in defenders_hexes:
        if not w.enemy_units_at(h, seat):
            refuse(R.ASSAULT, f"{h} holds no enemy unit")
        if h in act.attacked_hexes:
            refuse(CALDIERO.ONCE, f"{h} has already been attacked in this combat segment (caldiero §12.2.3)")
        for u in attackers:
            uh = w.state.units[u].hex or ""
            if not w.grid.is_adjacent(uh, h):
                refuse(R.MULTIPLE, f"{u} at {uh} is not adjacent to {h}: every attacker must be adjacent to every defender (caldiero §12.4.1)")
            if w.crossing_prohibited(uh, h):
                refuse(R.ASSAULT, f"no assault across the river hexside {uh}-{h} (terrain effects table)")
        for u in attackers:
            problem = map_rules.formation_hex_problem(w, w.formation_of(u), h)
            if problem:
                refuse(*problem)  # e.g. caldiero §19.1
    charging = [u for u in attackers if w.state.units[u].charging]
    if charging:
        if len(charging) != len(attackers):
            refuse(CALDIERO.CHARGE, "a hex is not attacked by a cavalry charge and other units in the same segment (caldiero §20.2.4)")
        if len(defenders_hexes) != 1 or not ground.plain(w, defenders_hexes[0]):
            refuse(CALDIERO.CHARGE, "a charge attacks one hex, in the plain (caldiero §20.2.1, §20.2.2)")
    for u in attackers:
        uh = w.state.units[u].hex or ""
        missing = [h for h in hexes_to_attack(w, seat, [u]) if h not in defenders_hexes]  # none for a charge, §20.2.2
        if missing:
            refuse(R.ZOC_ATTACK, f"{u} must also attack {', '.join(missing)}: every enemy projecting a ZoC into {uh} "
                         "and not already attacked this segment (caldiero §12.2.1)")
    if cmd.elan is not None:
        if cmd.elan not in attackers or seat != "france":
            refuse(R.ELAN, "Elan is tried by one of the French attacking units (caldiero §16.1)")
        if w.state.elan_left <= 0:
            refuse(R.ELAN, "no Elan left: the French may try it in four attacks (caldiero §16)")
        if w.reading("elan_marker") == "attack_marker_only" and order_of(w, cmd.elan) != "attack":
            refuse(R.ELAN_TEST, f"{cmd.elan} has an 'Attack?' marker, not 'Attack': Elan needs an Attack order (caldiero §16.1)")
    defenders = [u for h in defenders_hexes for u in w.enemy_units_at(h, seat)]
    att, dfn = assault.strengths(CALDIERO_VARIANT, w, attackers, defenders, defenders_hexes)
    shift = 0  # D24: the terrain counts only under `after_terrain` (assault.declared_odds)
    if w.reading("below_1_5_declared_on") == "after_terrain":
        shift, _ = resolution.terrain(CALDIERO_VARIANT, w, attackers, defenders_hexes,
                                      [d for d in defenders if not w.is_artillery(d)], seat)
    crt = assault.crt(CALDIERO_VARIANT, w.crt)
    if dfn > 0 and assault.declared_odds(crt, att, dfn, shift, w.reading).below_minimum and not \
            CALDIERO_VARIANT.below_minimum_declarable([order_of(w, u) for u in attackers], w.reading):  # D24
        terrain = f" with the terrain's {shift} column(s) left" if shift else ""
        refuse(CALDIERO.BELOW_1_5, f"{att} against {dfn}{terrain} is worse than 1-5: such attacks may not be declared (caldiero §12.4.2)")


def attack_obligation_problem(w: World, seat: str) -> str | None:
    """caldiero §5.1.2, §12: Attack-order units in enemy ZoC must attack, if any legal attack is left."""
    act = w.state.activation
    assert act is not None
    ezoc = enemy_zoc(w, seat)
    due = []
    for u in act.units:
        s = w.state.units[u]
        if not fit_to_attack(w, u):
            continue
        if order_of(w, u) != "attack" or s.hex not in ezoc:
            continue
        if u in act.start_hex and w.may_stay(act.start_hex[u]) and act.start_hex[u] == s.hex:
            continue  # caldiero §10.1, §10.5.2
        required = [h for h in zoc_sources(w, s.hex or "", seat) if h not in act.attacked_hexes]
        if not required:
            continue
        try:
            attack_problem(w, seat, C.Attack(type="attack", attackers=[u], defenders=required))
        except IllegalCommand:
            continue
        due.append(u)
    if due:
        return f"units with an Attack order in enemy ZoC must attack: {', '.join(due)} (caldiero §5.1.2, §12)"
    return None
