"""Assaults (caldiero §12): every result code of §12.5.4, the declaration rules, Elan (§16).

Positions are in the open plain north of the road: attackers at 1417, defenders at 1517 (adjacent),
Massena at 1317 (adjacent to 1417: in command, +3 efficiency bonus by §13.2). The dice are entered.
"""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import IllegalCommand
from arbitro.events import caldiero as ev
from arbitro.events import core
from tests.caldiero.harness import Table, activate, position

ATT, DEF = "1417", "1517"
FLANKS_HELD = {"au-hungarian": "1418", "au-brechainville": "1516"}
"""Austrian infantry in the two hexes next to both DEF and ATT (in France's ZoC; attacked with DEF, §12.2.1)."""


def table(attackers: dict[str, str], defenders: dict[str, str], *, order: str = "attack", leaders: dict[str, str] | None = None,
          interpretations: dict[str, str] | None = None, **kw: object) -> Table:
    ls = {"massena": "1317"}
    ls.update(leaders or {})
    state = position({**attackers, **defenders}, leaders=ls, orders={"massena": order}, **kw)  # type: ignore[arg-type]
    return activate(state, "massena", step="combat", interpretations=interpretations)


def attack(t: Table, attackers: list[str], defenders: list[str], dice: list[int], **extra: object) -> list[object]:
    """France's attack, `dice` entered for its rolls; where its attackers' efficiency values tie (§12.3.1: the 18e's 4
    and the 40e's 3, 6 SP each) it is asked at the start of the combat (§12.3), and picks the best (`tie`), the dice
    not rolled yet entered then."""
    events = t.send("france", {"type": "attack", "attackers": attackers, "defenders": defenders, **extra}, dice=dice)
    rolled = len([e for e in events if isinstance(e, core.DiceRolled)])
    return events + (tie(t, dice[rolled:]) if tied(t) else [])


def tied(t: Table, seat: str = "france") -> bool:
    """Whether `seat` is asked its side's efficiency value among tied ones (§12.3.1, the kernel's question)."""
    frame = t.awaited()
    return frame is not None and (frame.kind, frame.seats) == ("efficiency_value", (seat,))


def tie(t: Table, dice: list[int] | None = None, seat: str = "france", **sent: int) -> list[object]:
    """`seat`'s answer to its tied efficiency values (§12.3.1): the best, the dice of the combat entered with it."""
    assert tied(t, seat), "the premise: the side's values tie"
    return t.send(seat, t.legal(seat)[-1], dice=dice, **sent)


def result_of(t: Table) -> str:
    return t.of(ev.AssaultResolved)[-1].result


def test_ae_eliminates_the_attackers() -> None:
    t = table({"fr-9-dragons": ATT}, {"au-colloredo": DEF, "au-hungarian": DEF}, leaders={"hohenzollern": DEF})
    attack(t, ["fr-9-dragons"], [DEF], dice=[1])  # 2:8 = 1-4, DRM 0 (eff +1, general -1)
    assert result_of(t) == "Ae"
    assert t.unit("fr-9-dragons").where == "track" and t.unit("fr-9-dragons").return_turn == 3  # §12.8: in range
    assert [e.cause for e in t.of(ev.UnitEliminated)] == ["caldiero §12.5.4 (Ae result)"]  # parabellum/results.eliminated


def test_ad_disorders_the_attackers() -> None:
    t = table({"fr-9-dragons": ATT}, {"au-colloredo": DEF, "au-hungarian": DEF}, leaders={"hohenzollern": DEF})
    attack(t, ["fr-9-dragons"], [DEF], dice=[2])
    assert result_of(t) == "Ad" and t.unit("fr-9-dragons").status == "disordered"


def test_dd_disorders_the_defenders() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[3])  # 6:2 = 3-1
    assert result_of(t) == "Dd" and t.unit("au-mahoney-jager").status == "disordered"


def test_de_eliminates_the_defenders_and_allows_an_advance() -> None:
    t = table({"fr-18-ligne": ATT, "fr-40-ligne": ATT}, {"au-mahoney-jager": DEF})
    attack(t, ["fr-18-ligne", "fr-40-ligne"], [DEF], dice=[4])  # 12:2 = 6-1
    assert result_of(t) == "De" and t.unit("au-mahoney-jager").where == "track"
    assert t.awaited().kind == "advance"
    assert {"type": "advance", "units": ["fr-18-ligne"], "to": DEF} in t.legal("france")
    t.send("france", {"type": "advance", "units": ["fr-18-ligne"], "to": DEF})
    assert t.unit("fr-18-ligne").hex == DEF and t.unit("fr-40-ligne").hex == ATT  # §12.7.2: one unit


