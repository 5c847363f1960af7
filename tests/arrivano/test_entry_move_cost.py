"""arrivano §15.4 "pagando il costo dell'esagono di entrata": a unit waiting at its entry hex pays it, and its move's
cost counts it as Caldiero's does (the kernel's `Mover.spent`, read by `unit_moves.Move.cost_half`): before, Arrivano
took it off the allowance only, so a move's cost left the entry hex out."""

from __future__ import annotations

from arbitro.adjudicator.arrivano.movement import plan
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.arrivano.world import in_command
from arbitro.adjudicator.parabellum.movement import Mover, end_fits, entry_spent
from arbitro.adjudicator.parabellum.unit_moves import moves
from tests.arrivano.harness import RULESET, at_step, position

ENTRY = "1306"


def test_a_move_from_the_entry_hex_costs_the_entry_hex_too() -> None:
    state = position({"96e-i": "0802"}, leaders={"lannes": "0802"}, orders={"L": "advance"}, turn=3)
    state.units["garde-consulaire"].where, state.units["garde-consulaire"].hex = "waiting", ENTRY
    t = at_step(state, "L", "movement")
    w = RULESET.world(t.state)
    mover = plan(w, "garde-consulaire", False, in_command(w, "L"))
    assert isinstance(mover, Mover) and not mover.on_map
    entry = entry_spent(ARRIVANO_VARIANT, w, "infantry", ENTRY)
    assert entry > 0 and mover.spent == entry
    assert mover.budget == w.counters.unit("garde-consulaire").movement * 2 - entry
    found = moves(ARRIVANO_VARIANT, w, mover, end_fits(w, ("garde-consulaire",)))
    assert found[ENTRY].cost_half == entry  # staying on the entry hex (§15.4) costs it alone
    far = max(found, key=lambda h: (found[h].reach.costs[h], h))
    assert found[far].cost_half == entry + found[far].reach.costs[far] > entry
