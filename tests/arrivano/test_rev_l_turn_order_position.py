"""rev-l (fifteenth session), on rules15's F3 (f905f985): `UnitState.turn_order` is Caldiero's (§5.3.1 "per questo
turno"); Arrivano never sets it and its fold never clears it, yet the kernel's order_of reads it for both games. A
position (a position file, a fork, a ruling) giving an Arrivano unit a turn_order is accepted, and the unit then
obeys that order whatever its command (arrivano §5.3: "ha automaticamente un Ordine di Difesa" out of command) for
the rest of the game. Skipped where the state has no turn_order (main before rules15 lands)."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.projections.parabellum import UnitState
from tests.parabellum.test_ruleset import RULESETS, SCENARIOS

pytestmark = pytest.mark.skipif("turn_order" not in UnitState.__struct_fields__, reason="rules15 not landed")


def test_an_arrivano_position_giving_a_unit_a_turn_order_is_refused() -> None:
    ruleset = RULESETS[ARRIVANO_VARIANT.book]()
    state = ruleset.new_state(SCENARIOS[ARRIVANO_VARIANT.book], ())
    state.units[sorted(state.units)[0]].turn_order = "attack"
    assert any("turn_order" in p for p in ruleset.validate_position(state))
