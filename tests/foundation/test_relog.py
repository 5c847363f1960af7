"""bench/drivers/relog.py: re-adjudicating a log under the build that made it rewrites it byte for byte, so
`git diff logs/` after a relog shows exactly what a change did to the games (and nothing of when it ran)."""

from __future__ import annotations

import shutil
from pathlib import Path

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
