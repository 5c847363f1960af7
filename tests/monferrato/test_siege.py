"""Sieges and forts (monferrato §8-§10), from positions with the umpire entering every die."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.monferrato import siege
from tests.monferrato.harness import Game, from_state, state

SIEGE = {"spa_art1": "trino", "spa_art2": "trino", "spa_sap1": "trino", "spa_sap2": "trino", "spa_inf1": "trino",
         "spa_camp": "trino", "gon_gar1": "eliminated"}


def at_trino(**fields: Any) -> Game:
    g = from_state(state(placed=SIEGE, **fields), transcribed=True)
    g.send("pro_spain", type="activate", zones=["trino"], commander=None)
    return g


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def test_bombarding_a_fortress_lowers_the_wall_side_and_a_six_bursts_the_gun() -> None:
    g = at_trino()
    assert {"type": "bombard", "units": ["spa_art1", "spa_art2"], "target": "casale"} in g.legal("pro_spain")
    g.send("pro_spain", type="bombard", units=["spa_art1", "spa_art2"], target="casale")
    events = g.enter(3, 6)
    assert of(events, "wall_battered")[0] == {"type": "wall_battered", "side": "casale/trino", "level": 2,
                                              "rule": "monferrato §8.1"}
    assert of(events, "eliminated")[0]["units"] in (("spa_art2",), ["spa_art2"])  # §8: the six
    g.reject("pro_spain", "monferrato §5.3", "free to act", type="bombard", units=["spa_art1"], target="casale")


def test_the_lakes_of_mantua_and_a_breach_take_one_off_the_guns() -> None:
    s = state(placed={"spa_art1": "goito", "spa_sap1": "goito"})
    assert siege.gun_value(s, "spa_art1", "goito", "mantova", "walls") == 2  # special rule 1: 3 - 1
    s.units["spa_sap1"].zone = "eliminated"
    assert siege.gun_value(s, "spa_art1", "goito", "mantova", "walls") == 1  # 1, not below
    t = state(placed={"spa_art1": "trino", "spa_sap1": "trino"}, walls={**state().walls, "casale/trino": 0})
    assert siege.bombard_mode(t, "pro_spain", "trino", "casale") == "breach"
    assert siege.gun_value(t, "spa_art1", "trino", "casale", "breach") == 2  # §8.2: -1 through a breach


def test_guns_inside_a_fortress_fire_at_the_besiegers_who_need_not_retreat() -> None:
    s = state(command="gonzaga", seat="pro_france", placed=SIEGE)
    g = from_state(s, transcribed=True)
    g.send("pro_france", type="activate", zones=["casale"], commander=None)
    g.send("pro_france", type="bombard", units=["gon_art2", "gon_art3"], target="trino")
    events = g.enter(1, 1)
    volley = of(events, "volley")[0]
    assert volley["rule"] == "monferrato §8.2" and volley["saved"] == 1  # Trino's town shelters its occupants
    assert g.awaited == "take_hit"  # the besiegers allocate the hit (§7.3)
    events = g.send("pro_spain", type="take_hit", unit="spa_inf1")
    assert not of(events, "retreated") and g.awaited == "retreat"  # §8.2 "possono farlo se vogliono"
    assert {"type": "retreat", "to": "stay"} in g.legal("pro_spain")
    events = g.send("pro_spain", type="retreat", to="stay")
    assert not of(events, "retreated") and g.state.units["spa_inf1"].zone == "trino" and g.awaited == ""


def test_mines_are_laid_then_fired_in_a_later_activation() -> None:
    g = at_trino()
    g.send("pro_spain", type="siege", units=["spa_sap1", "spa_sap2"], operation="mine", side="casale/trino")
    events = g.enter(3, 4)  # fire 3: one mine
    assert of(events, "mines_changed")[0]["mines"] == 1 and g.state.fresh_mines == {"casale/trino": 1}
    g.reject("pro_spain", "monferrato §5.3", "free to act", type="siege", units=["spa_sap1"], operation="detonate",
             side="casale/trino")
    g2 = at_trino(mines={"casale/trino": 2}, mine_owner={"casale/trino": "pro_spain"})
    g2.send("pro_spain", type="siege", units=["spa_sap1", "spa_sap2"], operation="detonate", side="casale/trino")
    events = g2.enter(2, 6)  # one explodes (a breach), one is lost
    assert g2.state.walls["casale/trino"] == 0 and "casale/trino" not in g2.state.mines
    assert of(events, "wall_battered")[0]["level"] == 0


def test_no_mine_across_a_river() -> None:
    g = from_state(state(placed={"spa_sap1": "vercelli", "spa_camp": "vercelli"}), transcribed=True)
    g.send("pro_spain", type="activate", zones=["vercelli"], commander=None)
    g.reject("pro_spain", "monferrato §9.1", "river", type="siege", units=["spa_sap1"], operation="mine",
             side="casale/vercelli")


def test_countermines_and_rebuilding_from_inside() -> None:
    s = state(command="gonzaga", seat="pro_france", placed=SIEGE, mines={"casale/trino": 1},
              mine_owner={"casale/trino": "pro_spain"}, walls={**state().walls, "casale/trino": 1})
    g = from_state(s, transcribed=True)
    g.send("pro_france", type="activate", zones=["casale"], commander=None)
    g.send("pro_france", type="siege", units=["gon_sap2"], operation="countermine", side="casale/trino")
    g.enter(4)
    assert not g.state.mines  # fire 4: removed (§9.2)
    s.units["gon_sap1"].zone = "casale"
    g = from_state(s, transcribed=True)
    g.send("pro_france", type="activate", zones=["casale"], commander=None)
    g.send("pro_france", type="siege", units=["gon_sap1", "gon_sap2"], operation="rebuild", side="casale/trino")
    g.enter(1, 1)
    assert g.state.walls["casale/trino"] == 3  # §9.3: up to the printed level, no further
    g.reject("pro_france", "monferrato §5.3", "free to act", type="siege", units=["gon_sap1"], operation="rebuild",
             side="casale/moncalvo")


def test_mines_go_when_their_zone_is_left_empty() -> None:
    g = at_trino(mines={"casale/trino": 1}, mine_owner={"casale/trino": "pro_spain"})
    g.send("pro_spain", type="move", units=["spa_inf1", "spa_sap1", "spa_sap2"], path=["vercelli"])
    assert "casale/trino" in g.state.mines  # the guns are still there
    g2 = from_state(state(placed={"spa_inf1": "trino", "spa_camp": "trino"}, mines={"casale/trino": 1},
                          mine_owner={"casale/trino": "pro_spain"}), transcribed=True)
    g2.send("pro_spain", type="activate", zones=["trino"], commander=None)
    events = g2.send("pro_spain", type="move", units=["spa_camp", "spa_inf1"], path=["vercelli"])
    assert of(events, "mines_changed")[0]["mines"] == 0 and not g2.state.mines  # §9.1


def test_sappers_build_and_destroy_forts_within_the_limits() -> None:
    g = at_trino(fort_counters={"pro_france": 1, "pro_spain": 2})
    g.reject("pro_spain", "monferrato §10", "no fort of yours", type="fort", unit="spa_sap1", action="destroy")
    events = g.send("pro_spain", type="fort", unit="spa_sap1", action="build")
    assert of(events, "fort_built")[0]["zone"] == "trino" and g.state.fort_counters["pro_spain"] == 1
    assert g.state.forts["trino"] == ["pro_france", "pro_spain"]
    g.reject("pro_spain", "monferrato §10", "already built or destroyed", type="fort", unit="spa_sap2", action="build")
    g = at_trino(fort_counters={"pro_france": 1, "pro_spain": 2}, forts={"trino": ["pro_france", "pro_spain"]})
    g.reject("pro_spain", "monferrato §10", "2 forts already", type="fort", unit="spa_sap1", action="build")
    g.send("pro_spain", type="fort", unit="spa_sap1", action="destroy")
    assert g.state.forts["trino"] == ["pro_france"]
    g = at_trino(fort_counters={"pro_france": 1, "pro_spain": 0})
    g.reject("pro_spain", "monferrato §10 (scenario, Regole speciali 6)", "counters", type="fort", unit="spa_sap1", action="build")
    counters = state().fort_counters
    assert counters == {"pro_france": 1, "pro_spain": 0}  # scenario: three each, set-up forts counted
    g = from_state(state(placed={"spa_sap1": "casalmaggiore"}, fort_counters={"pro_france": 1, "pro_spain": 1}))
    g.send("pro_spain", type="activate", zones=["casalmaggiore"], commander=None)
    g.reject("pro_spain", "monferrato §13.2", "attack supply", type="fort", unit="spa_sap1", action="build")


def test_forts_left_alone_are_converted_or_destroyed_by_who_enters() -> None:
    g = from_state(state(placed={"gon_gar1": "eliminated", "spa_inf1": "vercelli"},
                         fort_counters={"pro_france": 1, "pro_spain": 1}, forts={"trino": ["pro_france"]}))
    g.send("pro_spain", type="activate", zones=["vercelli"], commander=None)
    g.send("pro_spain", type="move", units=["spa_inf1"], path=["trino"])
    assert g.awaited == "spoils"
    assert g.legal("pro_spain") == [{"type": "take_forts", "convert": 0, "destroy_town": False},
                                    {"type": "take_forts", "convert": 1, "destroy_town": False}]
    events = g.send("pro_spain", type="take_forts", convert=1, destroy_town=False)
    assert of(events, "forts_taken")[0]["converted"] == 1 and g.state.forts["trino"] == ["pro_spain"]
    assert g.state.fort_counters["pro_spain"] == 0


def test_the_attacker_who_wins_in_a_town_may_destroy_it_unless_a_fort_stood_there() -> None:
    s = state(placed={"gon_inf2": "vercelli", "spa_inf1": "novara", "spa_inf2": "novara", "spa_inf3": "novara",
                      "spa_camp": "novara"})
    s.units["spa_gar3"].zone = "eliminated"
    g = from_state(s, transcribed=True)
    g.send("pro_spain", type="activate", zones=["novara"], commander=None)
    g.send("pro_spain", type="move", units=["spa_inf1", "spa_inf2", "spa_inf3"], path=["vercelli"])
    g.send("pro_france", type="respond", chit=None)
    g.enter(1, 1, 1)  # three hits, one taken off by the town (§9.4)
    g.enter(6)  # Gonzaga eliminated (two hits, one unit)
    assert g.awaited == "spoils"
    events = g.send("pro_spain", type="take_forts", convert=0, destroy_town=True)
    assert of(events, "forts_taken")[0]["rule"] == "monferrato §9.4" and "vercelli" in g.state.towns_destroyed
