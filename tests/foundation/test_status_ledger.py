"""Issue 15: `status` audits the dice and lists the open disputes from a few kinds of events; it read and decoded the
whole log for them at every call (27 ms at 3,581 events, growing with the game). The application keeps those events
per game (adjudicator/ledger.py) and reads the store only past where it read last: the same answer as the whole log's,
at every head, for a fraction of the reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from arbitro.adjudicator.ledger import Ledger
from arbitro.adjudicator.randomness import audit_dice
from arbitro.adjudicator.service import Arbitro
from arbitro.events.records import GameRecord
from arbitro.projections.disputes import open_in
from arbitro.projections.fold import ChainBroken

from .conftest import Cli, exchange


def whole_log(app: Arbitro, game_id: str) -> tuple[Any, list[int]]:
    bodies = list(app.replayer(game_id).bodies(1))
    return audit_dice(bodies), open_in(bodies)


def rows_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many event rows the status events are read from (one entry a read of the store's `events`)."""
    counted: list[int] = []
    real = Ledger.events

    class Counting:
        def __init__(self, store: Any) -> None:
            self.store = store

        def events(self, game_id: str, first: int = 1, last: int | None = None) -> Any:
            rows = list(self.store.events(game_id, first, last))
            counted.append(len(rows))
            return iter(rows)

    monkeypatch.setattr(Ledger, "events", lambda self, fold, store, game: real(self, fold, Counting(store), game))
    return counted


def test_status_reads_the_log_past_its_last_read_and_says_what_the_whole_log_says(
        run: Cli, app: Arbitro, monkeypatch: pytest.MonkeyPatch) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    point = app.game("g").head_seq
    steps: list[Callable[[], Any]] = [
        lambda: exchange(run, "g", "blue"),
        lambda: run("dispute", "open", "g", "blue guarded after seeing my aim", "--as", "red", "--at", "3"),  # command #3: blue's attack
        lambda: run("dispute", "rule", "g", "1", "--uphold", "--undo-to", str(point), "blue's attack stands voided"),
        lambda: run("dispute", "open", "g", "a second claim", "--as", "blue", "--at", "2"),
    ]
    app.status("g")  # the whole log read once
    counted = rows_read(monkeypatch)
    for step in steps:
        before = app.game("g").head_seq
        step()
        status = app.status("g")
        assert counted == [status.head - before + 1]  # the new events and the last one read, not the whole log
        assert (status.dice, status.open_disputes) == whole_log(app, "g")
        counted.clear()
        assert app.status("g") == status and sum(counted) == 0  # at the same head: no event read
    assert status.open_disputes == [2] and status.dice.rerolls  # the upheld dispute's undo is audited


def test_a_game_deleted_and_made_again_under_its_id_is_read_afresh(run: Cli, app: Arbitro) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    run("dispute", "open", "g", "a claim", "--as", "red", "--at", "2")
    assert app.status("g").open_disputes == [1]
    app.delete("g")
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    exchange(run, "g", "blue")  # a longer log than the one kept, in which #head-kept is another event
    assert app.status("g").open_disputes == [] == whole_log(app, "g")[1]


def record_with(app: Arbitro, game_id: str, **changed: Any) -> GameRecord:
    """The game's record with some fields changed: a record the store's rows do not bear out."""
    real = app.game(game_id)
    return type(real)(**{**{f: getattr(real, f) for f in real.__struct_fields__}, **changed})


@pytest.mark.parametrize("changed, past, why", [
    ({"head_hash": "f" * 64}, 0, "is not the head its game's record names"),  # edited, or read before a re-import
    ({"head_seq": 10_000}, 1, "is missing (the log ends early)"),  # the store's last rows missing
])
@pytest.mark.parametrize("kept_before", [False, True])
def test_the_ledger_keeps_no_head_its_rows_do_not_end_at(
        run: Cli, app: Arbitro, changed: dict[str, Any], past: int, why: str, kept_before: bool) -> None:
    """rev-speed2 1: the rows read must end at the record's head, its number and hash, or the log is broken there
    and nothing is kept under that head: read from the start, or past a head already kept."""
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    ledger, fold = Ledger(), app.adjudicator("duel").fold
    if kept_before:
        ledger.events(fold, app.store, app.game("g"))
        exchange(run, "g", "blue")
    kept = dict(ledger._kept)
    with pytest.raises(ChainBroken) as broken:
        ledger.events(fold, app.store, record_with(app, "g", **changed))
    assert broken.value.seq == app.game("g").head_seq + past and why in str(broken.value)
    assert ledger._kept == kept  # nothing kept under the record's head


def test_a_deleted_game_is_forgotten(run: Cli, app: Arbitro) -> None:
    """rev-speed2 4: a server keeps no status events of a game it deleted."""
    run("new", "duel", "standard", "--id", "g")
    app.status("g")
    assert "g" in app._ledger._kept
    app.delete("g")
    assert "g" not in app._ledger._kept
