"""A commander's loss test (caldiero §4.4.3, arrivano §4.5.3), written once (parabellum/leaders.py), for both
variants: the die the game rolls, the faces that lose him as the variant reads them (D10), the event, and what
the game does after a loss."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.parabellum.leaders import leader_test
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.events.parabellum import LeaderLost
from tests.parabellum.position import Piece, Position

POSITION = Position({"a": Piece("france", "1112")}, leaders={"g": "1112", "c": "1212"},
                    leader_info={"g": ("general", "france", "f1", 3), "c": ("commander_in_chief", "france", None, 3)})


class Game:
    """Dice given in order; the events emitted and the leaders the game was told were lost, recorded."""

    def __init__(self, *dice: int) -> None:
        self.dice, self.events, self.after, self.asked = list(dice), [], [], []  # type: ignore[var-annotated]

    def leader_die(self, leader: str, cause: str) -> int:
        self.asked.append((leader, cause))
        return self.dice.pop(0)

    def after_leader_lost(self, leader: str) -> None:
        self.after.append(leader)

    def emit(self, event: Any) -> None:
        self.events.append(event)


# die -> lost?, for a general of initiative 3 and a commander in chief: caldiero §4.4.3 (more than the initiative
# survives, a chief's counting as 1), arrivano §4.5.3 (1-2 lose any commander)
LOST = {"caldiero": {("g", 3): True, ("g", 4): False, ("c", 2): False, ("c", 1): True},
        "arrivano": {("g", 3): False, ("g", 2): True, ("c", 2): True, ("c", 3): False}}


@pytest.mark.parametrize("case", range(4))
def test_the_die_loses_him_as_the_variant_reads_it(variant: Variant, case: int) -> None:
    (leader, die), lost = list(LOST[variant.book].items())[case]
    game = Game(die)
    survived = leader_test(game, variant, POSITION, leader, "a natural 6 against 1112")  # type: ignore[arg-type]
    assert survived is not lost and game.asked == [(leader, "a natural 6 against 1112")]
    assert game.events == ([LeaderLost(leader=leader, rule="a natural 6 against 1112")] if lost else [])
    assert game.after == ([leader] if lost else [])


def test_the_loss_cites_the_rule_given(variant: Variant) -> None:
    game = Game(1)
    assert not leader_test(game, variant, POSITION, "g", "units eliminated", rule=variant.cite("4.5.3"))  # type: ignore[arg-type]
    assert game.events == [LeaderLost(leader="g", rule=variant.cite("4.5.3"))]
