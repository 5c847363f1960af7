"""Rewrite a recorded log under this build: its command list played again, in order, from its revealed seed.

When the engine's or a ruleset's events change but the games played do not (the same commands mean the same
moves), a log is re-adjudicated rather than played anew: the command list, and so bench/fingerprints.py's record
of it, stays the same, and the new events are what this build makes of the same game.

    python -m bench.drivers.relog logs/marengo-full.jsonl [more.jsonl ...]     # rewrites each file in place

The rewrite keeps the recorded times (the game's creation, each command's arrival) and exports with no server
key (a generated log has no receipts to check it against), so a log whose events this build makes alike is
rewritten byte for byte: `git diff logs/` after a relog shows exactly what a change did to the games.

A command this build refuses stops the rewrite with its number and the refusal (exit 1): the games differ in
meaning then, and the log must be played again by its own driver instead.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.service import Arbitro
from bench.drivers import write_log
from arbitro.events import core
from arbitro.events.codec import to_builtins
from arbitro.events.sqlite import SQLiteStore


class RecordedClock:
    """The service's clock during a relog: the time recorded for what is being played again."""

    def __init__(self, time: str) -> None:
        self.time = time

    def __call__(self) -> str:
        return self.time


def relog(path: Path) -> int:
    """Rewrite `path`; returns the number of commands played again."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    game = next(r for r in records if r["record"] == "game")
    if game.get("seed") is None:
        raise SystemExit(f"{path}: the seed is not in the file; only a log exported with its seed can be re-adjudicated")
    first = next(r for r in records if r["record"] == "event" and r["body"]["seq"] == 1)["body"]["event"]
    ruleset = registry.get(game["ruleset"])
    own = first["origin"].get("data")  # a user's data folder the genesis carries
    fresh: dict[str, Any] = {"version": ruleset.version, "data_hash": ruleset.data_hash(own)}
    if "scenario" in first["origin"]:  # the scenario's set-up as this build makes it (the state may have changed shape)
        with ruleset.using_data(own):
            fresh["initial"] = to_builtins(ruleset.adopt_data(ruleset.new_state(first["scenario"], tuple(first["options"])), own))
            fresh["provisional"] = list(ruleset.provisional(first["scenario"]))
    created = msgspec.convert({**first, **fresh}, core.GameCreated)
    commands = [r for r in records if r["record"] == "command" and r["cmd"] > 0]
    clock = RecordedClock(game["created_at"])
    app = Arbitro(SQLiteStore(":memory:"), clock=clock)
    gid = app._start_game(ruleset, created, game["seed"], game["id"])  # the recorded seed, not a new one
    for record in commands:
        body = record["body"]
        clock.time = body["received_at"]
        try:
            app.submit(gid, body["seat"], body["command"], key=body["key"])
        except Rejected as e:
            raise SystemExit(f"{path}: command {body['cmd']} ({body['seat']}: {json.dumps(body['command'])}) is "
                             f"refused by this build: {e}") from None
    write_log(path, app, gid)
    return len(commands)


def main(argv: list[str]) -> None:
    if not argv:
        raise SystemExit(__doc__)
    for name in argv:
        print(f"{name}: {relog(Path(name))} commands re-adjudicated")


if __name__ == "__main__":
    main(sys.argv[1:])
