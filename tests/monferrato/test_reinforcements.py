"""Units coming into play: replacements (monferrato §16.6), the camp's return (§14.5), reinforcements entering an
enemy zone (§16.5)."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.monferrato.data import load
from tests.monferrato.harness import from_state, state

D = load()


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def test_replacements_bring_back_eliminated_units_of_the_command_four_a_zone_at_most() -> None:
    dead = {"spa_inf2": "eliminated", "spa_inf3": "eliminated", "spa_cav1": "eliminated"}
    g = from_state(state(placed=dead))
    g.send("pro_spain", type="play_chit", chit="chit02")  # Mercenari: two infantry (provisional table)
    assert g.awaited == "replacements"
    options = g.legal("pro_spain")
    assert {"type": "replace", "unit": "spa_inf2", "zone": "alessandria"} in options
    assert not [o for o in options if o["unit"] == "spa_cav1"]  # only the kinds the chit names
    assert options[-1] == {"type": "replace", "unit": None, "zone": None}
    g.send("pro_spain", type="replace", unit="spa_inf2", zone="milano")
    assert g.state.units["spa_inf2"].zone == "milano" and not g.state.units["spa_inf2"].disorganised
    g.send("pro_spain", type="replace", unit=None, zone=None)  # §16.6: the rest is lost
    assert g.awaited == "" and g.state.units["spa_inf3"].zone == "eliminated"


def test_a_camp_out_of_play_returns_at_a_source_with_friendly_units() -> None:
    g = from_state(state(placed={"spa_camp": "eliminated"}))
    assert {"type": "return_camp", "unit": "spa_camp", "zone": "milano"} in g.legal("pro_spain")
    g.send("pro_spain", type="return_camp", unit="spa_camp", zone="milano")
    assert g.state.units["spa_camp"].zone == "milano"
    g.reject("pro_spain", "monferrato §14.5", "once eliminated", type="return_camp", unit="spa_camp", zone="milano")


def test_reinforcements_entering_the_enemy_fight_and_are_eliminated_if_they_lose() -> None:
    hands = {"pro_france": ["chit05", "chit03", "chit04", "chit06"], "pro_spain": ["chit02", "chit11", "chit14"]}
    s = state(command="gonzaga", seat="pro_france", hands=hands, turn=D.turn_index["1628-07"],
              placed={"sav_gar2": "guillestre", "sav_inf1": "guillestre"})
    g = from_state(s, transcribed=True)
    events = g.send("pro_france", type="play_chit", chit="chit05")
    assert of(events, "battle_began")[0]["zone"] == "guillestre"  # §16.5
    assert g.awaited == "response"  # Uxelles may call no one: nothing of his within reach
    g.send("pro_spain", type="respond", chit=None)
    g.enter(5, 5, 5, 5, 5, 5, 5)  # Uxelles and six units miss (the sapper does not fire)
    g.enter(1, 6)  # the Savoyards hit once: the French lose
    assert g.awaited == "take_hit"
    g.send("pro_france", type="take_hit", unit="fra_inf1")
    events = g.enter(6)  # Uxelles survives
    gone = of(events, "eliminated")
    assert gone and gone[-1]["rule"] == "monferrato §16.5"
    assert g.state.units["fra_inf2"].zone == "eliminated"
