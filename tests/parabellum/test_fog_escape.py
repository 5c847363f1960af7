"""A commander's flight (§8.2.3 in both books, arrivano §4.5.6; parabellum/escape.py, frame kind `escape`) under the
fog of war (arrivano §11.3.2, caldiero §20.4: "si può esaminare uno stack nemico solo se si ha una LoS"): the enemy
unit that made him flee stands in or next to his hex, so the frame and where he stood are in the enemy's sight, but
where he flees to need not be. Two games differing only in the unseen hex he fled to serve the enemy identical bytes
(its log of the flight, its view after it, status: bench/served.py), at every flight of the shipped Montebello fog
log that has two unseen ends; and the check bites: his flight served whole is found.

The positions are found in the log, not pinned by number: the log is played again when its commands must change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.parabellum.escape import ESCAPE
from arbitro.adjudicator.parabellum.ruleset import ParaBellumRuleset
from arbitro.events.parabellum import LeaderMoved
from bench.nifuzz import Game, play, replayed
from bench.served import served

LOG = Path(__file__).resolve().parents[2] / "logs" / "arrivano-montebello.jsonl"
FLIGHTS = 4  # the flights compared: each with its ends out of the enemy's sight (a dozen in the log)


@pytest.fixture(scope="module")
def montebello() -> Game:
    return replayed(LOG)


def unseen_flights(game: Game) -> dict[int, set[bytes]]:
    """Of the log's first `FLIGHTS` flights with two ends or more out of the enemy's sight, each (by command number)
    with the distinct bytes the enemy is served of the flight to each such end: one where nothing tells them apart."""
    rs, found = game.ruleset, {}
    for cmd, seat, command, state in game.positions:
        if command.get("type") != ESCAPE or len(found) == FLIGHTS:
            continue
        enemy = next(s for s in rs.seats(state.rules) if s != seat)
        leader = state.core.decisions[-1].ctx.leader
        services, ends = set(), 0
        for answer in (c for c in game.engine.legal(state, seat) if c.get("type") == ESCAPE and c["to"] is not None):
            flight = play(game, state, seat, answer)
            assert flight.events is not None and flight.after is not None, f"#{cmd} {answer}: {flight.result}"
            if leader in rs.hidden_pieces(flight.after.rules, enemy):
                ends += 1
                services.add(served(rs, game.engine.fold, state, [(seat, flight.events)], enemy))
        if ends >= 2:
            found[cmd] = services
    return found


def test_a_flight_out_of_sight_serves_the_enemy_the_same_bytes_wherever_it_ends(montebello: Game) -> None:
    flights = unseen_flights(montebello)
    assert len(flights) >= 2, "the log's flights out of sight are gone: the test compares nothing"
    assert {cmd: len(services) for cmd, services in flights.items()} == dict.fromkeys(flights, 1)


def test_a_flight_served_whole_is_found(montebello: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """A leak put back: the commander's flight (`LeaderMoved`, not his own move) served whole to the enemy, the hex
    he fled to in it: the flights above are then told apart."""
    redact = ParaBellumRuleset.redact

    def whole(self: Any, event: Any, seat: str, state: Any) -> dict[str, Any] | None:
        return msgspec.to_builtins(event) if isinstance(event, LeaderMoved) else redact(self, event, seat, state)
    monkeypatch.setattr(ParaBellumRuleset, "redact", whole)
    flights = unseen_flights(montebello)
    assert flights and all(len(services) > 1 for services in flights.values())
