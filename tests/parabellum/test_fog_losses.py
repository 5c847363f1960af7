"""Losses under the fog of war (caldiero §20.4, arrivano §11.3.2), both games: a unit eliminated (or a commander lost)
where the enemy may not examine it is served to him as the turn track shows it (both §12.8: the unit, and whether it
is gone for good or the turn it comes back in; docs/rulesets/parabellum.md, "Losses under the fog"), never where it
fell nor why, whether he could see it fall or not (projections/parabellum.served_loss; its view shows it off the map with no hex).

Non-interference: two games that differ only in where an unseen French unit (or commander) fell and why serve Austria
the same bytes (its log item, view and status: bench/served.served); the umpire is served each
whole. The reading pinned: the unit's name and its box on the track are served (public at the table), in one shape
whether Austria could see it fall or not."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.events import parabellum as pb
from arbitro.events.codec import canonical
from arbitro.projections.base import UMPIRE
from arbitro.projections.views import redact_event, seat_view
from bench.served import served
from tests.arrivano import harness as A
from tests.caldiero import harness as C

ARRIVANO_X = A.open_ground()


def arrivano(at: str, leader_at: str | None = None) -> tuple[Any, Any, Any, str, str]:
    """Arrivano: 6e-legere-i at `at`, Watrin at `leader_at` (or with it), out of Austria's sight (IR 18 far off at
    3914)."""
    state = A.position({"6e-legere-i": at, "ir18-i": "3914"}, leaders={"watrin": leader_at or at})
    return A.RULESET, A.FOLD, state, "6e-legere-i", "watrin"


def caldiero(at: str, leader_at: str | None = None) -> tuple[Any, Any, Any, str, str]:
    """Caldiero under its fog option: fr-40-ligne at `at`, Massena at `leader_at` (or with it), out of Austria's sight
    (Colloredo at 1917)."""
    state = C.position({"fr-18-ligne": "1417", "fr-40-ligne": at, "au-colloredo": "1917"},
                       leaders={"massena": leader_at or at}, options=("fog_of_war",))
    return C.RULESET, C.FOLD, state, "fr-40-ligne", "massena"


def places(game: str) -> tuple[str, str]:
    """Two hexes out of Austria's sight in `game`'s position."""
    if game == "arrivano":
        grid = A.RULESET.data.scenarios["montebello"].map.grid
        return ARRIVANO_X, grid.neighbour(grid.neighbour(ARRIVANO_X, 4), 4)
    return "2518", "2618"


GAMES = {"arrivano": arrivano, "caldiero": caldiero}


def lost(game: str, at: str, events: list[Any], leader_at: str | None = None) -> tuple[bytes, bytes, Any]:
    """Austria's bytes and the umpire's for a command of France's that made `events` in the position with the unit at
    `at` and the commander at `leader_at` (or with it), and the state after them."""
    ruleset, fold, state, _, _ = GAMES[game](at, leader_at)
    hexes = {at, leader_at or at}
    assert ruleset.unexaminable(state, "austria", hexes) == hexes, "the French must stand out of Austria's sight"
    before = C.Table(state).game if game == "caldiero" else A.Table(state).game
    made = [("france", events)]
    after = fold.copy(before)
    for event in events:
        after = fold.apply_event(after, after.core.seq + 1, event)
    return served(ruleset, fold, before, made, "austria"), served(ruleset, fold, before, made, UMPIRE), after


def eliminations(game: str) -> tuple[list[Any], list[Any]]:
    """The unit eliminated to come back on turn 3, by an exchange, or as artillery alone (its rule, its cause)."""
    unit = GAMES[game]("0101")[3]
    return ([pb.UnitEliminated(unit=unit, permanent=False, return_turn=3, rule=f"{game} §12.8", cause=f"{game} §12.5.4")],
            [pb.UnitEliminated(unit=unit, permanent=False, return_turn=3, rule=f"{game} §11.1.1")])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_where_and_why_an_unseen_unit_fell_is_not_served(game: str) -> None:
    one, two = places(game)
    first, second = eliminations(game)
    austria_one, umpire_one, _ = lost(game, one, first)
    austria_two, umpire_two, _ = lost(game, two, second)
    assert umpire_one != umpire_two, "the umpire is served where and why"
    assert austria_one == austria_two, f"{game}: Austria is told where or why a unit it could not see fell"
    for secret in (one, two, "12.5.4", "11.1.1"):
        assert secret.encode() not in austria_one


@pytest.mark.parametrize("game", sorted(GAMES))
def test_where_and_how_an_unseen_commander_was_lost_is_not_served(game: str) -> None:
    one, two = places(game)
    leader = GAMES[game](one)[4]
    austria_one, umpire_one, _ = lost(game, one, [pb.LeaderLost(leader=leader, rule=f"{game} §8.2.3")], one)
    austria_two, umpire_two, _ = lost(game, one, [pb.LeaderLost(leader=leader, rule=f"{game} §4.5.3")], two)
    assert umpire_one != umpire_two
    assert austria_one == austria_two, f"{game}: Austria is told where or how a commander it could not see was lost"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_loss_out_of_sight_is_served_as_the_turn_track_shows_it(game: str) -> None:
    """The reading pinned (both §12.8): the unit, its box on the track; the rule its type cites (§12.8), not its own."""
    one, _ = places(game)
    first, _ = eliminations(game)
    ruleset = GAMES[game](one)[0]
    _, _, after = lost(game, one, first)
    unit = first[0].unit
    served_event = redact_event(ruleset, first[0], "austria", after)
    assert served_event == {"type": "unit_eliminated", "rule": f"{game} §12.8", "unit": unit, "permanent": False,
                            "return_turn": 3}
    view = seat_view(ruleset, after, "austria")["state"]["units"][unit]
    assert view["where"] == "track" and view["hex"] == ""
    assert seat_view(ruleset, after, UMPIRE)["state"]["units"][unit]["hex"] == after.rules.units[unit].hex  # (Arrivano's keeps it)


def test_a_loss_the_seat_saw_is_served_in_the_same_shape_and_its_own_whole() -> None:
    """Austria's IR 18 next to the French unit: Austria is served its loss as the track shows it all the same (one
    shape, judged by nobody's sight: what it saw fall it was served by the events around it); France, its own whole."""
    x = ARRIVANO_X
    grid = A.RULESET.data.scenarios["montebello"].map.grid
    state = A.position({"6e-legere-i": x, "ir18-i": grid.neighbour(x, 1)})
    assert not A.RULESET.unexaminable(state, "austria", [x])
    event = pb.UnitEliminated(unit="6e-legere-i", permanent=True, return_turn=0, rule="arrivano §12.8",
                              cause="arrivano §12.6.3")
    after = A.FOLD.apply_event(A.Table(state).game, 1, event)
    assert redact_event(A.RULESET, event, "austria", after) == {
        "type": "unit_eliminated", "rule": "arrivano §12.8", "unit": "6e-legere-i", "permanent": True, "return_turn": 0}
    assert canonical(redact_event(A.RULESET, event, "france", after)) == canonical(redact_event(A.RULESET, event, UMPIRE, after))
