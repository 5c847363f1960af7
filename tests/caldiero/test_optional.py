"""Scenario rules (caldiero §19) and the optional rules (§20), each selectable at creation; victory (§18)."""

from __future__ import annotations

import json

import pytest

from arbitro.adjudicator.caldiero.system_procedure import unit_due
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.caldiero.victory import CALDIERO_SCORING, level_for
from arbitro.adjudicator.parabellum import victory
from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.events import caldiero as ev
from arbitro.projections.base import UMPIRE
from tests.caldiero.harness import RULESET, activate, fresh, position
from tests.caldiero.test_combat import attack


def _points(w):  # type: ignore[no-untyped-def]
    return victory.points(CALDIERO_VARIANT, w, CALDIERO_SCORING)


def world(state, readings=None):  # type: ignore[no-untyped-def]
    chosen = readings or {}
    return World(state, RULESET.battle, lambda n: chosen.get(n, RULESET.interpretations()[n].default),
                 variant=CALDIERO_VARIANT)


def test_every_optional_rule_is_selectable() -> None:
    for name in ("historical", "il_tempo_regge"):
        assert set(RULESET.scenarios()[name].options) == {
            "bonaparte_intervention", "cavalry_charges", "storm_from_east", "fog_of_war", "flank_attacks"}


def test_il_tempo_regge_reinforcements_a_turn_early() -> None:
    state = fresh("il_tempo_regge")
    state.turn = 1
    assert unit_due(world(state), "au-mahoney-jager")  # GT2 -> GT1 (§19.2.2)
    assert not unit_due(world(fresh("historical")), "au-mahoney-jager")


def test_il_tempo_regge_french_points_malus() -> None:
    units = {"fr-18-ligne": "2020", "fr-40-ligne": "1612", "fr-32-ligne": "1607"}
    hist = _points(world(position(units)))
    regge = _points(world(position(units, scenario="il_tempo_regge")))
    assert hist["france"] == 3 + 2 + 2 and regge["france"] == 2 + 1 + 2  # Gombion keeps its value (§19.2.3)


def test_victory_levels() -> None:
    units = {"au-colloredo": "2020", "au-hungarian": "2119", "au-gyulai": "1612", "au-callenberg": "1613", "au-banal-grenz": "1712"}
    w = world(position(units))
    assert _points(w)["austria"] == 12
    assert [level_for(w, d) for d in (14, 13, 8, 7, 4, 3)] == ["decisive", "marginal", "marginal", "tactical", "tactical", "draw"]


def test_vp_control_reading() -> None:
    state = position({"fr-18-ligne": "1417"})
    assert _points(world(state)) == {"france": 0, "austria": 0}
    assert _points(world(state, {"vp_control": "austrian_unless_french"}))["austria"] == 16


def test_bonaparte_intervention() -> None:
    state = fresh(options=("bonaparte_intervention",))
    assert "bonaparte" in state.formations and state.units["fr-75-ligne"].formation == "bonaparte"
    assert _points(world(position({}, options=("bonaparte_intervention",))))["austria"] == 3  # §20.1
    s = position({"fr-75-ligne": "1417", "au-colloredo": "1917"}, leaders={"bonaparte": "1317"},
                 options=("bonaparte_intervention",), orders={"bonaparte": "defence"})
    t = activate(s, "bonaparte", step="orders")
    t.send("france", {"type": "try_order_change", "order": "attack"}, dice=[], pad=0)  # §20.1.1: automatic
    assert t.state.formations["bonaparte"].order == "attack" and not t.rolls


def test_bonaparte_s_formation_is_option_data() -> None:
    """caldiero §20.1: the formation the option brings (its id, commander, order, and the printed formation whose units
    it takes) is scenario.json's, not names in code: a folder naming it otherwise is played as it says, and one whose
    formation has an unknown general or takes an unknown formation is refused at load with file and path."""
    files = RULESET.read_data(RULESET.folder.folder)
    raw = json.loads(files["caldiero/scenario.json"])
    raw["options"]["bonaparte_intervention"]["formation"].update(id="armee_d_italie", initial_order="defence")
    files["caldiero/scenario.json"] = json.dumps(raw)
    with RULESET.using_data(files):
        state = RULESET.new_state("historical", ("bonaparte_intervention",))
    assert state.formations["armee_d_italie"].general == "bonaparte" and "bonaparte" not in state.formations
    assert state.formations["armee_d_italie"].order == "defence"
    assert state.units["fr-75-ligne"].formation == "armee_d_italie"
    raw["options"]["bonaparte_intervention"]["takes"] = "riserva"
    raw["options"]["bonaparte_intervention"]["formation"]["general"] = "napoleone"
    files["caldiero/scenario.json"] = json.dumps(raw)
    with pytest.raises(DataError) as caught:
        RULESET.folder.from_files(files)
    assert [str(p) for p in caught.value.problems] == [
        "caldiero/scenario.json: $.options.bonaparte_intervention.formation.general: unknown leader 'napoleone'",
        "caldiero/scenario.json: $.options.bonaparte_intervention.takes: unknown formation 'riserva'"]


