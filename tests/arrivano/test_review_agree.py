"""rev-agree: failing tests for the within_sub_phase reading of arrivano §12.2.1 (issue 19 item 12a)."""

from __future__ import annotations

import pytest
from arbitro.adjudicator.errors import IllegalCommand

from tests.arrivano.harness import at_step, position
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


def test_within_sub_phase_a_charge_is_listed_apart_from_cavalry_that_charged_another_hex():
    """arrivano §14.2 under zoc_attack_obligation=within_sub_phase (nothing owed at declaration): two stacked cavalry
    units that charged two different hexes, each next to both. Each may attack the hex it charged alone; the
    stack of both is refused (a charging cavalry attacks the hex it charged), so each must be listed apart, as the
    charge template holds only the cavalry that charged its targets."""
    start, target, other = GRID.neighbour(X, 4), GRID.neighbour(X, 1), GRID.neighbour(X, 2)
    state = position({"12e-hussards": X, "garde-consulaire": X, "ir18-i": target, "ir18-ii": other},
                     leaders={"lannes": start}, orders={"L": "attack"})
    t = at_step(state, "L", "combat")
    t.state.interpretations["zoc_attack_obligation"] = "within_sub_phase"
    t.state.units["12e-hussards"].charge, t.state.units["garde-consulaire"].charge = target, other
    listed = [c for c in t.legal("france") if c["type"] == "assault"]
    assert {"type": "assault", "attackers": ["12e-hussards"], "targets": [target]} in listed, listed
    assert {"type": "assault", "attackers": ["garde-consulaire"], "targets": [other]} in listed, listed
    assert all(len(c["attackers"]) == 1 for c in listed), listed


@pytest.mark.parametrize("status, rule", [("routed", "arrivano §15.2"), ("disordered", "arrivano §12.7.1")])
def test_a_routed_unit_is_refused_under_15_2_a_disordered_one_under_12_7_1(status: str, rule: str):
    """arrivano §15.2 "Le unità in Rotta non possono attaccare"; §12.7.1 speaks of "unità in Disordine" only."""
    t = fight({"6e-legere-i": X}, {"ir18-i": D})
    t.state.units["6e-legere-i"].status = status
    with pytest.raises(IllegalCommand) as e:
        assault(t, ["6e-legere-i"], [D])
    assert e.value.rule == rule and status in str(e.value)
