"""The assault's stages between its declaration and the table that both books write alike (§12.1 in both,
"Sequenza dell'Assalto", "nell'ordine esatto"): 1 the declaration (§12.2), 2 the retreats before combat (§14.1),
3 the defensive bombardment (caldiero §11.4.5, arrivano §11.4.4), 4 the "Attack?" tests (§12.2.2), then, at the
start of the combat, each side's efficiency value (§12.3, `efficiency_values`: a tie asked of its owner), 5 the odds
and the terrain, 6 the table's result (parabellum/resolution.fight). Each game runs them as stages of its assault's
frame (parabellum/assault.run); what its book alone has (arrivano's light troops §16.3.5, caldiero's Elan §16.1) stays
its own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arbitro.adjudicator.parabellum import assault, bombardment, efficiency, sight
from arbitro.adjudicator.parabellum.act import Act, stack_roll
from arbitro.adjudicator.parabellum.steps import Listed, Row
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import core
from arbitro.events.parabellum import AssaultUnderway, DefensiveFireAwaited, EfficiencyChoiceAwaited

DEFENSIVE_FIRE = "defensive_fire"  # the kind of the defender's question in both games
EFFICIENCY_VALUE = "efficiency_value"  # the kind of a side's question on a tie in both games, and its answer's type
SIDES = {"attack": "attackers'", "defence": "defenders'"}  # a side of the assault by its role, as a prompt names it


def fire_offered(a: Act, c: AssaultUnderway, battery: Sequence[str]) -> None:
    """Step 3 of §12.1 in both books, the defensive bombardment (caldiero §11.4.5, arrivano §11.4.4: assaulted
    artillery "può bombardare uno degli esagoni dove sono presenti unità attaccanti"): the assault's frame moves to
    its stage `resumed` (which waits for the fire and the retreats it causes) and the defender is asked
    (`fire_asked`) whether `battery` fires, the assaulted hexes' guns that may (each game's: arrivano §17.2.6 keeps
    its redoubt batteries out), those `ready` (not on their Moved side: a moved gun in the frame's battery was asked
    again, with holding fire its only answer, once the others had fired)."""
    a.assault_frames().revise(stage=assault.RESUMED)
    fire_asked(a, a.world().enemy(c.attacker_side), bombardment.ready(a.world(), battery), c.attackers)


def fire_asked(a: Act, seat: str, battery: Sequence[str], attackers: Sequence[str]) -> bool:
    """The defender `seat` asked whether a gun of `battery` bombards a hex of `attackers` (`ask_fire`) where a ready
    one may: True; none may: not asked (a question whose only answer is to hold fire is none)."""
    if not attackers or not bombardment.defensive_hexes(a.variant, a.world(), battery, attackers):
        return False
    ask_fire(a, seat, battery)
    return True


def ask_fire(a: Act, seat: str, battery: Sequence[str]) -> None:
    """The defensive fire's question, above the assault (its answers: parabellum/bombardment.defensive_fire_answers,
    or holding fire)."""
    rule = a.variant.rules.DEFENSIVE_FIRE
    a.assault_frames().push(DEFENSIVE_FIRE, (seat,), str(rule),
                            f"defending artillery may bombard one attacking hex ({rule})",
                            DefensiveFireAwaited(battery=tuple(battery)))


def attack_tests(a: Act, c: AssaultUnderway, attackers: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Step 4 of §12.1 in both books, after the defensive fire (step 3): the units marked "Attack?" at the declaration
    (§12.2: Advance order; the frame's `tested`) still among `attackers` test their efficiency, one die a stack
    (§13.1.2), in the order they were marked; those that failed do not attack, with no other penalty (§12.2.2 in
    both: "altrimenti non possono attaccare, ma non subiscono nessuna penalizzazione"). Returned: `attackers` without
    them, and them, for the frame's `attackers` and `tested` (arrivano §12.4.2 reads these: "a causa di falliti Test
    di Efficienza"), which the caller records in the one revision that moves the assault on."""
    rule = a.variant.rules.ATTACK_TEST
    tested = [u for u in c.tested if u in attackers]
    failed = tuple(efficiency.failed(efficiency.stack_tests(a.variant, a.world(), tested,
                                                            stack_roll(a, lambda h: f"{rule} 'Attack?' test at {h}"))))
    return tuple(u for u in attackers if u not in failed), failed


