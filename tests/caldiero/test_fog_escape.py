"""Caldiero's commander's flight under the fog of war (caldiero §8.2.3, parabellum/escape.py, under the optional
§20.4): no shipped Caldiero fog log has one (Montebello's are tested in tests/parabellum/test_fog_escape.py), so a
position made for it, the one of tests/caldiero/test_sequence.py's lone leader with the fog in force: France's unit
enters Hohenzollern's hex, he must flee (his owner chooses where). Two games differing only in the hex out of
France's sight he fled to serve France the same bytes (its log of the flight, its view after it, status:
bench/served.py); and the check bites: his flight served whole tells them apart."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.engine import NoHistory
from arbitro.adjudicator.parabellum.ruleset import ParaBellumRuleset
from arbitro.events.parabellum import LeaderMoved
from bench.served import served
from tests.caldiero.harness import FOLD, RULESET, Table, activate, position
from tests.hex.harness import Dice


def fled() -> tuple[Table, list[bytes]]:
    """France's unit in the lone Hohenzollern's hex, the fog in force: the bytes France is served of each flight
    Austria may choose that ends out of France's sight, one a flight."""
    state = position({"fr-18-ligne": "1417", "au-colloredo": "2117"}, options=("fog_of_war",),
                     leaders={"massena": "1317", "hohenzollern": "1617"}, orders={"massena": "manoeuvre"})
    t = activate(state, "massena", step="movement")
    t.send("france", {"type": "move", "units": ["fr-18-ligne"], "to": "1617"})
    top = t.awaited()
    assert top is not None and top.kind == "escape" and top.seats == ("austria",)
    before, services = t.game, []
    for answer in t.legal("austria"):
        done = t.engine.decide(FOLD.copy(before), "austria", answer, t.context, NoHistory(), Dice([], 3))
        if "hohenzollern" in RULESET.hidden_pieces(done.state.rules, "france"):
            services.append(served(RULESET, FOLD, before, [("austria", done.events)], "france"))
    return t, services


def test_a_flight_out_of_sight_serves_france_the_same_bytes_wherever_it_ends() -> None:
    _, services = fled()
    assert len(services) >= 2, "the flight has fewer than two ends out of France's sight: the test compares nothing"
    assert len(set(services)) == 1


def test_a_flight_served_whole_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """A leak put back: the flight (`LeaderMoved`, not his own move) served to France whole, its end in it."""
    redact = ParaBellumRuleset.redact

    def whole(self: Any, event: Any, seat: str, state: Any) -> dict[str, Any] | None:
        return msgspec.to_builtins(event) if isinstance(event, LeaderMoved) else redact(self, event, seat, state)
    monkeypatch.setattr(ParaBellumRuleset, "redact", whole)
    _, services = fled()
    assert len(set(services)) == len(services) >= 2
