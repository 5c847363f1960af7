"""The sequence of play both books share (caldiero §3, arrivano §3.1): after every command the game runs what needs
no choice (`settle`), and the action phase's loop (caldiero §6.2, arrivano §6.1): after each activation the
initiative is rolled again while formations remain to be activated; with none left the turn goes to its end phase.

A game's flow answers the questions of `Turn` (what may be activated, its initiative values and dice, the step
its winner chooses in, its own end of turn); the loop and the roll (parabellum/initiative.py) are written once
here. Where the two games differ, the variant says so (`Variant.roll_for_last_formation`).
"""

from __future__ import annotations

from typing import Protocol

from arbitro.adjudicator.errors import Unsettled
from arbitro.adjudicator.parabellum import initiative
from arbitro.adjudicator.parabellum.variant import Variant

# The most rounds (a decision settled, an automatic step run) one command may set going. A whole game of the longest
# scenario a data folder may give (data.MAX_TURNS turns) with nobody able to decide anything settles in far fewer: a
# turn is at most about 50 (the command phase's steps, some 7 for each activation of at most 7 formations), 40 turns
# some 2,000. Past it the game has stopped reaching a seat's choice (a defect, a hand-written position, a ruling), and
# the command is refused rather than hanging the server.
SETTLE_ROUNDS = 10_000


class Clock(Protocol):
    """Where a game stands in its sequence of play (both games' states)."""

    turn: int
    phase: str
    step: str


class Automatic(Protocol):
    """A game as `settle` asks it: what waits for a choice, and how what needs none is carried out."""

    def decision_waiting(self) -> bool:
        """A decision of the game waits on the engine's stack (the procedure goes on once it is answered)."""
        ...

    def settle_decision(self) -> bool:
        """Carry out the decision on top if it needs no choice (no answer, or one forced); False: its seat decides."""
        ...

    def settle_step(self) -> bool:
        """Carry out the sequence's step if it needs no choice (an automatic step: the initiative roll, the weather;
        or one whose seat has nothing to do but end it); False: its seat acts, or the game is over."""
        ...

    def clock(self) -> Clock:
        """Where the game stands (the state): what an `Unsettled` refusal names."""
        ...


def settle(game: Automatic, variant: Variant) -> None:
    """After every command or answer (caldiero §3, arrivano §3.1): whatever needs no choice is done, the waiting
    decisions first, until a seat must decide. Past SETTLE_ROUNDS rounds the command is refused (`Unsettled`): the
    engine records nothing of it."""
    for _ in range(SETTLE_ROUNDS):
        if not (game.settle_decision() if game.decision_waiting() else game.settle_step()):
            return
    at = game.clock()
    raise Unsettled(f"this command set going {SETTLE_ROUNDS} automatic steps without reaching any seat's choice "
                    f"(now at turn {at.turn}, {at.phase} phase, step {at.step}): refused, nothing recorded; the game "
                    "keeps running steps that need no choice (a defect of the ruleset, or a position or ruling that "
                    "gives nobody anything to decide)", rule=str(variant.rules.SEQUENCE))


class Turn(initiative.Roll, Protocol):
    """The action phase as one game's flow carries it out."""

    def eligible(self) -> list[str]:
        """The formations (and what else the game activates: columns) not yet activated this turn."""
        ...

    def choose(self, seat: str) -> None:
        """The initiative's winner chooses the next activation: the game's step for it begins."""
        ...

    def activate_only(self, formation: str) -> None:
        """Activate the only formation left, without a roll."""
        ...

    def end_turn(self) -> None:
        """Every formation has been activated: the end phase."""
        ...


def roll_initiative(turn: Turn, variant: Variant) -> None:
    """caldiero §6, arrivano §6: the roll; its winner chooses the next activation (caldiero §6.2, arrivano §6.1)."""
    turn.choose(initiative.roll(turn, variant))


def next_activation(turn: Turn, variant: Variant) -> None:
    """caldiero §6.2 / arrivano §6.1: "si tira di nuovo per l'iniziativa ... fino a quando ci sono formazioni non
    ancora attivate, quindi si passa alla Fase di fine del turno"."""
    eligible = turn.eligible()
    if not eligible:
        turn.end_turn()
    elif len(eligible) == 1 and not variant.roll_for_last_formation:
        turn.activate_only(eligible[0])
    else:
        roll_initiative(turn, variant)
