"""The action phase's loop both books share (caldiero §6.2, arrivano §6.1): after each activation the initiative
is rolled again while formations remain to be activated; with none left the turn goes to its end phase.

A game's flow answers the four questions of `Turn` (its own initiative roll, its own end of turn); the loop is
written once here. Where the two games differ, the variant says so (`Variant.roll_for_last_formation`).
"""

from __future__ import annotations

from typing import Protocol

from arbitro.adjudicator.parabellum.variant import Variant


class Turn(Protocol):
    """The action phase as one game's flow carries it out."""

    def eligible(self) -> list[str]:
        """The formations (and what else the game activates: columns) not yet activated this turn."""
        ...

    def roll_initiative(self) -> None:
        """Roll the initiative; its winner chooses the next activation."""
        ...

    def activate_only(self, formation: str) -> None:
        """Activate the only formation left, without a roll."""
        ...

    def end_turn(self) -> None:
        """Every formation has been activated: the end phase."""
        ...


def next_activation(turn: Turn, variant: Variant) -> None:
    """caldiero §6.2 / arrivano §6.1: "si tira di nuovo per l'iniziativa ... fino a quando ci sono formazioni non
    ancora attivate, quindi si passa alla Fase di fine del turno"."""
    eligible = turn.eligible()
    if not eligible:
        turn.end_turn()
    elif len(eligible) == 1 and not variant.roll_for_last_formation:
        turn.activate_only(eligible[0])
    else:
        turn.roll_initiative()
