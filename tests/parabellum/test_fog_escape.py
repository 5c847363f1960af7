"""A commander's flight (§8.2.3 in both books, arrivano §4.5.6; parabellum/escape.py, frame kind `escape`) under the
fog of war (arrivano §11.3.2, caldiero §20.4: "si può esaminare uno stack nemico solo se si ha una LoS"): the enemy
unit that made him flee stands in or next to his hex, so the frame and where he stood are in the enemy's sight, but
where he flees to need not be. Two games differing only in the unseen hex he fled to serve the enemy identical bytes
(its log of the flight, its view after it, status: bench/served.py), at every flight of the shipped Montebello fog
log that has two unseen ends; and the check bites: his flight served whole is found. Whether he has anywhere to go
(lost where he must flee and cannot, §8.2.3; settled at once where he may only stay; else his owner chooses:
escape.settled) reads his side's units only where the enemy may examine them: in the enemy's ZoC (§8.2.2 "se
entrambi gli esagoni sono occupati da unità di combattimento amiche"), next to its units, which it always examines
(sight.in_view); so his side's units out of its sight, all taken off the map, change neither his answers nor what
the enemy is served of the flight (rev-l's question, fogx's note: not the ZoC limit of §V.4).

The positions are found in the log, not pinned by number: the log is played again when its commands must change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.parabellum.escape import ESCAPE
from arbitro.adjudicator.parabellum.ruleset import ParaBellumRuleset
from arbitro.events.parabellum import LeaderMoved
from arbitro.events.codec import canonical
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


def answers(game: Game, state: Any, seat: str) -> list[dict[str, Any]]:
    """The flight's answers listed to his owner, in canonical order: none where he is lost or stays by himself."""
    return sorted((c for c in game.engine.legal(state, seat) if c.get("type") == ESCAPE), key=canonical)


def without(game: Game, state: Any, units: list[str]) -> Any:
    """`state` with `units` taken off the map."""
    other = game.engine.fold.copy(state)
    for u in units:
        other.rules.units[u].where, other.rules.units[u].hex = "offmap", ""
    return other


def flights_and_friends(game: Game) -> list[tuple[int, str, Any, list[str], list[str]]]:
    """Every flight of the log waiting for its owner: (command, owner, state, his side's units on the map the enemy
    may not examine, those it may)."""
    rs, out = game.ruleset, []
    for cmd, seat, _, state in game.positions:
        if not state.core.decisions or state.core.decisions[-1].kind != ESCAPE:
            continue
        enemy = next(s for s in rs.seats(state.rules) if s != seat)
        hidden = rs.hidden_pieces(state.rules, enemy)
        mine = sorted(u for u, x in state.rules.units.items() if x.side == seat and x.where == "map")
        out.append((cmd, seat, state, [u for u in mine if u in hidden], [u for u in mine if u not in hidden]))
    return out


def test_a_flight_reads_none_of_his_side_s_units_out_of_the_enemy_s_sight(montebello: Game) -> None:
    """At every flight with units of his side out of the enemy's sight, those units taken off the map: his owner is
    listed the same answers (so he is lost, stays or flees alike, §8.2.3, arrivano §4.5.6), and the enemy is served
    the same log and status of the flight his owner's first answer makes (its view differs by the units taken off,
    the test's own change, not the flight's)."""
    rs, compared = montebello.ruleset, 0
    for cmd, seat, state, unseen, _ in flights_and_friends(montebello):
        if not unseen:
            continue
        other, enemy = without(montebello, state, unseen), next(s for s in rs.seats(state.rules) if s != seat)
        listed = answers(montebello, state, seat)
        assert answers(montebello, other, seat) == listed, f"#{cmd}: the flight read his unseen units"
        a, b = play(montebello, state, seat, listed[0]), play(montebello, other, seat, listed[0])
        assert a.events is not None and b.events is not None, f"#{cmd}: {a.result} {b.result}"
        (log_a, _, status_a), (log_b, _, status_b) = (msgspec.json.decode(served(
            rs, montebello.engine.fold, s, [(seat, p.events)], enemy)) for s, p in ((state, a), (other, b)))
        assert (log_a, status_a) == (log_b, status_b), f"#{cmd}: the enemy is served the flight differently"
        compared += 1
    assert compared >= 5, "the log's flights with unseen friends are gone: the test compares nothing"


def test_a_flight_reads_his_side_s_units_the_enemy_sees(montebello: Game) -> None:
    """The check bites: his side's units in the enemy's sight taken off the map change his answers at some flight
    (they are the friends that open an enemy ZoC to him, §8.2.2), so the test above compares a reading that reads
    units, not one that reads none."""
    assert any(answers(montebello, without(montebello, state, seen), seat) != answers(montebello, state, seat)
               for _, seat, state, _, seen in flights_and_friends(montebello))
