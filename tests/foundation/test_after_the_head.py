"""rev-q's Q4: a number naming an event (or a seat's command) the game does not have is one refusal at every door of
the CLI that takes one, NoSuchEvent (exit 3, lookup/no-such-event), as docs/http-api.md says of "a position (`at`)
after an event the game does not have"; the words are each door's own (tests/server/test_after_the_head.py walks the
HTTP doors; `render`'s
position is the view's, and a duel draws no picture)."""

from __future__ import annotations

import pytest

from .conftest import Cli


@pytest.fixture
def game(run: Cli) -> int:
    """A transcribed duel game `g` and a fork `f` of it (for `diff`); its head, in the log's numbers."""
    run("new", "duel", "standard", "--transcribed", "--id", "g")  # amend needs no reveal
    run("fork", "g", "--at", str(run.json("status", "g")["head"]), "--id", "f")  # recorded in g's log: a new head
    head: int = run.json("status", "g")["head"]
    assert run.json("status", "g", "--as", "red")["head"] < 9  # a seat's numbers are its commands (§V.6)
    return head


def doors(head: int) -> list[tuple[tuple[str, ...], str]]:
    """Every CLI door that takes a number, asked one past the head, and the words its refusal keeps."""
    past, note = str(head + 1), f"has events #1 to #{head}"
    return [
        (("view", "g", "--at", past), f"{note}; there is no #{past}"),
        (("view", "g", "--as", "red", "--at", "9"), "; there is no #9"),
        (("replay", "g", "--to", past), f"there is no #{past}"),
        (("position", "g", "--at", past), f"there is no #{past}"),
        (("knowledge", "g", "--as", "umpire", "--at", past), f"{note}; there is no #{past}"),
        (("knowledge", "g", "--as", "red", "--at", "9"), "; there is no #9"),
        (("annotate", "g", "a note", "--as", "umpire", "--at", past), f"{note}; cannot annotate #{past}"),
        (("annotate", "g", "a note", "--as", "red", "--at", "9"), "; cannot annotate #9"),
        (("fork", "g", "--at", past), f"{note}; cannot fork at #{past}"),
        (("amend", "g", '{"type": "end_turn"}', "--at", past), f"{note}; there is no #{past}"),
        (("roll", "g", past), f"{note}; there is no event #{past}"),
        (("roll", "g", "9", "--as", "red"), "; there is no #9"),
        (("replay", "g", "--step", "--from", past), f"--from {past}: g {note}"),
        (("diff", f"g@{past}", "f"), f"g@{past}: g {note}"),
    ]


def test_every_door_refuses_a_number_past_the_head_as_not_found(run: Cli, game: int) -> None:
    for args, words in doors(game):
        refused = run(*args, code=3).stderr
        assert "lookup/no-such-event" in refused and words in refused, (args, refused)
