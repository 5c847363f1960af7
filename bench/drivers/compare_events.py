"""Compare the events of two exports of one game (a log before and after a relog): what a change did to the game,
frame bookkeeping aside.

    python -m bench.drivers.compare_events OLD.jsonl NEW.jsonl [--ignore-kinds combat,assault]

Each file's events are taken in order with the command that caused them. The decision stack's events
(decision_opened / _revised / _resolved) of the `--ignore-kinds` kinds are left out (the frames a change reshapes);
without the option every decision event is; so are the checkpoints (their hash covers the frames). Everything else
must be the same events, in the same order, under the same commands. Prints the count of events compared and of frame events left out per kind on each side, or the
first difference (exit 1). A refactoring that moves a procedure into another frame says in its commit that this
script found no difference in each relogged log. `--ignore-commands` compares the events alone, not the numbers of
the commands that caused them: for a log relogged by a translator that dropped or inserted a command
(bench/drivers/translate_fire_asked.py), whose later commands are numbered anew. `--ignore-genesis` leaves the
`game_created` out: for a change of the data files alone, whose hash and initial state the genesis carries, so that
"the genesis alone differs" is what the script checks (without it the genesis is always the first difference).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

FRAME_EVENTS = frozenset({"decision_opened", "decision_revised", "decision_resolved"})
GENESIS = "game_created"  # the data files' hash and the initial state (`--ignore-genesis`)


def frame_kind(event: dict[str, Any]) -> str:
    """The kind of the frame a decision event is about (an opening names it in its frame)."""
    return str(event.get("kind") or event.get("frame", {}).get("kind", ""))


def events(path: Path, ignored: frozenset[str] | None) -> tuple[list[tuple[int, dict[str, Any]]], Counter[str]]:
    """The file's events kept for the comparison, each with its command number, and the frame events left out by
    kind. `ignored`: the kinds left out; None: every frame event."""
    kept: list[tuple[int, dict[str, Any]]] = []
    left: Counter[str] = Counter()
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("record") != "event":
            continue
        event = record["body"]["event"]
        if event.get("type") == "checkpoint":  # a hash over the state, frames included
            continue
        if event.get("type") in FRAME_EVENTS and (ignored is None or frame_kind(event) in ignored):
            left[f"{frame_kind(event)} {event['type']}"] += 1
            continue
        kept.append((record["body"]["cmd"], event))
    return kept, left


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--ignore-kinds", default=None, help="comma-separated frame kinds to leave out (default: all)")
    parser.add_argument("--ignore-commands", action="store_true", help="compare the events, not their command numbers")
    parser.add_argument("--ignore-genesis", action="store_true", help="leave the game_created event out (a data change)")
    args = parser.parse_args(argv)
    ignored = frozenset(args.ignore_kinds.split(",")) if args.ignore_kinds is not None else None
    old, old_left = events(args.old, ignored)
    new, new_left = events(args.new, ignored)
    if args.ignore_genesis:
        old, new = [(c, e) for c, e in old if e.get("type") != GENESIS], [(c, e) for c, e in new if e.get("type") != GENESIS]
    if args.ignore_commands:
        old, new = [(0, e) for _, e in old], [(0, e) for _, e in new]
    for i, (a, b) in enumerate(zip(old, new)):
        if a != b:
            print(f"event {i}: differs\n  old (command {a[0]}): {json.dumps(a[1])[:600]}\n"
                  f"  new (command {b[0]}): {json.dumps(b[1])[:600]}")
            return 1
    if len(old) != len(new):
        print(f"old has {len(old)} events kept, new {len(new)}: the same up to the shorter")
        return 1
    print(f"{args.new}: {len(new)} events the same; frame events left out: old {dict(sorted(old_left.items()))}, "
          f"new {dict(sorted(new_left.items()))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