def test_ae_and_de_cite_the_result_and_the_guns_they_take_cite_it_with_11_1() -> None:
    """caldiero §12.5.4 Ae/De with §11.1 as arrivano's (parabellum/results.eliminated, one procedure for both): a De
    takes every unit of the attacked hex, the defenders citing "§12.5.4 (De result)", the gun stacked with them §11.1 forced by
    it (an Ae's cite "§12.5.4 (Ae result)": test_ae_eliminates_the_attackers)."""
    t = table({"fr-18-ligne": ATT, "fr-40-ligne": ATT}, {"au-mahoney-jager": DEF, "au-brabeck-3pdr": DEF})
    attack(t, ["fr-18-ligne", "fr-40-ligne"], [DEF], dice=[])
    t.send("austria", {"type": "decline"})  # no defensive fire
    tie(t, [4])  # France's efficiency 4 of its tied 3 and 4 (§12.3.1); 12:2 = 6-1 -> De
    assert result_of(t) == "De"
    assert [(e.unit, e.cause) for e in t.of(ev.UnitEliminated)] == [  # the hex's units in id order
        ("au-brabeck-3pdr", "caldiero §12.5.4 (De result); caldiero §11.1"), ("au-mahoney-jager", "caldiero §12.5.4 (De result)")]


def test_advance_of_a_stack_with_its_general() -> None:
    t = table({"fr-18-ligne": ATT, "fr-40-ligne": ATT}, {"au-mahoney-jager": DEF}, leaders={"massena": ATT})
    attack(t, ["fr-18-ligne", "fr-40-ligne"], [DEF], dice=[3])  # +1 general: 6-1, 3+1 -> De
    assert result_of(t) == "De"
    turn = t.state.turn
    t.send("france", {"type": "advance", "units": ["fr-18-ligne", "fr-40-ligne"], "to": DEF})  # §12.7.3
    assert t.unit("fr-40-ligne").hex == DEF and t.state.leaders["massena"].hex == DEF
    # the general who went with them was carried: not his move of the turn (D42, §4.1.4, §4.2.1)
    assert t.state.leaders["massena"].moved_turn != turn


def test_an_advance_overruns_the_guns_left_alone_in_the_hex() -> None:
    """caldiero §11.1.1 "Artiglierie da sole sono eliminate ... se almeno una unità attaccante avanza nel loro
    esagono": the cavalry with them retreated before the infantry's assault (§14.1), the guns hold their fire; no
    table, and the hex counts as vacated: the advance eliminates them for good."""
    cavalry, guns = "au-erz-jozsef-hussars", "au-sticker-3pdr"
    t = table({"fr-18-ligne": ATT}, {cavalry: DEF, guns: DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[])
    retreat = t.awaited()
    assert retreat.kind == "cavalry_retreat"
    t.send("austria", next(o for o in t.legal("austria") if o["type"] == "cavalry_retreat"))
    if t.awaited().kind == "defensive_fire":
        t.send("austria", {"type": "decline"})
    assert t.unit(guns).where == "map" and t.unit(cavalry).hex != DEF
    assert t.legal("france") == [{"type": "advance", "units": ["fr-18-ligne"], "to": DEF}, {"type": "decline"}]
    t.send("france", {"type": "advance", "units": ["fr-18-ligne"], "to": DEF})
    assert t.unit(guns).where == "eliminated" and t.unit("fr-18-ligne").hex == DEF
    assert t.of(ev.UnitEliminated)[-1].rule == "caldiero §11.1.1"


def test_ne_without_attack_order_stays_ne() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF}, order="advance")
    attack(t, ["fr-18-ligne"], [DEF], dice=[1, 1])  # "Attack?" test (1 passes), then 3-1 with 1 -> Ne
    assert result_of(t) == "Ne" and t.awaited() is None
    assert t.unit("fr-18-ligne").status == "good" and t.unit("au-mahoney-jager").status == "good"


def test_ne_with_attack_order_tested_and_passed_becomes_ex() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[1])
    assert result_of(t) == "Ne" and t.awaited().kind == "ne_choice"
    t.send("france", {"type": "ne_choice", "test": True}, dice=[2, 6])  # test passed; Ex tests: jager gone, none left
    assert [e.result for e in t.of(ev.AssaultResolved)] == ["Ne", "Ex"]
    assert t.unit("fr-18-ligne").where == "track" and t.unit("au-mahoney-jager").where == "track"
    # the test worded once for both games (parabellum/results.ne_answered; Caldiero said "at" until the 18th session)
    assert any(r.purpose.endswith(f"caldiero §12.5.4 Ne test in {ATT}") for r in t.rolls)



def test_an_ex_eliminates_the_guns_its_losses_leave_alone() -> None:
    """caldiero §11.1 with §12.5.4 Ex: each side loses its one combat unit, so the gun stacked with each is eliminated
    too, citing §11.1 (issue 19: Caldiero left them on the map)."""
    t = table({"fr-18-ligne": ATT, "fr-massena-iv-6pdr": ATT}, {"au-mahoney-jager": DEF, "au-brabeck-3pdr": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[])
    t.send("austria", {"type": "decline"}, dice=[1])  # no defensive fire; 3-1 with 1 -> Ne
    t.send("france", {"type": "ne_choice", "test": True}, dice=[2, 6])  # test passed: Ex
    assert [e.result for e in t.of(ev.AssaultResolved)] == ["Ne", "Ex"]
    gone = [(e.unit, e.cause) for e in t.of(ev.UnitEliminated)]
    assert gone == [("fr-18-ligne", "caldiero §12.5.4 (Ex result)"), ("fr-massena-iv-6pdr", "caldiero §11.1"),
                    ("au-mahoney-jager", "caldiero §12.5.4 (Ex result)"), ("au-brabeck-3pdr", "caldiero §11.1")]

def test_ne_with_attack_order_tested_and_failed_becomes_ad() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[1])
    t.send("france", {"type": "ne_choice", "test": True}, dice=[6])  # 6 always fails (§13.1.1)
    assert [e.result for e in t.of(ev.AssaultResolved)] == ["Ne", "Ad"]
    assert t.unit("fr-18-ligne").status == "disordered"


