"""A unit lost out of the enemy's sight, both games (caldiero §20.4, arrivano §11.3.2; docs/rulesets/parabellum.md
"Losses under the fog"): the enemy's view shows it as the turn track does (projections/parabellum.TRACK_SHOWN: which
unit, whose, gone for good or the turn it comes back in), never how it stood when it went. Its `reduced` side would
tell why a unit went for good: both §12.8 send away for good a unit already on its reduced side, and a rule forces
out a full one (a rout's surrender §15.2.1, no retreat §12.6.3); the event is served alike either way (served_loss),
and so must the view be (rev-b's review, finding 2). Likewise a battery's Moved side (caldiero §11.0).

Two games differing only in a hidden fact (how the French unit, out of Austria's sight, stood before it went) serve
Austria the same bytes (its log item, view and status)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.parabellum import reinforcements
from arbitro.events import parabellum as pb
from arbitro.projections.parabellum import TRACK_SHOWN
from arbitro.projections.views import seat_view
from bench.served import served
from tests.arrivano import harness as A
from tests.caldiero import harness as C
from tests.parabellum.test_fog_losses import GAMES, places


def lost_for_good(game: str, stood: dict[str, Any], rule: str) -> tuple[bytes, Any, str]:
    """Austria's bytes for France's unit, out of Austria's sight and standing as `stood` says, eliminated for good
    by `rule`, with the game after and the unit."""
    at, _ = places(game)
    ruleset, fold, state, unit, _ = GAMES[game](at)
    for name, value in stood.items():
        setattr(state.units[unit], name, value)
    before = C.Table(state).game if game == "caldiero" else A.Table(state).game
    assert ruleset.unexaminable(state, "austria", [at]) == {at}
    assert unit not in seat_view(ruleset, before, "austria")["state"]["units"], "a marker only, before"
    event = pb.UnitEliminated(unit=unit, permanent=True, return_turn=0, rule=rule, cause=rule)
    after = fold.apply_event(fold.copy(before), before.core.seq + 1, event)
    return served(ruleset, fold, before, [("france", [event])], "austria"), after, unit


@pytest.mark.parametrize("game", sorted(GAMES))
def test_why_an_unseen_unit_went_for_good_is_not_served(game: str) -> None:
    assert reinforcements.eliminated_for_good(False, True, True) and reinforcements.eliminated_for_good(True, False, True)
    reduced, _, _ = lost_for_good(game, {"reduced": True}, f"{game} §12.8")
    forced, _, _ = lost_for_good(game, {"reduced": False}, f"{game} §15.2.1")
    assert reduced == forced, f"{game}: Austria is told whether the unit it could not see was reduced (why it went)"


def test_whether_an_unseen_battery_had_moved_is_not_served_once_it_is_lost() -> None:
    """Caldiero's fold keeps a battery's Moved side (§11.0) when it is eliminated: a gun moved out of sight."""
    bytes_: list[bytes] = []
    for moved in (True, False):
        gun = "fr-massena-iv-8pdr"
        state = C.position({"fr-18-ligne": "1417", gun: "2518", "au-colloredo": "1917"}, options=("fog_of_war",))
        state.units[gun].art_moved = moved
        assert C.RULESET.unexaminable(state, "austria", ["2518"]) == {"2518"}
        event = pb.UnitEliminated(unit=gun, permanent=True, return_turn=0, rule="caldiero §12.8", cause="caldiero §12.8")
        bytes_.append(served(C.RULESET, C.FOLD, C.Table(state).game, [("france", [event])], "austria"))
    assert bytes_[0] == bytes_[1], "Austria is told whether a battery it could not see had moved before it was lost"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_lost_enemy_unit_is_viewed_as_the_track_shows_it(game: str) -> None:
    _, after, unit = lost_for_good(game, {"reduced": True}, f"{game} §12.8")
    ruleset = GAMES[game](places(game)[0])[0]
    shown = seat_view(ruleset, after, "austria")["state"]["units"][unit]
    assert set(shown) <= TRACK_SHOWN and shown["where"] == "eliminated" and shown["hex"] == "", shown
    assert seat_view(ruleset, after, "france")["state"]["units"][unit]["reduced"] is True, "its own side: whole"
