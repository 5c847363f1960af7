"""The shipped logs (logs/*.jsonl) served to each of their seats: no roll, draw or move tells a seat what it could not
see at the table (arbitro §V.4), and no hash served to a seat is the SHA-256 of a state or of another seat's command
record (arbitro §V.3)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.game import state_hash

from .leaks import hidden_content_hashes, log_fog_leaks, served_everything

LOGS = sorted((Path(__file__).resolve().parents[2] / "logs").glob("*.jsonl"))
HASH = re.compile(r"[0-9a-f]{64}")


def imported(path: Path) -> tuple[Arbitro, str]:
    app = Arbitro(SQLiteStore(":memory:"))
    with open(path, encoding="utf-8") as f:
        return app, app.import_lines(f, path.name, seat="umpire")


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_shipped_log_serves_no_fog_leak(path: Path) -> None:
    app, game = imported(path)
    leaks = log_fog_leaks(app, game)
    assert leaks == [], f"{len(leaks)} fog leaks, e.g. {leaks[:3]}"


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_shipped_log_serves_no_hash_of_hidden_content(path: Path) -> None:
    app, game = imported(path)
    replayer = app.replayer(game)
    states, state, last = [], None, None
    for body in replayer.bodies():
        if last is not None and body.cmd != last:
            states.append(state_hash(state))  # the state at each command boundary
        state = replayer.fold.apply(state, body, replayer.state_at)
        last = body.cmd
    states.append(state_hash(state))
    found = []
    for seat in app.game(game).seats:
        served = set(HASH.findall(served_everything(app, game, seat)))
        found += [f"{what} served to {seat}" for what, digest in hidden_content_hashes(app, game, seat, states)
                  if digest in served]
    assert found == [], f"{len(found)} hashes of hidden content served, e.g. {found[:3]}"