def _scenario_problems(change) -> list[str]:  # type: ignore[no-untyped-def]
    files = RULESET.read_data(RULESET.folder.folder)
    raw = json.loads(files["caldiero/scenario.json"])
    change(raw)
    files["caldiero/scenario.json"] = json.dumps(raw)
    with pytest.raises(DataError) as caught:
        RULESET.folder.from_files(files)
    return [str(p) for p in caught.value.problems]


def test_an_old_scenario_file_is_told_every_edit_at_once() -> None:
    """A scenario file from before §20.1's formation was data (with `french_entry`, without `formation`/`takes`) gets
    ONE problem naming the three edits: told only to drop the unknown key, it would load and play caldiero §20.1
    without Bonaparte's formation."""
    def old(raw):  # type: ignore[no-untyped-def]
        raw["french_entry"] = "1014"
        del raw["options"]["bonaparte_intervention"]["formation"], raw["options"]["bonaparte_intervention"]["takes"]
    (problem,) = _scenario_problems(old)
    assert problem.startswith("caldiero/scenario.json: $: a scenario file older than caldiero §20.1's formation as data")
    assert all(edit in problem for edit in ("delete `french_entry`", "add options.bonaparte_intervention.formation",
                                            "add options.bonaparte_intervention.takes")), problem


def test_the_option_formation_is_checked_against_the_order_of_battle() -> None:
    """caldiero §20.1: the option's formation and what it takes come together; it is a new formation, there from the
    first turn, under a general of its side who leads no printed formation."""
    o = "$.options.bonaparte_intervention"
    assert _scenario_problems(lambda raw: raw["options"]["bonaparte_intervention"].pop("takes")) == [
        f"caldiero/scenario.json: {o}.takes: required with `formation`: the printed formation whose units it takes"]
    assert _scenario_problems(lambda raw: raw["options"]["bonaparte_intervention"]["formation"].update(
        reserve=True, arrival_turn=2)) == [
        f"caldiero/scenario.json: {o}.formation.arrival_turn: an option's formation is there from the first turn: omit it",
        f"caldiero/scenario.json: {o}.formation.reserve: an option's formation is never a reserve: omit it"]
    assert _scenario_problems(lambda raw: raw["options"]["bonaparte_intervention"]["formation"].update(
        id="massena", general="augereau")) == [
        f"caldiero/scenario.json: {o}.formation.id: 'massena' is a formation of the order of battle: an option's "
        "formation is a new one",
        f"caldiero/scenario.json: {o}.formation.general: 'augereau' is a leader of the printed formation 'augereau'"]
    assert _scenario_problems(lambda raw: raw["options"]["bonaparte_intervention"].update(takes="massena")) == [
        f"caldiero/scenario.json: {o}.takes: 'massena' is not the reserve (caldiero §15.4.3): an option's formation "
        "takes its units"]


