"""The sequence (monferrato §4, §4.1), the activation choices and chits (§5, §5.1, §16) and army morale (§15),
each played through the service from a position."""

from __future__ import annotations

from arbitro.adjudicator.monferrato.data import load
from tests.monferrato.harness import from_state, new_game, state, types

D = load()


def test_the_opening_deals_four_chits_with_uxelles_to_pro_france_and_draws_a_marker() -> None:
    g = new_game()
    s = g.state
    assert len(s.hands["pro_france"]) == 4 and len(s.hands["pro_spain"]) == 4  # §4
    assert "chit05" in s.hands["pro_france"]  # scenario: chit 5 UXELLES
    assert not any(D.chits[c].colour == "red" for h in s.hands.values() for c in h)  # §4 red set aside
    assert s.activation is not None and s.activation.command in ("gonzaga", "milano", "savoia")  # §4.1 a
    assert len(s.cup) == 2
    view = g.view("pro_spain")
    assert view["hand_sizes"] == {"pro_france": 4, "pro_spain": 4} and "chit05" in view["public_in_hand"]
    assert set(view["hand"]) == set(s.hands["pro_spain"])


def test_drawing_a_fifth_chit_asks_its_owner_to_discard_one_never_an_r_or_mandatory_chit() -> None:
    s = state(command="gonzaga", seat="pro_france", hands={"pro_france": ["chit05", "chit03", "chit04", "chit06"],
                                                           "pro_spain": ["chit02", "chit11", "chit14", "chit16"]})
    g = from_state(s)
    events = g.send("pro_france", type="draw_chit")
    assert "chit_drawn" in types(events)
    assert [f.kind for f in g.frames] == ["discard"]  # §5 2: draw, then discard one of five
    options = g.legal("pro_france")
    assert {"type": "discard", "chit": "chit05"} not in options  # §16.3: an R chit is never discarded
    assert len(options) == 4 if D.chits[g.state.hands["pro_france"][-1]].mandatory == "no" else len(options) == 3
    g.reject("pro_spain", "monferrato §5", "waiting for pro_france", type="end_activation")
    events = g.send("pro_france", type="discard", chit="chit03")
    assert types(events)[:2] == ["decision_resolved", "chit_discarded"]
    assert "activation_ended" in types(events) and "command_drawn" in types(events)
    assert len(g.state.hands["pro_france"]) == 4 and "chit03" in g.state.discards


def test_a_discard_is_refused_with_four_chits() -> None:
    g = from_state(state())
    g.reject("pro_spain", "monferrato §5", "five in hand", type="discard", chit="chit02")


def test_drawing_ends_the_activation_and_nothing_else_may_be_done_first() -> None:
    g = from_state(state())
    g.send("pro_spain", type="activate", zones=["alessandria"], commander=None)
    g.reject("pro_spain", "monferrato §5", "nothing may have been done", type="draw_chit")
    g = from_state(state(hands={"pro_france": ["chit05", "chit04", "chit06", "chit08"],
                                "pro_spain": ["chit03", "chit12", "chit14"]}))
    events = g.send("pro_spain", type="draw_chit")
    assert types(events)[:5] == ["items_drawn", "chit_drawn", "activation_ended", "items_drawn", "command_drawn"]
    assert len(g.state.hands["pro_spain"]) == 4 and not g.frames


def test_a_mandatory_chit_is_played_first_and_stops_drawing() -> None:
    hands = {"pro_france": ["chit03", "chit04", "chit06", "chit12"], "pro_spain": ["chit13", "chit11", "chit14", "chit16"]}
    g = from_state(state(hands=hands))
    assert g.legal("pro_spain") == [{"type": "play_chit", "chit": "chit13"}]  # §16.1
    g.reject("pro_spain", "monferrato §16.1", "", type="draw_chit")
    g.reject("pro_spain", "monferrato §16.1", "", type="end_activation")
    g.reject("pro_spain", "monferrato §16.1", "", type="play_chit", chit="chit14")
    events = g.send("pro_spain", type="play_chit", chit="chit13")
    changed = [e for e in events if e["type"] == "morale_changed"]
    assert changed and changed[0]["nation"] == "spagna" and changed[0]["value"] == 6  # Ammutinamento: own army -1
    assert "chit13" in g.state.discards  # §5.1


