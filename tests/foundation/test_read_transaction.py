"""A reader that takes several queries reads one moment (events.store.Store.read_transaction): verify, check, export,
migrate and replay read a game's record, commands, events and notes in separate queries, and a command committed
between two of them made an intact game fail verify ("the log ends at #N but the game's head is #M"), an export that
then did not verify, a replay whose view was of another head. Here a seat's command is committed (by another
connection, as a server's other thread or process would) right after the reader's first query of one kind."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from arbitro.adjudicator import migration, verify as verification
from arbitro.adjudicator.exchange import read_lines
from arbitro.adjudicator.service import Arbitro
from arbitro.adjudicator.storecheck import check_game
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.base import UMPIRE

from .conftest import Cli, exchange


def play_after_first(monkeypatch: pytest.MonkeyPatch, run: Cli, read: str,
                     play: Callable[[Cli], Any] | None = None) -> list[int]:
    """Commit `play` (by default one exchange: two commands) right after the first `read` query of any SQLite store
    returns; the list holds the head that query was read at, once it fired."""
    real: Callable[..., Any] = getattr(SQLiteStore, read)
    fired: list[int] = []

    def then_a_seat_plays(self: SQLiteStore, *args: Any, **kwargs: Any) -> Any:
        answer = real(self, *args, **kwargs)
        if not fired:
            fired.append(0)  # before anything below reads through the hook again
            fired[0] = self.game("g").head_seq
            if play is not None:
                play(run)
            else:
                exchange(run, "g", attacker=run.json("status", "g")["awaiting"]["seats"][0], aim="low")
        return answer

    monkeypatch.setattr(SQLiteStore, read, then_a_seat_plays)
    return fired


@pytest.fixture
def game(run: Cli) -> Cli:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    return run


def moved(app: Arbitro, fired: list[int]) -> None:
    """The interleaving happened: the store's head is past the one the reader read."""
    assert fired and app.game("g").head_seq > fired[0], "no command was committed between the reader's queries"


def test_a_stored_game_played_on_between_verifys_reads_is_intact(game: Cli, app: Arbitro,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    fired = play_after_first(monkeypatch, game, "commands")
    report = app.verify("g")
    moved(app, fired)
    assert report.passed, report.failures()


def test_a_game_loaded_whole_and_checked_while_played_on_is_intact(game: Cli, app: Arbitro,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    fired = play_after_first(monkeypatch, game, "commands")
    loaded = verification.load_stored(app.store, "g")
    moved(app, fired)
    assert verification.verify(loaded).passed
    fired.clear()
    checked = check_game(app.store, "g")
    moved(app, fired)
    assert checked.ok, checked.problems
    fired.clear()
    held = migration.records(app.store, "g")
    moved(app, fired)
    assert held["game"].head_seq == held["events"][-1].seq == fired[0]


@pytest.mark.parametrize(("seat", "read"), [(UMPIRE, "commands"), ("red", "annotations")])
def test_a_game_exported_while_played_on_verifies(game: Cli, app: Arbitro, monkeypatch: pytest.MonkeyPatch,
                                                   seat: str, read: str) -> None:
    fired = play_after_first(monkeypatch, game, read)
    lines = list(app.export("g", seat))
    moved(app, fired)
    report = verification.verify(read_lines(lines, "g.jsonl"))
    assert report.passed, report.failures()


def test_a_replay_while_played_on_is_of_one_head(game: Cli, app: Arbitro, monkeypatch: pytest.MonkeyPatch) -> None:
    fired = play_after_first(monkeypatch, game, "game")
    replayed = app.replay("g")
    moved(app, fired)
    assert replayed.seq == fired[0]
    monkeypatch.undo()
    assert replayed.view == app.view("g", UMPIRE, replayed.seq)
    assert replayed.notes == app.notes("g", UMPIRE, 1, replayed.seq)


def test_a_status_while_a_dispute_is_opened_is_of_its_head(game: Cli, app: Arbitro,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """status reads the record, then the whole log for its dice audit and open disputes: the log as far as the record's
    head (the log is append-only, so that part is of the record's moment), not a dispute opened after it."""
    before = app.status("g")
    fired = play_after_first(monkeypatch, game, "snapshot_at_or_before", lambda run: run(
        "dispute", "open", "g", "blue guarded after seeing my aim", "--as", "red", "--at", "1"))
    app._heads.clear()  # the head's state from the store: a snapshot read, then the log
    during = app.status("g")
    moved(app, fired)
    assert app.status("g").open_disputes == [1]
    assert during.head == before.head and during.open_disputes == before.open_disputes == []
