"""The service's `legal(game, seat, piece)` (issue 15's lazy listing) on a fork of the tempo-regge log in a movement
step: the commands of the whole listing naming the piece, whether the whole listing is known at this head or not; the
umpire's and the other seat's as theirs; a string naming no piece, or an enemy's piece, lists nothing."""

from __future__ import annotations

import json
from pathlib import Path

from arbitro.adjudicator.ruleset import naming, pieces_named
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore

LOG = Path(__file__).resolve().parents[2] / "logs" / "caldiero-tempo-regge.jsonl"


def test_a_piece_s_listing_is_the_whole_listing_s_commands_naming_it() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    lines = LOG.read_text(encoding="utf-8").splitlines()
    parent = app.import_lines(lines, LOG.name, seat="umpire")
    # after command 201: France moving (191 until the log was played again for rev-l L6, sixteenth session)
    (after_201,) = [r["last_seq"] for r in map(json.loads, lines) if r.get("record") == "command" and r["cmd"] == 201]
    game = app.fork(parent, after_201, new_id="by-piece")
    state = app.state_at(game).rules
    assert state.step == "movement" and state.seat == "france"
    movers = sorted(state.activation.units)
    cold = {p: app.legal(game, "france", p) for p in movers}  # before the whole listing is worked out at this head
    whole = app.legal(game, "france")
    assert any(cold.values())
    for p in movers:
        assert cold[p] == naming(whole, p) == app.legal(game, "france", p)  # the second: from the whole, kept
    assert [c for c in whole if any(c in cold[p] for p in pieces_named(c))] == [c for c in whole if pieces_named(c)]
    assert app.legal(game, "umpire", movers[0]) == naming(app.legal(game, "umpire"), movers[0])
    enemy = next(u for u, s in state.units.items() if s.side == "austria")
    assert app.legal(game, "austria", movers[0]) == [] and app.legal(game, "france", enemy) == []
    assert app.legal(game, "france", "no such piece") == []
