"""A position's overrides in Caricat! (issue 19 item 13): a unit's or a leader's printed values, a hex's terrain, a
unit added or removed; each changes what the rules do, is checked with every problem at once, and is named as
non-standard by `status`; the game verifies on the data it carries."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.creation import POSITION_FORMAT
from arbitro.adjudicator.errors import BadPosition, Rejected
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.caricat import CaricatState
from tests.caricat.conformance.kit import Played, Step
from tests.caricat.harness import activated, position

# savoia1 (broglia's, fire 3, at Advance) beside kinsky1 (morale 5) on clear ground; savoia2 two hexes off
DUEL = {"savoia1": "0801", "savoia2": "0601", "kinsky1": "0802", "kinsky2": "3305"}
FIRE = {"type": "fire", "units": ["savoia1"], "target": "kinsky1"}


def game(state: CaricatState, *overrides: dict[str, Any]) -> Played:
    pos = {"format": POSITION_FORMAT, "ruleset": "caricat", "scenario": state.scenario, "options": [],
           "state": msgspec.to_builtins(state), "overrides": list(overrides)}
    app = Arbitro(SQLiteStore(":memory:"))
    return Played(app, app.create("caricat", position=pos, transcribed=True))


def duel(*overrides: dict[str, Any]) -> Played:
    return game(activated(position(units=DUEL, levels={"broglia": "advance"}), "broglia"), *overrides)


def fired(g: Played, dice: int) -> dict[str, Any]:
    """savoia1's fire at kinsky1 with `dice` dice rolled (all 1s, kinsky1's fire back too)."""
    events = g.send(Step("italian", FIRE, dice=((1,) * dice, (1, 1, 1))))
    return next(e for e in events if e["type"] == "fire_resolved" and not e["defensive"])


def test_a_standard_position_is_not_named_non_standard():
    g = duel()
    assert g.app.status(g.id).non_standard == []
    assert fired(g, 3)["needed"] == 5  # kinsky1's printed morale (caricat §7.1.1)


def test_a_units_printed_morale_and_fire_are_overridden_and_named():
    g = duel({"kind": "unit", "unit": "kinsky1", "morale": 2}, {"kind": "unit", "unit": "savoia1", "fire": [4, 3]})
    assert fired(g, 4)["needed"] == 2  # four dice (fire 4), each hitting on 2 or more
    assert g.app.status(g.id).non_standard == ["unit kinsky1: printed morale not the counter's (caricat §1.3)",
                                               "unit savoia1: printed fire not the counter's (caricat §1.3)"]
    assert g.app.verify(g.id).passed


def test_a_leaders_command_points_are_overridden():
    """broglia stands with savoia1; savoia2 two hexes off is in his range of 3, out of it with a range of 0 (§4.3)."""
    melee = {"type": "melee", "units": ["savoia2"], "target": "kinsky1"}
    units = {**DUEL, "savoia2": "0701"}
    standard = game(activated(position(units=units), "broglia"))
    assert any(c == melee for c in standard.app.legal(standard.id, "italian"))
    g = game(activated(position(units=units), "broglia"), {"kind": "leader", "leader": "broglia", "command": 0})
    assert melee not in g.app.legal(g.id, "italian")
    with pytest.raises(Rejected) as refused:
        g.app.submit(g.id, "italian", melee)
    assert refused.value.rule == "caricat §4.3"
    assert g.app.status(g.id).non_standard == ["leader broglia: printed command not the counter's (caricat §1.4)"]


def test_a_hexs_terrain_is_overridden():
    """A village takes a fire die (the provisional terrain effects table): kinsky1's clear hex made one."""
    g = duel({"kind": "hex", "hex": "0802", "terrain": "villaggio"})
    assert fired(g, 2)["dice"] == 2
    assert g.app.status(g.id).non_standard == ["hex 0802: terrain not the map's (terrain effects table)"]


def test_a_unit_added_and_a_unit_removed_change_the_order_of_battle():
    extra = {"id": "bersaglieri", "name": "Bersaglieri", "side": "italian", "kind": "infantry", "leader": "broglia",
             "morale": 7, "melee": [3, 2], "fire": [2, 1], "hex": "0902"}
    g = duel({"kind": "unit_added", "unit": extra}, {"kind": "unit_removed", "unit": "kinsky2"})
    state = g.state
    assert state.units["bersaglieri"].hex == "0902" and "kinsky2" not in state.units
    assert {"type": "fire", "units": ["bersaglieri"], "target": "kinsky1"} in g.app.legal(g.id, "italian")
    assert g.app.status(g.id).non_standard == [
        "unit bersaglieri (italian infantry) added to the order of battle (caricat §1.3)",
        "unit kinsky2 removed from the order of battle (caricat §1.3)"]
    assert g.app.verify(g.id).passed


def test_every_problem_of_every_override_is_reported_at_once():
    with pytest.raises(BadPosition) as refused:
        duel({"kind": "weather"}, {"kind": "unit", "unit": "nobody", "morale": 3},
             {"kind": "hex", "hex": "0802", "terrain": "palude"}, {"kind": "unit", "unit": "savoia1"},
             {"kind": "leader", "leader": "broglia", "value": 13})
    message = str(refused.value)
    for words in ("overrides[0]: unknown kind 'weather'", "overrides[1] (unit): no unit in the scenario 'nobody'",
                  "overrides[2] (hex): the data it leaves", "palude",
                  "overrides[3] (unit): name what it changes", "overrides[4] (leader): value"):
        assert words in message
