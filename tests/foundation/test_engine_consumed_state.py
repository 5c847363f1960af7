"""A command the engine decides on a state its caller gives up (`decide(..., consume=True)`: the service's submit and
verify) and is refused after its rules changed that state leaves nothing half changed anywhere: not the head served
later, from the head cache or a fresh fold, nor the state a suspended roll is asked from."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.ruleset import Decision
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.game import state_bytes
from tests.foundation import duel


class MidwayDuel(duel.DuelRuleset):
    """The duel, whose card play changes the state (its CardPlayed folded) and only then is refused, and whose
    guard changes the state before it rolls (a roll a transcribed game suspends)."""

    name = "midwayduel"

    def decide(self, ctx: Decision[duel.DuelState], command: Any) -> None:
        if isinstance(command, duel.PlayCard):
            ctx.emit(duel.CardPlayed(seat=ctx.seat, card=ctx.state.cards[ctx.seat], rule=str(duel.R_CARD)))
            ctx.reject(duel.R_CARD, "second thoughts, after the card was played")
        if isinstance(command, duel.GuardCmd):
            ctx.emit(duel.CardPlayed(seat=ctx.seat, card=ctx.state.cards[ctx.seat], rule=str(duel.R_CARD)))
        super().decide(ctx, command)


registry.register("midwayduel", "tests.foundation.test_engine_consumed_state:MidwayDuel")


@pytest.mark.parametrize("cache", ["warm", "cold"])
def test_a_command_refused_after_its_rules_changed_the_state_leaves_the_head_whole(cache: str) -> None:
    """The service gives the engine its private copy of the head (consume); refused midway, nothing of it stays:
    the head served later, from the head cache (warm) or from a fresh fold (cold: another process), is unchanged."""
    store = SQLiteStore(":memory:")
    app = Arbitro(store)
    app.create("midwayduel", "standard", game_id="g")
    before = state_bytes(app.state_at("g"))
    judge = app if cache == "warm" else Arbitro(store)
    with pytest.raises(IllegalCommand):
        judge.submit("g", "red", {"type": "play_card"})
    assert state_bytes(judge.state_at("g")) == before
    assert state_bytes(Arbitro(store).state_at("g")) == before
    judge.submit("g", "red", {"type": "attack", "aim": "high"})
    assert judge.state_at("g").rules.played == {"red": False, "blue": False}
    assert judge.verify("g").passed


def test_a_roll_to_enter_is_asked_from_the_state_before_the_command_changed_it() -> None:
    """A transcribed game suspends a command that rolls: what the command did before its roll is discarded, from
    a state the engine changed in place (consume); the request is recorded on the state as it was."""
    app = Arbitro(SQLiteStore(":memory:"))
    app.create("midwayduel", "standard", game_id="g", transcribed=True)
    status = app.status("g")
    assert status.awaiting, "the opening's draws are entered first"
    # enter the opening's draws as the umpire, whatever they ask
    while True:
        state = app.state_at("g")
        top = state.core.decisions[-1] if state.core.decisions else None
        if top is None:
            break
        request = top.ctx
        values = ([1] * request.count) if request.kind == "dice" else list(request.population[: request.count])
        app.submit("g", "umpire", {"type": "enter_random", "values": values})
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    app.submit("g", "blue", {"type": "guard", "stance": "low"})
    after = app.state_at("g")
    assert after.rules.played == {"red": False, "blue": False}, "the card played before the roll is discarded"
    assert after.core.decisions, "the roll is awaited"
