#!/usr/bin/env python
"""The frozen behaviour that the Para Bellum kernel work (issue 18) is gated by: the fingerprints of Caldiero's
and Arrivano's `legal()` over the conformance kit's fixed-dice games (bench/legal.py), and the command list
of every log in logs/. They are recorded in bench/fingerprints.json; tests/foundation/test_fingerprints.py
checks the short games and the logs on every run.

    .venv/bin/python bench/fingerprints.py check                  # compare everything recorded; exit 1 on a change
    .venv/bin/python bench/fingerprints.py check --steps 300      # only the 300-step games (and the logs)
    .venv/bin/python bench/fingerprints.py record --steps 3000    # (re)record the 3000-step games

Record only when a change of behaviour is intended, and say so in the commit. A log's command list is the
(seat, command) of each command record in order, hashed with SHA-256 over canonical JSON: a log regenerated
with renamed events keeps its fingerprint, a log whose games played differently does not.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.legal import RULESETS, games, play  # noqa: E402

FILE = ROOT / "bench" / "fingerprints.json"
LOGS = ROOT / "logs"


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def log_commands(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """A log's commands in order: (seat, command) of each command record."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("record") == "command":
            out.append((record["body"]["seat"], record["body"]["command"]))
    return out


def log_fingerprints() -> dict[str, dict[str, Any]]:
    out = {}
    for path in sorted(LOGS.glob("*.jsonl")):
        commands = log_commands(path)
        out[path.name] = {"commands": len(commands), "sha256": hashlib.sha256(canonical(commands)).hexdigest()}
    return out


def legal_fingerprints(steps: int) -> dict[str, dict[str, Any]]:
    out = {}
    for ruleset in RULESETS:
        for game in games(ruleset):
            played = play(game, steps)
            out[game.label] = {"calls": len(played.times), "sha256": played.fingerprint}
    return out


def recorded() -> dict[str, Any]:
    return json.loads(FILE.read_text(encoding="utf-8"))


def differences(expected: dict[str, Any], found: dict[str, Any]) -> list[str]:
    return [f"{key}: recorded {expected.get(key)}, now {found.get(key)}"
            for key in sorted(expected.keys() | found.keys()) if expected.get(key) != found.get(key)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("check", "record"))
    parser.add_argument("--steps", type=int, action="append",
                        help="game lengths (commands per game) to check or record; default: every recorded one")
    args = parser.parse_args()
    data = recorded() if FILE.exists() else {"legal": {}, "logs": {}}
    steps = args.steps or [int(s) for s in data["legal"]]
    if args.action == "record":
        data["logs"] = log_fingerprints()
        for n in steps:
            data["legal"][str(n)] = legal_fingerprints(n)
        FILE.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(f"recorded {FILE.relative_to(ROOT)}: logs, legal() over {sorted(steps)} steps")
        return 0
    problems = [f"logs/{d}" for d in differences(data["logs"], log_fingerprints())]
    for n in steps:
        problems += [f"legal {n} steps, {d}" for d in differences(data["legal"][str(n)], legal_fingerprints(n))]
    print("\n".join(problems) or "unchanged")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
