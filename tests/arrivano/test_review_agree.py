"""rev-agree: failing tests for the within_sub_phase reading of arrivano §12.2.1 (issue 19 item 12a)."""

from __future__ import annotations

import pytest
from arbitro.adjudicator.errors import IllegalCommand

from tests.arrivano.test_combat import D, GRID, X, assault, fight


def test_within_sub_phase_an_owed_hex_no_other_unit_can_reach_is_not_simply_dropped():
    """arrivano §12.2.1 / §12 "tutte le unità nemiche nella sua ZoC devono essere attaccate, non necessariamente
    dalla stessa unità": a lone Attack-order unit with two enemy hexes in its ZoC may not attack only the weaker
    one when no other friendly unit can attack the other in this sub-phase. Today the declaration is accepted and
    the obligation 'lapses' at once, so within_sub_phase lets any attacker pick its defender."""
    other = GRID.neighbour(X, 2)
    t = fight({"6e-legere-i": X}, {"ir18-i": D, "ir18-ii": other})
    t.state.interpretations["zoc_attack_obligation"] = "within_sub_phase"
    one_hex = {"type": "assault", "attackers": ["6e-legere-i"], "targets": [D]}
    assert one_hex not in t.legal("france")
    with pytest.raises(IllegalCommand) as e:
        assault(t, ["6e-legere-i"], [D], dice=[5, 2])
    assert e.value.rule == "arrivano §12.2.1"
