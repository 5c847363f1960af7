"""Combat (arrivano §12, §11.1.1, §11.4.4, §14.0.1) after its declaration (declaration.py): defensive
bombardment, the table (the kernel's parabellum/resolution.fight), results AE DE Ad Dd NE EX DR as this game's
§12.5.4 defines them (the kernel's parabellum/results.py), retreats (parabellum/retreat_frame.py) and advance after
combat. Until the table decides, the assault is one frame on the decision stack (parabellum/assault_frame,
events/parabellum.AssaultUnderway) run by the kernel's stages (`run`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from arbitro.adjudicator.arrivano import commands as C
from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano.bombardment import bombard, can_fire
from arbitro.adjudicator.arrivano.flow import push, revise, waiting
from arbitro.adjudicator.parabellum.act import Act, stack_test
from arbitro.adjudicator.arrivano.open_order import light_retreat_candidates
from arbitro.adjudicator.arrivano.variant import ARRIVANO, ARRIVANO_VARIANT, defending
from arbitro.adjudicator.parabellum.orders import order_of
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum.assault_frame import ASSAULT
from arbitro.adjudicator.parabellum.commands import CavalryRetreat, EfficiencyValue
from arbitro.adjudicator.parabellum import elimination
from arbitro.adjudicator.parabellum import assault as sys_assault
from arbitro.adjudicator.parabellum import bombardment as sys_bombardment
from arbitro.adjudicator.parabellum import (advance, assault_stages, before_combat, resolution, results, retreat_frame,
                                            rout)
from arbitro.events import arrivano as ev
from arbitro.events import core
from arbitro.events.parabellum import (AssaultUnderway, BeforeCombatAwaited, DefensiveFireAwaited,
                                       EfficiencyChoiceAwaited)


def begin(g: Act, assault: AssaultUnderway) -> None:
    """The assault's frame opened at its first stage (a declared one's retreats before combat; a counter-charge's
    table, arrivano §14.2.4), then its stages run (parabellum/assault.run)."""
    push(g, ASSAULT, "", str(ARRIVANO.COMBAT), assault)
    run(g)


def run(g: Act) -> None:
    """The assault's stages while it waits for none of its decisions (the kernel's `run`); its END ends a charge
    (arrivano §14.2.2, the kernel's advance.ended)."""
    sys_assault.run(g, {sys_assault.DECLARED: declared, sys_assault.DEFENSIVE_FIRE: fire_offered,
                        sys_assault.RESUMED: fire_survivors, sys_assault.RESOLVE: table,
                        sys_assault.DR_TESTS: results.dr_tests, sys_assault.ADVANCE: advance.stage,
                        sys_assault.END: advance.ended})


def declared(g: Act, c: AssaultUnderway) -> None:
    """The steps between declaration and the table (arrivano §12.1): B cavalry retreat (§14.1, the kernel's
    before_combat.asked) and the light troops' retreat (option §16.3.5), hex by hex of those still held; none held:
    the assault is cancelled. Then C, the defensive bombardment (§11.4.4)."""
    if before_combat.asked(g, c):
        return
    w = g.world()
    targets = [t for t in c.targets if any(w.state.units[u].side != c.attacker_side for u in w.units_at(t))]
    attackers = [u for u in c.attackers if w.on_map(u)]
    for t in targets:  # arrivano §16.3.5: V units may retreat one hex before the odds, on a passed test
        if t in c.light_done:
            continue
        units = light_retreat_candidates(w, t)
        if units:
            g.assault_frames().revise(light_done=(*c.light_done, t))
            push(g, "light_retreat", w.enemy(c.attacker_side), str(R.LIGHT_RETREAT), BeforeCombatAwaited(units=tuple(units), hex=t))
            return
    if not targets:  # the advance into the hexes left (§12.7), then the end
        g.assault_frames().revise(stage=sys_assault.ADVANCE, targets=())
        rule = R.LIGHT_RETREAT if c.light_done else ARRIVANO.CAVALRY_RETREAT
        g.emit(ev.AssaultResolved(attackers=tuple(attackers), targets=c.targets, result="cancelled",
                                  notes=("the defenders retreated before combat",), rule=str(rule)))
        return
    g.assault_frames().revise(stage=sys_assault.DEFENSIVE_FIRE, attackers=tuple(attackers), targets=tuple(targets))


def fire_offered(g: Act, c: AssaultUnderway) -> None:
    """arrivano §11.4.4: the assaulted hexes' guns that may fire (not on their Moved side, §17.2.7's weather; redoubt
    batteries never, §17.2.6) may bombard an attacking hex first (the kernel's assault_stages.fire_offered); then the
    "Attack?" tests (`fire_survivors`)."""
    w = g.world()
    assault_stages.fire_offered(g, c, [u for t in c.targets for u in w.units_at(t)
                                       if can_fire(w, u) and not w.counters.unit(u).redoubt_battery])


def fire_survivors(g: Act, c: AssaultUnderway) -> None:
    """arrivano §12.1: after the retreats its defensive fire caused (step 3), the assault goes on with the attackers
    still in good order next to every attacked hex, less those failing their "Attack?" tests (step 4, §12.2.2: the
    kernel's assault_stages.attack_tests); none left: the assault is cancelled."""
    attackers = still_attacking(g.world(), c)
    left, failed = assault_stages.attack_tests(g, c, attackers)
    g.assault_frames().revise(stage=sys_assault.RESOLVE if left or not failed else sys_assault.END, attackers=left,
                              tested=failed)
    if failed and not left:
        g.emit(ev.AssaultResolved(attackers=attackers, targets=c.targets, result="cancelled",
                                  notes=("every Attack? test failed",), rule=str(ARRIVANO.ATTACK_TEST)))


def table(g: Act, c: AssaultUnderway) -> None:
    """The assault on the table (the kernel's resolution.fight), once each side's efficiency value is established
    (arrivano §12.3, the kernel's assault_stages.efficiency_values: on a tie in SP its owner picks one, §12.3.1); the
    result sets the frame's last stage (`end`)."""
    w = g.world()
    defenders_all = [u for t in c.targets for u in w.units_at(t)]
    if not c.attackers or not defenders_all:
        g.assault_frames().revise(stage=sys_assault.END)
        g.emit(ev.AssaultResolved(attackers=c.attackers, defenders=tuple(defenders_all), targets=c.targets,
                                  result="cancelled", notes=("no attacker or no defender left",), rule=str(ARRIVANO.COMBAT)))
        return
    defenders = defending(w, list(c.targets))
    if not defenders:
        g.assault_frames().revise(stage=sys_assault.END)
        artillery_alone(g, list(c.attackers), defenders_all, list(c.targets))
        return
    efficiency = assault_stages.efficiency_values(g, c, c.attackers, defenders)
    if efficiency is None:  # a side's owner asked to pick among tied values (§12.3.1); the stage runs again
        return
    result = resolution.fight(g, ARRIVANO_VARIANT, c, defenders, c.forced, efficiency)
    if result == "cancelled":  # the advance into a hex left before combat (§12.7) still asked
        g.assault_frames().revise(stage=sys_assault.ADVANCE)
        return
    AssaultResults(g).apply(result, list(c.attackers), defenders)  # the charge ends with the assault (§14.2.2)


def cavalry_retreat(g: Act, frame: core.Frame[BeforeCombatAwaited], cmd: CavalryRetreat) -> None:
    """The owner's answer (arrivano §14.1, the kernel's before_combat.answered); then the steps before the assault go
    on."""
    before_combat.answered(g, frame, cmd)
    run(g)


def still_attacking(w: World, c: AssaultUnderway) -> tuple[str, ...]:
    """The attackers a defensive fire leaves to the assault (arrivano §12.1, §11.4.4): on the map, in good order,
    next to every attacked hex."""
    return tuple(u for u in c.attackers if w.on_map(u) and w.state.units[u].status == "good"
                 and all(w.grid.is_adjacent(w.state.units[u].hex, t) for t in c.targets))


def defensive_fire(g: Act, frame: core.Frame[DefensiveFireAwaited], artillery: str | None, target: str | None) -> None:
    """The defender's answer: `target` null, no fire; else one fire at `target`, by `artillery` (each_gun) or by
    the stack's ready guns, their factors combined (one_target, §11.4.1). Under each_gun the guns that have not fired
    are asked again (assault_stages.fire_asked), below the retreats the fire caused, which come first (their frames
    stay above the assault's, at its stage `resumed`); then the assault goes on with the attackers still in good
    order next to it."""
    c = g.assault_frames().running()
    battery = sys_bombardment.ready(g.world(), frame.ctx.battery) if target is not None else []
    if target is not None and battery:
        bombard(g, [artillery] if artillery is not None else battery, target, defensive=True)
    attackers = still_attacking(g.world(), c)
    g.assault_frames().revise(attackers=attackers)
    assault_stages.fire_asked(g, frame.seats[0], [u for u in battery if artillery not in (None, u)], attackers)
    run(g)


def artillery_alone(g: Act, attackers: list[str], guns: list[str], targets: list[str]) -> None:
    """arrivano §11.1.1: artillery alone -> automatic DE, the attacker must advance ("è obbligatorio avanzare
    nell'esagono"). A redoubt battery too, under either reading of `redoubt_battery_adverse`: the combat table's
    results never touch artillery (§11.0.2), so §17.2.6's adverse result (turned to Damaged) is a bombardment's; the
    battery is taken with its redoubt, an objective (§17.2.12), not left Damaged in it."""
    attack, _ = sys_assault.strengths(ARRIVANO_VARIANT, g.world(), attackers, [], targets)
    g.emit(ev.AssaultResolved(attackers=tuple(attackers), defenders=tuple(guns), targets=tuple(targets),
                              result="De", attack_strength=attack, automatic=str(R.ARTILLERY_ALONE),
                              rule=str(R.ARTILLERY_ALONE)))
    for u in guns:
        elimination.eliminate(g, ARRIVANO_VARIANT, u, R.ARTILLERY_ALONE)
    advance.offered(g, g.state.units[attackers[0]].side, R.ARTILLERY_ALONE, must=True)


def efficiency_value(g: Act, frame: core.Frame[EfficiencyChoiceAwaited], cmd: EfficiencyValue) -> None:
    """The owner's pick of his side's efficiency value (arrivano §12.3.1, the kernel's
    assault_stages.efficiency_answered); the assault goes on (the other side may be asked next)."""
    assault_stages.efficiency_answered(g, frame, cmd)
    run(g)


@dataclass(frozen=True)
class AssaultResults:
    """The kernel's results (parabellum/results.apply_result) as arrivano §12.5.4 carries them out: the advance into
    a hex a result empties is asked below what the result asks first (a lone commander moves away first, §4.5.4).
    The assault's frame stays below what the result asks, at its stage `advance` (`apply`), closed once it is answered;
    what a result strikes is read from it (`assault`)."""

    g: Act

    def assault(self) -> AssaultUnderway:
        return waiting(self.g, ASSAULT).ctx

    def apply(self, result: str, attackers: list[str], defenders: list[str]) -> None:
        """`result` carried out, the frame kept with the units the table fought (`attackers`, `defenders`) at its stage
        `advance` (a DR's `dr_tests` first) while what the result asks waits above it: a DR's retreats, the Ne test the
        attacker may take (`ne_choice`), the EX's losses (the kernel's results.exchanged), the retreats."""
        self.g.assault_frames().revise(stage=sys_assault.ADVANCE, attackers=tuple(attackers), defenders=tuple(defenders))
        results.apply_result(self.g, self, result, attackers, defenders, results.ne_may_test(
            [order_of(self.g.world(), u) for u in attackers], self.g.reading, self.assault().forced))

    def retreat_tested(self, units: Sequence[str]) -> None:
        """DR: one test for the whole result once the retreats are made (the assault's stage `dr_tests`, one die a
        stack where the units then stand, arrivano §13.1.2: two hexes' units retreating into one hex are one stack),
        its frame waiting below each hex's retreat (defender_retreat: a village or redoubt's choice first, §10.1.1)."""
        driven = {t: here for t in self.assault().targets if (here := [u for u in units if self.g.state.units[u].hex == t
                                                                and self.g.state.units[u].where == "map"])}
        self.g.assault_frames().revise(stage=sys_assault.DR_TESTS, dr_units=tuple(u for here in driven.values() for u in here))
        for t, here in driven.items():  # each hex's opened above the last: the last attacked hex's answered first
            defender_retreat(self.g, here, t)


def defender_retreat(g: Act, units: list[str], h: str) -> None:
    """DR (arrivano §12.5.4): in a village, farm or redoubt with a Defence order the defender chooses first
    (interpretation village_dr_procedure: `choose_then_one_test` one test decides; `two_tests` a failed exchange
    test is followed by the normal DR test and retreat); otherwise the kernel's DR retreat, then its test
    (results.dr_retreat, the assault's stage `dr_tests`)."""
    w = g.world()
    options: list[str] = []
    if all(order_of(w, u) == "defence" for u in units):
        for t in w.terrains(h):
            if "exchange_on_test" in t.dr_options and "exchange" not in options:
                options.append("exchange")
            if "hold_on_test" in t.dr_options and "hold" not in options:
                options.append("hold")
    if options:
        push(g, "dr_choice", w.state.units[units[0]].side, str(R.VILLAGE_EX), ev.DrChoiceAwaited(units=tuple(units), hex=h, choices=(*sorted(options), "retreat")))
        return
    results.dr_retreat(g, units)


def rout_hexes(g: Act) -> int:
    """Interpretation dr_rout_retreat: the DR hex then two more (additional_2), or two in all (total_2)."""
    return 1 + results.dr_rout_hexes(g.reading)


def dr_choice(g: Act, frame: core.Frame[ev.DrChoiceAwaited], choice: str) -> None:
    units = [u for u in frame.ctx.units if g.world().on_map(u)]
    h = frame.ctx.hex
    if not units:
        return
    if choice == "retreat":
        results.dr_retreat(g, units)
        return
    tested = stack_test(g, units, f"{R.VILLAGE_EX} DR {choice} test in {h}")
    passed = all(tested[u] for u in units)
    if choice == "exchange" and not passed and g.reading("village_dr_procedure") == "two_tests":
        results.dr_retreat(g, units)  # the exchange failed: the normal DR procedure with its own test
        return
    # this test replaced the DR test: its units leave the DR's (§13.1.2); a passed exchange makes the EX against
    # them (§10.1.1): one revision of the assault's frame, wherever it waits (other villages' choices above it)
    dr = waiting(g, ASSAULT).ctx
    exchange = choice == "exchange" and passed
    revise(g, ASSAULT, msgspec.structs.replace(dr, dr_units=tuple(u for u in dr.dr_units if u not in frame.ctx.units),
                                               defenders=tuple(units) if exchange else dr.defenders))
    if exchange:  # arrivano §10.1.1: DR becomes EX, against the assault's attackers
        results.exchanged(g, ARRIVANO_VARIANT)
        return
    if choice == "hold" and passed:  # arrivano §12.5.4: need not retreat, disordered in place (routed: §15.2.1)
        retreat_frame.disordered(g, units, ARRIVANO.RESULTS)  # the advance: the DR's stage `advance`
        return
    # failed: routed before it moves, so its whole retreat (the DR hex and two more) is the §15.2.1 rout retreat,
    # enemy ZoC ignored; a unit passing the DR test's die later retreated its first hex as any retreat (§12.6.1)
    for u in units:
        rout.disorder(g, ARRIVANO_VARIANT, u, ARRIVANO.RESULTS, 2, routs=ARRIVANO.ROUT_COMBAT)  # §12.5.4 DR "(15.2.1)"
    retreat_frame.routed_away(g, dict.fromkeys(units, rout_hexes(g)), ARRIVANO.RESULTS)


def resolve_countercharges(g: Act) -> None:
    """arrivano §14.2.4: counter-charges are fought first in the combat sub-phase, the counter-charger attacking
    the charger's hex (interpretation charge_resolution: assault_from_adjacent)."""
    for cc, charger in sorted(g.state.countercharges.items()):
        w = g.world()
        a, d = w.state.units[cc], w.state.units[charger]
        if a.where != "map" or d.where != "map" or a.status != "good" or not w.grid.is_adjacent(a.hex, d.hex):
            continue
        g.emit(ev.AssaultDeclared(attackers=(cc,), targets=(d.hex,), rule=str(R.COUNTERCHARGE)))
        begin(g, AssaultUnderway(stage=sys_assault.RESOLVE, attacker_side=a.side, attackers=(cc,), targets=(d.hex,)))
