#!/usr/bin/env python
"""What Caldiero's `legal()` costs, and a fingerprint of everything it returned.

    .venv/bin/python bench/caldiero_legal.py                 # the conformance kit's four self-played games
    .venv/bin/python bench/caldiero_legal.py --steps 300     # shorter games
    .venv/bin/python bench/caldiero_legal.py --profile       # cProfile of the legal() calls, top 25

Times are the process's CPU time (time.process_time), so that other work on the machine counts less.
Each game is the kit's (same seeds, same scenarios and options): seeded self-play choosing among the legal
commands. Every legal() call of the awaited seats is timed; the SHA-256 of all their outputs (in order) is
printed too, so a speed-up can be checked to return exactly the same lists (a different output also changes
the choices, so the games diverge and the fingerprint differs). Measurement only: never a timed test.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from arbitro.adjudicator import registry  # noqa: E402
from arbitro.events import random as randomness  # noqa: E402
from arbitro.adjudicator.selfplay import SelfPlay  # noqa: E402
from arbitro.adjudicator.service import Arbitro  # noqa: E402
from arbitro.events.sqlite import SQLiteStore  # noqa: E402


def games() -> list[tuple[str, tuple[str, ...]]]:
    out = []
    for scenario, info in registry.get("caldiero").scenarios().items():
        out.append((scenario, ()))
        out.append((scenario, tuple(info.options)))
    return out


SEED = "00" * 32  # a fixed dice seed, so that the games (and the fingerprint) are the same on every run


def play(scenario: str, options: tuple[str, ...], steps: int, profiler: cProfile.Profile | None) -> tuple[list[float], str]:
    app = Arbitro(SQLiteStore(":memory:"))
    fresh_seed, randomness.new_seed = randomness.new_seed, lambda: SEED
    try:
        game = app.create("caldiero", scenario, options)
    finally:
        randomness.new_seed = fresh_seed
    times: list[float] = []
    digest = hashlib.sha256()
    original = app.legal

    def timed(game_id: str, seat: str) -> list:
        if profiler is not None:
            profiler.enable()
        t0 = time.process_time()
        out = original(game_id, seat)
        times.append(time.process_time() - t0)
        if profiler is not None:
            profiler.disable()
        digest.update(json.dumps(out, sort_keys=True).encode())
        return out

    app.legal = timed  # type: ignore[method-assign]
    SelfPlay(app, game, seed=f"kit-caldiero-{scenario}").play(steps)
    return times, digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000, help="commands per game at most (the kit's 3000)")
    parser.add_argument("--profile", action="store_true", help="cProfile the legal() calls")
    parser.add_argument("--games", type=int, default=4, help="play only the first N of the four games")
    args = parser.parse_args()
    profiler = cProfile.Profile() if args.profile else None
    total: list[float] = []
    for scenario, options in games()[:args.games]:
        times, fingerprint = play(scenario, options, args.steps, profiler)
        total += times
        label = f"{scenario}{'+all-options' if options else ''}"
        print(f"{label:32} calls {len(times):5}  total {sum(times):7.2f} s  mean {1000 * statistics.mean(times):6.2f} ms"
              f"  p95 {1000 * sorted(times)[int(0.95 * len(times))]:6.2f} ms  sha256 {fingerprint[:16]}")
    print(f"{'all':32} calls {len(total):5}  total {sum(total):7.2f} s  mean {1000 * statistics.mean(total):6.2f} ms")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