def test_ne_kept_when_the_attacker_declines_the_test() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[1])
    t.send("france", {"type": "ne_choice", "test": False})
    assert [e.result for e in t.of(ev.AssaultResolved)] == ["Ne"] and t.unit("fr-18-ligne").status == "good"


def test_ex_attacker_chooses_defender_matches_sp() -> None:
    t = table({"fr-carabiniers": ATT, "fr-18-legere": ATT}, {"au-colloredo": DEF, "au-hungarian": DEF})
    attack(t, ["fr-carabiniers", "fr-18-legere"], [DEF], dice=[4])  # 7:8 = 1-2, eff 4-3 -> +1: 4+1 -> Ex
    assert result_of(t) == "Ex"
    frame = t.awaited()
    assert (frame.kind, frame.ctx.role) == ("exchange_loss", "attackers") and sorted(frame.ctx.sets) == [("fr-18-legere",), ("fr-carabiniers",)]
    with pytest.raises(IllegalCommand) as e:  # the awaited answer, unlisted: the seat's own decision answered wrongly
        t.send("france", {"type": "exchange_loss", "units": ["fr-18-ligne"]})
    assert e.value.rule == "caldiero §12.5.4"
    t.send("france", {"type": "exchange_loss", "units": ["fr-carabiniers"]})  # 2 SP lost
    frame = t.awaited()
    assert (frame.kind, frame.ctx.role) == ("exchange_loss", "defenders") and frame.ctx.sets == (("au-colloredo",), ("au-hungarian",))
    with pytest.raises(IllegalCommand) as e:
        t.send("austria", {"type": "exchange_loss", "units": ["au-colloredo", "au-hungarian"]})  # more than needed
    assert e.value.rule == "caldiero §12.5.4"
    t.send("austria", {"type": "exchange_loss", "units": ["au-hungarian"]}, dice=[6, 1])  # tests: 1417 fails, 1517 passes
    assert t.unit("au-hungarian").where == "track" and t.unit("fr-carabiniers").where == "track"
    assert t.unit("fr-18-legere").status == "disordered" and t.unit("au-colloredo").status == "good"


def _ex_defender_frame(reading: str) -> tuple[Table, object]:
    """The Ex of test_ex_attacker_chooses_defender_matches_sp under `reading`, at the defender's choice (2 SP lost)."""
    t = table({"fr-carabiniers": ATT, "fr-18-legere": ATT}, {"au-colloredo": DEF, "au-hungarian": DEF},
              interpretations={"ex_defender_loss": reading})
    attack(t, ["fr-carabiniers", "fr-18-legere"], [DEF], dice=[4])
    t.send("france", {"type": "exchange_loss", "units": ["fr-carabiniers"]})
    return t, t.awaited()


def test_ex_reading_minimal_sets_offers_no_unit_to_spare() -> None:
    """caldiero §12.5.4 Ex, "Il difensore perde un numero di SP almeno uguale", reading minimal_sets (default): each
    unit alone covers the 2 SP lost, so giving up both is not offered."""
    t, frame = _ex_defender_frame("minimal_sets")
    assert frame.ctx.sets == (("au-colloredo",), ("au-hungarian",))
    with pytest.raises(IllegalCommand):
        t.send("austria", {"type": "exchange_loss", "units": ["au-colloredo", "au-hungarian"]})


def test_ex_reading_any_sufficient_lets_the_defender_lose_more() -> None:
    """caldiero §12.5.4 Ex, reading any_sufficient: any set reaching the 2 SP lost may be chosen, both units too."""
    t, frame = _ex_defender_frame("any_sufficient")
    assert frame.ctx.sets == (("au-colloredo",), ("au-colloredo", "au-hungarian"), ("au-hungarian",))
    t.send("austria", {"type": "exchange_loss", "units": ["au-colloredo", "au-hungarian"]}, dice=[1])
    assert t.unit("au-colloredo").where == t.unit("au-hungarian").where == "track"


def test_dr_retreats_one_hex_then_passes_and_is_disordered() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[4])  # Dr: first the retreat (§12.5.4)
    assert result_of(t) == "Dr" and t.awaited().kind == "retreat"
    options = t.legal("austria")
    assert options and all(len(o["path"]) == 1 for o in options)
    t.send("austria", options[0], dice=[1])  # then the test, where the unit now stands: passed
    assert t.unit("au-mahoney-jager").hex == options[0]["path"][0]
    assert t.unit("au-mahoney-jager").status == "disordered"
    assert t.awaited().kind == "advance"


