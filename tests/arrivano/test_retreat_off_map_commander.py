"""arrivano §4.5.4 ("Se tutte le unità nell'esagono con un Comandante sono
eliminate questo deve fare un test") after a retreat off the map along a path (flow.do_retreat with line.off_map ->
flow.leave_map, now retreat_ground.take). A commander stacked with the only unit of his hex: on the map the kernel's retreat_ground.take takes him
along (a commander left alone goes with the stack); off the map the unit's UnitRetreated moves it to the edge hex and
its elimination tests the commanders THERE (none), so he stays where the retreat began, alone next to the enemy,
neither carried nor tested: he escapes §4.5.4's test that the same unit's elimination in his hex would have made."""

from __future__ import annotations

from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from tests.arrivano.test_retreats import AUSTRIANS, E, E_NEXT, GRID, pending_retreat, position


def test_a_commander_whose_stack_retreats_off_the_map_is_carried_or_tested() -> None:
    inner = next(h for h in E_NEXT if len(GRID.neighbours(h)) == 6)
    others = [h for h in GRID.neighbours(inner) if h != E] + [h for h in E_NEXT if h != inner]
    austrians = AUSTRIANS + ["ir28-i", "ir28-ii", "ir28-iii", "ir17-i"]
    state = position({"6e-legere-i": inner} | dict(zip(austrians, sorted(set(others)))), leaders={"watrin": inner})
    state.units["6e-legere-i"].status = "routed"
    t = pending_retreat(state, ["6e-legere-i"], hexes=2, rule=ARRIVANO_VARIANT.rules.ROUT_COMBAT)
    before = len(t.rolls)
    t.send("france", t.legal("france")[0], dice=[6], pad=0)
    assert t.state.units["6e-legere-i"].where == "eliminated"
    tested = [r for r in t.rolls[before:] if "4.5.4" in r.purpose]
    assert tested or t.state.leaders["watrin"].hex != inner, \
        f"watrin left alone at {inner} (the retreat's start), neither carried off with his stack nor tested (arrivano §4.5.4)"
