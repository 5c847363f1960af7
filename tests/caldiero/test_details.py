"""Finer rules: artillery losses (§11.1), retreat rules (§12.6), returns (§12.8), leader loss (§4.4),
cavalry (§14), terrain in combat (§10.2, §10.3.1), reserve (§15.4.3), reorganisation orders (§15.3)."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import IllegalCommand
from arbitro.events import caldiero as ev
from tests.caldiero.harness import Table, activate, position


def combat(units: dict[str, str], attackers: list[str], defenders: list[str], dice: list[int], *, formation: str = "massena",
           leaders: dict[str, str] | None = None, **kw: object) -> Table:
    ls = {"massena": "1317"} if formation == "massena" else {"augereau": "1412"}
    ls.update(leaders or {})
    state = position(units, leaders=ls, orders={formation: "attack"}, **kw)  # type: ignore[arg-type]
    t = activate(state, formation, step="combat")
    t.send("france", {"type": "attack", "attackers": attackers, "defenders": defenders}, dice=dice)
    return t


def test_artillery_with_retreating_units_is_eliminated() -> None:
    t = combat({"fr-18-ligne": "1417", "au-mahoney-jager": "1517", "au-brabeck-3pdr": "1517"}, ["fr-18-ligne"], ["1517"], [])
    t.send("austria", {"type": "decline"}, dice=[4, 1])  # no defensive fire; Dr, test passed
    assert t.unit("au-brabeck-3pdr").where == "eliminated" and t.of(ev.UnitEliminated)[0].rule == "caldiero §11.1"



def test_guns_stacked_with_attackers_an_ae_eliminates_are_eliminated() -> None:
    """caldiero §11.1: artillery stacked with combat units an assault eliminates is eliminated: the Ae takes the
    attacker at 1417, so the gun stacked with it goes too, citing §11.1 (issue 19: Caldiero left it on the map)."""
    t = combat({"fr-9-dragons": "1417", "fr-massena-iv-6pdr": "1417", "au-colloredo": "1517", "au-hungarian": "1517"},
               ["fr-9-dragons"], ["1517"], [1], leaders={"hohenzollern": "1517"})  # 1-4 and a 1
    assert t.of(ev.AssaultResolved)[0].result == "Ae"
    assert [e.unit for e in t.of(ev.UnitEliminated)] == ["fr-9-dragons", "fr-massena-iv-6pdr"]
    assert t.of(ev.UnitEliminated)[1].cause == "caldiero §11.1"
    assert t.unit("fr-massena-iv-6pdr").where != "map"

def test_artillery_alone_is_overrun_by_an_advance() -> None:
    t = combat({"fr-18-ligne": "1417", "au-brabeck-3pdr": "1517"}, ["fr-18-ligne"], ["1517"], [])
    t.send("austria", {"type": "decline"})
    assert t.awaited().kind == "advance" and not t.of(ev.AssaultResolved)
    t.send("france", {"type": "advance", "units": ["fr-18-ligne"], "to": "1517"})
    assert t.unit("au-brabeck-3pdr").where == "eliminated" and t.unit("fr-18-ligne").hex == "1517"  # §11.1.1


def test_surrounded_unit_that_must_retreat_is_permanently_eliminated() -> None:
    units = {"fr-18-ligne": "1417", "fr-40-ligne": "1516", "fr-32-ligne": "1518", "fr-18-legere": "1617",
             "fr-carabiniers": "1618", "fr-9-dragons": "1418", "au-mahoney-jager": "1517"}
    t = combat(units, ["fr-18-ligne"], ["1517"], [4, 1])  # Dr: every neighbour is held by the French
    assert t.unit("au-mahoney-jager").where == "eliminated"
    assert t.of(ev.UnitEliminated)[0].rule == "caldiero §12.6.3"


def test_retreat_into_enemy_zoc_adds_a_disorder() -> None:
    units = {"fr-18-ligne": "1417", "fr-40-ligne": "1615", "fr-32-ligne": "1619", "fr-9-dragons": "1718",
             "au-mahoney-jager": "1517", "au-colloredo": "1716"}
    t = combat(units, ["fr-18-ligne"], ["1517"], [4, 1])  # Dr passed: disordered, one hex
    options = t.legal("austria")
    assert options
    t.send("austria", options[0])
    moved_to = options[0]["path"][-1]
    assert t.unit("au-mahoney-jager").hex == moved_to
    ezoc = any(n in ("1615", "1619", "1718", "1417") for n in __import__("tests.caldiero.harness", fromlist=["RULESET"]).RULESET.battle.map.grid.neighbours(moved_to))
    assert t.unit("au-mahoney-jager").status == ("routed" if ezoc else "disordered")


def test_returns_two_turns_later_when_out_of_command() -> None:
    state = position({"fr-9-dragons": "1417", "au-colloredo": "1517", "au-hungarian": "1517"},
                     leaders={"massena": "2319", "hohenzollern": "1517"}, orders={"massena": "attack"})  # Massena far away
    t = activate(state, "massena", step="combat")
    t.state.activation.unit_orders["fr-9-dragons"] = "attack"  # as if it had passed its §5.3.1 test
    t.send("france", {"type": "attack", "attackers": ["fr-9-dragons"], "defenders": ["1517"]}, dice=[1])
    assert t.of(ev.AssaultResolved)[0].result == "Ae"
    assert t.unit("fr-9-dragons").return_turn == 4  # §12.8: two turns after, out of its general's range


def test_leader_in_attacked_hex_tests_on_a_natural_six() -> None:
    t = combat({"fr-18-ligne": "1417", "au-colloredo": "1517"}, ["fr-18-ligne"], ["1517"], [6, 2, 1],
               leaders={"hohenzollern": "1517"})  # CRT 6; Hohenzollern rolls 2 <= 2: lost (§4.4.1, §4.4.3)
    lost = t.of(ev.LeaderLost)
    # the loss cites the test (§4.4.3), as a bombardment's six and a lone leader's test do (parabellum/results.py)
    assert lost and lost[0].leader == "hohenzollern" and lost[0].rule == "caldiero §4.4.3"


def test_attacking_general_tests_on_a_natural_one() -> None:
    t = combat({"fr-18-ligne": "1417", "au-colloredo": "1517"}, ["fr-18-ligne"], ["1517"], [1, 4],
               leaders={"massena": "1417"})  # CRT 1 with Massena's +1; Massena rolls 4 > 3: survives (§4.4.2)
    assert not t.of(ev.LeaderLost) and any(r.purpose.startswith("caldiero §4.4.3") for r in t.rolls)


def test_cavalry_doubled_against_disordered_infantry_in_the_plain() -> None:
    t = combat({"fr-9-dragons": "1417", "au-colloredo": "1517"}, ["fr-9-dragons"], ["1517"], [1])
    assert t.of(ev.AssaultResolved)[0].attack_strength == 2
    state = position({"fr-9-dragons": "1417", "au-colloredo": "1517"}, leaders={"massena": "1317"}, orders={"massena": "attack"})
    state.units["au-colloredo"].status = "disordered"
    t = activate(state, "massena", step="combat")
    t.send("france", {"type": "attack", "attackers": ["fr-9-dragons"], "defenders": ["1517"]}, dice=[1])
    assert t.of(ev.AssaultResolved)[0].attack_strength == 4  # §14.0


@pytest.mark.parametrize("reading, column", [("drm_instead_of_shift", "4-1"), ("drm_and_shift", "2-1")])
def test_cavalry_in_the_fortress_gives_minus_one_only(reading: str, column: str) -> None:
    state = position({"fr-5-legere": "1612", "fr-grenadiers-1": "1612", "au-stab-dragoner": "1712"},
                     leaders={"augereau": "1512"}, orders={"augereau": "attack"})
    t = activate(state, "augereau", step="combat", interpretations={"cavalry_in_fortress": reading})
    t.send("france", {"type": "attack", "attackers": ["fr-5-legere", "fr-grenadiers-1"], "defenders": ["1712"]})
    t.send("austria", {"type": "cavalry_retreat", "to": None}, dice=[3])  # the dragoons stay (§14.1)
    resolved = t.of(ev.AssaultResolved)[0]
    assert resolved.table.column == column and "cavalry in a fortress (caldiero §14) -1" in t.rolls[0].detail["modifiers"]  # §14.0


def test_marsh_halves_and_canal_costs_one() -> None:
    t = combat({"fr-5-legere": "1803", "au-callenberg": "1903"}, ["fr-5-legere"], ["1903"], [3], formation="augereau",
               leaders={"augereau": "1802"})
    assert t.of(ev.AssaultResolved)[0].defence_strength == 2  # 4 SP in the marsh, halved (§10.2)
    t = combat({"fr-5-legere": "1410", "au-callenberg": "1409"}, ["fr-5-legere"], ["1409"], [3], formation="augereau",
               leaders={"augereau": "1411"})
    assert "across a canal (caldiero §10.3.1) -1" in t.rolls[0].detail["modifiers"]  # §10.3.1


def test_reserve_joins_the_activated_formation_in_range() -> None:
    state = position({"fr-18-ligne": "1417", "fr-75-ligne": "1418", "fr-25-ligne": "1212", "fr-5-legere": "1312",
                      "au-colloredo": "2017"}, leaders={"massena": "1317", "augereau": "1412"})
    t = activate(state, "massena", step="orders")
    assert t.state.activation.units.count("fr-75-ligne") == 1 and "fr-25-ligne" not in t.state.activation.units
    assert t.unit("fr-75-ligne").attached == "massena"  # §15.4.3: for the turn


def test_reorganisation_needs_a_defence_order() -> None:
    state = position({"fr-18-ligne": "1417", "au-colloredo": "2017"}, leaders={"massena": "1317"}, orders={"massena": "attack"})
    state.units["fr-18-ligne"].status = "disordered"
    state.phase, state.step, state.seat = "command", "reorganise", "france"
    t = Table(state)
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "reorganise", "hex": "1417"})
    assert e.value.rule == "caldiero §15.3"


def test_a_retreat_going_on_past_full_hexes_cites_12_6_2() -> None:
    """caldiero §12.6.2 (the kernel's retreat.move_along, as Arrivano's): every hex the Dr retreat would end in holds
    two Austrian infantry, so the retreat goes on one more hex; the event cites what forced it and §12.6.2."""
    full = {"au-colloredo": "1518", "au-gyulai": "1518", "au-callenberg": "1617", "au-hungarian": "1617",
            "au-2-banater": "1618", "au-brechainville": "1618"}
    t = combat({"fr-18-ligne": "1417", "au-mahoney-jager": "1517", **full}, ["fr-18-ligne"], ["1517"], [4])
    options = t.legal("austria")
    assert options and all(len(o["path"]) == 2 for o in options)
    t.send("austria", options[0], dice=[1])
    moved = t.of(ev.UnitRetreated)[-1]
    assert moved.unit == "au-mahoney-jager" and moved.rule == "caldiero §12.5.4; caldiero §12.6.2"
