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
from arbitro.adjudicator.parabellum.commander_move import commander_move, leader_entry
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
