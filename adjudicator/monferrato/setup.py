"""The players' set-up choices (monferrato scenario, "Setup iniziale"; §4): where the scenario lets a side choose
(Nevers' force at Mantova or Casale, which artillery and sapper "a scelta: 3 o 4" stay in Mantova, the Gonzaga forts,
the Milanese and Savoyard armies "ovunque nel Ducato ... aggregati secondo preferenza"), each choice is a `set_up`
decision on the engine's stack, Pro-France's first ("schiera per prima"), in the order of scenario.json's
`setup_choices`. A choice with one answer is applied without asking. Under the reading `scelta_3_o_4: value_each`
the side chooses instead each "a scelta" counter's value (a `choose_value` decision per counter, after the counters are
placed); under `one_of_each` (the default) those decisions have no answer and are skipped. Then the chits are dealt (§4: the units are set
up first) and the first command marker is drawn (sequence.start).

The choices are public: every unit's place is (projections/monferrato.view), and no hand is dealt until they are made.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.decisions import close_frame, open_frame
from arbitro.adjudicator.monferrato import rules as R
from arbitro.adjudicator.monferrato import sequence
from arbitro.adjudicator.monferrato.common import data, enemy_in
from arbitro.adjudicator.monferrato.data import SetUpChoice
from arbitro.adjudicator.monferrato.movement import closed_region
from arbitro.adjudicator.monferrato.position import MAX_FORTS
from arbitro.adjudicator.monferrato.readings import reading
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import core
from arbitro.events import monferrato as ev
from arbitro.projections.monferrato import MonferratoState

KIND = "set_up"
VALUE = "choose_value"


def items() -> list[tuple[int, str]]:
    """The decisions in order: (choice index, unit) for an `each` choice's units, (choice index, "") otherwise, and
    after a choice with `values`, (choice index, unit) for each of its counters' value."""
    out: list[tuple[int, str]] = []
    for i, choice in enumerate(data().scenario.setup_choices):
        out += [(i, u) for u in choice.units] if choice.how == "each" else [(i, "")]
        out += [(i, u) for u in choice.units if choice.values]
    return out


def kind_of(item: int) -> str:
    index, unit = items()[item]
    return VALUE if unit and data().scenario.setup_choices[index].how != "each" else KIND


def value_each(s: MonferratoState, choice: SetUpChoice) -> bool:
    """The reading `scelta_3_o_4`: the side chooses each counter's value (not which counter of each value)."""
    return bool(choice.values) and reading(s, "scelta_3_o_4") == "value_each"


def zones_of(s: MonferratoState, choice: SetUpChoice) -> list[str]:
    """The zones a choice offers: named, or of its regions, or of its inset (scenario), none holding the enemy; a fort
    never in a fortress, nor beyond two (§10), nor in the Republic of Venice still closed (special rule 5)."""
    d = data()
    if choice.zones:
        zones = list(choice.zones)
    elif choice.regions:
        zones = [z for z in sorted(d.zones) if d.zones[z].region in choice.regions]
    else:
        narrow = choice.narrow_region if reading(s, "mantova_inset_fort") == "duchy" else None
        zones = [z for z in sorted(d.zones) if d.zones[z].inset == choice.inset
                 and (narrow is None or d.zones[z].region == narrow)]
    zones = [z for z in zones if not enemy_in(s, z, choice.seat)]
    if choice.how != "fort":
        return zones
    return [z for z in zones if not d.zones[z].fortress and len(s.forts.get(z, [])) < MAX_FORTS
            and not closed_region(s, z)]


def options(s: MonferratoState, item: int) -> list[dict[str, Any]]:
    index, unit = items()[item]
    choice = data().scenario.setup_choices[index]
    if kind_of(item) == VALUE:
        return [{"type": VALUE, "unit": unit, "fire": v} for v in choice.values] if value_each(s, choice) else []
    zones = zones_of(s, choice)
    match choice.how:
        case "together":
            return [{"type": KIND, "units": list(choice.units), "zone": z} for z in zones]
        case "each":
            return [{"type": KIND, "units": [unit], "zone": z} for z in zones]
        case "one_of":
            rest = s.units[choice.rest_with].zone if choice.rest_with else ""
            if rest in zones:  # the others go where the one goes: nothing to choose
                return [{"type": KIND, "units": list(choice.units), "zone": rest}]
            placed = choice.units[:1] if value_each(s, choice) else choice.units  # value_each: alike but for value
            return [{"type": KIND, "units": [u], "zone": z} for u in placed for z in zones]
        case _:
            return [{"type": KIND, "units": [], "zone": z} for z in zones]


def begin(ctx: Decision[MonferratoState]) -> None:
    """The first choice asked (or all applied, when none is a choice)."""
    advance(ctx, 0)


def advance(ctx: Decision[MonferratoState], item: int) -> None:
    """Apply the choices with one answer; ask the next that has more; when none is left, deal and draw."""
    listed = items()
    while item < len(listed):
        answers = options(ctx.state, item)
        choice = data().scenario.setup_choices[listed[item][0]]
        if len(answers) > 1:
            what = f"the value of {listed[item][1]}: " if kind_of(item) == VALUE else "set up: "
            open_frame(ctx, kind_of(item), (choice.seat,), str(R.SETUP_CHOICE), what + choice.text,
                       ev.SetUpAwaited(seat=choice.seat, item=item))
            return
        if answers and kind_of(item) == VALUE:
            ctx.emit(ev.ValueChosen(seat=choice.seat, unit=listed[item][1], fire=answers[0]["fire"],
                                    rule=str(R.SETUP_CHOICE)))
        elif answers:
            place(ctx, item, answers[0]["units"], answers[0]["zone"])
        item += 1
    sequence.start(ctx)


def place(ctx: Decision[MonferratoState], item: int, units: list[str], zone: str) -> None:
    index, _ = items()[item]
    choice = data().scenario.setup_choices[index]
    if choice.how == "fort":
        ctx.emit(ev.FortBuilt(zone=zone, seat=choice.seat, rule=str(R.SETUP_CHOICE)))
        return
    ctx.emit(ev.SetUp(seat=choice.seat, units=tuple(units), zone=zone, rule=str(R.SETUP_CHOICE)))
    others = tuple(u for u in choice.units if u not in units)
    if choice.how == "one_of" and choice.rest_with and others:  # the others go with the unit they follow
        ctx.emit(ev.SetUp(seat=choice.seat, units=others, zone=ctx.state.units[choice.rest_with].zone,
                          rule=str(R.SETUP_CHOICE)))


# The answers below are one of `options` already: the engine refuses any other before a (complete) step answers,
# listing the options (engine._check_answer, arbitro §S.3).
def answer_value(ctx: Decision[MonferratoState], frame: core.Frame[ev.SetUpAwaited], unit: str, fire: int) -> None:
    close_frame(ctx, frame)
    ctx.emit(ev.ValueChosen(seat=frame.ctx.seat, unit=unit, fire=fire, rule=str(R.SETUP_CHOICE)))
    advance(ctx, frame.ctx.item + 1)


def answer(ctx: Decision[MonferratoState], frame: core.Frame[ev.SetUpAwaited], units: list[str], zone: str) -> None:
    close_frame(ctx, frame)
    place(ctx, frame.ctx.item, units, zone)
    advance(ctx, frame.ctx.item + 1)

