"""rev-speed: a file rewritten between verify's passes with its size and time kept (os.utime restores st_mtime_ns;
only st_ctime_ns tells) was not refused: exchange_file.FileLines.unchanged compared size, mtime, inode and device
(the first three tests fail on main at 29b8cd9). Every line read again is now checked against a digest of the bytes
first read, so a file system that reports what it likes (sshfs, NFS, FUSE: `unchanged` told nothing) is refused too,
with the same clear error, never a raw decoding error."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec
import pytest

from arbitro.adjudicator import verify as verification
from arbitro.adjudicator.errors import BadFile
from arbitro.adjudicator.exchange import event_entry, read_lines
from arbitro.adjudicator.exchange_file import FileLines, read_file
from arbitro.events.codec import canonical, sha256_hex
from arbitro.events.sqlite import SQLiteStore

from .conftest import Cli, event_records, exchange, read_export, write_export


def rewrite_keeping_time(path: Path, data: bytes) -> None:
    """What any process that may write the file can do: same inode, same size, the old mtime put back."""
    was = path.stat()
    path.write_bytes(data)
    assert path.stat().st_size == was.st_size
    os.utime(path, ns=(was.st_atime_ns, was.st_mtime_ns))


def genuine_and_forged(run: Cli, tmp_path: Path) -> tuple[Path, bytes, bytes, str]:
    """A duel (seed not revealed: the salts unchecked), written canonically (A), and B: A with its last event's
    salt changed and re-hashed and the game's head moved to it, every line of the same length as A's."""
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    exchange(run, "g", attacker="blue", aim="low")
    path = tmp_path / "g.jsonl"
    run("export", "g", "--as", "umpire", "-o", str(path))
    records = read_export(path)
    write_export(path, records)
    genuine = path.read_bytes()
    last = max(event_records(records), key=lambda r: r["seq"])
    genuine_head = last["hash"]
    last["body"]["salt"] = "1" * len(last["body"]["salt"])
    last["hash"] = sha256_hex(canonical(last["body"]))
    next(r for r in records if r["record"] == "game")["head_hash"] = last["hash"]
    write_export(path, records)
    forged = path.read_bytes()
    assert len(forged) == len(genuine) and forged != genuine
    return path, genuine, forged, genuine_head


def test_a_file_rewritten_in_place_with_its_time_kept_is_refused(run: Cli, tmp_path: Path) -> None:
    path, genuine, forged, _ = genuine_and_forged(run, tmp_path)
    path.write_bytes(genuine)
    loaded = read_file(path)
    rewrite_keeping_time(path, forged)
    with pytest.raises(BadFile, match="the file changed while it was being verified"):
        verification.verify(loaded)


def test_a_forged_file_is_not_reported_anchored_by_a_head_it_does_not_hold(
        run: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The forged file B, verified alone against the genuine head, fails. Read as asked, B is judged by every check
    but the anchors, which read the genuine A put in its place meanwhile: the report says intact and anchored."""
    path, genuine, forged, genuine_head = genuine_and_forged(run, tmp_path)
    alone = verification.verify(read_lines(forged.decode().splitlines(), str(path)), head=genuine_head)
    assert not alone.passed
    path.write_bytes(forged)
    loaded = read_file(path)
    checked = verification._verify

    def then_swapped(*args, **kwargs):  # type: ignore[no-untyped-def]
        report = checked(*args, **kwargs)
        rewrite_keeping_time(path, genuine)  # between the last check of the log and the anchors' read
        return report

    monkeypatch.setattr(verification, "_verify", then_swapped)
    try:
        report = verification.verify(loaded, head=genuine_head)
    except BadFile:  # refused: what the module's docstring promises
        return
    rewrite_keeping_time(path, forged)  # and B again, as the user finds it afterwards
    assert not report.passed, [f"{c.name}: {c.status}" for c in report.checks]


def test_a_stored_game_played_on_while_it_is_verified_is_judged_as_loaded(run: Cli, db: Path) -> None:
    """GET /games/{id}/verify runs in a worker thread while seats submit. The held load is a snapshot (the game record,
    commands and events read together); the streamed one keeps the record and commands as loaded but reads the events
    as the store has them when each check runs, so a command accepted meanwhile makes an intact game fail."""
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    store = SQLiteStore(db)
    try:
        streamed = verification.load_stored(store, "g", streamed=True)
        whole = verification.load_stored(store, "g")
        exchange(run, "g", attacker="blue", aim="low")  # accepted while the umpire's verify runs
        assert verification.verify(whole).passed
        report = verification.verify(streamed)
        assert report.passed, report.failures()
    finally:
        store.close()


def stat_tells_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file system whose server controls every stat field: the size, times and identity look unchanged."""
    monkeypatch.setattr(FileLines, "unchanged", lambda self: self)


def test_a_file_swapped_where_its_stat_tells_nothing_is_refused_by_its_lines(
        run: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, genuine, forged, genuine_head = genuine_and_forged(run, tmp_path)
    stat_tells_nothing(monkeypatch)
    path.write_bytes(forged)
    loaded = read_file(path)
    path.write_bytes(genuine)  # the anchors, and every check, would read A: each line's digest is B's
    with pytest.raises(BadFile, match="the file changed while it was being verified"):
        verification.verify(loaded, head=genuine_head)


def test_a_file_whose_lines_shift_under_verify_is_refused_not_crashed(
        run: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """rev-speed 3: a line moved (here every line, by one byte) puts a re-read in the middle of a line; that was a raw
    msgspec.DecodeError out of verify, not the file's error."""
    path, genuine, _, _ = genuine_and_forged(run, tmp_path)
    stat_tells_nothing(monkeypatch)
    path.write_bytes(genuine)
    loaded = read_file(path)
    path.write_bytes(b"\n" + genuine)
    with pytest.raises(BadFile, match="the file changed while it was being verified"):
        verification.verify(loaded)


def test_a_line_of_another_kind_or_shape_read_again_is_the_changed_file(run: Cli, tmp_path: Path) -> None:
    """The guard behind the digest: a line that is the one first read there but not a record of the kind asked
    (a KeyError in event_entry) or of the shape asked (a msgspec.ValidationError) is refused as the changed file."""
    path, genuine, _, _ = genuine_and_forged(run, tmp_path)
    path.write_bytes(genuine)
    with path.open("rb") as handle:
        lines = FileLines(handle, str(path))
        at = {}
        for text in lines.read():
            at.setdefault(msgspec.json.decode(text)["record"], (lines.line_at, lines.digest))
        assert {"game", "command", "event"} <= set(at)
        assert lines.entry(event_entry, *at["event"]).seq == 1  # the line asked for, read as itself
        with pytest.raises(BadFile, match="the file changed while it was being verified"):
            lines.entry(event_entry, *at["command"])
        with pytest.raises(BadFile, match="the file changed while it was being verified"):
            lines.record_at(*at["game"], msgspec.json.Decoder(list[int]))
