"""A commander entering from off the map pays his entry hex as a unit entering there pays it (§15.4 in both: "pagando
il costo dell'esagono di entrata", one rule for every piece): `movement.entry_spent`, by road where a road runs
there and the table prices the terrain so. Caldiero's shipped table prices no terrain by road, so the test gives
its plain an `on_road` price: a commander who paid the off-road price would keep one half point less than he should."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.caldiero.system_movement import step_cost
from arbitro.adjudicator.maps.costs import MovementTable
from arbitro.adjudicator.parabellum import commander_move as commander_module
from arbitro.adjudicator.parabellum import movement
from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.parabellum.commander_move import (
    commander_destination_problem, commander_move, leader_ends, leader_entry, move_leader,
)
from tests.caldiero import harness


def _plain_cheaper_by_road(table: MovementTable) -> MovementTable:
    plain = table.terrain["pianura"].model_copy(update={"on_road": {"default": 1}})
    return table.model_copy(update={"terrain": {**table.terrain, "pianura": plain}})


def test_a_commander_pays_his_entry_hex_as_a_unit_entering_there(monkeypatch: pytest.MonkeyPatch) -> None:
    state = harness.position({"fr-40-ligne": "1515"}, leaders={"massena": "1515"})
    state.leaders["alvinczy"].where, state.turn = "offmap", 3
    ruleset = harness.RULESET
    world = ruleset.world(state)
    entry = leader_entry(world, "alvinczy")
    assert entry == "2714" and world.hexmap.terrain(entry) == "pianura" and world.hexmap.roads_at(entry)
    in_force = movement.costs_in_force
    cheaper = lambda variant, w: _plain_cheaper_by_road(in_force(variant, w))  # noqa: E731
    monkeypatch.setattr(movement, "costs_in_force", cheaper)
    monkeypatch.setattr(commander_module, "costs_in_force", cheaper)
    unit_pays = step_cost(world, None, entry, False)
    assert unit_pays == 1  # the road's price, §15.4
    move = commander_move(ruleset.variant, world, "alvinczy")
    assert move is not None and not move.on_map and move.origin == entry
    assert move.budget == world.counters.commander_movement("alvinczy") * 2 - unit_pays


def test_an_entry_hex_enemy_units_hold_keeps_him_off_the_map() -> None:
    """§15.4 with §9.1.2 in both: a commander due to enter where enemy combat units stand has no move now (none
    listed), and a move is refused citing the reinforcements' rule, naming the hex."""
    state = harness.position({"fr-40-ligne": "2714"}, leaders={"massena": "1515"})
    state.leaders["alvinczy"].where, state.turn = "offmap", 3
    world = harness.RULESET.world(state)
    variant = harness.RULESET.variant
    assert commander_move(variant, world, "alvinczy") is None and leader_ends(variant, world, "alvinczy") == {}
    with pytest.raises(Rejected) as refused:
        move_leader(variant, None, world, "alvinczy", "2614", variant.rules.LEADER_MOVE)  # type: ignore[arg-type]
    assert refused.value.rule == "caldiero §15.4"
    assert refused.value.message == "alvinczy cannot enter the map at 2714 now (caldiero §15.4)"


def test_an_entering_commander_s_allowance_is_worded_as_what_his_entry_hex_left_him() -> None:
    """§9.1.4 with §15.4: a hex beyond what is left after his entry hex is refused naming those MP, not his whole
    allowance."""
    state = harness.position({"fr-40-ligne": "1515"}, leaders={"massena": "1515"})
    state.leaders["provera"].where, state.turn = "offmap", 5
    world = harness.RULESET.world(state)
    variant = harness.RULESET.variant
    move = commander_move(variant, world, "provera")
    assert move is not None and move.budget == 10  # 6 MP less the plain's 1
    far = next(h for h in sorted(world.grid.within("2714", 8)) if world.grid.distance("2714", h) == 8)
    rule, words = commander_destination_problem(variant, world, move, far)
    assert rule == variant.rules.LEADER_MOVE and words.startswith(f"{far} is beyond the 5 MP left him after his entry hex, or")
