#!/usr/bin/env python
"""What a Para Bellum game's `legal()` costs, and a fingerprint of everything it returned.

    .venv/bin/python bench/legal.py caldiero                # the conformance kit's four self-played Caldiero games
    .venv/bin/python bench/legal.py arrivano --steps 300    # Arrivano's, shorter
    .venv/bin/python bench/legal.py arrivano --profile      # cProfile of the legal() calls, top 25

Times are the process's CPU time (time.process_time), so that other work on the machine counts less.
Each game is the kit's (same seeds, scenarios and options: every scenario, without options and with all of
them): seeded self-play choosing among the legal commands, the dice from a fixed seed. Every legal() call of
the awaited seats is timed; the SHA-256 of all their outputs (in order) is printed too, so a speed-up or a
move of code can be checked to return exactly the same lists (a different output also changes the choices,
so the games diverge and the fingerprint differs). bench/fingerprints.py records and checks these
fingerprints (bench/fingerprints.json). Measurement only: never a timed test.
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
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from arbitro.adjudicator import registry  # noqa: E402
from arbitro.events import random as randomness  # noqa: E402
from arbitro.adjudicator.selfplay import SelfPlay  # noqa: E402
from arbitro.adjudicator.preload import settle_data  # noqa: E402
from arbitro.adjudicator.service import Arbitro  # noqa: E402
from arbitro.events.sqlite import SQLiteStore  # noqa: E402

RULESETS = ("caldiero", "arrivano")
SEED = "00" * 32  # a fixed dice seed, so that the games (and the fingerprint) are the same on every run


@dataclass(frozen=True)
class Game:
    ruleset: str
    scenario: str
    options: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.ruleset}:{self.scenario}{'+all-options' if self.options else ''}"


@dataclass(frozen=True)
class Played:
    game: Game
    times: list[float]
    fingerprint: str


def games(ruleset: str) -> list[Game]:
    """The conformance kit's games of a ruleset: each scenario without options, then with all of them."""
    out = []
    for scenario, info in registry.get(ruleset).scenarios().items():
        out.append(Game(ruleset, scenario, ()))
        out.append(Game(ruleset, scenario, tuple(info.options)))
    return out


def play(game: Game, steps: int, profiler: cProfile.Profile | None = None) -> Played:
    app = Arbitro(SQLiteStore(":memory:"))
    fresh_seed, randomness.new_seed = randomness.new_seed, lambda: SEED
    try:
        game_id = app.create(game.ruleset, game.scenario, game.options)
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
    SelfPlay(app, game_id, seed=f"kit-{game.ruleset}-{game.scenario}").play(steps)
    return Played(game, times, digest.hexdigest())


def quantile(times: list[float], q: float) -> float:
    """The `q` quantile of `times` (the nearest rank below, as p95 is read)."""
    return sorted(times)[min(len(times) - 1, int(q * len(times)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", choices=RULESETS)
    parser.add_argument("--steps", type=int, default=3000, help="commands per game at most (the kit's 3000)")
    parser.add_argument("--profile", action="store_true", help="cProfile the legal() calls")
    parser.add_argument("--games", type=int, default=None, help="play only the first N games")
    args = parser.parse_args()
    profiler = cProfile.Profile() if args.profile else None
    settle_data({args.ruleset: registry.get(args.ruleset)})  # loaded and frozen, as the server does at its start
    total: list[float] = []
    for game in games(args.ruleset)[:args.games]:
        played = play(game, args.steps, profiler)
        times = played.times
        total += times
        print(f"{game.label:40} calls {len(times):5}  total {sum(times):7.2f} s  mean {1000 * statistics.mean(times):6.2f} ms"
              f"  p95 {1000 * quantile(times, 0.95):6.2f} ms  p99 {1000 * quantile(times, 0.99):6.2f} ms"
              f"  max {1000 * max(times):6.2f} ms  sha256 {played.fingerprint[:16]}")
    print(f"{'all':40} calls {len(total):5}  total {sum(total):7.2f} s  mean {1000 * statistics.mean(total):6.2f} ms"
          f"  p99 {1000 * quantile(total, 0.99):6.2f} ms  max {1000 * max(total):6.2f} ms")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
