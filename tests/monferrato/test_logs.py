"""The recorded game (logs/monferrato-full.jsonl, written by tests/monferrato/full_game.py) verifies: its commands
re-adjudicated give exactly its events, its hash chain holds, its report names the provisional data, and it is a
whole game that shows the procedures it was recorded for."""

from __future__ import annotations

import json

from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from tests.monferrato.full_game import LOG, NEEDED, SHOWN, SIEGE


def test_the_full_game_verifies_and_says_it_rests_on_provisional_data() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    report = app.verify_lines(LOG.read_text(encoding="utf-8").splitlines(), LOG.name)
    assert report.passed, [c for c in report.checks if c.status == "failed"]
    assert any("chits.json" in p for p in report.provisional)


def test_the_full_game_is_whole_and_shows_every_procedure_it_was_recorded_for() -> None:
    records = [json.loads(line) for line in LOG.read_text(encoding="utf-8").splitlines()]
    sent = {r["body"]["command"]["type"] for r in records if r["record"] == "command" and r["cmd"] > 0}
    assert set(NEEDED) <= sent
    events = [r["body"]["event"] for r in records if r["record"] == "event"]
    kinds = {e["type"] for e in events}
    assert set(SHOWN) <= kinds and kinds & set(SIEGE)
    assert events[-1]["type"] in ("game_ended", "seed_revealed", "checkpoint")
    assert [e for e in events if e["type"] == "game_ended"][0]["rule"] == "monferrato §17"
