"""The field battle (monferrato §7): transcribed games from positions, the umpire entering every die, so each
procedure is checked against the dice the rulebook's rules read."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.monferrato import battle
from arbitro.adjudicator.monferrato.data import load
from arbitro.events import monferrato as ev
from tests.monferrato.harness import Game, from_state, state

D = load()


def attack(placed: dict[str, str], units: list[str], path: list[str], zone: str = "alessandria",
           **fields: Any) -> Game:
    g = from_state(state(placed=placed, **fields), transcribed=True)
    g.send("pro_spain", type="activate", zones=[zone], commander=None)
    g.send("pro_spain", type="move", units=units, path=path)
    return g


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def test_a_minor_battle_is_one_round_and_the_loser_retreats() -> None:
    g = attack({"gon_inf2": "valenza"}, ["spa_inf1", "spa_inf2"], ["valenza"])
    assert g.awaited == "response" and g.legal("pro_france") == [{"type": "respond", "chit": None}]  # §5.1
    g.send("pro_france", type="respond", chit=None)
    g.enter(1, 2)  # Spanish fire 3 and 2: two hits
    events = g.enter(5)  # Gonzaga defends at 4 (§14.2 the right value): a miss
    volleys = of(events, "volley")
    assert [v["fire"] for v in volleys] == [(3, 2), (4,)] or [list(v["fire"]) for v in volleys] == [[3, 2], [4]]
    assert [v["hits"] for v in volleys] == [2, 0]
    assert [h["result"] for h in of(events, "hits_taken")] == ["disorganised", "eliminated"]  # §7.4
    assert of(events, "battle_ended")[0]["winner"] == "pro_spain"
    assert g.state.units["gon_inf2"].zone == "eliminated" and g.awaited == ""


def test_on_equal_hits_the_attacker_retreats_whence_it_came() -> None:
    g = attack({"gon_inf2": "valenza"}, ["spa_inf1"], ["valenza"])
    g.send("pro_france", type="respond", chit=None)
    g.enter(1)
    events = g.enter(1)
    assert of(events, "battle_ended")[0]["winner"] == "pro_france"  # §7.3 a tie: the attacker loses
    assert of(events, "retreated")[0]["to"] == "alessandria" and g.state.units["spa_inf1"].zone == "alessandria"


def test_the_owner_allocates_its_hits_and_commanders_roll_to_be_hit() -> None:
    g = attack({"gon_inf2": "valenza", "gon_inf3": "valenza"}, ["spa_inf1", "cordoba"], ["valenza"])
    g.send("pro_spain", type="call_support", unit=None)
    g.send("pro_france", type="respond", chit=None)
    g.enter(6, 6)  # the Spanish miss (Córdoba fires too, at his leadership)
    g.enter(1, 6)  # one hit on the Spanish
    assert g.awaited == "random"  # §7.3: Córdoba's survival roll, before anything of the round is recorded
    events = g.enter(2)
    assert of(events, "hits_taken")[0]["unit"] == "spa_inf1"  # §7.3 commanders take no hit
    assert of(events, "commander_replaced")[0]["unit"] == "cordoba"  # §7.4.1 his replacement on the back
    g2 = attack({"gon_inf2": "valenza"}, ["spa_inf1", "spa_inf2"], ["valenza"])
    g2.send("pro_france", type="respond", chit=None)
    g2.enter(6, 6)
    g2.enter(1)
    assert g2.awaited == "take_hit" and g2.legal("pro_spain") == [
        {"type": "take_hit", "unit": "spa_inf1"}, {"type": "take_hit", "unit": "spa_inf2"}]
    g2.reject("pro_france", "monferrato §7.3", "", type="take_hit", unit="spa_inf1")
    events = g2.send("pro_spain", type="take_hit", unit="spa_inf2")
    assert of(events, "hits_taken")[0] == {"type": "hits_taken", "unit": "spa_inf2", "result": "disorganised",
                                           "rule": "monferrato §7.4.1"}


def test_the_terrain_plus_forts_example() -> None:
    """monferrato §7.2.1's example: fire 3 attacking into difficult terrain with a fortified town and a fort fires
    at 2, and the defender suffers two hits fewer."""
    s = state(placed={"gon_inf2": "rosignano"}, forts={"rosignano": ["pro_france"]})
    b = ev.Battle(zone="rosignano", attacker="pro_spain", origin="alessandria")
    assert battle.fire_value(s, "spa_inf1", True, "rosignano") == 2  # 3 - 1
    assert battle.fire_value(s, "spa_inf2", True, "rosignano") == 2  # 2: below 3, unchanged
    assert battle.fire_value(s, "gon_inf2", False, "rosignano") == 4  # the defender is not affected
    assert battle.saved(s, b) == 1  # Rosignano has no town on this map: the fort alone
    town = state(placed={"gon_gar1": "trino"}, forts={"trino": ["pro_france"]})
    assert battle.saved(town, ev.Battle(zone="trino", attacker="pro_spain", origin="moncalvo")) == 2  # town + fort


def test_artillery_fires_its_printed_value_only_with_sappers_and_bursts_on_a_six() -> None:
    s = state()
    assert battle.fire_value(s, "spa_art1", True, "alessandria") == 3  # two sappers there
    s.units["spa_sap1"].zone = s.units["spa_sap2"].zone = "milano"
    assert battle.fire_value(s, "spa_art1", True, "alessandria") == 1  # §8
    g = attack({"gon_inf2": "valenza"}, ["spa_inf1", "spa_art1"], ["valenza"])
    g.send("pro_france", type="respond", chit=None)
    events = g.enter(6, 6) + g.enter(6)
    assert "spa_art1" in of(events, "eliminated")[0]["units"]  # §8 a six


def test_a_response_chit_takes_a_hit_off_the_attackers() -> None:
    hands = {"pro_france": ["chit07", "chit04", "chit06", "chit05"], "pro_spain": ["chit03", "chit12", "chit14"]}
    g = attack({"gon_inf2": "valenza"}, ["spa_inf1", "spa_inf2"], ["valenza"], hands=hands)
    assert g.legal("pro_france") == [{"type": "respond", "chit": "chit07"}, {"type": "respond", "chit": None}]
    g.reject("pro_spain", "monferrato §5.1", "waiting for pro_france", type="respond", chit=None)
    g.send("pro_france", type="respond", chit="chit07")
    assert g.awaited == "response"  # a second may follow (§5.1 "uno o due")
    g.send("pro_france", type="respond", chit=None)
    g.enter(1, 1)
    events = g.enter(6)
    assert of(events, "volley")[0]["saved"] == 1 and of(events, "hits_taken")[0]["result"] == "disorganised"
    assert "chit07" in g.state.discards


def test_a_major_battle_goes_on_while_the_round_winner_wants() -> None:
    gonzaga = {f"gon_inf{i}": "valenza" for i in (1, 2, 3, 4, 5)} | {"gon_cav1": "valenza"}
    movers = ["spa_cav1", "spa_gar4", "spa_inf1", "spa_inf2", "spa_inf3", "spa_inf4"]
    g = from_state(state(placed=gonzaga), transcribed=True)
    g.send("pro_spain", type="activate", zones=["alessandria"], commander=None)
    g.send("pro_spain", type="move", units=movers, path=["valenza"])
    g.send("pro_france", type="respond", chit=None)
    g.enter(1, 6, 6, 6, 6, 6)  # the Spanish: one hit
    events = g.enter(6, 6, 6, 6, 6, 6)  # Gonzaga: none
    assert g.awaited == "take_hit"  # Gonzaga allocates its hit
    g.send("pro_france", type="take_hit", unit="gon_inf1")
    assert g.awaited == "continue" and g.frames[-1].seats == ("pro_spain",)  # §7.2 the round's winner chooses
    events = g.send("pro_spain", type="continue_battle", go=False)
    assert of(events, "battle_ended")[0]["winner"] == "pro_spain" and g.awaited == "retreat"
    options = g.legal("pro_france")
    assert {"type": "retreat", "to": "alessandria"} not in options and {"type": "retreat", "to": "rosignano"} in options
    g.send("pro_france", type="retreat", to="rosignano")
    assert all(g.state.units[u].zone == "rosignano" for u in gonzaga)


def test_defeated_in_valtellina_means_eliminated() -> None:
    s = state(placed={"gon_inf2": "valtellina", "spa_inf1": "milano", "spa_inf2": "milano"})
    g = from_state(s, transcribed=True)
    g.send("pro_spain", type="activate", zones=["milano"], commander=None)
    g.send("pro_spain", type="move", units=["spa_inf1", "spa_inf2"], path=["valtellina"])
    g.send("pro_france", type="respond", chit=None)
    g.enter(6, 6)
    events = g.enter(6)
    assert of(events, "battle_ended")[0]["winner"] == "pro_france"  # no hits: the attacker loses
    assert of(events, "eliminated")[0]["rule"] == "monferrato §7.2.2"


def test_a_battle_needs_attack_supply() -> None:
    g = from_state(state(placed={"gon_inf2": "valenza", "spa_camp": "cremona"}))
    g.send("pro_spain", type="activate", zones=["alessandria"], commander=None)
    g.reject("pro_spain", "monferrato §13.2", "attack supply", type="move", units=["spa_inf1"], path=["valenza"])


def test_the_attacking_commander_calls_support_within_his_radius() -> None:
    placed = {"gon_inf2": "valenza", "spa_inf3": "tortona"}
    g = from_state(state(placed=placed), transcribed=True)
    g.send("pro_spain", type="activate", zones=["alessandria"], commander=None)
    g.send("pro_spain", type="move", units=["cordoba", "spa_inf1"], path=["valenza"])
    assert g.awaited == "support"
    options = g.legal("pro_spain")
    assert {"type": "call_support", "unit": "spa_inf3"} in options and options[-1] == {"type": "call_support", "unit": None}
    events = g.send("pro_spain", type="call_support", unit="spa_inf3")
    assert of(events, "units_called")[0]["path"] in (("valenza",), ["valenza"]) and g.state.units["spa_inf3"].activated
    assert g.awaited == "support"
    g.send("pro_spain", type="call_support", unit=None)
    assert g.awaited == "response"


def test_a_fortress_s_defenders_may_take_one_more_loss_instead_of_retreating() -> None:
    s = state(placed={"spa_inf1": "trino", "spa_inf2": "trino", "gon_gar1": "moncalvo", "spa_camp": "trino"},
              walls={**state().walls, "casale/trino": 0})
    for u in ("gon_inf3", "gon_inf4", "gon_inf5", "gon_art3", "gon_sap2", "nevers"):
        s.units[u].zone = "eliminated"
    g = from_state(s, transcribed=True)
    g.send("pro_spain", type="activate", zones=["trino"], commander=None)
    g.send("pro_spain", type="move", units=["spa_inf1", "spa_inf2"], path=["casale"])  # through the breach (§8.1)
    g.send("pro_france", type="respond", chit=None)
    g.enter(1, 1)
    g.enter(5, 6)  # Casale's guns fire 1 without sappers (§8): no hit
    assert g.awaited == "take_hit"
    g.send("pro_france", type="take_hit", unit="gon_inf2")
    g.send("pro_france", type="take_hit", unit="gon_art2")
    assert g.awaited == "retreat"
    options = [o["to"] for o in g.legal("pro_france")]
    assert "hold" in options and "trino" not in options and "valenza" not in options  # enemy; unbridged river
    g.send("pro_france", type="retreat", to="hold")
    assert g.awaited == "take_hit" and g.frames[-1].rule == "monferrato §7.5"  # the owner picks the extra loss
    assert g.legal("pro_france") == [{"type": "take_hit", "unit": "gon_art2"}, {"type": "take_hit", "unit": "gon_inf2"}]
    events = g.send("pro_france", type="take_hit", unit="gon_inf2")
    assert of(events, "hits_taken") == [{**of(events, "hits_taken")[0], "unit": "gon_inf2", "result": "eliminated",
                                         "rule": "monferrato §7.5"}]
    assert g.state.units["gon_art2"].zone == "casale"
    assert of(events, "retreated")[0]["to"] == "trino" and g.state.units["spa_inf1"].zone == "trino"


def test_a_fortress_s_last_unit_takes_the_extra_loss_without_a_question() -> None:
    s = state(placed={"spa_inf1": "trino", "spa_inf2": "trino", "gon_gar1": "moncalvo", "spa_camp": "trino"},
              walls={**state().walls, "casale/trino": 0})
    for u in ("gon_inf3", "gon_inf4", "gon_inf5", "gon_art3", "gon_sap2", "nevers", "gon_art2"):
        s.units[u].zone = "eliminated"
    g = from_state(s, transcribed=True)
    g.send("pro_spain", type="activate", zones=["trino"], commander=None)
    g.send("pro_spain", type="move", units=["spa_inf1", "spa_inf2"], path=["casale"])
    g.send("pro_france", type="respond", chit=None)
    g.enter(1, 6)  # one hit on gon_inf2 (disorganised), none on the attackers
    g.enter(6)
    assert g.awaited == "retreat"
    events = g.send("pro_france", type="retreat", to="hold")
    assert [(e["unit"], e["result"], e["rule"]) for e in of(events, "hits_taken")] == [
        ("gon_inf2", "eliminated", "monferrato §7.5")]
    assert of(events, "retreated")[0]["to"] == "trino"
