#!/usr/bin/env python
"""Peak memory of `verify` as a log grows (issue 15: "checks the chain while streaming (no whole log in memory)").

    .venv/bin/python bench/verify_memory.py                           # 10,000-, 50,000- and 100,000-event games
    .venv/bin/python bench/verify_memory.py --events 5000 --events 20000
    .venv/bin/python bench/verify_memory.py --json

For each length, a long duel game (bench/longduel.py: the foundation's test ruleset with a wargame-sized state) is
built as bench/bench.py builds its long game, exported as the umpire's full log, and verified in a fresh process
as `arbitro verify FILE` does (exchange_file.read_file, then verify), and from its SQLite store as `arbitro verify
GAME` does (verify.load_stored(streamed=True)). Reported: the file's size, whether it verified, the CPU seconds,
and the process's peak resident memory above what it held when it opened the file (VmHWM, reset first, minus
VmRSS then), in all and per 10,000 events. A verifier that streams the log (its events read again from the file or
the store as they are checked, the design issue 15 asks for) holds that figure flat as the log grows; one that
holds the log's events grows with it. Measurement only: never a timed test.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench import Sizes, build_long_game  # noqa: E402  (registers the longduel ruleset)
from bench.rulesets import machine  # noqa: E402

from arbitro.adjudicator import verify as verification  # noqa: E402
from arbitro.adjudicator.exchange_file import read_file  # noqa: E402
from arbitro.adjudicator.service import Arbitro  # noqa: E402
from arbitro.events.sqlite import SQLiteStore  # noqa: E402

LENGTHS = (10_000, 50_000, 100_000)


def reset_peak() -> None:
    """Start the process's peak resident memory afresh (Linux: writing 5 to /proc/self/clear_refs resets VmHWM), so
    the peak read after verify is verify's, not one the interpreter's start-up already set (which hid the growth of
    logs under about 10,000 events: +0.0 MB at 3,000)."""
    Path("/proc/self/clear_refs").write_text("5")


def resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status (this benchmark needs Linux)")


def peak_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes


def write_log(workdir: Path, events: int) -> tuple[Path, Path, str]:
    """A long duel game of at least `events` events in a SQLite store, and exported whole (the umpire's export) to a
    file: the file, the store and the game."""
    db = workdir / f"long-{events}.db"
    game_id, _ = build_long_game(db, Sizes(log_events=events, appends=0, chunk=1, decides=0, submits=0, positions=0,
                                           repeats=1))
    app = Arbitro(SQLiteStore(db))
    path = workdir / f"long-{events}.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for line in app.export(game_id, "umpire"):
            out.write(line + "\n")
    app.store.close()  # type: ignore[attr-defined]
    return path, db, game_id


def verify_source(path: Path, game_id: str | None) -> dict[str, Any]:
    """Run in a fresh process (`--verify-file`, `--verify-store`): the file or the store verified, its events read
    as they are checked."""
    reset_peak()
    before = resident_mb()
    started = time.process_time()
    store = SQLiteStore(path) if game_id is not None else None
    loaded = read_file(path) if store is None else verification.load_stored(store, game_id or "", streamed=True)
    report = verification.verify(loaded)
    seconds = time.process_time() - started
    events = len(loaded.events)
    grown = peak_mb() - before
    return {"events": events, "source": "store" if store is not None else "file",
            "file_mb": round(path.stat().st_size / 2**20, 1), "passed": report.passed,
            "cpu_s": round(seconds, 2), "peak_rss_above_start_mb": round(grown, 1),
            "mb_per_10k_events": round(grown * 10_000 / max(events, 1), 2)}


def measure(path: Path, game_id: str | None = None) -> dict[str, Any]:
    how = ["--verify-file", str(path)] if game_id is None else ["--verify-store", str(path), "--game", game_id]
    done = subprocess.run([sys.executable, __file__, *how], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, action="append", help="a log length (repeatable; default 10k, 30k, 100k)")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    parser.add_argument("--verify-file", type=Path, help=argparse.SUPPRESS)  # measure()'s fresh process
    parser.add_argument("--verify-store", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--game", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.verify_file is not None or args.verify_store is not None:
        print(json.dumps(verify_source(args.verify_file or args.verify_store, args.game)))
        return 0
    results = []
    with tempfile.TemporaryDirectory(prefix="arbitro-verify-memory-") as tmp:
        for events in args.events or LENGTHS:
            path, db, game_id = write_log(Path(tmp), events)
            for result in (measure(path), measure(db, game_id)):
                results.append(result)
                if not args.json:
                    print(f"{result['events']:>7} events ({result['source']:>5}, {result['file_mb']:6.1f} MB): verify "
                          f"{'passed' if result['passed'] else 'FAILED'} in {result['cpu_s']:6.1f} CPU s, peak memory "
                          f"+{result['peak_rss_above_start_mb']:6.1f} MB ({result['mb_per_10k_events']:.2f} MB per "
                          "10,000 events)", flush=True)
    if args.json:
        print(json.dumps({"machine": machine(), "logs": results}, indent=2))
    return 0 if all(r["passed"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
