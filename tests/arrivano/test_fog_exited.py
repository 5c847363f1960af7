"""A Neapolitan unit out of play through its retreat flag (arrivano §17.2.1, reading neapolitan_retreat_flags:
exit_not_eliminated) where the French may not examine it (§11.3.2): France is served it as the turn track shows a
piece gone from the map (projections/parabellum.TRACK_SHOWN: which unit, whose, that it left), never how it stood
when it went (its reduced side, its status), which the view served whole before.

Non-interference: two games differing only in the unit's reduced side and status serve France the same bytes (its
log item, view and status: bench/served.served); the umpire is served each whole."""

from __future__ import annotations

from typing import Any

from arbitro.events import arrivano as ev
from arbitro.projections.base import UMPIRE
from arbitro.projections.views import seat_view
from bench.served import served
from tests.arrivano import harness as A

FLAG_D = "1012"  # retreat flag D (tests/arrivano/test_retreats.py)
UNIT = "real-principessa"


def exited(reduced: bool, status: str) -> tuple[bytes, bytes, Any]:
    """France's bytes and the umpire's for Naples' command that took the unit (`reduced`, `status`) off the map
    through flag D, out of France's sight (the French far off), and the state after it."""
    far = next(h for h in A.RULESET.data.scenarios["campotenese"].map.hexes()
               if A.RULESET.data.scenarios["campotenese"].map.grid.distance(h, FLAG_D) > 12)
    state = A.position({UNIT: FLAG_D, "42e-1": far}, scenario="campotenese", weather=1)
    state.units[UNIT].reduced, state.units[UNIT].status = reduced, status
    assert A.RULESET.unexaminable(state, "france", [FLAG_D]) == {FLAG_D}, "the unit must stand out of France's sight"
    before = A.Table(state).game
    made = [("naples", [ev.UnitExited(unit=UNIT, hex=FLAG_D, flag="D", rule="arrivano §17.2.1; arrivano §12.8.1")])]
    after = A.FOLD.apply_event(A.FOLD.copy(before), before.core.seq + 1, made[0][1][0])
    return served(A.RULESET, A.FOLD, before, made, "france"), served(A.RULESET, A.FOLD, before, made, UMPIRE), after


def test_how_an_unseen_unit_stood_when_it_left_through_its_flag_is_not_served() -> None:
    france_one, umpire_one, after = exited(False, "good")
    france_two, umpire_two, _ = exited(True, "disordered")
    assert umpire_one != umpire_two, "the umpire is served how it stood"
    assert france_one == france_two, "France is told how a unit it could not see stood when it left"
    view = seat_view(A.RULESET, after, "france")["state"]["units"][UNIT]
    assert view["where"] == "exited" and view["hex"] == "" and "status" not in view and "reduced" not in view
