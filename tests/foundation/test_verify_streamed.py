"""Verification holds no log (issue 15: "checks the chain while streaming"): a file's commands and events stay in the
file (exchange_file.read_file keeps where each line begins), a store's events in the store (load_stored(streamed=
True)), and every check reads them again as it reaches them. Each gives the report a log held whole gives, intact or
forged; a file changed while it is verified is refused. bench/verify_memory.py measures the memory it saves."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import verify as verification
from arbitro.adjudicator import verify_reads
from arbitro.adjudicator.errors import BadFile
from arbitro.adjudicator.exchange import read_lines
from arbitro.adjudicator.exchange_file import FileRecords, read_file
from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import canonical, sha256_hex
from arbitro.events.sqlite import SQLiteStore

from .conftest import Cli, exchange, played_out

LOGS = Path(__file__).resolve().parents[2] / "logs"


def reports_match(path: Path) -> dict[str, Any]:
    """The report of the file read whole and of the file read as asked, which must be the same."""
    whole = verification.verify(read_lines(path.read_text(encoding="utf-8").splitlines(), str(path)))
    streamed = verification.verify(read_file(path))
    assert msgspec.to_builtins(streamed) == msgspec.to_builtins(whole)
    return msgspec.to_builtins(whole)  # type: ignore[no-any-return]


def test_a_file_read_as_asked_keeps_where_its_lines_begin_not_its_records() -> None:
    path = LOGS / "marengo-full.jsonl"
    loaded = read_file(path)
    assert isinstance(loaded.events, FileRecords) and isinstance(loaded.commands, FileRecords)
    held = read_lines(path.read_text(encoding="utf-8").splitlines(), str(path))
    assert list(loaded.events) == held.events and list(loaded.commands) == held.commands
    assert loaded.events[-1] == held.events[-1] and loaded.commands[2:5] == held.commands[2:5]
    assert list(loaded.event_lines) == list(held.event_lines) and loaded.command_seats == held.command_seats
    assert reports_match(path)["passed"]


def undone_and_forged(run: Cli, tmp_path: Path, forge: str | None) -> Path:
    """A duel with an undo (re-adjudication folds the log again up to the state it returns to), played out (its end
    reveals the seed and the salt key), exported; `forge`:
    its last event's field set to another value, re-hashed and made the head, as a forger would."""
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    run.submit("g", "blue", {"type": "attack", "aim": "high"})
    run.json("undo", "g", "--as", "blue", "--to", str(run.json("status", "g", "--as", "blue")["head"] - 1))
    exchange(run, "g", attacker="blue", aim="low")
    played_out(run, "g")  # the salts checkable
    path = tmp_path / "g.jsonl"
    run("export", "g", "--as", "umpire", "-o", str(path))
    if forge is not None:
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        last = max((r for r in records if r["record"] == "event"), key=lambda r: r["seq"])
        last["body"][forge] = "0" * 32 if forge == "salt" else "f" * 64
        last["hash"] = sha256_hex(canonical(last["body"]))
        next(r for r in records if r["record"] == "game")["head_hash"] = last["hash"]
        path.write_text("".join(canonical(r).decode() + "\n" for r in records), encoding="utf-8")
    return path


@pytest.mark.parametrize("forge", [None, "salt", "cmd_hash"])
def test_a_file_read_as_asked_is_judged_as_the_file_read_whole(run: Cli, tmp_path: Path, forge: str | None) -> None:
    """With an undo, and forged where only the salt check or the command check can tell (their stamps are read
    again from the file, not kept)."""
    report = reports_match(undone_and_forged(run, tmp_path, forge))
    failed = {c["name"] for c in report["checks"] if c["status"] == "failed"}
    assert failed == {None: set(), "salt": {"salts"}, "cmd_hash": {"command log"}}[forge]
    assert any(c["name"] == "re-adjudication" for c in report["checks"]) == (forge != "cmd_hash")


