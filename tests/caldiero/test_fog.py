"""Fog of war (caldiero §20.4) end to end: a self-played game in which nothing served to a seat (its view,
the events of each command as served to it) names an enemy unit that seat may not examine."""

from __future__ import annotations

import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.adjudicator.seat_numbers import events_of
from tests.conformance.leaks import leaked


def test_fog_of_war_game_serves_no_hidden_unit() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    ruleset = registry.get("caldiero")
    game = app.create("caldiero", "historical", ("fog_of_war",))
    leaks: list[str] = []
    hidden_seen = 0

    def check(seat_acting: str, command: dict[str, object], result: dict[str, object]) -> None:
        nonlocal hidden_seen
        state = app.state_at(game)
        events = result.events
        for seat in ("france", "austria"):
            secret = ruleset.secrets(state.rules, seat)
            hidden_seen += len(secret)
            served = {"view": app.view(game, seat)}
            if events:
                served["events"] = events_of(app.log(game, seat, events[0]["seq"]))  # type: ignore[index]
            text = msgspec.json.encode(msgspec.to_builtins(served)).decode()
            leaks.extend(f"{s} served to {seat}" for s in leaked(text, secret))

    SelfPlay(app, game, seed="fog", on_step=check).play(400)
    assert hidden_seen > 0  # the fog hid something during the game
    assert leaks == []