def test_one_zone_allows_two_chits_several_zones_one() -> None:
    hands = {"pro_france": ["chit05", "chit04", "chit06", "chit08"], "pro_spain": ["chit03", "chit12", "chit14", "chit16"]}
    g = from_state(state(hands=hands))
    g.send("pro_spain", type="play_chit", chit="chit03")
    g.send("pro_spain", type="play_chit", chit="chit12")
    g.reject("pro_spain", "monferrato §5", "no more than 2", type="play_chit", chit="chit14")
    g.reject("pro_spain", "monferrato §5", "two chits were played", type="activate", zones=["alessandria", "milano"],
             commander="cordoba")
    g = from_state(state(command="savoia", hands=hands, placed={"sav_gar4": "chieri"}))
    g.send("pro_spain", type="activate", zones=["asti", "chieri"], commander="carlo_emanuele")  # §5 3
    g.send("pro_spain", type="play_chit", chit="chit03")
    g.reject("pro_spain", "monferrato §5", "no more than 1", type="play_chit", chit="chit12")


def test_a_commander_may_activate_one_zone_and_then_one_chit_may_be_played() -> None:
    """§5 3 "fino a un chit ... in un numero di zone pari al valore di Leadership": one zone is within it, listed
    as legal() lists every other answer decide() accepts, and it allows one chit, not two."""
    hands = {"pro_france": ["chit05", "chit04", "chit06", "chit08"], "pro_spain": ["chit03", "chit12", "chit14", "chit16"]}
    g = from_state(state(command="savoia", hands=hands))
    one = {"type": "activate", "zones": ["asti"], "commander": "carlo_emanuele"}
    assert one in g.legal("pro_spain") and {**one, "commander": None} in g.legal("pro_spain")
    g.send("pro_spain", **one)
    g.send("pro_spain", type="play_chit", chit="chit03")
    g.reject("pro_spain", "monferrato §5", "no more than 1", type="play_chit", chit="chit12")
    g = from_state(state(command="savoia", hands=hands))
    g.send("pro_spain", type="play_chit", chit="chit03")
    g.send("pro_spain", type="play_chit", chit="chit12")
    assert one not in g.legal("pro_spain") and {**one, "commander": None} in g.legal("pro_spain")
    g.reject("pro_spain", "monferrato §5", "two chits were played", **one)


def test_a_dated_chit_waits_for_its_date_and_an_r_chit_before_it_schedules_its_group() -> None:
    hands = {"pro_france": ["chit05", "chit09", "chit06", "chit04"], "pro_spain": ["chit03", "chit12", "chit14", "chit16"]}
    g = from_state(state(command="gonzaga", seat="pro_france", hands=hands))
    g.reject("pro_france", "monferrato §16.2", "1628-11", type="play_chit", chit="chit09")
    events = g.send("pro_france", type="play_chit", chit="chit05")
    assert [e for e in events if e["type"] == "group_scheduled"][0]["turn"] == D.turn_index["1628-07"]  # §16.3
    assert "chit05" in g.state.removed  # §16.4 RSU
    assert g.state.units["uxelles"].zone == "pool"


def test_an_r_chit_on_its_date_brings_its_group_and_the_new_command_enters_the_cup_next_turn() -> None:
    hands = {"pro_france": ["chit05", "chit03", "chit06", "chit04"], "pro_spain": ["chit02", "chit12", "chit14", "chit16"]}
    s = state(command="gonzaga", seat="pro_france", hands=hands, turn=D.turn_index["1628-07"], cup=[])
    g = from_state(s)
    assert g.legal("pro_france") == [{"type": "play_chit", "chit": "chit05"}]  # §16.3 mandatory from its date
    events = g.send("pro_france", type="play_chit", chit="chit05")
    arrived = [e for e in events if e["type"] == "group_arrived"][0]
    assert arrived["zone"] == "guillestre" and arrived["new_command"]  # §16.5
    assert g.state.units["fra_inf1"].zone == "guillestre"
    events = g.send("pro_france", type="end_activation")
    began = [e for e in events if e["type"] == "turn_began"][0]
    assert "uxelles" in began["cup"]


