"""Verification's serial part reads a file's commands once before re-adjudication (issue 15): the command check's pass
also gathers each command's range (the ranges' check) and judges its salt (the salts' check), which from a file were
two more reads of every command line (each found, checked against its digest and decoded again)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitro.adjudicator import verify as verification
from arbitro.adjudicator import verify_replay
from arbitro.adjudicator.exchange_file import FileRecords, read_file

LOGS = Path(__file__).resolve().parents[2] / "logs"


def test_a_file_s_commands_are_read_once_before_re_adjudication(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = read_file(LOGS / "marengo-full.jsonl")
    reads = []
    real_iter = FileRecords.__iter__

    def counted(self: FileRecords) -> object:
        if self is loaded.commands:
            reads.append("whole")
        return real_iter(self)

    monkeypatch.setattr(FileRecords, "__iter__", counted)
    real_finish = verify_replay.Judging.finish

    def finish(*args: object, **kwargs: object) -> object:
        reads.append("re-adjudication")
        return real_finish(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(verify_replay.Judging, "finish", finish)
    report = verification.verify(loaded)
    assert report.passed
    assert {c.name: c.status for c in report.checks}["salts"] == "passed"  # the salts were judged, in that one read
    assert reads[: reads.index("re-adjudication")] == ["whole"]  # three before e1d54cc0
