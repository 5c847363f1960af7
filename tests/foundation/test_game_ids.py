"""A game id must be one every client can address (rev-p P4): a URL path segment, a CLI argument not read as a
file's path, one line of `arbitro games`. Every place an id is taken refuses another (create, fork, an amendment's
fork, import under its own or a new id), naming the character, and makes nothing."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import BadInput
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore

from .conftest import Cli

UNADDRESSABLE = ["a/b", "a?b", "a#b", "a\nb", "a b", "..", ".", "../x", "é", "club.jsonl", "x.json", "-x"]


@pytest.mark.parametrize("game_id", UNADDRESSABLE)
def test_create_refuses_an_id_no_request_could_address(game_id: str) -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    with pytest.raises(BadInput, match="a game id is letters, digits"):
        app.create("duel", "standard", game_id=game_id)
    assert app.store.games() == []


def test_a_fork_and_an_import_refuse_it_too() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("duel", "standard", game_id="duel-ok_1.2")
    with pytest.raises(BadInput, match=r"the fork's id 'x/y': its character '/' is not allowed"):
        app.fork(game, 1, new_id="x/y")
    lines = list(app.export(game, "umpire", with_seed=True))
    with pytest.raises(BadInput, match=r"--as-id 'a\?b': its character '\?' is not allowed"):
        app.import_lines(lines, "the file", seat="umpire", as_id="a?b")
    assert [g.id for g in app.store.games()] == [game]


def test_the_cli_refuses_it_with_the_bad_input_status(run: Cli) -> None:
    refused = run("new", "duel", "standard", "--id", "a/b", code=2)
    assert "'/' is not allowed" in refused.stderr
