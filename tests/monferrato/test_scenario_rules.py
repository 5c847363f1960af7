"""Rules the audit of issue 11's "Rules to enforce" found without a test of their own (docs/rulesets/monferrato.md,
"Audit"): Spanish prudence (scenario, special rule 3), Venice without a camp (special rule 4), the command radius not
across an impassable border (§5), morale bounded 1..9 (§15), and the chit that lowers every army's morale (§16)."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.monferrato import supply
from arbitro.adjudicator.monferrato.data import load
from tests.monferrato.harness import from_state, state

D = load()
MORALE = {"francia": 7, "gonzaga": 7, "venezia": 7, "spagna": 7, "savoia": 7}


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def test_spanish_prudence_the_first_spanish_unit_in_venice_gives_pro_france_two_vp_once() -> None:
    g = from_state(state(placed={"spa_inf1": "cremona", "spa_inf2": "cremona"}, arrived=["venezia"]))
    g.send("pro_spain", type="activate", zones=["cremona"], commander=None)
    events = g.send("pro_spain", type="move", units=["spa_inf1"], path=["bresciano"])
    vp = of(events, "victory_points")
    assert [(e["seat"], e["delta"], e["prudence"], e["rule"]) for e in vp] == [
        ("pro_france", 2, "3", "monferrato §17 (scenario, Regole speciali 2-3)")]
    assert g.state.vp["pro_france"] == 2 and g.state.prudence == ["3"]
    assert not of(g.send("pro_spain", type="move", units=["spa_inf2"], path=["bresciano"]), "victory_points")  # once


def test_venice_has_no_camp_so_no_attack_supply_of_its_own() -> None:
    s = state(command="venezia", seat="pro_france", placed={"ven_inf1": "veronese", "spa_inf1": "monte_chiaro"},
              arrived=["venezia"])
    assert D.scenario.no_camp == ("venezia",) and not [u for u, spec in D.units.items()
                                                       if spec.nation == "venezia" and spec.kind == "camp"]
    assert not supply.attack_supplied(s, "ven_inf1") and supply.supplied(s, "ven_inf1")  # a source, but no camp
    g = from_state(s)
    g.send("pro_france", type="activate", zones=["veronese"], commander=None)
    g.reject("pro_france", "monferrato §13.2", "attack supply", type="move", units=["ven_inf1"], path=["monte_chiaro"])
    g.send("pro_france", type="move", units=["ven_inf1"], path=["marmirolo"])  # a move without the enemy needs none


def test_the_command_radius_is_not_traced_across_an_impassable_border() -> None:
    s = state(command="savoia", placed={"carlo_emanuele": "alba", "gon_gar4": "eliminated"})
    assert D.border("alba", "acqui").kind == "impassable"
    assert supply.in_radius(s, "carlo_emanuele")["acqui"] == 2  # round by Nizza, not across the border
    blocked = state(command="savoia", placed={"carlo_emanuele": "alba"})  # Nizza's Gonzaga garrison
    assert "acqui" not in supply.in_radius(blocked, "carlo_emanuele")  # and not through the enemy


def test_morale_never_rises_above_nine() -> None:
    g = from_state(state(placed={"spa_inf1": "alessandria"}, morale={**MORALE, "spagna": 9},
                         hands={"pro_france": ["chit04", "chit06", "chit10", "chit13"],
                                "pro_spain": ["chit03", "chit02", "chit11", "chit16"]}))
    events = g.send("pro_spain", type="play_chit", chit="chit03")  # Entusiasmo: +1 to its own army
    assert g.state.morale["spagna"] == 9 and not of(events, "morale_changed")


def test_a_chit_against_every_army_lowers_both_sides_morale_and_never_below_one() -> None:
    s = state(placed={"spa_inf1": "alessandria", "gon_inf2": "casale"}, turn=D.turn_index["1630-05"],
              morale={**MORALE, "gonzaga": 1}, hands={"pro_france": ["chit04", "chit06", "chit10", "chit13"],
                                                      "pro_spain": ["chit21", "chit02", "chit11", "chit16"]})
    s.red_aside.remove("chit21")
    g = from_state(s)
    g.send("pro_spain", type="play_chit", chit="chit21")  # La peste (provisional table): -1 to every army in play
    assert g.state.morale["spagna"] == 6 and g.state.morale["gonzaga"] == 1


def test_the_scenario_opens_in_january_1628_with_morale_seven_and_ends_after_november_1630() -> None:
    """Scenario: 'Morale INIZIALE ... 7', 'Turno iniziale Gennaio-Febbraio 1628', 'Fine del Gioco Novembre-Dicembre
    1630', 'COMANDI INIZIALI: Gonzaga, Milano, Savoia'."""
    s = state()
    assert set(s.morale.values()) == {7} and D.turn(s.turn).name.startswith("Gennaio") and s.turn == 0
    assert D.turn(s.last_turn).id == "1630-11" and D.turn(s.last_turn).name.startswith("Novembre")
    assert sorted(D.scenario.initial_commands) == ["gonzaga", "milano", "savoia"]
