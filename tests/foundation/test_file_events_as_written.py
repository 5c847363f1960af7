"""A file's events read again as their lines write them (exchange_file.FileEvents, issue 15): where a line begins with
its event's body in canonical bytes, as every export writes it, verification's later reads (the chain, re-adjudication)
take those bytes rather than building the body and encoding it anew. They must be the very bytes the first read
encoded: the same events as the log held whole, and a line written otherwise (another key order, spaces) read as
before, the same events again."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from arbitro.adjudicator import verify as verification
from arbitro.adjudicator.exchange import read_lines
from arbitro.adjudicator.exchange_file import FileEvents, read_file

LOGS = Path(__file__).resolve().parents[2] / "logs"


@pytest.mark.parametrize("name", ["caldiero-full", "arrivano-campotenese", "marengo-full"])
def test_a_shipped_log_s_events_are_read_again_as_written_and_are_the_same(name: str) -> None:
    path = LOGS / f"{name}.jsonl"
    loaded = read_file(path)
    assert isinstance(loaded.events, FileEvents)
    assert all(loaded.events._as_written), "an export writes each event's body first, in canonical bytes"
    held = read_lines(path.read_text(encoding="utf-8").splitlines(), str(path))
    assert list(loaded.events) == held.events
    assert loaded.events[5:9] == held.events[5:9] and loaded.events[-1] == held.events[-1]


def test_lines_written_otherwise_are_read_as_before(tmp_path: Path) -> None:
    """Event lines with their keys in another order, or spaces in the body: not as written, each event built and
    encoded again as before (the first read's canonical bytes), the same events and the same report."""
    source = LOGS / "marengo-full.jsonl"
    out = []
    for number, text in enumerate(source.read_text(encoding="utf-8").splitlines()):
        record = json.loads(text)
        if record.get("record") == "event":
            if number % 2:
                text = json.dumps({"seq": record["seq"], **record}, separators=(",", ":"))  # "seq" first
            else:
                text = json.dumps(record, sort_keys=True)  # spaces after ":" and ","
        out.append(text)
    path = tmp_path / "rewritten.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    loaded = read_file(path)
    assert isinstance(loaded.events, FileEvents) and not any(loaded.events._as_written)
    held = read_lines(source.read_text(encoding="utf-8").splitlines(), str(source))
    assert list(loaded.events) == held.events
    report, whole = verification.verify(loaded), verification.verify(held)
    assert report.passed and msgspec.to_builtins(report) == msgspec.to_builtins(whole)