def test_a_file_changed_while_it_is_verified_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes((LOGS / "marengo-full.jsonl").read_bytes())
    loaded = read_file(path)
    with path.open("ab") as f:
        f.write(b"\n")
    with pytest.raises(BadFile, match="the file changed while it was being verified"):
        verification.verify(loaded)
    loaded = read_file(path)
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    with pytest.raises(BadFile, match="the file changed while it was being verified"):
        loaded.events[0]


def test_a_file_that_is_not_utf8_is_refused_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    lines = (LOGS / "marengo-full.jsonl").read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:3]) + b'{"record": "\xff"}\n' + b"".join(lines[3:]))
    with pytest.raises(BadFile, match=r"log\.jsonl, line 4: not UTF-8 text"):
        read_file(path)


def test_a_store_read_as_asked_is_judged_as_the_store_read_whole(
        run: Cli, db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page of 3 events: the log read across many pages, an undo's earlier states and the anchors among them."""
    monkeypatch.setattr(verify_reads.StoredEvents, "PAGE", 3)
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    run.submit("g", "blue", {"type": "attack", "aim": "high"})
    run.json("undo", "g", "--as", "blue", "--to", str(run.json("status", "g", "--as", "blue")["head"] - 1))
    exchange(run, "g", attacker="blue", aim="low")
    store = SQLiteStore(db)
    try:
        streamed = verification.load_stored(store, "g", streamed=True)
        whole = verification.load_stored(store, "g")
        assert isinstance(streamed.events, verify_reads.StoredEvents) and isinstance(whole.events, list)
        assert list(streamed.events) == whole.events and len(streamed.events) == len(whole.events) > 9
        assert streamed.events[4:8] == whole.events[4:8] and streamed.events[-1] == whole.events[-1]
        assert streamed.events[::4] == whole.events[::4] and streamed.events[5:5] == []
        head = whole.events[6].hash
        assert msgspec.to_builtins(verification.verify(streamed, head=head)) == msgspec.to_builtins(
            verification.verify(whole, head=head))
        assert verification.verify(streamed).passed
        with pytest.raises(IndexError):
            streamed.events[len(whole.events)]
    finally:
        store.close()


def test_a_stored_log_with_a_gap_is_found_broken_past_it(app: Arbitro, run: Cli, db: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Read a page at a time, a store whose rows stop (a page with none) is still read to its last row: the chain
    check finds the gap, and names the same event, as it does in the log read whole."""
    monkeypatch.setattr(verify_reads.StoredEvents, "PAGE", 2)
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    exchange(run, "g", attacker="blue")
    store = SQLiteStore(db)
    try:
        store.conn.execute("DELETE FROM events WHERE game='g' AND seq IN (5, 6)")
        store.conn.commit()
        streamed = verification.load_stored(store, "g", streamed=True)
        whole = verification.load_stored(store, "g")
        assert [e.seq for e in streamed.events] == [e.seq for e in whole.events]
        report = verification.verify(streamed)
        assert msgspec.to_builtins(report) == msgspec.to_builtins(verification.verify(whole))
        assert report.checks[0].detail == "event #5 is missing (found #7 in its place)"
        hashes = verify_reads.EventHashes(whole.events)  # numbers that are not places: looked for
        assert hashes[7] == whole.events[4].hash and 5 not in hashes and hashes.get(6) is None
    finally:
        store.close()


def test_the_state_an_undo_returns_to_is_folded_from_the_log_read_as_asked_up_to_that_event() -> None:
    path = LOGS / "marengo-full.jsonl"
    loaded = read_file(path)
    fold = verification.Adjudicator(verification.registry.get(loaded.game.ruleset)).fold
    history = verify_reads.MemoryHistory(fold, verify_reads.Events(fold, loaded.events))
    for seq in (1, 2, 57, len(loaded.events)):
        state = None
        for stored in loaded.events[:seq]:
            state = fold.apply(state, fold.decode_checked(stored.body), history.state_at)
        assert state is not None and history.state_at(seq).core.seq == seq
        assert msgspec.to_builtins(history.state_at(seq)) == msgspec.to_builtins(state)
