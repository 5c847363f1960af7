"""bench/drivers/relog.py: re-adjudicating a log under the build that made it rewrites it byte for byte, so
`git diff logs/` after a relog shows exactly what a change did to the games (and nothing of when it ran)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bench.drivers import relog

LOGS = Path(__file__).resolve().parents[2] / "logs"


def test_a_relog_under_the_same_build_rewrites_a_log_byte_for_byte(tmp_path: Path) -> None:
    copy = tmp_path / "marengo-full.jsonl"
    shutil.copy(LOGS / "marengo-full.jsonl", copy)
    assert relog.relog(copy) > 0
    assert copy.read_bytes() == (LOGS / "marengo-full.jsonl").read_bytes()


def test_a_relog_keeps_the_recorded_times_and_names_no_server_key(tmp_path: Path) -> None:
    original = (LOGS / "marengo-full.jsonl").read_text(encoding="utf-8").splitlines()
    moved = tmp_path / "moved.jsonl"
    # the same game recorded at other times: the rewrite keeps those times, not the time it runs
    moved.write_text("\n".join(line.replace('"received_at":"2026-', '"received_at":"2031-')
                               .replace('"created_at":"2026-', '"created_at":"2031-') for line in original) + "\n",
                     encoding="utf-8")
    relog.relog(moved)
    rewritten = moved.read_text(encoding="utf-8")
    assert '"received_at":"2026-' not in rewritten and '"created_at":"2026-' not in rewritten
    assert rewritten.count('"received_at":"2031-') == sum('"received_at":"' in line for line in original)
    assert '"server_key":null' in rewritten.splitlines()[0]


def _commands(path: Path) -> list[dict]:
    return [json.loads(line)["body"] for line in path.read_text(encoding="utf-8").splitlines()
            if '"record":"command"' in line and json.loads(line)["cmd"] > 0]


def test_a_translator_can_drop_a_recorded_command_and_insert_others_in_its_place(tmp_path: Path) -> None:
    copy = tmp_path / "marengo-full.jsonl"
    shutil.copy(LOGS / "marengo-full.jsonl", copy)
    recorded = _commands(copy)
    last = recorded[-1]
    seen: list[dict] = []

    def translate(app, game, seat, command):  # drop the last command
        seen.append(command)
        if len(seen) == len(recorded):
            return []
        return [(seat, command)]

    relog.relog(copy, translate)
    assert seen == [c["command"] for c in recorded]
    assert [c["command"] for c in _commands(copy)] == [c["command"] for c in recorded[:-1]]
    assert last["key"] not in copy.read_text(encoding="utf-8")


def test_an_inserted_command_gets_its_own_idempotency_key(tmp_path: Path) -> None:
    copy = tmp_path / "marengo-full.jsonl"
    shutil.copy(LOGS / "marengo-full.jsonl", copy)
    recorded = _commands(copy)
    first = recorded[0]

    played: list[int] = []

    def translate(app, game, seat, command):  # the first command is played as two: itself, then the second
        played.append(1)
        if len(played) == 1:
            return [(seat, command), (recorded[1]["seat"], recorded[1]["command"])]
        if len(played) == 2:
            return []
        return [(seat, command)]

    relog.relog(copy, translate)
    rewritten = _commands(copy)
    assert [c["command"] for c in rewritten] == [c["command"] for c in recorded]
    assert rewritten[1]["key"] == f"{first['key']}/1"


def test_a_translator_is_named_module_colon_function() -> None:
    assert relog.load_translator("bench.drivers.relog:keep") is relog.keep
    with pytest.raises(SystemExit, match="MODULE:FUNCTION"):
        relog.load_translator("bench.drivers.relog")


def test_a_translator_with_start_is_given_the_recorded_records_first(tmp_path: Path) -> None:
    """A translator that must know what the recorded game did (bench/drivers/translate_steps.py reads the steps it
    began) is handed the file's records before the first command."""
    copy = tmp_path / "marengo-full.jsonl"
    shutil.copy(LOGS / "marengo-full.jsonl", copy)
    calls: list[str] = []

    class Translator:
        def start(self, records: list[dict]) -> None:
            calls.append(f"start {sum(r['record'] == 'command' for r in records)}")

        def __call__(self, app, game, seat, command):
            calls.append("command")
            return [(seat, command)]

    played = relog.relog(copy, Translator())
    assert calls[0] == f"start {played + 1}" and calls[1:] == ["command"] * played  # (+1: the create command)
    assert copy.read_bytes() == (LOGS / "marengo-full.jsonl").read_bytes()
