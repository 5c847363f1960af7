"""The recorded sample games (logs/arrivano-*.jsonl, written by tests/arrivano/full_game.py): each verifies (hash
chain, seed, re-adjudication of every command through the current rules), is played to its scenario's last turn
and shows the procedures at work."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from arbitro.adjudicator.arrivano.data_model import ARRIVANO_DATA
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore

from tests.arrivano.full_game import GAMES, LOGS, NEEDED

NAMES = [name for name, *_ in GAMES]


def log_path(name: str) -> Path:
    return LOGS / f"{name}.jsonl"


def events(name: str) -> list[dict[str, Any]]:
    records = [json.loads(line) for line in log_path(name).read_text(encoding="utf-8").splitlines()]
    return [r["body"]["event"] for r in records if r.get("record") == "event"]


@pytest.mark.parametrize("name", NAMES)
def test_log_verifies(name: str) -> None:
    path = log_path(name)
    report = Arbitro(SQLiteStore(":memory:")).verify_lines(path.read_text(encoding="utf-8").splitlines(), str(path))
    # Sample logs are self-play without a seat entropy round: verify must say so, never pass it (arbitro §R.2).
    protection = next(c for c in report.checks if c.name == "dice protection")
    assert protection.status == "unchecked" and protection.detail.startswith("dice not protected against the host")
    # Only a receipt can anchor a file's end (arbitro §L.4): the report says so, it never claims it.
    completeness = next(c for c in report.checks if c.name == "completeness")
    assert completeness.status == "unchecked"
    failed = [c for c in report.checks if c.status != "passed" and c not in (protection, completeness)]
    assert report.passed and not failed, (failed, report.divergence)
    assert report.provisional  # played on reconstructed maps and tables, and the report says so


@pytest.mark.parametrize(("name", "scenario", "options"), [game[:3] for game in GAMES], ids=NAMES)
def test_log_is_played_to_the_last_turn(name: str, scenario: str, options: tuple[str, ...]) -> None:
    evs = events(name)
    assert evs[0]["type"] == "game_created" and evs[0]["scenario"] == scenario
    assert tuple(evs[0]["options"]) == options
    turns = [e["turn"] for e in evs if e["type"] == "turn_began"]
    assert turns[-1] == ARRIVANO_DATA.shipped().scenarios[scenario].scenario.turns
    ended = [e for e in evs if e["type"] == "game_ended"]
    assert len(ended) == 1 and ended[0]["rule"].startswith("arrivano §17.")


@pytest.mark.parametrize(("name", "shows"), [(game[0], game[3]) for game in GAMES], ids=NAMES)
def test_log_shows_the_procedures_at_work(name: str, shows: tuple[str, ...]) -> None:
    kinds = Counter(e["type"] for e in events(name))
    assert [k for k in (*NEEDED, *shows) if not kinds[k]] == []
