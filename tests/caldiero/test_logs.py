"""The recorded sample games (logs/caldiero-*.jsonl, written by bench/drivers/caldiero.py): they verify
(hash chain, seed, re-adjudication of every command through the current rules) and show the rules at work."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore

LOGS = Path(__file__).resolve().parents[2] / "logs"


def events(name: str) -> list[dict[str, Any]]:
    out = []
    for line in (LOGS / name).read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("record") == "event":
            out.append(record["body"]["event"])
    return out


@pytest.mark.parametrize("name", ["caldiero-full.jsonl", "caldiero-tempo-regge.jsonl", "caldiero-tempo-regge-fog.jsonl"])
def test_log_verifies(name: str) -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    report = app.verify_lines((LOGS / name).read_text(encoding="utf-8").splitlines(), name)
    # Sample logs are self-play without a seat entropy round: verify must say so, never pass it (arbitro §R.2).
    protection = next(c for c in report.checks if c.name == "dice protection")
    assert protection.status == "unchecked" and protection.detail.startswith("dice not protected against the host")
    # Only a receipt can anchor a file's end (arbitro §L.4): the report says so, it never claims it.
    completeness = next(c for c in report.checks if c.name == "completeness")
    assert completeness.status == "unchecked"
    failed = [c for c in report.checks if c.status != "passed" and c not in (protection, completeness)]
    assert report.passed and not failed, (failed, report.divergence)


def test_full_game_shows_the_rules_at_work() -> None:
    evs = events("caldiero-full.jsonl")
    kinds = Counter(e["type"] for e in evs)
    created = evs[0]
    assert created["scenario"] == "historical" and created["options"] == []
    assert kinds["turn_began"] == 9 and kinds["game_ended"] == 1
    results = {e["result"] for e in evs if e["type"] == "assault_resolved"}
    assert results == {"Ae", "De", "Ad", "Dd", "Ne", "Ex", "Dr"}
    assert kinds["artillery_fired"] > 0 and kinds["unit_retreated"] > 0 and kinds["weather_changed"] > 0
    assert any(e["type"] == "assault_declared" and len(e["targets"]) > 1 for e in evs)  # multi-hex assault
    assert any(e["type"] == "status_changed" and e["status"] == "routed" for e in evs)
    assert any(e["type"] == "elan_spent" for e in evs)
    assert any(e["type"] == "units_moved" and e["path"][0] in ("1014", "1005", "2714") for e in evs)  # reinforcements
    assert any(e["type"] == "unit_placed" and e["rule"] == "caldiero §12.8" for e in evs)  # replacements


def test_tempo_regge_game_uses_its_rules() -> None:
    evs = events("caldiero-tempo-regge.jsonl")
    created = evs[0]
    assert created["scenario"] == "il_tempo_regge" and sorted(created["options"]) == ["cavalry_charges", "flank_attacks"]
    assert not [e for e in evs if e["type"] == "weather_changed"]  # §19.2.1
    assert not [e for e in evs if e["type"] == "dice_rolled" and "weather" in e["purpose"]]
    assert any(e["type"] == "game_ended" for e in evs)
    assert any(e["type"] == "units_moved" and e["charge"] == "" for e in evs)  # a Charge marker (§20.2)
    assert any(e["type"] == "assault_resolved" and "flank attack 2R" in e["notes"] for e in evs)  # §20.5


WORDS = ("purpose", "detail")  # a die's words (parabellum/variant.Variant.dice_record)


def test_fog_game_is_tempo_regge_s_game_told_as_section_20_4_tells_it() -> None:
    """logs/caldiero-tempo-regge-fog.jsonl (bench/drivers/foglog.py): Il tempo regge's game with the fog of war added
    (caldiero §20.4), so that re-adjudicating the logs covers the code only the fog runs. The fog decides nothing: every
    event is the recorded game's but the genesis, the sightings, the checkpoints and the dice's words, which name an arm
    where the plain game names the units (a die under the fog tells no seat which unseen unit it was rolled for)."""
    plain, fog = events("caldiero-tempo-regge.jsonl"), events("caldiero-tempo-regge-fog.jsonl")
    assert fog[0]["options"] == sorted([*plain[0]["options"], "fog_of_war"])

    def outcome(evs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in e.items() if e["type"] != "dice_rolled" or k not in WORDS} for e in evs[1:]
                if e["type"] not in ("pieces_sighted", "checkpoint")]

    assert outcome(fog) == outcome(plain)
    assert any(e["type"] == "pieces_sighted" for e in fog)
    units = set(plain[0]["initial"]["units"])

    def named(evs: list[dict[str, Any]]) -> int:
        return sum(any(u in json.dumps([e[k] for k in WORDS]) for u in units) for e in evs if e["type"] == "dice_rolled")

    assert named(plain) > 0 and named(fog) == 0
