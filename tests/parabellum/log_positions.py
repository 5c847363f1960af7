"""Positions of a shipped log (any ruleset with a `world`), for tests that compare a kept or shortened answer with the
whole one on real play."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arbitro.adjudicator import registry
from arbitro.adjudicator.exchange import read_lines
from arbitro.projections.fold import Fold

LOGS = Path(__file__).resolve().parents[2] / "logs"


def log_worlds(log: str, every: int) -> Iterator[tuple[int, Any]]:
    """The World (its ruleset's `world`) of every `every`th position of `log` (one right after each such event), with
    its event's index."""
    loaded = read_lines((LOGS / log).read_text(encoding="utf-8").splitlines(), log)
    ruleset = registry.get(loaded.game.ruleset)
    fold = Fold(ruleset)
    bodies = [fold.decode_checked(e.body) for e in loaded.events]
    state = None
    for i, body in enumerate(bodies):
        state = fold.apply(state, body, lambda seq: fold.fold(bodies[:seq]))
        if i % every == 0:
            yield i, ruleset.world(state.rules)
