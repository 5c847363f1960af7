"""Initiative (caldiero §6, arrivano §6): each side rolls a die and adds its value; the higher total wins, a tie as
the variant reads it (D13), rolled again when nobody wins it. Its winner chooses the next activation, and it is rolled
again after each activation while formations remain (caldiero §6.2, arrivano §6.1): the action phase's loop, asking
the game's ruleset what differs (parabellum/act.Game: what may be activated, the last formation, the end of the turn)."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.sequence import CHOOSE_ACTIVATION
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.events.parabellum import InitiativeWon


def winner(variant: Variant, totals: dict[str, int], w: World) -> str | None:
    """The seat with the higher total; a tie goes to the variant's tie winner, or None (roll again; D13)."""
    ranked = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return variant.initiative_tie_winner(w)
    return ranked[0][0]


def roll(a: Act[Any]) -> str:
    """caldiero §6 / arrivano §6: the roll (each side's value and the dice's words the variant's:
    `initiative_values`, `initiative_rolls`), again while a tie has no winner; the winner is recorded (citing the tie
    rule when a tie decided it) and returned: he chooses the next activation."""
    variant = a.variant
    values = variant.initiative_values(a.world())
    while True:
        dice: dict[str, int] = {}
        for purpose, detail, sides in variant.initiative_rolls(values):
            dice.update(zip(sides, a.roll(purpose, detail, count=len(sides))))
        totals = {side: dice[side] + value for side, value in values.items()}
        found = winner(variant, totals, a.world())
        if found is not None:
            break
    tied = len(set(totals.values())) < len(totals)
    rule = variant.rules.INITIATIVE_TIE if tied else variant.rules.INITIATIVE
    a.emit(InitiativeWon(seat=found, totals=totals, rule=str(rule)))
    return found


def roll_initiative(a: Act[Any]) -> None:
    """caldiero §6, arrivano §6: the roll; its winner chooses the next activation (caldiero §6.2, arrivano §6.1)."""
    a.steps.begin(CHOOSE_ACTIVATION, a, roll(a))


def next_activation(a: Act[Any]) -> None:
    """caldiero §6.2 / arrivano §6.1: "si tira di nuovo per l'iniziativa ... fino a quando ci sono formazioni non
    ancora attivate, quindi si passa alla Fase di fine del turno"."""
    ruleset = a.game  # what differs is asked of the game's ruleset (act.Game), never which game it is
    eligible = ruleset.eligible(a.world())
    if not eligible:
        ruleset.end_turn(a)
    elif len(eligible) == 1 and not a.variant.roll_for_last_formation:
        ruleset.activate_only(a, eligible[0])
    else:
        roll_initiative(a)
