"""The action phase's loop, written once (parabellum/sequence.py; caldiero §6.2, arrivano §6.1): initiative again
while formations remain, the end of the turn when none does; the last formation's roll as the variant reads it."""

from __future__ import annotations

from arbitro.adjudicator.parabellum import sequence
from arbitro.adjudicator.parabellum.variant import Variant


class Recorded:
    """A Turn that records what the loop asked of it."""

    def __init__(self, eligible: list[str]) -> None:
        self.left, self.calls = eligible, []  # type: ignore[var-annotated]

    def eligible(self) -> list[str]:
        return list(self.left)

    def roll_initiative(self) -> None:
        self.calls.append("roll")

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
    assert turn.calls == ["roll"]


def test_the_last_formation_as_the_variant_reads_it(variant: Variant) -> None:
    turn = Recorded(["a"])
    sequence.next_activation(turn, variant)
    # caldiero §6.2: no roll, the choice is forced; arrivano §6.1: the roll after every activation
    assert turn.calls == (["roll"] if variant.roll_for_last_formation else ["activate a"])
    assert variant.roll_for_last_formation is (variant.book == "arrivano")