def test_the_end_of_the_turn_stacks_advances_and_applies_the_timeline() -> None:
    eight = {f"spa_inf{i}": "novara" for i in (1, 2, 3, 4, 5, 6, 7)} | {"spa_tercio_viejo": "novara"}
    s = state(placed=eight, cup=[], turn=D.turn_index["1628-10"], raided=["trino"])
    g = from_state(s)
    events = g.send("pro_spain", type="end_activation")
    stacked = [e for e in events if e["type"] == "stacking_checked"][0]
    assert stacked["zone"] == "novara" and len(stacked["units"]) == 2  # §12: eight, two disorganised
    assert set(stacked["units"]) == {"spa_inf2", "spa_inf3"}  # weakest_first (fire 2)
    began = [e for e in events if e["type"] == "turn_began"][0]
    assert began["turn"] == D.turn_index["1628-11"] and not began["raids_cleared"]
    assert [e["value"] for e in events if e["type"] == "morale_changed"] == [6] * 5  # "Morale -1" box, every army
    g2 = from_state(state(cup=[], turn=D.turn_index["1628-11"], raided=["trino"]))
    events = g2.send("pro_spain", type="end_activation")
    assert [e for e in events if e["type"] == "turn_began"][0]["raids_cleared"]  # §4.1 e: a new year


def test_march_1629_replaces_the_blue_chits_in_the_cup_with_the_red() -> None:
    g = from_state(state(cup=[], turn=D.turn_index["1629-01"]))
    blue_left = list(g.state.chit_cup)
    events = g.send("pro_spain", type="end_activation")
    recycled = [e for e in events if e["type"] == "chits_recycled"][0]
    assert recycled["rule"] == "monferrato §16.4" and sorted(recycled["to_discards"]) == sorted(blue_left)
    assert all(D.chits[c].colour == "red" for c in g.state.chit_cup) and not g.state.red_aside
    served = [e for e in g.served("pro_france") if e["event"]["type"] == "chits_recycled"][0]["event"]
    assert served["to_cup"] == len(recycled["to_cup"])  # the cup's contents are no seat's to see


def test_a_camp_out_of_play_costs_its_army_a_morale_point_each_turn() -> None:
    g = from_state(state(cup=[], placed={"spa_camp": "eliminated"}))
    events = g.send("pro_spain", type="end_activation")
    assert [(e["nation"], e["value"]) for e in events if e["type"] == "morale_changed"] == [("spagna", 6)]


def test_the_game_ends_after_the_last_turn_and_counts_the_objectives() -> None:
    last = D.turn_index["1630-11"]
    g = from_state(state(cup=[], turn=last, last_turn=last, vp={"pro_france": 2, "pro_spain": 9}))
    events = g.send("pro_spain", type="end_activation")
    ended = [e for e in events if e["type"] == "game_ended"][0]
    assert ended["vp"] == {"pro_france": 2 + 10 + 10 + 4, "pro_spain": 9}  # Casale, Mantova, four towns held
    assert ended["winner"] == "pro_france" and g.app.status(g.id).outcome is not None
    assert g.legal("pro_france") == [] and g.legal("pro_spain") == []


def test_medium_morale_activates_one_zone_only() -> None:
    g = from_state(state(command="savoia", placed={"sav_gar4": "chieri"}, morale={
        "francia": 7, "gonzaga": 7, "venezia": 7, "spagna": 7, "savoia": 5}))
    g.reject("pro_spain", "monferrato §15", "medium", type="activate", zones=["asti", "chieri"],
             commander="carlo_emanuele")
    assert all(len(o["zones"]) == 1 for o in g.legal("pro_spain") if o["type"] == "activate")


def test_low_morale_allows_one_chit() -> None:
    g = from_state(state(morale={"francia": 7, "gonzaga": 7, "venezia": 7, "spagna": 2, "savoia": 7},
                         hands={"pro_france": ["chit05", "chit04", "chit06", "chit08"],
                                "pro_spain": ["chit03", "chit12", "chit14", "chit16"]}))
    g.send("pro_spain", type="play_chit", chit="chit03")
    g.reject("pro_spain", "monferrato §5", "no more than 1", type="play_chit", chit="chit12")
