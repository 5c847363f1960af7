"""The assault procedure (caldiero §12, §14.1, §11.4.5, §16, §17.2, §20.2-§20.5), once declared (system_declare.py):
cavalry retreat, defensive fire, "Attack?" tests, efficiency (the kernel's question on a tie), odds and modifiers,
the results of §12.5.4, exchange, retreat and advance. The assault in progress is the kernel's assault frame
(parabellum/assault_frame, its context events/parabellum.AssaultUnderway), its stages run by the kernel's
`assault.run` (`STAGES`), below the decisions it asks, frames answered by the steps of caldiero/steps.py. Caldiero-only modifiers (weather
columns, confusion, Elan, storm from the east, flank attacks, charges, canals, slopes) are CaldieroVariant's hooks,
applied by the kernel's table (parabellum/resolution.fight), each with its citation.
"""

from __future__ import annotations

from collections.abc import Sequence

from arbitro.adjudicator.caldiero import commands as C
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.parabellum.orders import order_of
from arbitro.adjudicator.caldiero.variant import CALDIERO, CALDIERO_VARIANT
from arbitro.adjudicator.decisions import open_frame
from arbitro.adjudicator.parabellum import advance, assault, assault_stages, before_combat, resolution, results, rout
from arbitro.adjudicator.parabellum.assault_frame import ASSAULT
from arbitro.adjudicator.parabellum.commands import DefensiveFire
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import caldiero as ev
from arbitro.events.parabellum import (
    AdvanceAwaited,
    AssaultUnderway,
    DefensiveFireAwaited,
    ExchangeLossAwaited,
)
from arbitro.events.core import Frame as CoreFrame
from arbitro.adjudicator.caldiero.system_procedure import lone_leaders
from arbitro.adjudicator.parabellum.retreat_frame import opened
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.caldiero.system_artillery import do_bombard
from arbitro.adjudicator.caldiero.scenario_rules import check_direction_release

COMBAT_PROMPT = "the assault goes on when the decisions it asked are answered (caldiero §12)"


def do_attack(a: Act, seat: str, cmd: C.Attack) -> None:
    w = a.world()
    attackers = tuple(dict.fromkeys(cmd.attackers))
    hexes = tuple(dict.fromkeys(cmd.defenders))
    defenders = tuple(u for h in hexes for u in w.enemy_units_at(h, seat))
    tested = tuple(u for u in attackers if order_of(w, u) == "advance")
    a.emit(ev.AssaultDeclared(attackers=attackers, targets=hexes, defenders=defenders, rule=str(R.DECLARATION),
                              tested=tested, elan=cmd.elan, use_general=cmd.use_general))
    side = a.state.units[attackers[0]].side if attackers else ""
    open_frame(a.ctx, ASSAULT, (side,), str(R.DECLARATION), COMBAT_PROMPT, AssaultUnderway(
        stage=assault.DECLARED, attacker_side=side, attackers=attackers, targets=hexes, defenders=defenders,
        tested=tested, elan=cmd.elan, use_general=cmd.use_general))
    run_stages(a)


def run_stages(a: Act) -> None:
    """The assault's stages while it waits for no decision (the kernel's `run`)."""
    assault.run(a, STAGES)


def withdraw_attackers(a: Act, units: tuple[str, ...], rule: Rule) -> None:
    """`units` leave the assault, citing `rule` (caldiero §12.2.2 a failed "Attack?" test, §16.1 a failed Elan,
    §15.1 disordered or driven off by the defensive fire)."""
    a.emit(ev.AttackersWithdrawn(units=units, rule=str(rule)))
    a.assault_frames().revise(attackers=tuple(u for u in a.world().assault().attackers if u not in units))


def stage_declared(a: Act, c: AssaultUnderway) -> None:
    """caldiero §12.1 step 2, §14.1: the cavalry's retreats before combat, hex by hex (the kernel's
    before_combat.asked); then the defensive fire (§11.4.5)."""
    if not before_combat.asked(a, c):
        a.assault_frames().revise(stage=assault.DEFENSIVE_FIRE)


def stage_defensive_fire(a: Act, c: AssaultUnderway) -> None:
    """caldiero §11.4.5: the defending guns (the kernel's assault_stages.fire_offered; not in snow, §17.1.2-§17.1.3)."""
    assault_stages.fire_offered(a, c, [u for u in c.defenders if a.world().is_artillery(u)])


def do_defensive_fire(a: Act, frame: CoreFrame[DefensiveFireAwaited], cmd: DefensiveFire | C.Decline) -> None:
    """One listed gun bombards one attacking hex (the engine took only a listed answer); the others are asked again
    where one may still bombard an attacker left in the assault (caldiero §11.4.5: the kernel's fire_asked, as when
    first asked); declined: the rest hold their fire."""
    if isinstance(cmd, C.Decline):
        return
    # the fire's effects, then the attackers it put out of the assault (the assault's frame on top), then the
    # rest of the guns asked again where they may fire, then the retreats it caused above them: the order the decisions come in
    before = {u: a.state.units[u].hex for u in a.world().assault().attackers if a.world().on_map(u)}
    assert cmd.artillery is not None and cmd.target is not None  # a listed answer names both
    retreats = do_bombard(a, C.Bombard(type="bombard", artillery=[cmd.artillery], target=cmd.target), defensive=True)
    c = assault.without_eliminated(a.world(), a.world().assault())  # those the fire eliminated are out already
    out = tuple(u for u in c.attackers if a.state.units[u].where != "map" or a.state.units[u].status != "good"
                or before[u] != a.state.units[u].hex)
    if out:
        withdraw_attackers(a, out, CALDIERO.DISORDER)
    assault_stages.fire_asked(a, frame.seats[0], [u for u in frame.ctx.battery if u != cmd.artillery],
                              a.world().assault().attackers)
    if retreats:
        opened(a, retreats, R.BOMBARD_PROCEDURE)


