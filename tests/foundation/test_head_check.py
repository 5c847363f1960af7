"""A game's state is given, and cached under its record's head, only if the log read ends at that head: its last row is
#head_seq and hashes to head_hash (projections/fold.check_head, the one check the status ledger makes too). Checking
each row and its link to the one before never noticed a last row edited and re-hashed, and the application cached the
state it folded from it under the head it never read (fix-speed's finding)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import canonical, sha256_hex
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.fold import ChainBroken

from .conftest import Cli, db_execute, db_rows, exchange


def edit_last(db: Path, *, rehash: bool) -> None:
    """The last event row's body edited (its seat's name changed): its hash re-made to match, or left as it was."""
    seq, body = db_rows(db, "SELECT seq, body FROM events WHERE game='g' ORDER BY seq DESC LIMIT 1")[0]
    edited = json.loads(body)
    edited["seat"] = "blue" if edited["seat"] != "blue" else "red"
    data = canonical(edited)
    if rehash:
        db_execute(db, "UPDATE events SET body=?, hash=? WHERE game='g' AND seq=?",
                   data.decode(), sha256_hex(data), seq)
    else:
        db_execute(db, "UPDATE events SET body=? WHERE game='g' AND seq=?", data.decode(), seq)


def drop_last(db: Path) -> None:
    db_execute(db, "DELETE FROM events WHERE game='g' AND seq=(SELECT MAX(seq) FROM events WHERE game='g')")


def past_the_log(db: Path) -> None:
    db_execute(db, "UPDATE games SET head_seq=head_seq+1 WHERE id='g'")


TAMPERINGS: dict[str, tuple[Callable[[Path], None], int, str]] = {  # how, the event named (from the head), why
    "last row edited, re-hashed": (lambda db: edit_last(db, rehash=True), 0, "is not the head its game's record names"),
    "last row edited": (lambda db: edit_last(db, rehash=False), 0, "does not match its hash"),
    "last row missing": (drop_last, 0, "is missing (the log ends early)"),
    "record past the log": (past_the_log, 1, "is missing (the log ends early)"),
}

CALLS: dict[str, Callable[[Arbitro], Any]] = {
    "submit": lambda app: app.submit("g", "red", {"type": "attack", "aim": "high"}),
    "view": lambda app: app.view("g", "umpire"),
    "status": lambda app: app.status("g"),
    "legal": lambda app: app.legal("g", "red"),
}


def stored(db: Path) -> tuple[list[tuple[Any, ...]], ...]:
    return tuple(db_rows(db, f"SELECT * FROM {table} ORDER BY rowid") for table in ("games", "events", "commands"))


@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize("tampering", TAMPERINGS)
def test_a_log_that_does_not_end_at_its_records_head_is_refused_and_nothing_is_cached_or_appended(
        run: Cli, db: Path, tampering: str, call: str) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    head = db_rows(db, "SELECT head_seq FROM games WHERE id='g'")[0][0]
    how, past, why = TAMPERINGS[tampering]
    how(db)
    before = stored(db)
    app = Arbitro(SQLiteStore(db))
    try:
        with pytest.raises(ChainBroken) as broken:
            CALLS[call](app)
        assert why in broken.value.detail and broken.value.seq == head + past
        assert app._heads == {} and app._legal == {} and app._ledger._kept == {}  # no state kept under that head
    finally:
        app.store.close()
    assert stored(db) == before  # nothing appended, nothing altered


def test_a_head_cached_from_a_sound_log_is_kept_and_a_broken_one_read_afresh_is_refused(run: Cli, db: Path) -> None:
    """The check is at the fold, so a process that read the head before the edit keeps serving what it read; one
    that reads it afresh (the CLI, another server) is refused."""
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    app = Arbitro(SQLiteStore(db))
    try:
        sound = app.view("g", "umpire")
        edit_last(db, rehash=True)
        assert app.view("g", "umpire") == sound
    finally:
        app.store.close()
    result = run("status", "g", code=1)
    assert "is not the head its game's record names" in result.stderr + result.stdout
