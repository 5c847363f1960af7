"""A log with no event has no genesis: verification reports it (the genesis check failed at #1), never a traceback
(arbitro §L.1). Found by rev-verify. A seat's export is held to its game record's head too: cut at its end, or emptied,
it fails the chain (found by issue 20's mutation run of seatcopy: such an export verified when nothing sealed it)."""
from __future__ import annotations

from pathlib import Path

from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore

from .conftest import Cli, event_records, read_export, write_export
from .legacy_seat_export import legacy_export
from .test_bad_input import export, game  # noqa: F401
from .test_historian import FRIMONT
from .test_seat_seal import records as seal_records


def test_a_file_emptied_of_events_with_its_head_set_to_zero_fails_the_chain_without_crashing(
        run: Cli, tmp_path: Path, game: str) -> None:
    """The game record's head moved to #0 and the genesis hash, so the record agrees with the empty log."""
    path = export(run, tmp_path)
    records = read_export(path)
    for e in event_records(records):
        records.remove(e)
    g = next(r for r in records if r["record"] == "game")
    g["head_seq"], g["head_hash"] = 0, "0" * 64
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    assert report["passed"] is False
    assert [c for c in report["checks"] if c["name"] in ("hash chain", "genesis")] == [
        {"name": "genesis", "status": "failed", "detail": "the log has no event: no genesis (#1) says what game it is"}]
    assert report["divergence"]["seq"] == 1 and report["divergence"]["rule"] == "arbitro §L.1"
    error = Cli(tmp_path / "club.db")("import", str(path), code=2).stderr
    assert "the log has no event" in error and "nothing imported" in error


def _seats_export_without(tmp_path: Path, cut: int) -> tuple[Cli, Path]:
    """austria's export of a Marengo game (six events) with its last `cut` events taken out, and with them every
    record that binds the file to the server (views, seat state, seal: as an arbitro before seals wrote it)."""
    umpire = Cli(tmp_path / "umpire.db")
    umpire("new", "marengo", "marengo", "--id", "g")
    umpire.submit("g", "austria", FRIMONT)
    legacy = "\n".join(legacy_export(Arbitro(SQLiteStore(umpire.db)), "g", "austria"))  # numbered as the log (/2)
    records = [r for r in seal_records(legacy) if r["record"] not in ("seat_view", "seat_state", "seat_seal")]
    events = event_records(records)
    assert [e["seq"] for e in events] == [1, 2, 3, 4, 5, 6]
    for e in events[len(events) - cut:]:
        records.remove(e)
    path = tmp_path / "cut.jsonl"
    write_export(path, records)
    return umpire, path


def test_a_seats_export_cut_at_its_end_fails_the_chain_even_with_nothing_sealing_it(tmp_path: Path) -> None:
    """Each link holds, but the game record names #6 and its hash: the chain must reach them (arbitro §L.1), as a
    full log's must, whether or not a seal binds the file."""
    umpire, path = _seats_export_without(tmp_path, cut=2)
    report = umpire.json("verify", str(path), code=1)
    assert report["passed"] is False
    assert [c for c in report["checks"] if c["name"] == "hash chain"] == [{
        "name": "hash chain", "status": "failed",
        "detail": "the log ends at #4 but the game's head is #6 (events deleted from the end, or the file is truncated)"}]
    assert report["divergence"] == {"seq": 4, "expected": "an intact chain", "found": (
        "the log ends at #4 but the game's head is #6 (events deleted from the end, or the file is truncated)"),
        "rule": "arbitro §L.1"}
    error = Cli(tmp_path / "austria.db")("import", str(path), code=2).stderr
    assert "the log ends at #4 but the game's head is #6" in error and "nothing imported" in error


def test_a_seats_export_whose_head_hash_is_not_its_last_events_fails_the_chain(tmp_path: Path) -> None:
    umpire, path = _seats_export_without(tmp_path, cut=0)
    records = read_export(path)
    records[0]["head_hash"] = "ab" * 32
    write_export(path, records)
    (chain,) = [c for c in umpire.json("verify", str(path), code=1)["checks"] if c["name"] == "hash chain"]
    assert chain["status"] == "failed" and chain["detail"].startswith(
        "the game's head hash abababababab is not the hash of its last event #6 (")


def test_a_seats_export_emptied_of_events_fails_and_is_never_verified(tmp_path: Path) -> None:
    umpire, path = _seats_export_without(tmp_path, cut=6)
    records = read_export(path)
    records[0]["head_seq"], records[0]["head_hash"] = 0, "0" * 64
    write_export(path, records)
    report = umpire.json("verify", str(path), code=1)
    assert [c for c in report["checks"] if c["name"] in ("hash chain", "genesis")] == [
        {"name": "genesis", "status": "failed", "detail": "the log has no event: no genesis (#1) says what game it is"}]
    assert report["divergence"]["seq"] == 1
