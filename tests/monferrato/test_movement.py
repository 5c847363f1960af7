"""Activation (monferrato §5, §5.2, §5.3), movement (§6, §2.3.1, §14.4, §14.5, §13.1), supply (§13, §13.2) and
recovery (§7.4.3), from positions played through the service."""

from __future__ import annotations

from arbitro.adjudicator.monferrato import supply
from arbitro.adjudicator.monferrato.data import load
from tests.monferrato.harness import from_state, state, types

D = load()
# Gonzaga infantry at Nizza, its every line to Casale or Mantova cut by Spanish units or unbridged rivers (§13)
CUT_OFF = {"gon_inf2": "nizza", "spa_inf1": "asti", "spa_inf2": "mencucco", "spa_inf3": "acqui", "spa_inf4": "chieri"}


def moving(command: str, seat: str, placed: dict[str, str], zone: str, **fields: object):  # type: ignore[no-untyped-def]
    g = from_state(state(command=command, seat=seat, placed=placed, **fields))
    g.send(seat, type="activate", zones=[zone], commander=None)
    return g


def test_infantry_moves_three_and_difficult_terrain_costs_two() -> None:
    g = moving("milano", "pro_spain", {}, "alessandria")
    g.reject("pro_spain", "monferrato §6", "costs 4", type="move", units=["spa_inf1"], path=["rosignano", "valenza", "tortona"])
    g.send("pro_spain", type="move", units=["spa_inf1"], path=["tortona", "pavia", "lodi"])
    assert g.state.units["spa_inf1"].zone == "lodi"
    g.reject("pro_spain", "monferrato §5.3", "free to act", type="move", units=["spa_inf1"], path=["milano"])


def test_a_group_moves_at_its_slowest_and_cavalry_moves_five_but_four_in_winter() -> None:
    g = moving("milano", "pro_spain", {}, "alessandria", turn=D.turn_index["1628-03"])
    path = ["tortona", "pavia", "lodi", "milano", "novara"]
    g.reject("pro_spain", "monferrato §6", "allowance is 3", type="move", units=["spa_cav1", "spa_inf1"], path=path)
    g.send("pro_spain", type="move", units=["spa_cav1"], path=path)
    winter = moving("milano", "pro_spain", {}, "alessandria")  # Gennaio-Febbraio
    winter.reject("pro_spain", "monferrato §6", "allowance is 4", type="move", units=["spa_cav1"], path=path)


def test_an_unbridged_river_takes_the_whole_allowance_and_is_closed_to_artillery() -> None:
    g = moving("gonzaga", "pro_france", {"gon_inf2": "alba", "gon_art2": "alba"}, "alba")
    g.reject("pro_france", "monferrato §6", "cannot be crossed", type="move", units=["gon_art2"], path=["carmagnola"])
    g.reject("pro_france", "monferrato §6", "only step", type="move", units=["gon_inf2"], path=["cuneo", "carmagnola"])
    g.reject("pro_france", "monferrato §6", "the move ends there", type="move", units=["gon_inf2"],
             path=["carmagnola", "torino"])
    g.send("pro_france", type="move", units=["gon_inf2"], path=["carmagnola"])


def test_the_special_passages() -> None:
    g = moving("milano", "pro_spain", {"spa_inf1": "milano"}, "milano")
    g.reject("pro_spain", "monferrato §2.3.1", "the move ends there", type="move", units=["spa_inf1"],
             path=["cremona", "casalmaggiore"])
    g.send("pro_spain", type="move", units=["spa_inf1"], path=["cremona"])
    g = moving("milano", "pro_spain", {"spa_inf1": "lodi"}, "lodi")
    g.reject("pro_spain", "monferrato §2.3.1", "only step", type="move", units=["spa_inf1"], path=["milano", "cremona"])
    g = moving("gonzaga", "pro_france", {"gon_inf2": "moncalvo"}, "moncalvo")
    g.send("pro_france", type="move", units=["gon_inf2"], path=["mencucco", "asti"][:1] + ["nizza"])  # 1, then 1


def test_a_unit_stops_on_entering_the_enemy_and_lone_commanders_and_sappers_are_eliminated() -> None:
    g = moving("milano", "pro_spain", {"nevers": "valenza", "gon_sap2": "valenza"}, "alessandria")
    g.reject("pro_spain", "monferrato §6", "stop there", type="move", units=["spa_inf1"], path=["valenza", "lomellina"])
    g.reject("pro_spain", "monferrato §6", "only with other combat units", type="move", units=["cordoba"], path=["valenza"])
    events = g.send("pro_spain", type="move", units=["spa_inf1"], path=["valenza"])
    gone = [e for e in events if e["type"] == "eliminated"][0]
    assert gone["units"] == ("gon_sap2", "nevers") or list(gone["units"]) == ["gon_sap2", "nevers"]


def test_no_entry_into_an_enemy_fortress_without_a_breach() -> None:
    g = moving("milano", "pro_spain", {"spa_inf1": "rosignano"}, "rosignano")
    g.reject("pro_spain", "monferrato §6", "through a breach", type="move", units=["spa_inf1"], path=["casale"])


def test_venice_is_closed_until_its_chit_and_french_prudence_scores_for_pro_spain() -> None:
    g = moving("gonzaga", "pro_france", {}, "mantova")
    g.reject("pro_france", "monferrato §16.5 (scenario, Regole speciali 5)", "Venice", type="move", units=["gon_cav1"], path=["marmirolo", "monte_chiaro"])
    g = moving("uxelles", "pro_france", {"fra_inf1": "tortona"}, "tortona")
    events = g.send("pro_france", type="move", units=["fra_inf1"], path=["pavia"])
    vp = [e for e in events if e["type"] == "victory_points"][0]
    assert (vp["seat"], vp["delta"], vp["prudence"]) == ("pro_spain", 8, "2")
    assert g.state.prudence == ["2"]


