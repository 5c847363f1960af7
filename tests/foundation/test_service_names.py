"""No attribute an `Arbitro` sets on itself is named like a call of its class: the class carries every reading call
(ReadingCalls, ExchangeCalls, KeyCalls), and an instance attribute of the same name hides that call, failing only
when it is called (`clock`, the wall clock, once hid a reading call of the game's clock: it is `wall_clock`)."""

from __future__ import annotations

from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore


def test_no_attribute_of_an_arbitro_hides_a_call_of_its_class() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    hidden = sorted(name for name in vars(app) if hasattr(Arbitro, name))
    assert hidden == []


def test_the_wall_clock_is_given_by_its_name_and_stamps_what_arrives() -> None:
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-11-30T19:00:00+00:00")
    app.create("duel", "standard", game_id="g")
    assert app.game("g").created_at == "2026-11-30T19:00:00+00:00"
    assert not hasattr(app, "clock")