def test_dr_test_failed_routs_and_retreats_two_more_hexes() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[4])
    first = t.legal("austria")[0]
    t.send("austria", first, dice=[6])  # 6 always fails: rout, and at once two more hexes (§15.2.1)
    assert t.unit("au-mahoney-jager").status == "routed" and t.awaited().kind == "retreat"
    options = t.legal("austria")
    assert options and all(len(o["path"]) == 2 for o in options)  # reading additional_2: 1 + 2 in all
    bad = {"type": "retreat", "unit": "au-mahoney-jager", "path": ["1416"]}
    refused = t.refuse("austria", bad, rule="caldiero §12.6")  # the step's own reason, naming what is permitted
    assert "not a legal retreat for au-mahoney-jager" in str(refused) and refused.allowed == options
    t.send("austria", options[0])
    assert t.unit("au-mahoney-jager").hex == options[0]["path"][-1]


def test_dr_in_a_village_becomes_ex() -> None:
    state = position({"fr-5-legere": "1512", "fr-grenadiers-1": "1512", "au-mahoney-jager": "1612"},
                     leaders={"augereau": "1412"}, orders={"augereau": "attack"})
    t = activate(state, "augereau", step="combat")
    t.send("france", {"type": "attack", "attackers": ["fr-5-legere", "fr-grenadiers-1"], "defenders": ["1612"]}, dice=[4])
    resolved = t.of(ev.AssaultResolved)[-1]
    assert resolved.table.column == "3-1" and resolved.result == "Ex"  # 8:2 = 4-1, village 1L; Dr -> Ex (§12.5.4)
    # one record for both games (parabellum/resolution.fight): the units the table fought, the notes' reasons
    assert resolved.attackers == ("fr-5-legere", "fr-grenadiers-1") and resolved.defenders == ("au-mahoney-jager",)
    assert resolved.notes == ("terrain 1L", "Dr in village becomes Ex")


@pytest.mark.parametrize("reading, expected", [("ex", "Ex"), ("dd", "Dd")])
def test_dr_in_the_fortress_reading(reading: str, expected: str) -> None:
    state = position({"fr-5-legere": "1612", "fr-grenadiers-1": "1612", "au-mahoney-jager": "1712"},
                     leaders={"augereau": "1512"}, orders={"augereau": "attack"})
    t = activate(state, "augereau", step="combat", interpretations={"dr_in_fortress": reading})
    t.send("france", {"type": "attack", "attackers": ["fr-5-legere", "fr-grenadiers-1"], "defenders": ["1712"]}, dice=[5])
    resolved = t.of(ev.AssaultResolved)[-1]
    assert resolved.table.column == "2-1" and resolved.result == expected  # 4-1 with 2L


def test_8_to_1_resolved_as_6_1_plus_2() -> None:
    t = table({"fr-18-ligne": ATT, "fr-40-ligne": ATT}, {"au-mahoney-jager": DEF})
    t.state.units["au-mahoney-jager"].reduced = True  # 1 SP: 12:1
    attack(t, ["fr-18-ligne", "fr-40-ligne"], [DEF], dice=[1])
    resolved = t.of(ev.AssaultResolved)[-1]
    assert resolved.odds == "12-1" and resolved.table.column == "6-1" and resolved.table.modifier_total == 4  # +6 capped at +4 (§12.5.2)
    assert "above 6-1 (caldiero §12.4.3) +6" in t.rolls[-1].detail["modifiers"]
    # the event records each modifier with its citation, the total before the cap, and the row the capped die read
    assert {m.reason: m.value for m in resolved.table.modifiers}["above 6-1 (caldiero §12.4.3)"] == 6
    assert resolved.table.modifier_uncapped == sum(m.value for m in resolved.table.modifiers) >= 6
    assert (resolved.table.die, resolved.table.modified_die) == (1, 5)


def expect_reject(t: Table, rule: str, cmd: dict[str, object], seat: str = "france") -> None:
    with pytest.raises(IllegalCommand) as e:
        t.send(seat, cmd)
    assert e.value.rule == rule, e.value


def test_declaring_worse_than_1_5_is_refused() -> None:
    t = table({"fr-9-dragons": ATT}, {"au-colloredo": DEF, "au-hungarian": DEF})
    t.state.units["fr-9-dragons"].reduced = True  # 1 SP against 8
    expect_reject(t, "caldiero §12.4.2", {"type": "attack", "attackers": ["fr-9-dragons"], "defenders": [DEF]})


