"""The full agreement sweep between legal() and decide() (issue 19; the suite runs a sample of it,
tests/conformance/test_agreement.py): positions of every shipped log and of seeded self-play, under each
interpretation's readings, candidates from every command model with every optional field (tests/agreement.py).
Prints each discrepancy (position, seat, kind, command) and a count per ruleset and kind; exits 1 if any is found.

    python -m bench.agreement                         # every ruleset, a position every 60 commands, 25 candidates each
    python -m bench.agreement --ruleset arrivano --every 10 --examples 100 --readings
    python -m bench.agreement --readings --reading-positions 40    # more positions under the other readings
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arbitro.adjudicator import registry  # noqa: E402
from tests.agreement import LOGS, Position, log_positions, other_readings, selfplay_positions, sweep  # noqa: E402


def positions(ruleset: str, every: int, selfplay: int, readings: bool, reading_positions: int = 8) -> list[Position]:
    found: list[Position] = []
    for path in sorted(LOGS.glob(f"{ruleset}-*.jsonl")):
        found += log_positions(path, every)
    rs = registry.get(ruleset)
    for scenario in rs.scenarios():
        if selfplay:
            found += selfplay_positions(ruleset, scenario, "agreement-1", every, selfplay)
    if readings:
        step = max(1, len(found) // reading_positions)
        found += [other for p in found[::step] for other in other_readings(p)]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", help="only these rulesets (repeatable; default: every one)")
    parser.add_argument("--every", type=int, default=60, help="a position every N commands of each game")
    parser.add_argument("--examples", type=int, default=25, help="candidates drawn per position (and seat's listing)")
    parser.add_argument("--selfplay", type=int, default=300, help="commands of seeded self-play per scenario (0: none)")
    parser.add_argument("--readings", action="store_true", help="also under each interpretation's other readings")
    parser.add_argument("--reading-positions", type=int, default=8,
                        help="with --readings: how many of the positions (spread over them) are judged under each")
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args()
    names = args.ruleset or sorted(n for n, rs in registry.available().items() if not isinstance(rs, str))
    total = 0
    for name in names:
        started = time.monotonic()
        where = positions(name, args.every, args.selfplay, args.readings, args.reading_positions)
        found = sweep(where, args.examples * len(where), args.seed)
        counts = collections.Counter((d.kind, json.loads(d.command)["type"]) for d in found)
        print(f"{name}: {len(where)} positions, {args.examples * len(where)} candidates, {len(found)} discrepancies "
              f"in {time.monotonic() - started:.0f} s " + ", ".join(f"{k}={n}" for k, n in sorted(counts.items())))
        for d in found:
            print(f"  {d}")
        total += len(found)
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main())
