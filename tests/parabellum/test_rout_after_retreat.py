"""§15.2 after a retreat, one reading for both games (parabellum/retreat_ground.arrived, interpretation `rout_trigger`
in both games' interpretations.json; the books say alike "Se un nemico arriva adiacente ad una unità in Rotta").

An Austrian unit answers a pending one-hex retreat (events/parabellum.RetreatAwaited) with a line ending next to a
routed French unit. By default (`end_of_move`) a retreat makes no arrival: no rout test (Arrivano's code tested there
up to the eleventh session, against its own documented reading). Under an umpire's `any_arrival` the routed unit
tests, on one die, citing §15.2 (Caldiero had no such reading before)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.events import core
from arbitro.events.parabellum import RetreatAwaited
from tests.arrivano import harness as A
from tests.caldiero import harness as C

READINGS = ("end_of_move", "any_arrival")


def caldiero(reading: str) -> tuple[Any, str, str, Any]:
    """The Austrian Mahoney jäger at 1517 retreating from the French at 1417, the French 40e routed at 1618 (next to
    both ends of its retreat, 1518 and 1617)."""
    state = C.position({"fr-18-ligne": "1417", "au-mahoney-jager": "1517", "fr-40-ligne": "1618"},
                       leaders={"massena": "1317"})
    state.units["fr-40-ligne"].status = "routed"
    state.seat = "austria"
    t = C.Table(state, {"rout_trigger": reading})
    frame = core.Frame(kind="retreat", seats=("austria",), rule="caldiero §12.6", prompt="retreat",
                       ctx=RetreatAwaited(moves={"au-mahoney-jager": 1}))
    t.game.core.decisions = (frame,)
    return t, "fr-40-ligne", "caldiero §15.2", C.RULESET.world(state).grid


def arrivano(reading: str) -> tuple[Any, str, str, Any]:
    """IR 18 in open ground retreating from the 6e légère next to it, the 28e routed next to both ends of its
    retreat."""
    x = A.open_ground()
    grid = A.RULESET.data.scenarios["montebello"].map.grid
    state = A.position({"ir18-i": x, "6e-legere-i": grid.neighbour(x, 1), "28e-i": grid.neighbour(x, 4)})
    state.units["28e-i"].status = "routed"
    t = A.Table(state, {"rout_trigger": reading}).with_frame("retreat", "austria", "arrivano §12.6",
                                                              {"moves": {"ir18-i": 1}})
    return t, "28e-i", "arrivano §15.2", grid


GAMES = {"caldiero": caldiero, "arrivano": arrivano}


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_retreat_ending_next_to_a_routed_enemy_makes_it_test_only_under_any_arrival(game: str, reading: str) -> None:
    t, routed, rule, grid = GAMES[game](reading)
    options = t.legal("austria")
    ends = [o["path"][-1] if "path" in o else o["to"] for o in options]
    assert len(options) > 1 and all(grid.is_adjacent(h, t.state.units[routed].hex) for h in ends), options
    before = len(t.rolls)
    t.send("austria", options[0], dice=[6], pad=0)
    tests = [r for r in t.rolls[before:] if rule in r.purpose]
    if reading == "any_arrival":
        assert len(tests) == 1 and t.state.units[routed].where != "map"  # 6 fails: eliminated
    else:
        assert tests == [] and len(t.rolls) == before and t.state.units[routed].where == "map"