def test_attackers_must_be_adjacent_to_every_defender() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": "1617"})
    expect_reject(t, "caldiero §12.4.1", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": ["1617"]})


def test_disordered_units_never_attack() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF})
    t.state.units["fr-18-ligne"].status = "disordered"
    expect_reject(t, "caldiero §15.1", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": [DEF]})


def test_artillery_does_not_assault() -> None:
    t = table({"fr-massena-iv-6pdr": ATT, "fr-18-ligne": ATT}, {"au-mahoney-jager": DEF})
    expect_reject(t, "caldiero §11.0.1", {"type": "attack", "attackers": ["fr-massena-iv-6pdr"], "defenders": [DEF]})


def test_defence_order_does_not_attack() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF}, order="defence")
    expect_reject(t, "caldiero §12.2", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": [DEF]})


def test_every_enemy_projecting_zoc_must_be_attacked() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF, "au-colloredo": "1418"})
    expect_reject(t, "caldiero §12.2.1", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": [DEF]})
    attack(t, ["fr-18-ligne"], [DEF, "1418"], dice=[1])  # a multi-hex combat is accepted, its hexes in any order
    declared = t.of(ev.AssaultDeclared)[-1]  # recorded as a set is listed, in hex order (issue 19 item 7)
    assert (declared.targets, declared.defenders) == (("1418", DEF), ("au-colloredo", "au-mahoney-jager"))


def test_no_unit_attacks_twice_and_no_hex_is_attacked_twice() -> None:
    t = table({"fr-18-ligne": ATT, "fr-40-ligne": "1416"}, {"au-mahoney-jager": DEF, "au-colloredo": "1516", "au-callenberg": "1315"})
    attack(t, ["fr-18-ligne"], [DEF, "1516"], dice=[4])  # 6:6 = 1-1, +1 -> Dd
    assert t.of(ev.AssaultResolved)[-1].result == "Dd"
    expect_reject(t, "caldiero §12.2.3", {"type": "attack", "attackers": ["fr-40-ligne"], "defenders": ["1516"]})
    expect_reject(t, "caldiero §12.2.3", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": ["1516"]})


def test_attack_order_units_in_zoc_must_attack() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF})
    expect_reject(t, "caldiero §5.1.2", {"type": "end_step"})
    assert {"type": "end_step"} not in t.legal("france")


def test_advance_order_attack_needs_the_attack_test() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF}, order="advance")
    attack(t, ["fr-18-ligne"], [DEF], dice=[6])  # failed "Attack?" test: no attack, no penalty (§12.2.2)
    assert not t.of(ev.AssaultResolved) and t.unit("fr-18-ligne").status == "good"
    assert t.of(ev.AttackersWithdrawn)[-1].rule == "caldiero §12.2.2"


def test_a_failed_attack_test_revises_the_assault_once() -> None:
    """caldiero §12.2.2 "altrimenti non possono attaccare": the failed unit out of the attackers, recorded as `tested`,
    and the assault moved on, in one `decision_revised` after the test's die (two or three till the twentieth session:
    `tested`, then the attackers, then the stage)."""
    t = table({"fr-18-ligne": ATT, "fr-40-ligne": ATT}, {"au-mahoney-jager": DEF}, order="advance")
    t.state.activation.unit_orders["fr-18-ligne"] = "attack"
    events = attack(t, ["fr-18-ligne", "fr-40-ligne"], [DEF], dice=[6, 3])  # fr-40-ligne fails; 6:2 = 3-1 -> Dd
    after = events[next(i for i, e in enumerate(events) if isinstance(e, core.DiceRolled)) + 1:]
    revised = [e.ctx for e in after[:next(i for i, e in enumerate(after) if isinstance(e, ev.AssaultResolved))]
               if isinstance(e, core.DecisionRevised)]
    assert [(c.attackers, c.tested) for c in revised] == [(("fr-18-ligne",), ("fr-40-ligne",))]
    assert result_of(t) == "Dd"


def test_elan_passed_gives_columns() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-colloredo": DEF, "au-hungarian": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[2, 3, 3], elan="fr-18-ligne")  # test 2 passes; 3 columns; CRT 3
    spent = t.of(ev.ElanSpent)[-1]
    assert spent.passed and spent.columns == 3 and t.state.elan_left == 3
    assert t.of(ev.AssaultResolved)[-1].table.column == "3-1"  # 6:8 = 1-2, +3 columns


def test_elan_failed_disorders_the_unit() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-colloredo": DEF, "au-hungarian": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[6], elan="fr-18-ligne")
    assert t.unit("fr-18-ligne").status == "disordered" and t.state.elan_left == 3
    assert not t.of(ev.AssaultResolved)


def test_no_elan_left_is_refused() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF})
    t.state.elan_left = 0
    expect_reject(t, "caldiero §16", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": [DEF], "elan": "fr-18-ligne"})


def test_elan_needs_an_attack_marker() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF}, order="advance")
    expect_reject(t, "caldiero §16.1", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": [DEF], "elan": "fr-18-ligne"})


def test_weather_shifts_and_confusion() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF}, weather=1)
    attack(t, ["fr-18-ligne"], [DEF], dice=[1, 3])  # confusion 1: one more left; 3-1 -> 2L -> 1-1
    resolved = t.of(ev.AssaultResolved)[-1]
    assert resolved.table.column == "1-1" and resolved.shifts == -2
    assert t.rolls[0].purpose.startswith("caldiero §17.2")


