"""The scenarios' own rules (caricat §13, §14), the optional rules with their VP costs (§13.3, §12), victory
(§13.4, §14.2) and the named interpretations."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.caricat import scenario as SC
from arbitro.adjudicator.caricat.flow import Game
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.events import caricat as ev
from tests.caricat.harness import RULESET, Table, activated, position

FAR = {"sigismund1": "3305", "guardie1": "1415"}


def test_federici_marches_on_pastrengo_then_holds_until_turn_8():
    units = {"piemonte3": "2409", "kinsky1": "3105", **FAR}
    t = Table(activated(position(units=units, levels={"federici": "advance"}), "federici"))
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "move", "unit": "piemonte3", "path": ["2409", "2410"]})  # away from 2608
    assert refused.value.rule == "caricat §13.2.1"
    t.send("italian", {"type": "move", "unit": "piemonte3", "path": ["2409", "2508", "2608"]})
    changed = t.of(ev.LevelChanged)[0]
    assert (changed.leader, changed.level, changed.rule) == ("federici", "hold", "caricat §13.2.1")
    assert t.of(ev.ObjectiveTaken)[0].hex == "2608"
    t.state.phase, t.state.activation = "commitment", ""
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "try_level", "leader": "federici", "level": "advance"})
    assert refused.value.rule == "caricat §13.2.1"


def test_bes_replaces_federici_for_two_vp():
    state = RULESET.new_state("pastrengo", ("bes",))
    assert state.leaders["federici"].gone and state.units["piemonte3"].leader == "bes"
    t = Table(state)
    t.start()
    assert [(e.option, e.side, e.vp) for e in t.of(ev.OptionUsed)] == [("bes", "italian", 2)]


def test_carlo_albertos_indecision_keeps_the_italian_west_of_the_adige_for_one_austrian_vp():
    state = position(units={"carabinieri": "3601", "kinsky1": "2608", **FAR}, options=("carlo_alberto",))
    t = Table(activated(state, "carabinieri", "cavalry"))
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "move", "unit": "carabinieri", "path": ["3601", "3700"]})
    assert refused.value.rule == "caricat §13.2.2"
    t2 = Table(RULESET.new_state("pastrengo", ("carlo_alberto",)))
    t2.start()
    assert [(e.side, e.vp) for e in t2.of(ev.OptionUsed)] == [("austrian", 1)]


def test_the_bridge_destroyed_no_crossing_and_austrians_west_of_the_river_are_lost_at_the_end():
    state = position(units={"kinsky1": "3601", "kinsky2": "3700", "savoia1": "0503"}, phase="recovery",
                     seat="austrian", turn=10)
    t = Table(state)
    t.send("austrian", {"type": "destroy_bridge"})
    assert t.state.bridge_destroyed and t.state.phase == "over"
    lost = [e.unit for e in t.of(ev.UnitEliminated)]
    assert lost == ["kinsky1"] and t.of(ev.UnitEliminated)[0].rule == "caricat §13.2.2"


def test_taxis_arrives_on_two_dice_below_the_turn_and_costs_five_vp():
    state = position(units={"kinsky1": "2608", **FAR}, phase="commitment", seat="austrian", turn=6,
                     options=("taxis",))
    state.leaders["taxis"].present = False
    t = Table(state)
    assert {"type": "call_brigade", "leader": "schafgottsche"} not in t.legal("austrian")  # not its option
    t.send("austrian", {"type": "call_brigade", "leader": "taxis"}, dice=[3, 3])  # 6 is not below 6
    assert not t.state.leaders["taxis"].present and {"type": "call_brigade", "leader": "taxis"} not in t.legal("austrian")
    state = position(units={"kinsky1": "2608", **FAR}, phase="commitment", seat="austrian", turn=7,
                     options=("taxis",))
    state.leaders["taxis"].present = False
    t = Table(state)
    t.send("austrian", {"type": "call_brigade", "leader": "taxis"}, dice=[3, 3])
    assert t.state.leaders["taxis"].present and t.state.costs["austrian"] == 5


def test_blanchard_holds_two_turns_then_advances_by_himself():
    state = position("montebello", units={"fr91": "1515", "ir3": "2510"}, phase="commitment", seat="italian", turn=2)
    t = Table(state)
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "try_level", "leader": "blanchard", "level": "advance"})
    assert refused.value.rule == "caricat §14.1.2"
    state = position("montebello", units={"fr91": "1515", "ir3": "2510"}, phase="recovery", seat="austrian", turn=2)
    t = Table(state)
    t.send("austrian", {"type": "end_turn"})
    assert [(e.leader, e.level, e.reason) for e in t.of(ev.LevelChanged)] == [("blanchard", "advance", "automatic")]


def test_prinz_hessen_stays_in_reserve_unless_attacked():
    state = position("montebello", units={"hessen1": "3506", "fr74": "1812"}, phase="commitment", seat="austrian",
                     turn=9)
    with pytest.raises(IllegalCommand) as refused:
        Table(state).send("austrian", {"type": "try_level", "leader": "hessen", "level": "hold"})
    assert refused.value.rule == "caricat §14.1.6"


def test_trotti_may_roll_when_austrians_come_within_three_hexes_of_1317():
    for hex_id, may in (("1514", False), ("1315", True)):  # 4 and 2 hexes from 1317
        state = position(units={"kinsky1": hex_id, "sigismund1": "3305", "guardie1": "0503"}, phase="commitment",
                         seat="italian", turn=3)
        state.units["regina9"].where = state.units["regina10"].where = "off"
        command = {"type": "try_level", "leader": "trotti", "level": "hold"}
        assert (command in Table(state).legal("italian")) == may
    t = Table(state)
    t.send("italian", command, dice=[1, 1])
    assert t.state.leaders["trotti"].level == "hold"


def test_the_optional_morale_check_keeps_a_failing_attacker_out_of_the_melee():
    state = position(units={"savoia1": "0801", "kinsky1": "0802", **FAR}, options=("morale_check",))
    t = Table(activated(state, "broglia"))
    t.send("italian", {"type": "melee", "units": ["savoia1"], "target": "kinsky1"}, dice=[1, 1, 1, 6])
    assert [(e.unit, e.passed, e.rule) for e in t.of(ev.MoraleChecked)] == [("savoia1", False, "caricat §12")]
    assert not t.of(ev.MeleeResolved)


def test_pastrengo_victory_is_read_on_the_level_table():
    state = position(units={"savoia1": "2608", "kinsky1": "3105"})
    state.control["2608"] = "italian"
    state.vp = {"italian": 4, "austrian": 1}
    t = Table(state)
    g = Game(t.decision(), RULESET.data)
    vp = SC.score(g)
    assert vp == {"italian": 4 + 5, "austrian": 1}  # Pastrengo's 5 VP (provisional) to its holder


def test_the_morale_value_reading_switches_the_fire_threshold():
    units = {"savoia1": "0801", "kinsky1": "0802", **FAR}
    for reading, needed in (("reduced_by_hits", 3), ("printed", 5)):
        t = Table(activated(position(units=units, hits={"kinsky1": 2}), "broglia"), {"morale_value": reading})
        t.send("italian", {"type": "fire", "units": ["savoia1"], "target": "kinsky1"}, dice=[1] * 6 + [1, 2, 1, 2])
        assert t.of(ev.FireResolved)[0].needed == needed