def efficiency_values(a: Act, c: AssaultUnderway, attackers: Sequence[str],
                      defenders: Sequence[str]) -> tuple[int, int] | None:
    """The sides' efficiency values the assault `c` is fought with (§12.3 in both books: "All'inizio di un
    combattimento entrambe le parti coinvolte devono stabilire la propria efficienza"), asked at the start of its
    stage `resolve`, before any die of it (caldiero's Elan, §16.1, included): for `attackers` and `defenders`, those
    that fight once the retreats before combat, the defensive fire and the "Attack?" tests are done (§12.1 steps 2-4),
    the value carrying the most SP (§12.3.1, efficiency.side_values). Where values tie ("In caso di parità il
    giocatore può scegliere quale valore usare", the same words in both) the side's owner is asked, the attacker
    first (`EFFICIENCY_VALUE`, above the assault; its answer kept in the frame's `chosen`): None, and the stage runs
    again once it is answered; the defender is asked too where its values could tie under orders the enemy may not
    know (`order_may_tie`; an attacker's order is never Defence, which forbids the assault: arrivano §5.1.3, the
    orders table's `assault`). Otherwise (attacker's, defender's) as efficiency.in_use reads them."""
    w = a.world()
    values = efficiency.choices(w, attackers, defenders)
    for role, seat in (("attack", c.attacker_side), ("defence", w.enemy(c.attacker_side))):
        hidden_tie = role == "defence" and order_may_tie(a, w, seat, defenders)
        if role not in c.chosen and (len(values[role]) > 1 or hidden_tie):
            rule = a.variant.rules.SIDE_EFFICIENCY
            a.assault_frames().push(EFFICIENCY_VALUE, (seat,), str(rule),
                                    f"choose the {SIDES[role]} efficiency among the values tied for most SP ({rule})",
                                    EfficiencyChoiceAwaited(role=role, values=tuple(values[role])))
            return None
    return efficiency.in_use(values, c.chosen)


def order_may_tie(a: Act, w: World, seat: str, units: Sequence[str]) -> bool:
    """Whether `seat`'s side is asked its value even without a tie: where the weather gives its units in Defence a
    bonus (arrivano §17.2.7, the box's `defence_efficiency_bonus`) and the fog is in force (arrivano §11.3.2), a
    unit's value rests on its order, which the enemy may not know (out of command by where an unseen general
    stands, §5.3); whether a question is asked would tell it. So the side is asked wherever its values could tie
    under some orders (efficiency.may_tie), the question listing the values it truly has (one, without a tie): the
    enemy learns the value chosen, which the combat makes public (§12.3.2, the difference is the die's modifier),
    and nothing else."""
    box = w.weather_box()
    bonus = box.defence_efficiency_bonus.get(seat, 0) if box is not None else 0
    return bool(bonus) and sight.fog_in_force(a.variant.fog_option, w.option) and efficiency.may_tie(w, units, bonus)


def efficiency_answers(w: World, frame: core.Frame[EfficiencyChoiceAwaited]) -> Listed:
    """Each tied value, ascending (§12.3.1 in both)."""
    return [{"type": EFFICIENCY_VALUE, "value": v} for v in frame.ctx.values]


def efficiency_answered(a: Act, frame: core.Frame[EfficiencyChoiceAwaited], cmd: Any) -> None:
    """A listed value (the engine took no other), kept by the assault for its side (`chosen`); the stage `resolve`
    runs again (each game's `after`: Caldiero's flow, Arrivano's run)."""
    c = a.assault_frames().running()
    a.assault_frames().revise(chosen=c.chosen | {frame.ctx.role: cmd.value})


def efficiency_refusal(w: World, frame: core.Frame[EfficiencyChoiceAwaited], answer: dict[str, Any],
                       opts: Listed) -> tuple[Rule | str, str]:
    """An unlisted value: the side's efficiency is one of the values tied for most SP (the frame's rule, §12.3.1)."""
    tied = ", ".join(str(v) for v in frame.ctx.values)
    return frame.rule, (f"{answer.get('value')} is not one of the {SIDES[frame.ctx.role]} efficiency values tied for "
                        f"most SP: {tied} ({frame.rule})")


# Both games' row of the question (parabellum/steps.Row); Arrivano's handler runs the stages after it.
EFFICIENCY_ROW = Row(efficiency_answers, efficiency_answered, efficiency_refusal)
