"""A log with no event has no genesis: verification reports it (the genesis check failed at #1), never a traceback
(arbitro §L.1). Found by rev-verify."""
from __future__ import annotations

from pathlib import Path

from .conftest import Cli, event_records, read_export, write_export
from .test_bad_input import export, game  # noqa: F401


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
