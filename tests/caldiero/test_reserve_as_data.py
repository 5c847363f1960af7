"""rev-f F5: the reserve (caldiero §15.4.3) is the formation oob.json marks `reserve`, and the formations it may join
are its side's with a general; the French choosing their orders at set-up (§21.2) are those the order of battle gives
none. A folder naming them otherwise (the reserve "riserva") is played as the shipped one."""

from __future__ import annotations

import json

import pytest

from arbitro.adjudicator.caldiero.system_activation import reserve_joining
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.events.parabellum import OrderChanged
from tests.caldiero.harness import RULESET, Table


RENAMED = {"reserve": "riserva", "augereau": "div-augereau"}


def _renamed() -> dict[str, str]:
    """The shipped folder with the reserve's id "riserva" and Augereau's formation's "div-augereau" (their units, the
    general's record, §19.1's direction and §20.1's `takes` say so)."""
    files = RULESET.read_data(RULESET.folder.folder)
    oob = json.loads(files["caldiero/oob.json"])
    for record in (*oob["formations"], *oob["units"], *oob["leaders"]):
        for key in ("id", "formation"):
            if record.get(key) in RENAMED and (key == "formation" or record in oob["formations"]):
                record[key] = RENAMED[record[key]]
    scenario = json.loads(files["caldiero/scenario.json"])
    scenario["options"]["bonaparte_intervention"]["takes"] = "riserva"
    for direction in scenario["attack_directions"]:  # caldiero §19.1
        direction["formation"] = RENAMED.get(direction["formation"], direction["formation"])
    return files | {"caldiero/oob.json": json.dumps(oob), "caldiero/scenario.json": json.dumps(scenario)}


def _joining(files: dict[str, str] | None, formation: str, turn: int) -> list[str]:
    with RULESET.using_data(files):
        state = RULESET.new_state("historical", ())
    state.data_files, state.turn = files or {}, turn
    return reserve_joining(RULESET.world(state), formation)


def test_the_reserve_is_the_formation_marked_reserve() -> None:
    renamed = _renamed()
    for formation, turn in (("massena", 3), ("augereau", 3), ("massena", 6), ("augereau", 6)):
        shipped = _joining(None, formation, turn)
        assert _joining(renamed, RENAMED.get(formation, formation), turn) == shipped, (formation, turn)
    assert _joining(None, "massena", 3)  # the shipped reserve's units due on turn 3 join (§15.4.3)


def test_the_french_choose_the_orders_the_order_of_battle_leaves_unset() -> None:
    """caldiero §21.2: at set-up France chooses the orders of its formations printed without one (Massena and
    Augereau): the set-up lists exactly those, and its end waits for them, whatever the formations' ids."""
    renamed = _renamed()
    for files, french in ((None, {"massena", "augereau"}), (renamed, {"massena", "div-augereau"})):
        with RULESET.using_data(files):
            state = RULESET.new_state("historical", ())
        state.data_files = files or {}
        state.seat = "france"
        assert {c["formation"] for c in RULESET.legal(state, "france") if c["type"] == "change_order"} == french


def test_a_side_with_no_order_to_choose_at_set_up_is_told_so() -> None:
    """caldiero §21.2: Austria's order of battle prints every formation's order: its change_order at set-up is refused
    saying it chooses none (not "chooses the orders of no formation only")."""
    state = RULESET.new_state("historical", ())
    state.seat = "austria"
    with pytest.raises(IllegalCommand) as e:
        Table(state).send("austria", {"type": "change_order", "formation": "hohenzollern", "order": "attack"})
    assert "austria chooses no formation's order" in str(e.value) and e.value.rule == "caldiero §21.2", str(e.value)


def test_a_side_choosing_an_order_at_set_up_is_named_in_its_event() -> None:
    """caldiero §21.2 as the order of battle gives it: a user's order of battle printing Hohenzollern's formation
    without an order lets Austria choose it at set-up, and the order_changed names Austria as the side that chose."""
    files = RULESET.read_data(RULESET.folder.folder)
    oob = json.loads(files["caldiero/oob.json"])
    for formation in oob["formations"]:
        if formation["id"] == "hohenzollern":
            formation["initial_order"] = None
    files = files | {"caldiero/oob.json": json.dumps(oob)}
    with RULESET.using_data(files):
        state = RULESET.new_state("historical", ())
    state.data_files, state.seat = files, "austria"
    t = Table(state)
    events = t.send("austria", {"type": "change_order", "formation": "hohenzollern", "order": "attack"})
    changed = [e for e in events if isinstance(e, OrderChanged)]
    assert changed and changed[0].by == "austria" and changed[0].rule == "caldiero §21.2", changed
