"""The recorded sample games (logs/caricat-*.jsonl, written by bench/drivers/caricat.py): each verifies (hash chain,
seed, re-adjudication of every command through the current rules), is played to its last turn and shows the
procedures at work."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from bench.drivers.caricat import GAMES, LOGS

NAMES = [name for name, *_ in GAMES]
SHOWN = ("fire_resolved", "melee_resolved", "unit_retreated", "unit_advanced", "unit_eliminated", "morale_recovered",
         "cavalry_activated", "level_changed", "leader_eliminated", "turn_ended")


def events(name: str) -> list[dict[str, Any]]:
    records = [json.loads(line) for line in (LOGS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
    return [r["body"]["event"] for r in records if r.get("record") == "event"]


@pytest.mark.parametrize("name", NAMES)
def test_log_verifies(name: str) -> None:
    path = LOGS / f"{name}.jsonl"
    report = Arbitro(SQLiteStore(":memory:")).verify_lines(path.read_text(encoding="utf-8").splitlines(), str(path))
    failed = [c for c in report.checks if c.status == "failed"]
    assert report.passed and not failed, (failed, report.divergence)
    assert any("terrain effects table" in p for p in report.provisional)  # and the report says what is provisional


@pytest.mark.parametrize(("name", "scenario", "options"), GAMES, ids=NAMES)
def test_log_is_a_whole_game_showing_the_rules_at_work(name: str, scenario: str, options: tuple[str, ...]) -> None:
    evs = events(name)
    assert evs[0]["scenario"] == scenario and tuple(evs[0]["options"]) == options
    assert [e["turn"] for e in evs if e["type"] == "turn_ended"] == list(range(1, 11))
    ended = [e for e in evs if e["type"] == "game_ended"]
    assert len(ended) == 1 and ended[0]["rule"] in ("caricat §13.4.1", "caricat §14.2")
    kinds = Counter(e["type"] for e in evs)
    assert [k for k in SHOWN if not kinds[k]] == []
    if options:
        assert kinds["option_used"] and kinds["brigade_arrives"] and kinds["morale_checked"]
