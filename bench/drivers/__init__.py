"""Log drivers: programs that play sample games through the application (adjudicator.service) and write them to
logs/. They sit above the application, so they live here rather than in a ruleset's package.

A driver plays the same game on every run: its dice seed is fixed by the game's name (`sample_seed`) and the
times it records come from `SampleClock`, so running a driver again under an unchanged build rewrites its log
byte for byte, and `git diff logs/` after a rule change shows exactly what the change did."""

from __future__ import annotations

import datetime
import hashlib
import json
from pathlib import Path

from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import canonical
from arbitro.projections.base import UMPIRE


def sample_seed(name: str) -> str:
    """The dice seed of the sample game `name`. A published sample log is no secret; a real game's seed is drawn
    fresh by `Arbitro.create`."""
    return hashlib.sha256(f"arbitro sample game|{name}".encode()).hexdigest()


def sample_salt_key(name: str) -> str:
    """The salt key of the sample game `name` (events.random), fixed like its seed so that the log is made again
    byte for byte; a real game's is drawn fresh, independent of its seed, by `Arbitro.create`."""
    return hashlib.sha256(f"arbitro sample game salt key|{name}".encode()).hexdigest()


class SampleClock:
    """The service's clock while a driver plays: a fixed start, one second later at each reading, in the form the
    service's own clock gives."""

    def __init__(self, start: str = "2026-01-01T00:00:00+00:00") -> None:
        self._next = datetime.datetime.fromisoformat(start)

    def __call__(self) -> str:
        reading, self._next = self._next, self._next + datetime.timedelta(seconds=1)
        return reading.isoformat(timespec="seconds")


def write_log(path: Path, app: Arbitro, game: str) -> None:
    """The umpire's export of `game`, with its seed, written to `path`: the whole log a relog plays again. It names
    no server key: the key that signed this run's receipts is drawn afresh by every run and signs nothing in it."""
    lines = list(app.export(game, UMPIRE, with_seed=True))
    lines[0] = canonical({**json.loads(lines[0]), "server_key": None}).decode()
    path.write_text("".join(line if line.endswith("\n") else line + "\n" for line in lines), encoding="utf-8")