def test_defender_cavalry_may_retreat_before_combat() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-stab-dragoner": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[])
    assert t.awaited().kind == "cavalry_retreat"
    option = next(o for o in t.legal("austria") if o["type"] == "cavalry_retreat")
    t.send("austria", option)
    assert t.unit("au-stab-dragoner").hex == option["to"] and not t.of(ev.AssaultResolved)
    assert t.awaited().kind == "advance"  # §14.1: the attacker may advance


def test_cavalry_retreats_before_combat_only_where_it_may_stack() -> None:
    """caldiero §14.1 "possono ritirarsi di un esagono", §7.1 (two units of one type and one formation): the hex
    must be one where the cavalry may lawfully stand. Two of the three hexes it would retreat to hold Austrian
    infantry: only the third is offered. The listing took the first hex of every line of retreat, §12.6.2's lines
    going on past an overstacked hex included, and so offered the two hexes where cavalry and infantry would stack."""
    t = table({"fr-18-ligne": ATT}, {"au-stab-dragoner": DEF, "au-colloredo": "1518", "au-gyulai": "1617"})
    attack(t, ["fr-18-ligne"], [DEF], dice=[])
    assert t.awaited().kind == "cavalry_retreat"
    assert t.legal("austria") == [
        {"type": "cavalry_retreat", "to": "1618", "units": ["au-stab-dragoner"], "off_map": False},
        {"type": "cavalry_retreat", "to": None, "units": None, "off_map": False}]
    with pytest.raises(IllegalCommand) as refused:  # an unlisted answer of the awaited kind
        t.send("austria", {"type": "cavalry_retreat", "units": ["au-stab-dragoner"], "to": "1518"})
    assert refused.value.rule == "caldiero §14.1"


def test_cavalry_with_no_lawful_hex_is_not_asked_to_retreat() -> None:
    """caldiero §14.1, §7.1: every hex next to the cavalry it could retreat into holds Austrian infantry, the three
    behind it (1518, 1617, 1618) and its two flanks in France's ZoC (1418, 1516, §12.6.1); going on past them is a
    forced retreat's (§12.6.2 "Una unità costretta a ritirarsi ... deve proseguire"), not this one's: the assault
    asks nothing of Austria and goes on to its defensive fire and resolution."""
    t = table({"fr-18-ligne": ATT}, {"au-stab-dragoner": DEF, "au-colloredo": "1518", "au-gyulai": "1617",
                                     "au-callenberg": "1618", **FLANKS_HELD})
    attack(t, ["fr-18-ligne"], [DEF, *FLANKS_HELD.values()], dice=[3])
    assert not [e for e in t.of(core.DecisionOpened) if e.frame.kind == "cavalry_retreat"]
    assert t.of(ev.AssaultResolved), "the assault was resolved with the cavalry in it"
    assert not [e for e in t.of(ev.UnitRetreated) if e.rule == "caldiero §14.1"]


def test_reading_goes_on_lets_the_cavalry_go_on_past_full_hexes() -> None:
    """Interpretation retreat_before_combat_length goes_on (the same in both games; one_hex by default): §12.6.2 as
    in any retreat, every hex the cavalry would retreat to full, it goes on to a hex with room; the answer names the
    line's end, and the event records every hex entered, citing §12.6.2 beside §14.1."""
    t = table({"fr-18-ligne": ATT}, {"au-stab-dragoner": DEF, "au-colloredo": "1518", "au-gyulai": "1617",
                                     "au-callenberg": "1618"}, interpretations={"retreat_before_combat_length": "goes_on"})
    attack(t, ["fr-18-ligne"], [DEF], dice=[])
    assert t.awaited().kind == "cavalry_retreat"
    options = [o for o in t.legal("austria") if o["type"] == "cavalry_retreat"]
    assert options and all(o["to"] not in ("1518", "1617", "1618", DEF) for o in options)
    t.send("austria", options[0])
    moved = [e for e in t.of(ev.UnitRetreated) if e.rule == "caldiero §14.1; caldiero §12.6.2"][-1]  # going on, cited
    assert len(moved.path) == 2 and moved.path[-1] == options[0]["to"] == t.unit("au-stab-dragoner").hex


