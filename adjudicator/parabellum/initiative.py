"""Initiative (caldiero §6, arrivano §6): each side rolls a die and adds its value; the higher total wins, a tie as
the variant reads it (D13), rolled again when nobody wins it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from arbitro.adjudicator.parabellum.variant import Reading, Variant
from arbitro.events.parabellum import InitiativeWon


class Roll(Protocol):
    """The game as the initiative roll asks it: each side's value and dice (each game records its dice its own way:
    caldiero one roll of two dice, arrivano one die per side), its readings, its events."""

    def initiative_values(self) -> dict[str, int]:
        """Each side's value added to its die, in the order the sides roll (caldiero §6.1, arrivano §6)."""
        ...

    def initiative_dice(self, values: Mapping[str, int]) -> dict[str, int]:
        """One die per side, rolled now."""
        ...

    def reading(self, name: str) -> str: ...

    def emit(self, event: Any) -> None: ...


def winner(variant: Variant, totals: dict[str, int], reading: Reading) -> str | None:
    """The seat with the higher total; a tie goes to the variant's tie winner, or None (roll again; D13)."""
    ranked = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return variant.initiative_tie_winner(reading)
    return ranked[0][0]


def roll(game: Roll, variant: Variant) -> str:
    """caldiero §6 / arrivano §6: the roll, again while a tie has no winner; the winner is recorded (citing the tie
    rule when a tie decided it) and returned: he chooses the next activation."""
    values = game.initiative_values()
    while True:
        dice = game.initiative_dice(values)
        totals = {side: dice[side] + value for side, value in values.items()}
        found = winner(variant, totals, game.reading)
        if found is not None:
            break
    tied = len(set(totals.values())) < len(totals)
    rule = variant.rules.INITIATIVE_TIE if tied else variant.rules.INITIATIVE
    game.emit(InitiativeWon(seat=found, totals=totals, rule=str(rule)))
    return found
