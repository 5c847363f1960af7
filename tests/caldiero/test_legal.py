"""legal() and decide() agree: across self-played games (historical, and Il tempo regge with every optional
rule), every command legal() offers is accepted by the adjudicator."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.randomness import SeededSupply
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore

ALL = ("bonaparte_intervention", "cavalry_charges", "storm_from_east", "fog_of_war", "flank_attacks")


@pytest.mark.parametrize("scenario, options, seed", [("historical", (), "agree-1"), ("il_tempo_regge", ALL, "agree-2")])
def test_every_legal_command_is_accepted(scenario: str, options: tuple[str, ...], seed: str) -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("caldiero", scenario, options)
    play = SelfPlay(app, game, seed=seed)
    adj = app.adjudicator("caldiero")
    context = app.context(app.game(game))
    checked = 0
    for step in range(160):
        state = app.state_at(game)
        for seat in play.awaited():
            legal = app.legal(game, seat)
            sample = legal if len(legal) <= 12 else legal[:: max(1, len(legal) // 12)]
            for command in sample:
                try:
                    adj.decide(state, seat, command, context, app.replayer(game), SeededSupply(app.game(game).seed or ""))
                except Rejected as e:
                    pytest.fail(f"step {step}: legal() offered {command} to {seat} but decide rejected it: {e}")
                checked += 1
        if not play.step():
            break
    assert checked > 300