def test_a_commander_left_alone_retreats_with_the_cavalry() -> None:
    """caldiero §12.6 (the kernel's retreat.move_along, as Arrivano's §14.1 did): a retreat before combat is a
    retreat; the commander the cavalry would leave alone in the assaulted hex goes with it, along the same hexes."""
    t = table({"fr-18-ligne": ATT}, {"au-stab-dragoner": DEF, "au-colloredo": "1518", "au-gyulai": "1617"},
              leaders={"hohenzollern": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[])
    t.send("austria", {"type": "cavalry_retreat", "units": ["au-stab-dragoner"], "to": "1618"})
    moved = t.of(ev.LeaderMoved)[-1]
    assert (moved.leader, moved.path, moved.rule) == ("hohenzollern", ("1618",), "caldiero §12.6")
    assert t.state.leaders["hohenzollern"].hex == "1618"


EZOC_ALL_ROUND = {"fr-18-ligne": ATT, "fr-9-dragons": "1419", "fr-75-ligne": "1717"}  # every free hex by DEF in French ZoC


@pytest.mark.parametrize(("status", "after"), [("good", "disordered"), ("disordered", "routed")])
def test_cavalry_retreating_into_enemy_zoc_takes_a_disorder_level(status: str, after: str) -> None:
    """caldiero §12.6.1 "riceve un ulteriore livello di Disorganizzazione", for any retreat, as Arrivano's §14.1 did:
    every hex the cavalry may retreat to is in a French ZoC; it goes, and takes one more level. Routed by it, it
    retreats two hexes more at once (§15.2.1), answered before the assault goes on."""
    t = table(EZOC_ALL_ROUND, {"au-stab-dragoner": DEF})
    t.unit("au-stab-dragoner").status = status
    attack(t, ["fr-18-ligne"], [DEF], dice=[])
    option = next(o for o in t.legal("austria") if o["type"] == "cavalry_retreat")
    t.send("austria", option)
    changed = t.of(ev.StatusChanged)[-1]
    assert changed.unit == "au-stab-dragoner" and changed.status == after
    assert changed.rule == ("caldiero §12.6.1" if after == "disordered" else "caldiero §15.1")
    if after == "routed":
        assert t.awaited().kind == "retreat" and t.awaited().ctx.moves == {"au-stab-dragoner": 2}


def test_a_unit_routed_by_its_retreat_into_enemy_zoc_goes_on_in_a_frame_of_its_own() -> None:
    """caldiero §12.6.1 then §15.2.1 "si deve immediatamente ritirare di 2 esagoni", as arrivano's (the kernel's
    retreat_frame, D45): the disordered unit's Dr retreat into the French ZoC routs it; its two more hexes are a frame
    of its own above the stack's, citing §15.2.1 (it joined the Dr frame, citing §12.5.4, up to this session)."""
    t = table(EZOC_ALL_ROUND, {"au-mahoney-jager": DEF, "au-colloredo": DEF})
    t.unit("au-mahoney-jager").status = "disordered"
    attack(t, ["fr-18-ligne"], [DEF], dice=[4])
    assert result_of(t) == "Dr" and t.awaited().ctx.moves == {"au-colloredo": 1, "au-mahoney-jager": 1}
    t.send("austria", next(o for o in t.legal("austria") if o["unit"] == "au-mahoney-jager"))
    assert t.unit("au-mahoney-jager").status == "routed"
    routed = t.awaited()
    assert (routed.kind, routed.rule, routed.ctx.moves) == ("retreat", "caldiero §15.2.1", {"au-mahoney-jager": 2})
    t.send("austria", t.legal("austria")[0])
    assert t.of(ev.UnitRetreated)[-1].rule == "caldiero §15.2.1"
    assert (t.awaited().rule, t.awaited().ctx.moves) == ("caldiero §12.5.4", {"au-colloredo": 1})


def test_a_dd_rout_eliminates_the_guns_stacked_with_it_citing_the_result_first() -> None:
    """caldiero §12.5.4 Dd routs the disordered defender, which retreats two hexes at once (§15.2.1); the guns in its
    hex are eliminated (§11.1 "a seguito di combattimenti"), citing what forced them as Arrivano's do: the result, then
    §15.2.1 (the kernel's retreat_frame.disordered; it cited §15.2.1 alone)."""
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF, "au-brabeck-3pdr": DEF})
    t.unit("au-mahoney-jager").status = "disordered"
    attack(t, ["fr-18-ligne"], [DEF], dice=[])
    t.send("austria", {"type": "decline"}, dice=[1])  # no defensive fire; Dd
    assert result_of(t) == "Dd" and t.awaited().ctx.moves == {"au-mahoney-jager": 2}
    gun = t.of(ev.UnitEliminated)[-1]
    assert (gun.unit, gun.cause) == ("au-brabeck-3pdr", "caldiero §12.5.4; caldiero §15.2.1; caldiero §11.1")


def test_defensive_bombardment_disorders_attackers() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF, "au-brabeck-3pdr": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[])
    assert t.awaited().kind == "defensive_fire"
    t.send("austria", {"type": "defensive_fire", "artillery": "au-brabeck-3pdr", "target": ATT}, dice=[6])
    fired = t.of(ev.ArtilleryFired)[-1]
    assert fired.defensive and fired.result in ("D", "R")
    assert t.unit("fr-18-ligne").status != "good"
    assert not t.of(ev.AssaultResolved)  # the only attacker no longer attacks


@pytest.mark.parametrize("reading, offered", [("every_attacker", False), ("any_attacker", True)])
def test_an_ne_is_tested_when_the_units_in_the_attack_held_an_attack_order(reading: str, offered: bool) -> None:
    """caldiero §12.5.4 Ne, "Se le unità in attacco avevano Ordine Attacco" (interpretation ne_attack_order): with one
    attacker under Advance (it passed its "Attack?" test) beside one under Attack, the test is offered only when any
    unit's Attack order suffices; by default every unit in the attack must hold one."""
    t = table({"fr-18-ligne": ATT, "fr-40-ligne": ATT}, {"au-mahoney-jager": DEF, "au-colloredo": DEF},
              interpretations={"ne_attack_order": reading})
    t.state.activation.unit_orders["fr-40-ligne"] = "advance"  # as if out of command and given Advance (§5.3.1)
    attack(t, ["fr-18-ligne", "fr-40-ligne"], [DEF], dice=[1, 1])  # fr-40-ligne's Attack? test passes; then Ne
    assert result_of(t) == "Ne"
    assert (t.awaited() is not None and t.awaited().kind == "ne_choice") is offered


