"""The undo rule's refusals and answers, each in its words and with its citation (adjudicator/undo.py, arbitro §U):
what the mutants of the undo rule that survived its other tests changed (tests/mutate.py adjudicator/undo.py; the
twenty-first session's run, docs/testing.md). A refusal's words are behaviour: a player reads them to correct the
command."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore

from .conftest import fixed_duel


def refused(app: Arbitro, seat: str, to: int, reason: str, words: str, rule: str = "arbitro §U.3") -> None:
    head = app.game("g").head_seq
    with pytest.raises(IllegalCommand) as e:
        app.undo("g", seat, to, reason)
    assert (str(e.value), e.value.rule) == (f"{words} [{rule}]", rule)
    assert app.game("g").head_seq == head


def test_the_umpires_undo_points_refused_in_their_words() -> None:
    """fixed_duel: the creation #1-#5 (cmd 0), red's attack #6, blue's guard #7-#10 (a roll at #8)."""
    app = fixed_duel()
    refused(app, "umpire", 10, "a reason", "#10 is not before the head (#10): nothing to take back")
    refused(app, "umpire", 0, "a reason", "#0 is no event: take back to the end of a command, #5 or later")
    refused(app, "umpire", 9, "a reason",
            "#9 is in the middle of command 2 (events #7-#10): take back to the end of a command, #6 or #10")
    refused(app, "umpire", 2, "a reason",
            "#2 is in the middle of command 0 (events #1-#5): take back to the end of a command, #5")
    refused(app, "umpire", 6, "ab", "the umpire's undo is a ruling: give a reason", "arbitro §U.4")
    undone = app.undo("g", "umpire", 6, "abc").events[-1]["event"]  # three letters are a reason
    assert (undone["to_seq"], undone["rule"], list(undone["voided_indices"])) == (6, "arbitro §U.4", [2])


def test_a_free_take_back_without_a_reason_says_taken_back() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "attack", "aim": "high"})  # nothing rolled, nobody else acted
    (undone,) = [e["event"] for e in app.undo("g", "red", 0).events if e["type"] == "undone"]
    assert (undone["reason"], undone["rule"], undone["by"]) == ("taken back", "arbitro §U.1", "red")


def test_a_consent_request_names_the_command_taken_back_to() -> None:
    app = fixed_duel()
    app.undo("g", "red", 1)  # blue acted since: blue's consent is asked (§U.2)
    awaiting = app.awaiting("g")
    assert (awaiting.seats, awaiting.prompt) == (["blue"], "red asks to take back everything after command #1: accept?")


def test_a_seat_may_not_take_back_the_entropy_round_told_in_its_numbers() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    app.create("duel", "standard", game_id="g", seat_entropy=True)
    for seat in ("red", "blue", "red", "blue"):  # commitments (commands 1, 2), then reveals (3, 4)
        app.entropy("g", seat, f"{seat}'s entropy")
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    refused(app, "red", 2, "", "command #3 is part of the seats' entropy round, which a game does not run twice: take "
                               "back only to a point after the round, or fork (a new seed and a new round)",
            "arbitro §R.2")
    refused(app, "umpire", 7, "a reason", "#8 is part of the seats' entropy round, which a game does not run twice: "
                                          "take back only to a point after the round, or fork (a new seed and a new "
                                          "round)", "arbitro §R.2")  # the umpire told in the log's numbers
