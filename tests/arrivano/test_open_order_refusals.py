"""Open order's fire (arrivano §16.3, an optional rule): the refusals no test reached (coverage of tests/parabellum,
caldiero and arrivano, twenty-first session), each with its words and citation: an enemy unit ordered to fire, and
a firing hex the unit cannot reach."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import IllegalCommand
from tests.arrivano.harness import RULESET, at_step, open_ground, position

X = open_ground()
GRID = RULESET.data.scenarios["montebello"].map.grid
D, BACK = GRID.neighbour(X, 1), GRID.neighbour(X, 4)
FAR = next(h for h in sorted(GRID.hexes()) if GRID.distance(h, X) == 8)  # beyond any movement allowance


def refused(unit: str, to: str) -> IllegalCommand:
    state = position({"6e-legere-i": X, "ir18-i": D}, leaders={"watrin": BACK}, orders={"W": "manoeuvre"})
    state.options = ["light_troops_retreat", "open_order", "physical_exhaustion"]
    t = at_step(state, "W", "movement")
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "fire", "unit": unit, "to": to, "target": D})
    return e.value


def test_an_enemy_unit_ordered_to_fire_is_refused() -> None:
    e = refused("ir18-i", D)
    assert e.rule == "arrivano §16.3" and str(e).startswith("you may order only your own units to fire")


def test_a_firing_hex_out_of_reach_is_refused() -> None:
    e = refused("6e-legere-i", FAR)
    assert e.rule == "arrivano §16.3"
    assert str(e).startswith(f"6e-legere-i cannot reach {FAR} and fire from there at an enemy hex in sight")
