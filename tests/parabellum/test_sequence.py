"""The action phase's loop, written once (parabellum/sequence.py; caldiero §6.2, arrivano §6.1): initiative again
while formations remain, the end of the turn when none does; the last formation's roll as the variant reads it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arbitro.adjudicator.parabellum import sequence
from arbitro.adjudicator.parabellum.variant import Variant


class Recorded:
    """A Turn that records what the loop asked of it."""

    def __init__(self, eligible: list[str]) -> None:
        self.left, self.calls, self.events = eligible, [], []  # type: ignore[var-annotated]
        self.dice: list[dict[str, int]] = [{"france": 4, "austria": 2}]

    def eligible(self) -> list[str]:
        return list(self.left)

    def initiative_values(self) -> dict[str, int]:
        return {"france": 1, "austria": 0}

    def initiative_dice(self, values: Mapping[str, int]) -> dict[str, int]:
        self.calls.append("roll")
        return dict(self.dice.pop(0))

    def reading(self, name: str) -> str:
        return "reroll"

    def emit(self, event: Any) -> None:
        self.events.append(event)

    def choose(self, seat: str) -> None:
        self.calls.append(f"choose {seat}")

    def activate_only(self, formation: str) -> None:
        self.calls.append(f"activate {formation}")

    def end_turn(self) -> None:
        self.calls.append("end")


def test_no_formation_left_ends_the_turn(variant: Variant) -> None:
    turn = Recorded([])
    sequence.next_activation(turn, variant)
    assert turn.calls == ["end"]


def test_formations_left_roll_the_initiative_again(variant: Variant) -> None:
    turn = Recorded(["a", "b"])
    sequence.next_activation(turn, variant)
    assert turn.calls == ["roll", "choose france"]


def test_the_last_formation_as_the_variant_reads_it(variant: Variant) -> None:
    turn = Recorded(["a"])
    sequence.next_activation(turn, variant)
    # caldiero §6.2: no roll, the choice is forced; arrivano §6.1: the roll after every activation
    assert turn.calls == (["roll", "choose france"] if variant.roll_for_last_formation else ["activate a"])
    assert variant.roll_for_last_formation is (variant.book == "arrivano")


def test_a_tie_is_rolled_again_or_won_as_the_variant_reads_it(variant: Variant) -> None:
    """D13: a tie (5 each with the values 1 and 0) is rolled again in caldiero §6 (the Austrians then win 3+0 to
    1+1), won by the French in arrivano §6.1.1, citing the tie rule; the totals of the deciding roll are recorded."""
    turn = Recorded(["a", "b"])
    turn.dice = [{"france": 4, "austria": 5}, {"france": 1, "austria": 3}]
    sequence.next_activation(turn, variant)
    won = turn.events[-1]
    if variant.initiative_tie_winner(turn.reading) is None:
        assert turn.calls == ["roll", "roll", "choose austria"]
        assert (won.seat, won.totals, won.rule) == ("austria", {"france": 2, "austria": 3}, str(variant.rules.INITIATIVE))
    else:
        assert turn.calls == ["roll", "choose france"]
        assert (won.seat, won.totals, won.rule) == ("france", {"france": 5, "austria": 5}, str(variant.rules.INITIATIVE_TIE))


class Pending:
    """An Automatic with `decisions` waiting (True: settles by itself) over `steps` of the sequence (likewise)."""

    def __init__(self, decisions: list[bool], steps: list[bool]) -> None:
        self.decisions, self.steps, self.calls = decisions, steps, []  # type: ignore[var-annotated]

    def decision_waiting(self) -> bool:
        return bool(self.decisions)

    def settle_decision(self) -> bool:
        self.calls.append("decision")
        if self.decisions[-1]:
            self.decisions.pop()
            return True
        return False

    def settle_step(self) -> bool:
        self.calls.append("step")
        if self.steps and self.steps[0]:
            self.steps.pop(0)
            return True
        return False


def test_settle_does_the_waiting_decisions_first_then_the_steps_until_a_seat_must_choose(variant: Variant) -> None:
    """caldiero §3 / arrivano §3.1: the decisions that need no choice, then the automatic steps, stopping at the
    first that asks a seat."""
    game = Pending(decisions=[True, True], steps=[True, True, False, True])
    sequence.settle(game, variant)
    assert game.calls == ["decision", "decision", "step", "step", "step"] and game.steps == [False, True]


def test_settle_stops_at_a_decision_its_seat_must_answer_before_any_step(variant: Variant) -> None:
    game = Pending(decisions=[False, True], steps=[True])
    sequence.settle(game, variant)
    assert game.calls == ["decision", "decision"] and game.steps == [True]
