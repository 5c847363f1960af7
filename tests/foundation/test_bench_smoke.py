"""bench/bench.py --quick runs and reports all four measurements (no timing is asserted: machines differ)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "bench.py"


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), "--quick", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


def test_quick_report_prints_all_four_measurements() -> None:
    done = run_bench()
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "(a) durable appends" in out and "appends/s" in out and "ratio" in out
    assert "(b) replay of" in out and "events/s" in out
    assert "(c) adjudication latency" in out
    for label in ("Adjudicator.decide", "Arbitro.submit, new game", "Arbitro.submit, long game"):
        assert label in out and "p50" in out and "p99" in out
    assert "(d) state at" in out and "median" in out and "max" in out
    assert "setup: long game of" in out and "durable=False" in out  # says how the log was built
    assert "targets: appends" in out
    assert "[bench" in done.stderr  # progress goes to stderr, not into the report


def test_quick_json_has_every_measurement_and_consistent_states() -> None:
    done = run_bench("--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    appends = result["appends"]
    assert appends["synchronous"] == "FULL" and appends["journal_mode"] == "wal"
    assert appends["store_appends_per_s"] > 0 and appends["bare_appends_per_s"] > 0 and appends["ratio"] > 0
    assert result["replay"]["events_per_s"] > 0 and result["replay"]["events"] >= 3_000
    assert result["replay"]["same_state_as_snapshot_path"] is True
    for key in ("decide_long_game", "submit_short_game", "submit_long_game"):
        latency = result["adjudication"][key]
        assert latency["n"] > 0 and 0 < latency["p50_ms"] <= latency["p99_ms"]
    state_at = result["state_at"]
    assert state_at["positions"] > 0 and 0 < state_at["median_ms"] <= state_at["max_ms"]
    assert isinstance(state_at["same_state_as_full_replay_at"], list)  # a string names a mismatch
    assert result["long_game"]["snapshots"] > 0
    for section in ("appends", "replay", "state_at"):
        assert isinstance(result[section]["met"], bool)


def test_stores_bench_reports_submits_per_second_on_each_store(postgres_url: str) -> None:
    """bench/stores.py --quick on the tests' PostgreSQL: every store measured, figures consistent."""
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "stores.py"), "--quick", "--json", "--url", postgres_url],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    for store in ("memory", "sqlite", "postgresql"):
        figures = result[store]
        assert figures["n"] == result["submits"] == 20 and figures["per_s"] > 0
        assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert result["postgresql"]["settings"]["server_version"] and result["postgresql"]["settings"]["fsync"] in ("on", "off")