def test_several_zones_need_the_commander_within_radius_and_leadership() -> None:
    g = from_state(state(command="savoia", placed={"sav_gar4": "chieri", "sav_gar1": "col_d_asti", "sav_gar2": "pinerolo"}))
    g.reject("pro_spain", "monferrato §5", "command radius", type="activate", zones=["asti", "pinerolo"],
             commander="carlo_emanuele")
    g.reject("pro_spain", "monferrato §5", "several zones need", type="activate", zones=["asti", "chieri"])
    g.reject("pro_spain", "monferrato §5.2", "no unit of command", type="activate", zones=["casale"])
    options = [o for o in g.legal("pro_spain") if o["type"] == "activate" and o["commander"]]
    assert {"type": "activate", "zones": ["asti", "chieri", "col_d_asti"], "commander": "carlo_emanuele"} in options
    g.send("pro_spain", type="activate", zones=["asti", "chieri", "col_d_asti"], commander="carlo_emanuele")
    g.send("pro_spain", type="move", units=["sav_gar4"], path=["torino"])
    g.reject("pro_spain", "monferrato §5.3", "free to act", type="move", units=["sav_gar2"], path=["torino"])


def test_the_camp_moves_one_zone_with_its_army_and_turns_over() -> None:
    g = moving("milano", "pro_spain", {}, "alessandria")
    g.reject("pro_spain", "monferrato §14.5", "one zone", type="move", units=["spa_camp", "spa_inf1"],
             path=["valenza", "lomellina"])
    g.send("pro_spain", type="move", units=["spa_camp", "spa_inf1"], path=["valenza"])
    assert g.state.units["spa_camp"].moved


def test_supply_lines_and_their_exceptions() -> None:
    s = state(placed=CUT_OFF)
    assert not supply.supplied(s, "gon_inf2")  # §13: every line to Casale or Mantova crosses the enemy or a river
    s.units["gon_inf2"].zone = "casale"
    assert supply.supplied(s, "gon_inf2")  # Pro-French units in Casale always
    assert supply.supplied(s, "gon_gar4")  # §14.6 a single garrison in a fortified town (Nizza)
    assert supply.supplied(s, "spa_inf1")


def test_attack_supply_reaches_three_zones_to_the_camp_and_none_in_low_morale() -> None:
    s = state()
    assert supply.attack_supplied(s, "spa_inf1")  # with its camp at Alessandria
    s.units["spa_inf1"].zone = "cuneo"
    assert not supply.attack_supplied(s, "spa_inf1")
    s.units["spa_inf1"].zone = "alessandria"
    s.morale["spagna"] = 3
    assert not supply.attack_supplied(s, "spa_inf1")  # §15 low morale


def test_out_of_supply_units_move_one_less_and_cannot_recover() -> None:
    s = state(command="gonzaga", seat="pro_france", placed=CUT_OFF)
    s.units["gon_inf2"].unsupplied = s.units["gon_inf2"].disorganised = True
    g = from_state(s)
    g.send("pro_france", type="activate", zones=["nizza"], commander=None)
    g.reject("pro_france", "monferrato §13.1", "out of supply", type="recover", units=["gon_inf2"])
    assert not [o for o in g.legal("pro_france") if o["type"] == "recover"]
    g.reject("pro_france", "monferrato §6", "allowance is 2", type="move", units=["gon_inf2"], path=["alba", "cuneo"])


def test_recovery_turns_units_back_to_good_order() -> None:
    s = state()
    s.units["spa_inf1"].disorganised = True
    g = from_state(s)
    g.send("pro_spain", type="activate", zones=["alessandria"], commander=None)
    events = g.send("pro_spain", type="recover", units=["spa_inf1"])
    assert types(events) == ["recovered"] and not g.state.units["spa_inf1"].disorganised
    g.reject("pro_spain", "monferrato §5.3", "free to act", type="move", units=["spa_inf1"], path=["valenza"])


def test_a_supply_check_marks_the_drawn_commands_units() -> None:
    s = state(command="milano", placed=CUT_OFF, cup=[])
    s.cup, s.activated_commands = ["gonzaga"], ["milano", "savoia"]
    g = from_state(s)
    events = g.send("pro_spain", type="end_activation")
    checked = [e for e in events if e["type"] == "supply_checked"]
    assert checked and "gon_inf2" in checked[0]["out"] and g.state.units["gon_inf2"].unsupplied


def test_units_of_a_moving_group_may_be_left_behind_on_the_way() -> None:
    g = moving("milano", "pro_spain", {}, "alessandria")
    g.reject("pro_spain", "monferrato §6", "passes through", type="move", units=["spa_inf1", "spa_inf2"],
             path=["tortona", "pavia"], leave={"spa_inf2": "pavia"})
    g.reject("pro_spain", "monferrato §6", "not in the moving group", type="move", units=["spa_inf1"],
             path=["tortona", "pavia"], leave={"spa_inf2": "tortona"})
    events = g.send("pro_spain", type="move", units=["spa_inf1", "spa_inf2"], path=["tortona", "pavia"],
                    leave={"spa_inf2": "tortona"})
    assert events[0]["left"] in (("spa_inf2@tortona",), ["spa_inf2@tortona"])
    assert g.state.units["spa_inf1"].zone == "pavia" and g.state.units["spa_inf2"].zone == "tortona"
    g.reject("pro_spain", "monferrato §5.3", "free to act", type="move", units=["spa_inf2"], path=["pavia"])
