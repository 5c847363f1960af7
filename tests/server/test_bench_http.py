"""bench/http_submits.py --quick runs and reports both figures (no timing is asserted: machines differ)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_http_bench_reports_submits_over_http_beside_in_process() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "http_submits.py"), "--quick", "--json"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    for way in ("in_process", "http"):
        assert result[way]["n"] == 20 and result[way]["per_s"] > 0 and result[way]["p99_ms"] >= result[way]["p50_ms"]
