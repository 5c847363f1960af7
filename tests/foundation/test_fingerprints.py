"""The behaviour frozen for the Para Bellum kernel work (issue 18), recorded in bench/fingerprints.json: every
log's command list, and Caldiero's and Arrivano's legal() over the conformance kit's fixed-dice games (300
commands each; `python bench/fingerprints.py check` also compares the recorded 3000-command games). A change
here is a change of behaviour: re-record (bench/fingerprints.py record) only when one is intended."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from arbitro.adjudicator.service import Arbitro
from bench import fingerprints
from bench.legal import Game, RULESETS, games, play

SHORT = 300
RECORDED = fingerprints.recorded()


def test_every_log_and_every_kit_game_is_recorded() -> None:
    assert set(RECORDED["logs"]) == {p.name for p in fingerprints.LOGS.glob("*.jsonl")}
    assert set(RECORDED["legal"][str(SHORT)]) == {g.label for r in RULESETS for g in games(r)}
    assert {g.ruleset for r in RULESETS for g in games(r) if g.options} == set(RULESETS)  # with the options too


def test_the_command_list_of_every_log_is_unchanged() -> None:
    changed = fingerprints.differences(RECORDED["logs"], fingerprints.log_fingerprints())
    assert not changed, ("logs/ were played differently from the recorded command lists; if a log was regenerated "
                         f"on purpose, run `python bench/fingerprints.py record --steps {SHORT}` and say why: {changed}")


@pytest.mark.parametrize("game", [g for r in RULESETS for g in games(r)], ids=lambda g: g.label)
def test_legal_returns_the_recorded_lists(game: Game) -> None:
    played = play(game, SHORT)
    assert {"calls": len(played.times), "sha256": played.fingerprint} == RECORDED["legal"][str(SHORT)][game.label]


def test_a_log_with_one_command_changed_has_another_fingerprint(tmp_path: Path) -> None:
    lines = (fingerprints.LOGS / "caldiero-full.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    last = max(i for i, r in enumerate(records) if r.get("record") == "command")
    original = fingerprints.log_commands(fingerprints.LOGS / "caldiero-full.jsonl")
    records[last]["body"]["command"] = {**records[last]["body"]["command"], "seat_hint": "forged"}
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    changed = fingerprints.log_commands(forged)
    assert len(changed) == len(original) and changed != original
    assert hashlib.sha256(fingerprints.canonical(changed)).digest() != hashlib.sha256(fingerprints.canonical(original)).digest()


def test_a_legal_list_in_another_order_changes_the_fingerprint(monkeypatch: pytest.MonkeyPatch) -> None:
    game = games("arrivano")[0]
    honest = play(game, 20).fingerprint
    legal = Arbitro.legal
    monkeypatch.setattr(Arbitro, "legal", lambda self, g, seat: list(reversed(legal(self, g, seat))))
    assert play(game, 20).fingerprint != honest


def test_check_reports_a_difference_by_name() -> None:
    assert fingerprints.differences({"a": 1, "b": 2}, {"a": 1, "b": 3}) == ["b: recorded 2, now 3"]
    assert fingerprints.differences({"a": 1}, {"a": 1}) == []
