"""Caricat! hides nothing (its rulebook prints no fog of war, no hand, no hidden draw: /work/shared/rules README's
table, docs/rulesets/caricat.md): over every shipped Caricat log both seats are served the very same log, and views
that differ only in whose they are. A ruleset change that hid something from one seat (a redaction, a private roll, a
view cut by seat) fails here until the game's list of hidden things (docs/testing.md "Hidden information") says what
and its non-interference test is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from bench.drivers.caricat import GAMES, LOGS
from tests.caricat.harness import RULESET

NAMES = [name for name, *_ in GAMES]


@pytest.mark.parametrize("name", NAMES)
def test_both_seats_are_served_the_same_log_and_view(name: str) -> None:
    path: Path = LOGS / f"{name}.jsonl"
    app = Arbitro(SQLiteStore(":memory:"))
    with open(path, encoding="utf-8") as f:
        game = app.import_lines(f, name, seat="umpire")
    first, second = app.game(game).seats
    assert app.log(game, first) == app.log(game, second)
    views = [app.view(game, seat) for seat in (first, second)]
    assert [v.pop("seat") for v in views] == [first, second] and views[0] == views[1]
    state = app.state_at(game).rules
    assert RULESET.secrets(state, first) == RULESET.secrets(state, second) == set()
