"""The assault declaration (arrivano §12.2): who may attack, which hexes an assault must include, what a
declaration may name (`problem`, the one check both decide and the listing run), the assaults legal() lists, and
the declaration itself, marking its Attack? units; their tests (after the defensive fire) and results: assault.py."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano.assault import begin
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.arrivano.variant import ARRIVANO, ARRIVANO_VARIANT, defending
from arbitro.adjudicator.arrivano.world import acts_now, in_command
from arbitro.adjudicator.parabellum.orders import order_of
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum import assault as sys_assault
from arbitro.adjudicator.parabellum import declare as sys_declare
from arbitro.adjudicator.parabellum import resolution
from arbitro.adjudicator.parabellum import efficiency as sys_eff
from arbitro.adjudicator.parabellum.zoc import zoc_sources
from arbitro.adjudicator.ruleset import Rule
from arbitro.adjudicator.tables import CombatTable
from arbitro.events import arrivano as ev


def may_attack(w: World, uid: str, formation: str, ic: set[str]) -> bool:
    """arrivano §12.2: Attack must, Advance may (with a test); a unit attacks once per turn (§12.2.3); disordered
    units never attack (§12.7.1) nor routed ones (§15.2); artillery never assaults (§11.0.2)."""
    unit = w.state.units[uid]
    if unit.formation != formation or not sys_declare.fit_to_attack(w, uid) or not acts_now(w, uid):
        return False
    if unit.fired_turn == w.state.turn:  # §16.3.1: fired, no assault
        return False
    return order_of(w, uid, ic) in sys_declare.ATTACKING_ORDERS


def required_targets(w: World, attackers: list[str]) -> list[str]:
    """The hexes an assault by `attackers` must include (the kernel's §12.2.1): a hex fired at in open order this
    activation need not be assaulted, though it may be (arrivano §12.2.1 with §16.3)."""
    return [h for h in zoc_targets(w, attackers) if h not in w.state.fired_hexes]


def must_include(w: World, attackers: list[str]) -> list[str]:
    """The hexes a declaration by `attackers` must itself include (arrivano §12.2.1, "che non sono attaccate da altre
    unità amiche in questo sottofase"; interpretation zoc_attack_obligation): under `at_declaration` every hex of
    required_targets; under `within_sub_phase` none, other friendly units may attack them later in the sub-phase
    (owed_problem holds the sub-phase to it)."""
    return required_targets(w, attackers) if w.reading("zoc_attack_obligation") == "at_declaration" else []


def owed_problem(w: World, seat: str) -> str | None:
    """Under `within_sub_phase` (zoc_attack_obligation): why the combat sub-phase may not end yet, an enemy hex
    projecting ZoC into a hex an assault was declared from not being attacked while some friendly unit may still
    attack it (arrivano §12.2.1); the first such hex is enough. An obligation no unit can meet lapses: a declaration
    may not be the one that strands it (`problem`). None under `at_declaration`."""
    if w.reading("zoc_attack_obligation") == "at_declaration" or not w.state.assault_hexes:
        return None
    crt = sys_assault.crt(ARRIVANO_VARIANT, w.crt)
    open_ = next((h for h in _owed(w, seat) if _still_attackable(w, seat, crt, h, ())), None)
    if open_ is not None:
        return (f"the enemy in {open_} projects a ZoC into a hex an assault was declared from and must be "
                "attacked by other friendly units in this sub-phase")
    return None


def _owed(w: World, seat: str) -> list[str]:
    """The enemy hexes projecting ZoC into a hex an assault was declared from this sub-phase, not yet attacked nor
    fired at in open order (arrivano §12.2.1 with §16.3), in hex order."""
    return sorted({h for a in w.state.assault_hexes for h in zoc_sources(w, a, seat)
                   if h not in w.state.attacked_hexes and h not in w.state.fired_hexes})


def _still_attackable(w: World, seat: str, crt: CombatTable, h: str, spent: list[str] | tuple[str, ...]) -> bool:
    """Whether friendly units other than `spent` may still declare an assault on `h` alone (the declaration's own
    checks, the obligation's look-ahead aside): the cavalry that charged it, the other units next to it, or those of
    them with an Attack order (odds below 1-5, D24)."""
    act = w.state.activation
    assert act is not None
    ic = in_command(w, act.formation)
    near = [u for u in w.units_of(seat) if u not in spent and may_attack(w, u, act.formation, ic)
            and w.grid.is_adjacent(w.state.units[u].hex, h)]
    foot = [u for u in near if not w.state.units[u].charging]
    groups = ([u for u in near if w.state.units[u].charge == h], foot, [u for u in foot if order_of(w, u, ic) == "attack"])
    return any(g and _declaration_problem(w, seat, crt, g, [h]) is None for g in groups)


def _stranded(w: World, seat: str, crt: CombatTable, attackers: list[str], targets: list[str]) -> list[str]:
    """Under `within_sub_phase`: the hexes a declaration leaves out that it or an earlier one owes (arrivano §12.2.1)
    and that, its attackers once spent, no other friendly unit could attack any more in this sub-phase, though some
    could before it."""
    left_out = sorted((set(required_targets(w, attackers)) | set(_owed(w, seat))) - set(targets))
    return [h for h in left_out if not _still_attackable(w, seat, crt, h, attackers) and _still_attackable(w, seat, crt, h, ())]


def zoc_targets(w: World, attackers: list[str]) -> list[str]:
    """The hexes an assault by `attackers` may not leave out but for open-order fire (the kernel's §12.2.1)."""
    return sys_declare.hexes_to_attack(w, w.state.units[attackers[0]].side, attackers)


def odds_of(w: World, crt: CombatTable, attackers: list[str], targets: list[str]) -> sys_assault.Odds:
    """The odds a declaration by `attackers` on `targets` is judged by (arrivano §12.4.2): the kernel's strengths and,
    as the reading `below_1_5_declared_on` asks, the defending terrain's column shift (§10), the defenders' orders as
    the attacker may judge them under fog (§11.3.2: parabellum/orders.declared_order)."""
    attack, defence = sys_assault.strengths(ARRIVANO_VARIANT, w, attackers, defending(w, targets), targets)
    shift, _ = resolution.terrain(ARRIVANO_VARIANT, w, attackers, targets, [u for t in targets for u in w.units_at(t)],
                                  w.side_of(attackers[0]))
    return sys_assault.declared_odds(crt, attack, defence, shift, w.reading)


def problem(w: World, seat: str, crt: CombatTable, attackers: list[str], targets: list[str]) -> tuple[Rule, str] | None:
    """Why `seat` may not declare an assault by `attackers` on `targets` now (the rule and what is wrong), or None:
    the declaration's own checks, then, under `within_sub_phase`, that it strands no owed hex (arrivano §12.2.1,
    "non sono attaccate da altre unità amiche": a hex left out must remain one other units can attack)."""
    refused = _declaration_problem(w, seat, crt, attackers, targets)
    if refused is not None or w.reading("zoc_attack_obligation") == "at_declaration":
        return refused
    stranded = _stranded(w, seat, crt, attackers, targets)
    if stranded:
        return R.EVERY_ZOC, (f"the attack must include {', '.join(stranded)}: its ZoC reaches an attacking hex and no "
                             "other friendly unit could attack it in this sub-phase")
    return None


def _declaration_problem(w: World, seat: str, crt: CombatTable, attackers: list[str],
                         targets: list[str]) -> tuple[Rule, str] | None:
    """The checks of one declaration by itself (arrivano §12.2-§12.4, §14.2, §16.3)."""
    act = w.state.activation
    assert act is not None
    if len(set(attackers)) != len(attackers) or len(set(targets)) != len(targets):
        return R.DECLARE, "a unit or hex is named twice"
    ic = in_command(w, act.formation)
    for u in attackers:
        unit = w.state.units.get(u)
        if unit is None or unit.side != seat:
            return R.DECLARE, "attackers must be your units"
        if unit.fired_turn == w.state.turn:
            return R.FIRE_NO_ASSAULT, f"{u} fired in open order this turn and may not assault"
        if unit.attacked_turn == w.state.turn:
            return ARRIVANO.ONCE, "a unit attacks only once per turn"
        if unit.status == "routed":
            return R.ROUTED_NO_ATTACK, f"{u} is routed: routed units never attack"
        if unit.status != "good":
            return R.NO_ATTACK_UNFIT, f"{u} is {unit.status}: disordered units never attack"
        if not may_attack(w, u, act.formation, ic):
            return R.DECLARE, "only good-order infantry and cavalry of the active formation with Attack or Advance may attack"
    for t in targets:
        if t not in w.hexmap.grid.hexes() or not any(w.state.units[u].side != seat for u in w.units_at(t)):
            return ARRIVANO.COMBAT, f"{t} holds no enemy unit"
        if t in w.state.attacked_hexes:
            return ARRIVANO.ONCE, f"{t} was already attacked in this combat segment"
        if any(not w.grid.is_adjacent(w.state.units[u].hex, t) for u in attackers):
            return R.MULTI_HEX, "every attacker must be adjacent to every defending hex"
    chargers = [u for u in attackers if w.state.units[u].charging]
    if chargers and len(chargers) != len(attackers):
        return R.CHARGE_MIX, "a hex is not attacked by a charge and other units together"
    if chargers and sorted({w.state.units[u].charge or "" for u in chargers}) != sorted(targets):
        return ARRIVANO.CHARGE, "charging cavalry attacks the hex it charged"
    missing = [h for h in must_include(w, attackers) if h not in targets]
    if missing:
        return R.EVERY_ZOC, f"the attack must include every enemy hex whose ZoC reaches the attackers: {', '.join(missing)}"
    odds = odds_of(w, crt, attackers, targets)
    if odds.below_minimum and not ARRIVANO_VARIANT.below_minimum_declarable([order_of(w, u, ic) for u in attackers],
                                                                            w.reading):  # D24
        return ARRIVANO.BELOW_1_5, f"odds worse than 1-5 ({odds.column.odds}) may not be declared"
    return None


def declare(g: Act, attackers: list[str], targets: list[str], use_general: bool = True) -> None:
    """The assault declared (arrivano §12.2), marked and begun; `use_general`: whether a general stacked with the
    attackers gives his +1 (§12.4.4 "può aggiungere uno", and so risks the test of §4.5.2 on a natural 1)."""
    w = g.world()
    act = g.state.activation
    assert act is not None  # the combat step of an activation (the kernel's step table)
    refused = problem(w, g.ctx.seat, g.crt, attackers, targets)
    if refused is not None:
        g.reject(*refused)
    ic = in_command(w, act.formation)
    forced = any(order_of(w, u, ic) == "attack" for u in attackers)
    g.emit(ev.AssaultDeclared(attackers=tuple(sorted(attackers)), targets=tuple(sorted(targets)), rule=str(R.DECLARE),
                              use_general=use_general))
    # Advance-order attackers are marked "Attack?" (arrivano §12.2), tested after the defensive fire (§12.1 step 4)
    marked = tuple(sorted(u for u in attackers if order_of(w, u, ic) == "advance"))
    begin(g, ev.AssaultUnderway(stage=sys_assault.DECLARED, attacker_side=g.ctx.seat, attackers=tuple(sorted(attackers)),
                                targets=tuple(sorted(targets)), forced=forced, tested=marked,
                                use_general=use_general))


def assaults(w: World, seat: str) -> list[dict[str, Any]]:
    """The assaults legal() lists (issue 19 item 7; docs/ruleset-interface.md, "Arrivano's attackers: a template"):
    for every set of enemy hexes some eligible unit may attack together (§12.4.1), those that must include the hexes
    whose ZoC reaches it (§12.2.1), the units of each attacking hex alone and all the units that may join together
    (adjacent to every one of those hexes, owing no other; charging cavalry only with the hex it charged, §14.2,
    the others apart, §14.2.3). The last is the template:
    any non-empty selection of its attackers, in any order, is accepted where `problem` allows it. Where a general
    stands with the group, each is listed again declining his +1 (`use_general: false`, §12.4.4 "può")."""
    act = w.state.activation
    assert act is not None
    crt = sys_assault.crt(ARRIVANO_VARIANT, w.crt)
    ic = in_command(w, act.formation)
    eligible = [u for u in w.units_of(seat) if may_attack(w, u, act.formation, ic)]
    out: list[dict[str, Any]] = []
    for targets in _target_sets(w, seat, eligible):
        joining = [u for u in eligible if all(w.grid.is_adjacent(w.state.units[u].hex, t) for t in targets)
                   and set(must_include(w, [u])) <= set(targets)]
        charging = [u for u in joining if targets == [w.state.units[u].charge]]  # §14.2: the hex it charged
        for side in (charging, [u for u in joining if not w.state.units[u].charging]):
            stacks = [stack for _, stack in sys_eff.stacks(w, sorted(side))]
            for group in stacks + ([side] if len(stacks) > 1 else []):
                if problem(w, seat, crt, group, targets) is None:
                    listed = {"type": "assault", "attackers": group, "targets": targets}
                    out += [listed if use else {**listed, "use_general": False}
                            for use in sys_assault.general_choices(w, group)]
    return out


def _target_sets(w: World, seat: str, eligible: list[str]) -> list[list[str]]:
    """Every set of enemy hexes one eligible unit may attack (the kernel's hex_sets), in a stable order."""
    found = {t for u in eligible for t in sys_declare.hex_sets(w, seat, u, must_include(w, [u]))}
    return [list(t) for t in sorted(found, key=lambda t: (len(t), t))]
