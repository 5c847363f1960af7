"""A commander's loss test (caldiero §4.4.3, arrivano §4.5.3), written once (parabellum/leaders.py), for both
variants: the die the game rolls, the faces that lose him as the variant reads them (D10), the event, and what
the game does after a loss."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.arrivano.data_model import ARRIVANO_DATA
from arbitro.adjudicator.caldiero.loader import CALDIERO_DATA
from arbitro.adjudicator.parabellum.book_rules import LeaderLoss
from arbitro.adjudicator.parabellum.leaders import leader_test
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.events.parabellum import LeaderLost
from tests.parabellum.position import Piece, Position

# Each book's test as its shipped tables/rules.json gives it (BookRules.leader_loss)
SHIPPED = {"caldiero": CALDIERO_DATA.shipped().tables.rules.leader_loss,
           "arrivano": ARRIVANO_DATA.shipped().tables.rules.leader_loss}


def position(book: str, loss: LeaderLoss | None = None) -> Position:
    """A general g (initiative 3) and a commander in chief c (3), tested as `loss` says (the book's shipped test)."""
    return Position({"a": Piece("france", "1112")}, leaders={"g": "1112", "c": "1212"},
                    leader_info={"g": ("general", "france", "f1", 3), "c": ("commander_in_chief", "france", None, 3)},
                    leader_loss=loss or SHIPPED[book])


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
    survived = leader_test(game, position(variant.book), leader, "a natural 6 against 1112")  # type: ignore[arg-type]
    assert survived is not lost and game.asked == [(leader, "a natural 6 against 1112")]
    assert game.events == ([LeaderLost(leader=leader, rule=SHIPPED[variant.book].rule)] if lost else [])
    assert game.after == ([leader] if lost else [])


def test_the_loss_cites_the_data_s_rule(variant: Variant) -> None:
    """The loss cites where the book's `leader_loss` (tables/rules.json) says it prints the faces (`rule`: caldiero §4.4.3,
    arrivano §4.5.3 shipped), whatever caused the test: a user's folder's own citation is the one its games record."""
    assert SHIPPED[variant.book].rule == variant.cite("4.4.3" if variant.book == "caldiero" else "4.5.3")
    game = Game(1)
    loss = LeaderLoss(rule="a folder §4", lost_at_most=2, chief_initiative=None)
    assert not leader_test(game, position(variant.book, loss), "g", "units eliminated")  # type: ignore[arg-type]
    assert game.events == [LeaderLost(leader="g", rule="a folder §4")]


@pytest.mark.parametrize(("loss", "lost"), [
    (LeaderLoss(rule="a folder §4", lost_at_most=3, chief_initiative=None), {"g": [1, 2, 3], "c": [1, 2, 3]}),
    (LeaderLoss(rule="a folder §4", lost_at_most=None, chief_initiative=2), {"g": [1, 2, 3], "c": [1, 2]}),
    (LeaderLoss(rule="a folder §4", lost_at_most=None, chief_initiative=None), {"g": [1, 2, 3], "c": [1, 2, 3]})])
def test_the_faces_that_lose_him_are_the_book_s_data(variant: Variant, loss: LeaderLoss,
                                                         lost: dict[str, list[int]]) -> None:
    """D10 as data (caldiero §4.4.3, arrivano §4.5.3: tables/rules.json `leader_loss`): a user's folder losing him on
    1-3 whatever his kind, or on his initiative with a chief's counting as 2, or as printed, is played as it says."""
    for leader, faces in lost.items():
        found = [die for die in range(1, 7)
                 if not leader_test(Game(die), position(variant.book, loss), leader, "a natural 6")]  # type: ignore[arg-type]
        assert found == faces, (leader, found)
