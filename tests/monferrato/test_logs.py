"""The recorded opening (logs/monferrato-opening.jsonl, written by tests/monferrato/opening.py) verifies: its commands
re-adjudicated give exactly its events, its hash chain holds, and its report names the provisional data."""

from __future__ import annotations

import json

from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from tests.monferrato.opening import LOG, NEEDED


def test_the_opening_log_verifies_and_says_it_rests_on_provisional_data() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    report = app.verify_lines(LOG.read_text(encoding="utf-8").splitlines(), LOG.name)
    assert report.passed, [c for c in report.checks if c.status == "failed"]
    assert any("chits.json" in p for p in report.provisional)


def test_the_opening_log_shows_every_procedure_it_was_recorded_for() -> None:
    records = [json.loads(line) for line in LOG.read_text(encoding="utf-8").splitlines()]
    sent = {r["body"]["command"]["type"] for r in records if r["record"] == "command" and r["cmd"] > 0}
    assert set(NEEDED) <= sent
    kinds = {r["body"]["event"]["type"] for r in records if r["record"] == "event"}
    assert {"command_drawn", "chits_dealt", "chit_drawn", "chit_discarded", "units_moved", "turn_began"} <= kinds
