"""Combat: fire (caricat §7.1, §7.1.1 the natural 6, §7.1.2 morale after the round, simultaneous defensive fire),
melee (§7.2, §7.2.1 bands), leader loss on doubles (§7.3), retreat (§7.4), Reserve attacked (§3.1), cavalry retreat
before combat (§9.2)."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import IllegalCommand
from arbitro.events import caricat as ev
from tests.caricat.harness import Table, activated, position

# 1011 (even column) touches 1110 and 1111 (odd columns are shifted toward higher rows).
DUEL = {"savoia1": "1011", "kinsky1": "1111", "guardie1": "0503", "sigismund1": "3305"}


def duel(levels: dict[str, str] | None = None, **kw: object) -> Table:
    state = position(units=DUEL, levels={"broglia": "advance", "wolgemuth": "hold", **(levels or {})}, **kw)
    return Table(activated(state, "broglia"))


def test_fire_and_defensive_fire_are_simultaneous_and_morale_falls_after_the_round():
    t = duel()
    # savoia1: 3 dice against morale 5 -> 6, 5 hit; kinsky1 (Hold: +1) 3 dice against 5 -> 4+1, 4+1 hit
    t.send("italian", {"type": "fire", "units": ["savoia1"], "target": "kinsky1"}, dice=[6, 5, 4, 4, 4, 1, 1, 2, 1, 2])
    fires = t.of(ev.FireResolved)
    assert [(f.firers, f.hits, f.needed, f.modifier) for f in fires] == [
        (("savoia1",), 2, 5, 0), (("kinsky1",), 2, 5, 1)]  # both rolled against the morale before the round
    assert fires[1].defensive and fires[1].rule == "caricat §7.1.1"
    assert t.state.units["savoia1"].hits == 2 and t.state.units["kinsky1"].hits == 2
    assert [m.rule for m in t.of(ev.MoraleLost)] == ["caricat §7.1.2", "caricat §7.1.2"]


def test_a_natural_six_always_hits():
    t = duel(levels={"broglia": "attack"})  # Attack: -1 to each fire die (caricat §3.1)
    t.send("italian", {"type": "fire", "units": ["savoia1"], "target": "kinsky1"}, dice=[6, 5, 5, 1, 1, 1, 1, 2, 1, 2])
    assert t.of(ev.FireResolved)[0].hits == 1 and t.of(ev.FireResolved)[0].modifier == -1


def test_leader_killed_on_doubles_and_replaced_by_staff():
    t = duel()
    t.send("italian", {"type": "fire", "units": ["savoia1"], "target": "kinsky1"}, dice=[6, 1, 1, 1, 1, 1, 4, 4])
    killed = t.of(ev.LeaderEliminated)
    assert [k.leader for k in killed] == ["wolgemuth"] and killed[0].staff and killed[0].vp == 1
    assert t.state.leaders["wolgemuth"].out_of_command and t.state.vp["italian"] == 1
    assert t.of(ev.LeaderEliminated)[0].rule == "caricat §7.3.1"


def test_melee_band_4_to_6_loser_loses_two_retreats_one_and_the_winner_may_advance():
    t = duel()
    # defensive fire first (3 misses), then 2d6 each: attack 4 + 8 = 12, defence 4 + 1 (Wolgemuth) + 2 = 7
    t.send("italian", {"type": "melee", "units": ["savoia1"], "target": "kinsky1"}, dice=[1, 1, 1, 4, 4, 1, 1, 1, 2])
    melee = t.of(ev.MeleeResolved)[0]
    assert (melee.attack_total, melee.defence_total, melee.difference, melee.winner) == (12, 7, 5, "attacker")
    assert t.state.units["kinsky1"].hits == 2
    assert t.top().kind == "retreat" and t.legal("austrian") == [  # toward its lines, out of the enemy zone
        {"type": "retreat", "hex": "1211"}, {"type": "retreat", "hex": "1212"}]
    t.send("austrian", {"type": "retreat", "hex": "1212"})
    assert t.state.units["kinsky1"].hex == "1212"
    assert t.top().kind == "advance" and t.top().seats == ("italian",)
    t.send("italian", {"type": "advance", "unit": "savoia1", "hex": "1111"})
    assert t.state.units["savoia1"].hex == "1111" and t.top() is None


@pytest.mark.parametrize(("attack", "band"), [([2, 2], (1, 1, 1)), ([6, 5], (8, 3, 2))])
def test_melee_bands_1_3_and_7_8(attack, band):
    t = duel()  # defence 4 + 1 (Wolgemuth) + 1 + 1 = 7
    t.send("italian", {"type": "melee", "units": ["savoia1"], "target": "kinsky1"},
           dice=[1, 1, 1, *attack, 1, 1, 1, 2])
    difference, hits, hexes = band
    assert t.of(ev.MeleeResolved)[0].difference == difference and t.state.units["kinsky1"].hits == hits
    while t.top() is not None and t.top().kind == "retreat":
        t.send("austrian", t.legal("austrian")[0])
    assert len(t.of(ev.UnitRetreated)) == hexes
    assert (t.top() is None) == (difference < 4)  # 1-3: no advance


def test_a_tie_costs_both_a_level():
    t = duel()
    t.send("italian", {"type": "melee", "units": ["savoia1"], "target": "kinsky1"}, dice=[1, 1, 1, 2, 2, 1, 2, 1, 2, 1, 2])
    assert t.of(ev.MeleeResolved)[0].difference == 0
    assert t.state.units["savoia1"].hits == 1 and t.state.units["kinsky1"].hits == 1 and not t.of(ev.UnitRetreated)


def test_reserve_attacked_passes_to_hold_and_fires_back_at_a_melee_with_a_die_fewer():
    t = duel(levels={"wolgemuth": "reserve"})
    t.send("italian", {"type": "melee", "units": ["savoia1"], "target": "kinsky1"}, dice=[1, 1, 2, 2, 1, 2, 1, 2])
    assert t.of(ev.FireResolved)[0].dice == 2  # 3 less one (caricat §3.1)
    assert t.state.leaders["wolgemuth"].level == "hold"
    assert any(e.reason == "attacked" and e.rule == "caricat §3.1" for e in t.of(ev.LevelChanged))


def test_a_reserve_unit_may_not_attack():
    t = duel(levels={"broglia": "reserve"})
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "fire", "units": ["savoia1"], "target": "kinsky1"})
    assert refused.value.rule == "caricat §3.1"


def test_broken_units_neither_fire_offensively_nor_melee():
    t = duel(hits={"savoia1": 3})
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "melee", "units": ["savoia1"], "target": "kinsky1"})
    assert refused.value.rule == "caricat §7.5.1"


def test_cavalry_attacked_by_infantry_may_retreat_before_combat():
    state = position(units={"savoia1": "1011", "reuss": "1111", "sigismund1": "3305", "guardie1": "0503"})
    t = Table(activated(state, "broglia"))
    t.send("italian", {"type": "fire", "units": ["savoia1"], "target": "reuss"})
    assert t.top().kind == "cavalry_retreat" and t.top().seats == ("austrian",)
    t.send("austrian", {"type": "try_retreat", "attempt": True}, dice=[5])  # 5 <= morale 5
    if t.top() is not None and t.top().kind == "retreat":
        t.send("austrian", t.legal("austrian")[0])
    assert t.state.units["reuss"].hex != "1111" and not t.of(ev.FireResolved)  # no combat, no advance


def test_the_defender_who_wins_a_melee_may_advance_into_the_hex_its_attacker_left():
    t = duel()
    # attack 4 + 2 = 6 against defence 4 + 1 + 12 = 17: difference 11, the attacker loses 4 and retreats
    t.send("italian", {"type": "melee", "units": ["savoia1"], "target": "kinsky1"}, dice=[1, 1, 1, 1, 1, 6, 6, 1, 2])
    while t.top() is not None and t.top().kind == "retreat":
        t.send("italian", t.legal("italian")[0])
    assert t.top().kind == "advance" and t.top().seats == ("austrian",)
    assert {"type": "advance", "unit": "kinsky1", "hex": "1011"} in t.legal("austrian")
    t.send("austrian", {"type": "advance", "unit": "kinsky1", "hex": "1011"})
    assert t.state.units["kinsky1"].hex == "1011"


def test_the_attack_fire_reading_one_die_fewer():
    t = duel(levels={"broglia": "attack"})
    t = Table(t.state, {"attack_fire": "one_die_fewer"})
    t.send("italian", {"type": "fire", "units": ["savoia1"], "target": "kinsky1"}, dice=[5, 5, 1, 1, 1, 1, 2, 1, 2])
    fire = t.of(ev.FireResolved)[0]
    assert (fire.dice, fire.modifier, fire.hits) == (2, 0, 2)


def test_cavalry_retreating_before_combat_from_zone_to_zone_draws_reaction_fire():
    units = {"reuss": "0802", "savoia1": "0801", "savoia2": "0803", "cuneo7": "0702", "cuneo8": "0902",
             "sigismund1": "3305", "guardie1": "1415"}
    t = Table(activated(position(units=units), "broglia"))
    t.send("italian", {"type": "fire", "units": ["savoia1"], "target": "reuss"})
    t.send("austrian", {"type": "try_retreat", "attempt": True}, dice=[5])
    while t.top().kind == "retreat":
        t.send("austrian", t.legal("austrian")[0])
    assert t.state.units["reuss"].hex in ("0701", "0901")
    assert t.top().kind == "reaction" and t.top().seats == ("italian",) and t.top().rule == "caricat §6.2"
    t.send("italian", {"type": "react", "fire": True}, dice=[6, 6, 6])
    while t.top() is not None and t.top().kind == "reaction":  # each infantry unit whose zone it crossed
        t.send("italian", {"type": "react", "fire": False})
    assert t.state.units["reuss"].hits == 3 and not [f for f in t.of(ev.FireResolved) if f.firers == ("savoia1",)
                                                     and not f.defensive]  # the fire declared never took place
    assert t.top() is None


def test_attack_adds_one_to_the_attackers_melee():
    t = duel(levels={"broglia": "attack"})
    t.send("italian", {"type": "melee", "units": ["savoia1"], "target": "kinsky1"}, dice=[1, 1, 1, 3, 3, 3, 3, 1, 2])
    melee = t.of(ev.MeleeResolved)[0]
    assert (melee.attack_total, melee.defence_total) == (4 + 1 + 6, 4 + 1 + 6)  # a tie, thanks to Attack's +1


def test_a_retreat_through_a_friend_costs_the_friend_a_level_and_goes_on_to_an_empty_hex():
    units = {**DUEL, "kinsky2": "1211", "paumgartten": "1212"}
    t = Table(activated(position(units=units, levels={"broglia": "advance", "wolgemuth": "hold"}), "broglia"))
    t.send("italian", {"type": "melee", "units": ["savoia1"], "target": "kinsky1"}, dice=[1, 1, 1, 4, 4, 1, 1, 1, 2])
    while t.top() is not None and t.top().kind == "retreat":
        t.send("austrian", t.legal("austrian")[0])
    passed = [m for m in t.of(ev.MoraleLost) if m.unit in ("kinsky2", "paumgartten")]
    assert len(passed) == 1 and passed[0].rule == "caricat §7.4"
    moved = t.of(ev.UnitRetreated)
    assert len(moved) == 2 and t.state.units["kinsky1"].hex not in ("1111", "1211", "1212")


def test_a_replacements_units_are_out_of_command_in_his_next_activation():
    state = position(units=DUEL, levels={"broglia": "advance"})
    state.leaders["broglia"].staff = state.leaders["broglia"].out_of_command = True
    t = Table(activated(state, "broglia"))
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "fire", "units": ["savoia1"], "target": "kinsky1"})
    assert refused.value.rule == "caricat §4.3"
    assert all(len(c["path"]) <= 3 for c in t.legal("italian") if c["type"] == "move")  # half of 4 MP
    t.send("italian", {"type": "end_activation"})
    assert not t.state.leaders["broglia"].out_of_command


def test_a_leader_whose_unit_is_eliminated_joins_the_unit_his_owner_chooses():
    """caricat §7.3 "trasferire il leader su qualsiasi altra unità che lui comanda": a decision of his owner,
    listed exactly, taken before the combat goes on."""
    units = {**DUEL, "kinsky2": "2409", "kaiserjager": "2210"}
    state = position(units=units, levels={"broglia": "advance", "wolgemuth": "hold"}, hits={"kinsky1": 4})
    t = Table(activated(state, "broglia"))
    # one hit (6) eliminates kinsky1; it fires back (it is Routed: no defensive fire); Wolgemuth survives (1, 2)
    t.send("italian", {"type": "fire", "units": ["savoia1"], "target": "kinsky1"}, dice=[6, 1, 1, 1, 2])
    assert t.state.units["kinsky1"].where == "gone" and not t.of(ev.LeaderTransferred)
    assert t.top().kind == "leader_transfer" and t.top().seats == ("austrian",) and t.top().rule == "caricat §7.3"
    assert t.legal("austrian") == [{"type": "transfer_leader", "leader": "wolgemuth", "unit": u}
                                   for u in ("kaiserjager", "kinsky2")]
    assert t.legal("italian") == []
    # not on the map: the engine refuses an answer the decision does not list (arbitro §S.3)
    t.refuse("austrian", {"type": "transfer_leader", "leader": "wolgemuth", "unit": "paumgartten"}, rule="caricat §7.3")
    t.send("austrian", {"type": "transfer_leader", "leader": "wolgemuth", "unit": "kinsky2"})
    assert t.state.leaders["wolgemuth"].unit == "kinsky2" and t.top() is None
    assert t.of(ev.LeaderTransferred)[0].rule == "caricat §7.3"


def test_a_leader_with_one_unit_left_joins_it_and_with_none_leaves_the_game():
    state = position(units={**DUEL, "kinsky2": "2409"}, levels={"broglia": "advance"}, hits={"kinsky1": 4})
    t = Table(activated(state, "broglia"))
    t.send("italian", {"type": "fire", "units": ["savoia1"], "target": "kinsky1"}, dice=[6, 1, 1, 1, 2])
    assert t.top() is None and t.state.leaders["wolgemuth"].unit == "kinsky2"
    state = position(units=DUEL, levels={"broglia": "advance"}, hits={"kinsky1": 4})
    t = Table(activated(state, "broglia"))
    t.send("italian", {"type": "fire", "units": ["savoia1"], "target": "kinsky1"}, dice=[6, 1, 1, 1, 2])
    assert t.top() is None and t.state.leaders["wolgemuth"].gone
    assert t.state.vp["italian"] == 2  # the unit's 2 VP; the leader leaving gives none (caricat §7.3)