def test_cavalry_left_with_no_lawful_hex_is_not_asked_again() -> None:
    """caldiero §14.1, §7.1: two hussars in the assaulted hex, the one hex they may retreat into (1618) holding a
    third of their formation, room for one more (the others behind and the flanks held by infantry). One retreats
    there: the other, with no lawful hex left, is not asked again (it was re-asked with staying its only answer,
    without the `before_combat_asked` of the first question); the assault goes on."""
    t = table({"fr-18-ligne": ATT}, {"au-stab-dragoner": DEF, "au-erz-jozsef-hussars": DEF, "au-wurmser-hussars": "1618",
                                     "au-colloredo": "1518", "au-gyulai": "1617", **FLANKS_HELD})
    attack(t, ["fr-18-ligne"], [DEF, *FLANKS_HELD.values()], dice=[])
    assert t.awaited().kind == "cavalry_retreat"
    assert [o for o in t.legal("austria") if o["type"] == "cavalry_retreat" and o["to"]] == [
        {"type": "cavalry_retreat", "to": "1618", "units": [u], "off_map": False}
        for u in ("au-erz-jozsef-hussars", "au-stab-dragoner")]  # not both: 1618 has room for one more
    t.send("austria", {"type": "cavalry_retreat", "units": ["au-stab-dragoner"], "to": "1618"}, dice=[3])
    assert len([e for e in t.of(core.DecisionOpened) if e.frame.kind == "cavalry_retreat"]) == 1
    assert t.unit("au-erz-jozsef-hussars").hex != DEF or t.of(ev.AssaultResolved), "the assault went on"


def test_an_ex_test_rout_eliminates_the_guns_citing_the_result_and_the_rout_as_arrivano() -> None:
    """caldiero §12.5.4 Ex, arrivano §12.5.4 EX, written once (parabellum/results.exchanged): after the losses every
    other unit tests ("Ex test in <hex>", both games' words), a disordered defender failing routs and retreats at once
    (§15.2.1), and the gun stacked with it is eliminated (§11.1) citing the result and the rout, as every assault's
    rout does (retreat_frame.routed_away; Caldiero cited §15.2.1 alone until the eighteenth session)."""
    t = table({"fr-carabiniers": ATT, "fr-18-legere": ATT}, {"au-colloredo": DEF, "au-hungarian": DEF, "au-brabeck-3pdr": DEF})
    t.unit("au-colloredo").status = "disordered"
    t.unit("au-hungarian").status = "disordered"
    attack(t, ["fr-carabiniers", "fr-18-legere"], [DEF], dice=[])
    t.send("austria", {"type": "decline"}, dice=[2])  # no defensive fire; +2 against a disordered defence: Ex
    assert result_of(t) == "Ex"
    t.send("france", {"type": "exchange_loss", "units": ["fr-carabiniers"]})
    t.send("austria", {"type": "exchange_loss", "units": ["au-colloredo"]}, dice=[1, 6])  # 1417 passes, 1517 fails
    assert [r.purpose.rsplit(": ", 1)[-1] for r in t.rolls[-2:]] == [f"caldiero §12.5.4 Ex test in {ATT}",
                                                                     f"caldiero §12.5.4 Ex test in {DEF}"]
    gun = t.of(ev.UnitEliminated)[-1]
    assert (gun.unit, gun.cause) == ("au-brabeck-3pdr", "caldiero §12.5.4; caldiero §15.2.1; caldiero §11.1")
    assert (t.awaited().kind, t.awaited().rule, t.awaited().ctx.moves) == ("retreat", "caldiero §15.2.1", {"au-hungarian": 2})


def test_the_dr_test_and_the_advance_are_worded_as_arrivano_s() -> None:
    """caldiero §12.5.4 Dr and §12.7, the kernel's stages for both games (results.dr_tests, advance.stage): the test
    after the one-hex retreat is rolled as "Dr test in <hex>" (Caldiero's said "at" until the eighteenth session), the
    advance asked in one prompt for both books."""
    t = table({"fr-18-ligne": ATT}, {"au-colloredo": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[6])
    assert result_of(t) == "Dr"
    t.send("austria", t.legal("austria")[0], dice=[1])
    at = t.unit("au-colloredo").hex
    assert t.rolls[-1].purpose.endswith(f"caldiero §12.5.4 Dr test in {at}") and t.unit("au-colloredo").status == "disordered"
    assert (t.awaited().kind, t.awaited().prompt) == ("advance", "advance into a hex the assault vacated, or decline (caldiero §12.7)")