def test_storm_from_east_weakens_eastward_attackers() -> None:
    def strength(options: tuple[str, ...]) -> int:
        s = position({"fr-18-ligne": "1417", "au-mahoney-jager": "1517"}, leaders={"massena": "1317"},
                     orders={"massena": "attack"}, weather=2, options=options)
        t = activate(s, "massena", step="combat")
        t.send("france", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": ["1517"]}, dice=[3, 3, 1])
        return t.of(ev.AssaultResolved)[0].attack_strength

    assert strength(()) == 6 and strength(("storm_from_east",)) == 5  # §20.3.1: from 14xx onto 15xx


def test_flank_attack_shifts_two_columns() -> None:
    def column(options: tuple[str, ...]) -> str:
        s = position({"fr-18-ligne": "1417", "fr-40-ligne": "1617", "au-colloredo": "1517"}, leaders={"massena": "1317"},
                     orders={"massena": "attack"}, options=options)
        t = activate(s, "massena", step="combat")
        attack(t, ["fr-18-ligne", "fr-40-ligne"], ["1517"], dice=[1])  # their efficiency 3 and 4 tie: 4 picked
        return t.of(ev.AssaultResolved)[0].table.column

    assert column(()) == "3-1" and column(("flank_attacks",)) == "5-1"  # 12:4, five of six neighbours (§20.5)


def test_fog_of_war_hides_stacks_out_of_sight() -> None:
    s = position({"fr-18-ligne": "1417", "au-colloredo": "1617", "au-hungarian": "2517"}, options=("fog_of_war",))
    view = RULESET.view(s, "france")
    assert "au-colloredo" in view["units"] and "au-hungarian" not in view["units"]
    assert view["hidden_stacks"] == {"2517": "austria"}
    assert "au-hungarian" in RULESET.secret_units(s, "france") and "au-colloredo" not in RULESET.secret_units(s, "france")
    assert "au-hungarian" not in str(view)
    assert "au-hungarian" in RULESET.view(s, "umpire")["units"]


def test_fog_of_war_sight_shrinks_with_weather() -> None:
    s = position({"fr-18-ligne": "1417", "au-colloredo": "1717"}, options=("fog_of_war",))
    assert "au-colloredo" in RULESET.view(s, "france")["units"]  # 3 hexes, clear
    s.weather = 2
    assert "au-colloredo" not in RULESET.view(s, "france")["units"]  # 4 - 2 = 2 hexes (§20.4.1)


def test_without_fog_nothing_is_hidden() -> None:
    s = position({"fr-18-ligne": "1417", "au-hungarian": "2517"})
    assert "au-hungarian" in RULESET.view(s, "france")["units"] and RULESET.secrets(s, "france") == set()


def test_cavalry_charge() -> None:
    s = position({"au-wurmser-hussars": "1917", "fr-18-ligne": "1617"}, leaders={"hohenzollern": "2017"},
                 orders={"hohenzollern": "attack"}, options=("cavalry_charges",))
    s.seat = "austria"
    t = activate(s, "hohenzollern", step="movement")
    charges = [c for c in t.legal("austria") if c["type"] == "move" and c.get("charge")]
    assert {c["to"] for c in charges} >= {"1717"}
    t.send("austria", {"type": "move", "units": ["au-wurmser-hussars"], "to": "1717", "charge": True})
    assert t.unit("au-wurmser-hussars").charging
    t.state.step = "combat"
    t.send("austria", {"type": "attack", "attackers": ["au-wurmser-hussars"], "defenders": ["1617"]}, dice=[1, 1])
    resolved = t.of(ev.AssaultResolved)[0]
    assert resolved.attack_strength == 4  # doubled (§20.2)
    assert t.unit("au-wurmser-hussars").status in ("disordered", "routed") or t.unit("au-wurmser-hussars").where != "map"


def test_charge_refused_without_the_option_or_by_other_units() -> None:
    s = position({"au-wurmser-hussars": "1917", "au-stab-dragoner": "2017", "fr-18-ligne": "1617"},
                 leaders={"hohenzollern": "2018"}, orders={"hohenzollern": "attack"})
    s.seat = "austria"
    t = activate(s, "hohenzollern", step="movement")
    with pytest.raises(IllegalCommand) as e:
        t.send("austria", {"type": "move", "units": ["au-wurmser-hussars"], "to": "1717", "charge": True})
    assert e.value.rule == "caldiero §20.2"


def test_sighting_enemy_stacks_is_recorded_and_irreversible() -> None:
    s = position({"fr-18-ligne": "1417", "au-colloredo": "2017"}, leaders={"massena": "1317"},
                 orders={"massena": "manoeuvre"}, options=("fog_of_war",))
    assert "au-colloredo" in RULESET.secrets(s, "france")
    t = activate(s, "massena", step="movement")
    t.send("france", {"type": "move", "units": ["fr-18-ligne"], "to": "1617"})
    sighted = {e.seat: e.pieces for e in t.of(ev.PiecesSighted)}
    assert sighted == {"france": ("au-colloredo",), "austria": ("fr-18-ligne",)}  # both sides see each other
    assert RULESET.is_irreversible(t.of(ev.PiecesSighted)[0])  # no free undo after seeing the enemy (§20.4)
    assert "au-colloredo" in RULESET.view(t.state, "france")["units"]
    # What a seat has examined is its own knowledge: served to it and the umpire, never to the enemy (whose
    # units it names: it would tell the enemy where it looks from).
    france = next(e for e in t.of(ev.PiecesSighted) if e.seat == "france")
    assert RULESET.redact(france, "france", t.state) is not None and RULESET.redact(france, UMPIRE, t.state) is not None
    assert RULESET.redact(france, "austria", t.state) is None