def stage_resumed(a: Act, c: AssaultUnderway) -> None:
    """After the defensive fire: the "Attack?" tests of the attackers still in it (caldiero §12.2.2, the kernel's
    assault_stages.attack_tests), recorded in one revision of the frame, which moves on to the combat."""
    attackers, failed = assault_stages.attack_tests(a, c, c.attackers)
    if failed:
        a.emit(ev.AttackersWithdrawn(units=failed, rule=str(CALDIERO.ATTACK_TEST)))
    a.assault_frames().revise(stage=assault.RESOLVE, attackers=attackers, tested=failed)


def stage_resolve(a: Act, c: AssaultUnderway) -> None:
    """The combat: first the sides' efficiency values (caldiero §12.3 "All'inizio di un combattimento", the kernel's
    assault_stages.efficiency_values: a tie asked of its owner, before any die), kept whatever the Elan does; then
    the table (the kernel's resolution.fight) once the Elan named at the declaration is tried (caldiero §16.1: columns
    right, or it withdraws); artillery alone (or nobody left) is no table: an advance overruns it (caldiero §11.1.1,
    §14.1)."""
    w = a.world()
    fighting = [d for d in c.defenders if not w.is_artillery(d)]
    if not fighting or not c.attackers:
        a.assault_frames().revise(stage=assault.ADVANCE if c.attackers else assault.END)
        return
    efficiency = assault_stages.efficiency_values(a, c, c.attackers, fighting)
    if efficiency is None:  # a side's owner asked to pick among tied values (§12.3.1); the stage runs again
        return
    notes: list[str] = []
    gained = CALDIERO_VARIANT.elan_columns(a, w, c.elan, notes) if c.elan in c.attackers else 0
    if gained is None:
        withdraw_attackers(a, (c.elan,), R.ELAN_TEST)
    c = assault.without_eliminated(a.world(), a.world().assault())
    if not c.attackers:
        a.assault_frames().revise(stage=assault.END)
        return
    # `fighting` as the efficiency values read it: the Elan withdraws or disorders an attacker only
    result = resolution.fight(a, CALDIERO_VARIANT, c, fighting, all(order_of(w, u) == "attack" for u in c.attackers),
                              efficiency, gained or 0, notes)
    a.assault_frames().revise(stage=assault.ADVANCE)  # the advance once the result is carried out, unless it asks more
    results.apply_result(a, CombatResults(a), result, c.attackers, fighting,
                         results.ne_may_test([order_of(a.world(), u) for u in c.attackers], a.reading))


class CombatResults:
    """The kernel's results (parabellum/results.apply_result) as Caldiero's combat stages carry them out, the frame at
    its stage `advance` (stage_resolve) unless the result asks more first (the exchange's tests, a Dr's tests)."""

    def __init__(self, a: Act) -> None:
        self.a = a

    def retreat_tested(self, units: Sequence[str]) -> None:
        """caldiero §12.5.4 Dr: every defender retreats one hex, then tests (stage dr_tests, after the retreats)."""
        self.a.assault_frames().revise(stage=assault.DR_TESTS, dr_units=tuple(units))
        results.dr_retreat(self.a, units)


def do_exchange_loss(a: Act, frame: CoreFrame[ExchangeLossAwaited], cmd: C.ExchangeLoss) -> None:
    """caldiero §12.5.4 Ex: the units a side names (sorted: commands.as_set) lost; the exchange goes on."""
    results.exchanged(a, CALDIERO_VARIANT, frame.ctx.role, cmd.units)


def do_advance(a: Act, frame: CoreFrame[AdvanceAwaited], cmd: C.Advance | C.Decline) -> None:
    """One of the kernel's advances (advance.listed; the engine refuses any other with advance.refusal), or none."""
    if isinstance(cmd, C.Decline):
        return
    advance.advanced(a, CALDIERO_VARIANT, cmd.units, cmd.to)  # the guns there overrun, caldiero §11.1.1
    check_direction_release(a, tuple(cmd.units))
    lone_leaders(a, cmd.to, a.ctx.seat)
    rout.checks(a, CALDIERO_VARIANT, cmd.to)  # caldiero §15.2: an enemy arriving adjacent, by advance too


# Caldiero's stages of the assault by name, run by the kernel's assault.run (`run_stages`).
STAGES = {assault.DECLARED: stage_declared, assault.DEFENSIVE_FIRE: stage_defensive_fire, assault.RESUMED: stage_resumed,
          assault.RESOLVE: stage_resolve, assault.DR_TESTS: results.dr_tests, assault.ADVANCE: advance.stage,
          assault.END: advance.ended}
