"""The action phase's loop, written once (parabellum/initiative.py; caldiero §6.2, arrivano §6.1): initiative again
while formations remain, the end of the turn when none does; the last formation's roll as the variant reads it; the
dice worded as each book's games recorded them. And `settle` (parabellum/act.py) after every command."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.parabellum import initiative
from arbitro.adjudicator.parabellum.act import settle
from arbitro.adjudicator.parabellum.sequence import CHOOSE_ACTIVATION
from arbitro.adjudicator.parabellum.variant import Variant
from tests.parabellum.position import Position


class Values:
    """The variant under test with fixed initiative values (France 1, Austria 0): its own dice words and readings."""

    def __init__(self, variant: Variant) -> None:
        self.real = variant

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def initiative_values(self, w: Any) -> dict[str, int]:
        return {"france": 1, "austria": 0}


class Recorded:
    """A procedure's context (act.Act) and its game's ruleset (act.Game) as the loop asks them, recording what it
    was asked: `dice` are handed out in the order the variant rolls them."""

    def __init__(self, variant: Variant, eligible: list[str], dice: list[int]) -> None:
        self.variant, self.game, self.steps = Values(variant), self, self
        self.left, self.dice = eligible, dice
        self.calls, self.events, self.rolls = [], [], []  # type: ignore[var-annotated]

    def world(self) -> Position:  # its readings ("reroll") and scenario (a tie to the French, arrivano §6.1.1)
        return Position({}, readings={"initiative_tie": "reroll"})

    def reading(self, name: str) -> str:
        return "reroll"

    def emit(self, event: Any) -> None:
        self.events.append(event)

    def roll(self, purpose: str, detail: dict[str, Any], count: int = 1) -> tuple[int, ...]:
        self.rolls.append((purpose, detail))
        taken, self.dice = tuple(self.dice[:count]), self.dice[count:]
        return taken

    def begin(self, step: str, a: Any, seat: str) -> None:
        assert step == CHOOSE_ACTIVATION
        self.calls.append(f"choose {seat}")

    def eligible(self, w: Any) -> list[str]:
        return list(self.left)

    def activate_only(self, a: Any, formation: str) -> None:
        self.calls.append(f"activate {formation}")

    def end_turn(self, a: Any) -> None:
        self.calls.append("end")


def test_no_formation_left_ends_the_turn(variant: Variant) -> None:
    turn = Recorded(variant, [], [])
    initiative.next_activation(turn)  # type: ignore[arg-type]
    assert turn.calls == ["end"] and not turn.rolls


def test_formations_left_roll_the_initiative_again(variant: Variant) -> None:
    turn = Recorded(variant, ["a", "b"], [4, 2])
    initiative.next_activation(turn)  # type: ignore[arg-type]
    assert turn.calls == ["choose france"] and not turn.dice


def test_the_last_formation_as_the_variant_reads_it(variant: Variant) -> None:
    turn = Recorded(variant, ["a"], [4, 2])
    initiative.next_activation(turn)  # type: ignore[arg-type]
    # caldiero §6.2: no roll, the choice is forced; arrivano §6.1: the roll after every activation
    assert turn.calls == (["choose france"] if variant.roll_for_last_formation else ["activate a"])
    assert variant.roll_for_last_formation is (variant.book == "arrivano")


def test_a_tie_is_rolled_again_or_won_as_the_variant_reads_it(variant: Variant) -> None:
    """D13: a tie (5 each with the values 1 and 0) is rolled again in caldiero §6 (the Austrians then win 3+0 to
    1+1), won by the French in arrivano §6.1.1, citing the tie rule; the totals of the deciding roll are recorded."""
    turn = Recorded(variant, ["a", "b"], [4, 5, 1, 3])
    initiative.next_activation(turn)  # type: ignore[arg-type]
    won = turn.events[-1]
    if variant.initiative_tie_winner(turn.world()) is None:
        assert turn.calls == ["choose austria"] and not turn.dice
        assert (won.seat, won.totals, won.rule) == ("austria", {"france": 2, "austria": 3}, str(variant.rules.INITIATIVE))
    else:
        assert turn.calls == ["choose france"] and turn.dice == [1, 3]
        assert (won.seat, won.totals, won.rule) == ("france", {"france": 5, "austria": 5}, str(variant.rules.INITIATIVE_TIE))


def test_the_initiative_dice_are_worded_as_each_book_s_games_recorded_them(variant: Variant) -> None:
    """caldiero §6.1: one roll of both dice, each side's value beside it (the Austrians' the weather box); arrivano
    §6: one roll a side, with its table, side and chief's value (`Variant.initiative_rolls`)."""
    turn = Recorded(variant, ["a", "b"], [4, 2])
    initiative.next_activation(turn)  # type: ignore[arg-type]
    rule = variant.rules.INITIATIVE
    if variant.book == "caldiero":
        assert turn.rolls == [(f"{rule} initiative", {"france": "1d6+1", "austria": "1d6+0 (weather box)"})]
    else:
        assert turn.rolls == [(f"{rule} initiative of {side}", {"table": "initiative", "side": side, "chief": value})
                              for side, value in (("france", 1), ("austria", 0))]
    assert turn.events[-1].totals == {"france": 5, "austria": 2}


class Clock:
    turn, phase, step = 4, "action", "initiative"


class Pending:
    """A procedure's context as `settle` asks it, with `decisions` waiting (True: settles by itself) over `steps` of
    the sequence (likewise)."""

    def __init__(self, variant: Variant, decisions: list[bool], steps: list[bool]) -> None:
        self.variant, self.game, self.state = variant, self, Clock()
        self.decisions, self.steps, self.calls = decisions, steps, []  # type: ignore[var-annotated]

    def decision_waiting(self) -> bool:
        return bool(self.decisions)

    def settle_decision(self) -> bool:
        self.calls.append("decision")
        if self.decisions[-1]:
            self.decisions.pop()
            return True
        return False

    def settle_step(self, a: Any) -> bool:
        self.calls.append("step")
        if self.steps and self.steps[0]:
            self.steps.pop(0)
            return True
        return False


def test_settle_does_the_waiting_decisions_first_then_the_steps_until_a_seat_must_choose(variant: Variant) -> None:
    """caldiero §3 / arrivano §3.1: the decisions that need no choice, then the automatic steps, stopping at the
    first that asks a seat."""
    game = Pending(variant, decisions=[True, True], steps=[True, True, False, True])
    settle(game)  # type: ignore[arg-type]
    assert game.calls == ["decision", "decision", "step", "step", "step"] and game.steps == [False, True]


def test_settle_stops_at_a_decision_its_seat_must_answer_before_any_step(variant: Variant) -> None:
    game = Pending(variant, decisions=[False, True], steps=[True])
    settle(game)  # type: ignore[arg-type]
    assert game.calls == ["decision", "decision"] and game.steps == [True]
