"""logs/marengo-full.jsonl: a complete 16-round game played through the adjudicator (tests/marengo/full_game.py).
It verifies standalone (re-adjudicated from its commands), shows every procedure, and serves no secret."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from tests.marengo.full_game import LOG, NEEDED
from arbitro.adjudicator.seat_numbers import events_of


@pytest.fixture(scope="module")
def game() -> tuple[Arbitro, str]:
    app = Arbitro(SQLiteStore(":memory:"))
    gid = app.import_lines(LOG.read_text().splitlines(keepends=True), str(LOG), seat="umpire")
    return app, gid


def test_log_verifies_by_readjudication() -> None:
    report = Arbitro(SQLiteStore(":memory:")).verify_lines(LOG.read_text().splitlines(keepends=True), str(LOG))
    assert report.passed, [c for c in report.checks if c.status != "passed"]
    assert report.provisional  # the game says it was played with reconstructed data


def test_log_is_a_full_game_with_every_procedure(game: tuple[Arbitro, str]) -> None:
    app, gid = game
    events = [e["event"] for e in app.log(gid, "umpire")]
    kinds = Counter(e["type"] for e in events)
    for k in NEEDED:
        assert kinds[k], k
    moved = Counter(e["kind"] for e in events if e["type"] == "blocks_moved")
    for k in ("enter", "pontoon", "road", "move", "retreat", "manoeuvre_enter", "continuation"):
        assert moved[k], k
    ends = [e for e in events if e["type"] == "turn_ended"]
    assert len(ends) == 32 and ends[-1]["round"] == 16 and ends[-1]["side"] == "france"
    state = app.state_at(gid).rules
    assert state.game_over and state.winner in ("austria", "france")
    assert sum(1 for e in events if e["type"] == "strength_lost") >= 10


def test_log_served_to_each_seat_holds_no_enemy_internal_id(game: tuple[Arbitro, str]) -> None:
    app, gid = game
    state = app.state_at(gid).rules
    for seat, enemy_prefix in (("austria", "FRA_"), ("france", "AUT_")):
        served = json.dumps(events_of(app.log(gid, seat))) + json.dumps(app.view(gid, seat))
        enemy_ids = [b for b in state.blocks if b.startswith(enemy_prefix)]
        assert not [b for b in enemy_ids if b in served], seat


def test_at_each_turn_end_only_a_declared_artillery_stays_face_up(game: tuple[Arbitro, str]) -> None:
    """marengo §4, §10: every reveal ends with its procedure or turn; only a declared bombardment's artillery
    stays face up into the enemy turn."""
    app, gid = game
    for e in app.log(gid, "umpire"):
        if e["event"]["type"] != "turn_ended":
            continue
        st = app.state_at(gid, e["seq"]).rules
        up = [b for b, x in st.blocks.items() if x.face_up and x.zone in {z.zone for z in st.blocks.values()}
              and x.zone != "eliminated" and not x.zone.startswith("pool:")]
        declared = {bm.block for bm in st.bombard.values()}
        assert set(up) <= declared, (e["seq"], up)
