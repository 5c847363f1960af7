"""Rule by rule, on positions with chosen dice: the charge (caricat §9.1), reaction fire (§6.2), recovery with and
without lines (§10, §11), positional advantage (§8), zones and stacking (§5), roads (§6.1), command range (§4.3),
levels on a move (§3.1), retreats through enemy zones and friends (§7.4)."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.caricat import retreat as RT
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.events import caricat as ev
from tests.caricat.harness import RULESET, Table, activated, position

# Open clear ground in the Pastrengo map's north-west (no road, no other terrain): 0802 touches 0801, 0803, 0701,
# 0702, 0901 and 0902 (odd columns are shifted toward higher rows).
FAR = {"sigismund1": "3305", "guardie1": "1415"}


def test_a_charge_gets_three_against_infantry_loses_a_level_and_must_advance():
    state = position(units={"carabinieri": "0601", "kinsky1": "0801", **FAR})
    t = Table(activated(state, "carabinieri", "cavalry"))
    charges = [c for c in t.legal("italian") if c["type"] == "charge"]
    assert charges and all(c["target"] == "kinsky1" for c in charges)
    # defensive fire 3 misses; attack 3 + 3 (charge) + 1 (morale 7 > 5) + 6 = 13; defence 4 + 1 + 3 = 8
    t.send("italian", charges[0], dice=[1, 1, 1, 3, 3, 1, 2, 1, 2])
    melee = t.of(ev.MeleeResolved)[0]
    assert (melee.attack_total, melee.defence_total) == (13, 8)
    while t.top() is not None and t.top().kind == "retreat":
        t.send("austrian", t.legal("austrian")[0])
    assert t.top().kind == "advance" and {"type": "advance", "unit": None, "hex": None} not in t.legal("italian")
    t.send("italian", t.legal("italian")[0])
    assert t.state.units["carabinieri"].hex == "0801"  # compulsory advance into the hex left (caricat §9.1)
    assert t.state.units["carabinieri"].hits == 1 and t.of(ev.MoraleLost)[-1].rule == "caricat §9.1"


def test_a_charge_must_start_two_or_three_hexes_away():
    state = position(units={"carabinieri": "0601", "kinsky1": "0701", **FAR})  # adjacent
    t = Table(activated(state, "carabinieri", "cavalry"))
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "charge", "unit": "carabinieri", "path": ["0601", "0600"], "target": "kinsky1"})
    assert refused.value.rule == "caricat §9.1"


def test_reaction_fire_at_a_move_from_one_zone_hex_of_an_infantry_unit_to_another():
    state = position(units={"carabinieri": "0701", "kinsky1": "0802", **FAR})
    t = Table(activated(state, "carabinieri", "cavalry"))
    t.send("italian", {"type": "move", "unit": "carabinieri", "path": ["0701", "0702"]})
    assert t.top().kind == "reaction" and t.top().seats == ("austrian",) and t.top().rule == "caricat §6.2"
    t.send("austrian", {"type": "react", "fire": True}, dice=[6, 6, 1])
    assert t.state.units["carabinieri"].hits == 2 and t.of(ev.MoraleLost)[0].rule == "caricat §6.2"


def test_no_reaction_from_a_unit_at_reserve():
    """caricat §3.1: at Reserve no combat "eccetto che con fuoco difensivo ... se attaccate in mischia"."""
    state = position(units={"carabinieri": "0701", "kinsky1": "0802", **FAR}, levels={"wolgemuth": "reserve"})
    t = Table(activated(state, "carabinieri", "cavalry"))
    t.send("italian", {"type": "move", "unit": "carabinieri", "path": ["0701", "0702"]})
    assert t.top() is None and not t.of(ev.FireResolved)


def test_no_reaction_when_the_move_leaves_the_zone():
    state = position(units={"carabinieri": "0701", "kinsky1": "0802", **FAR})
    t = Table(activated(state, "carabinieri", "cavalry"))
    t.send("italian", {"type": "move", "unit": "carabinieri", "path": ["0701", "0601"]})
    assert t.top() is None


def _last_activation(units: dict[str, str], hits: dict[str, int], scenario: str = "pastrengo") -> Table:
    """Broglia's activation (at Hold) is the last of the turn: ending it runs the recovery phase."""
    state = position(scenario, units=units, hits=hits, levels={"broglia": "hold"})
    for k, le in state.leaders.items():
        le.activated = k != "broglia"
    return Table(activated(state, "broglia"))


def test_recovery_is_automatic_away_from_the_enemy_with_a_line():
    t = _last_activation({"savoia1": "0503", "kinsky1": "3105", "guardie1": "0909"}, {"savoia1": 2})
    t.send("italian", {"type": "end_activation"})
    assert t.state.units["savoia1"].hits == 1 and not t.rolls()
    assert t.state.phase == "recovery" and t.legal("austrian") == [{"type": "destroy_bridge"}, {"type": "end_turn"}]


def test_recovery_in_an_enemy_zone_rolls_two_dice_at_most_the_morale_minus_two_by_a_leader():
    t = _last_activation({"savoia1": "0802", "kinsky1": "0801", "guardie1": "0909"}, {"savoia1": 1})
    t.send("italian", {"type": "end_activation"}, dice=[3, 3])  # 6 - 2 (Broglia with it) = 4 <= morale 5 - 1
    assert t.state.units["savoia1"].hits == 0 and t.rolls()[0].detail["drm"] == -2


def test_without_a_line_of_communication_a_unit_rolls_even_away_from_the_enemy():
    units = {"fr74": "1812", "gaal1": "1216"}  # an Austrian on Voghera, the Italian line's end (caricat §14.1.1)
    state = position("montebello", units=units, hits={"fr74": 1}, levels={"beuret": "hold"})
    for k, le in state.leaders.items():
        le.activated = k != "beuret"
    t = Table(activated(state, "beuret"))
    t.send("italian", {"type": "end_activation"}, dice=[6, 6])
    assert t.state.units["fr74"].hits == 1 and t.rolls()[0].purpose.startswith("caricat §11")


def test_positional_advantage_adds_two_dice():
    state = position(units={"savoia1": "0801", "savoia2": "0803", "kinsky1": "0802", **FAR})
    t = Table(activated(state, "broglia"))
    t.send("italian", {"type": "fire", "units": ["savoia1", "savoia2"], "target": "kinsky1"})
    assert t.top().kind == "aim" and t.legal("austrian") == [  # the defender fires at one of them (caricat §7.1)
        {"type": "aim", "attacker": "savoia1"}, {"type": "aim", "attacker": "savoia2"}]
    t.send("austrian", {"type": "aim", "attacker": "savoia2"}, dice=[1] * 8 + [1, 1, 1] + [1, 2, 1, 2])
    fires = t.of(ev.FireResolved)
    assert fires[0].dice == 3 + 3 + 2 and fires[1].firers == ("kinsky1",) and fires[1].target == "savoia2"


def test_one_unit_a_hex_and_never_through_a_friend_in_an_enemy_zone():
    state = position(units={"savoia1": "0701", "savoia2": "0702", "kinsky1": "0803", **FAR})
    t = Table(activated(state, "broglia"))
    with pytest.raises(IllegalCommand) as refused:  # savoia2 stands in kinsky1's zone
        t.send("italian", {"type": "move", "unit": "savoia1", "path": ["0701", "0702", "0703"]})
    assert refused.value.rule == "caricat §5"
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "move", "unit": "savoia1", "path": ["0701", "0702"]})
    assert refused.value.rule == "caricat §5"


def test_a_move_along_the_road_gains_a_point():
    road = ["0405", "0504", "0605", "0705", "0806", "0906"]  # five road hexes of the Lazise road
    t = Table(activated(position(units={"savoia1": "0405", "kinsky1": "2608", **FAR}), "broglia"))
    t.send("italian", {"type": "move", "unit": "savoia1", "path": road})
    assert t.of(ev.UnitMoved)[0].road_bonus and t.of(ev.UnitMoved)[0].rule == "caricat §6.1"
    t2 = Table(activated(position(units={"savoia1": "0402", "kinsky1": "2608", **FAR}), "broglia"))
    with pytest.raises(IllegalCommand) as refused:  # five clear hexes: 5 MP of 4
        t2.send("italian", {"type": "move", "unit": "savoia1", "path": ["0402", "0502", "0602", "0702", "0802", "0902"]})
    assert refused.value.rule == "caricat §6"


def test_out_of_command_range_costs_a_point_and_the_melee():
    units = {"savoia1": "0401", "savoia2": "0801", "kinsky1": "0901", **FAR}  # Broglia (3) with savoia1, 4 away
    t = Table(activated(position(units=units), "broglia"))
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "melee", "units": ["savoia2"], "target": "kinsky1"})
    assert refused.value.rule == "caricat §4.3"


def test_hold_moves_one_hex_toward_a_friendly_objective_and_reserve_not_at_all():
    units = {"savoia1": "1312", "kinsky1": "2608", **FAR}  # Colà (1415) began the game Italian
    t = Table(activated(position(units=units, levels={"broglia": "hold"}), "broglia"))
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "move", "unit": "savoia1", "path": ["1312", "1311"]})  # away
    assert refused.value.rule == "caricat §3.1"
    t.send("italian", {"type": "move", "unit": "savoia1", "path": ["1312", "1313"]})
    t = Table(activated(position(units=units, levels={"broglia": "reserve"}), "broglia"))
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "move", "unit": "savoia1", "path": ["1312", "1313"]})
    assert refused.value.rule == "caricat §3.1"


def test_advance_must_move_toward_the_enemy_before_the_activation_ends():
    t = Table(activated(position(units={"savoia1": "0401", "kinsky1": "2608", **FAR}), "broglia"))
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "end_activation"})
    assert refused.value.rule == "caricat §3.1"
    with pytest.raises(IllegalCommand):
        t.send("italian", {"type": "move", "unit": "savoia1", "path": ["0401", "0301"]})  # away from the enemy


def test_a_retreat_through_an_enemy_zone_costs_a_level_and_a_friend_passed_through_loses_one():
    units = {"savoia1": "0802", "kinsky1": "0803", "kinsky2": "0901", "paumgartten": "0701", "guardie1": "1415",
             "sigismund1": "3305"}
    t = Table(activated(position(units=units), "broglia"))
    # defensive fire misses; the attack 4 + 2 loses to the defence 5 + 12: savoia1 retreats, through zones
    t.send("italian", {"type": "melee", "units": ["savoia1"], "target": "kinsky1"}, dice=[1, 1, 1, 1, 1, 6, 6, 1, 2])
    assert t.of(ev.MeleeResolved)[0].winner == "defender"
    while t.top() is not None and t.top().kind == "retreat":
        t.send("italian", t.legal("italian")[0])
    zone_losses = [m for m in t.of(ev.MoraleLost) if m.reason == "retreat through an enemy zone"]
    assert zone_losses and zone_losses[0].rule == "caricat §7.4"


def test_attack_moves_at_full_speed_toward_the_nearest_enemy():
    units = {"savoia1": "0401", "kinsky1": "1101", **FAR}
    t = Table(activated(position(units=units, levels={"broglia": "attack"}), "broglia"))
    with pytest.raises(IllegalCommand) as refused:  # one hex nearer, when four were possible
        t.send("italian", {"type": "move", "unit": "savoia1", "path": ["0401", "0501"]})
    assert refused.value.rule == "caricat §3.1"
    t = Table(activated(position(units=units, levels={"broglia": "attack"}), "broglia"), {"attack_speed": "nearer"})
    t.send("italian", {"type": "move", "unit": "savoia1", "path": ["0401", "0501"]})
    t = Table(activated(position(units=units, levels={"broglia": "attack"}), "broglia"))
    t.send("italian", {"type": "move", "unit": "savoia1", "path": ["0401", "0501", "0601", "0701", "0801"]})


def test_a_leader_joins_another_of_his_units_once_an_activation():
    units = {"savoia1": "0401", "savoia2": "0601", "kinsky1": "2608", **FAR}
    t = Table(activated(position(units=units), "broglia"))
    assert t.legal("italian").count({"type": "move_leader", "leader": "broglia", "unit": "savoia2"}) == 1
    t.send("italian", {"type": "move_leader", "leader": "broglia", "unit": "savoia2"})
    assert t.state.leaders["broglia"].unit == "savoia2"
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "move_leader", "leader": "broglia", "unit": "savoia1"})
    assert refused.value.rule == "caricat §6"


def test_hold_may_move_toward_any_friendly_objective_not_only_the_nearest():
    """caricat §3.1 "verso un obiettivo che ha cominciato il gioco sotto controllo amico (non necessariamente il più
    vicino)": from 1615 (2 hexes from Colà 1415, 12 from Pastrengo 2608, which counts as friendly, §13.1.4)."""
    state = position(units={"savoia1": "1615", **FAR}, levels={"broglia": "hold"})
    t = Table(activated(state, "broglia"))
    moves = [c["path"][-1] for c in t.legal("italian") if c["type"] == "move"]
    assert "1714" in moves and "1514" in moves and "1715" not in moves  # toward Pastrengo, toward Colà, toward none
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "move", "unit": "savoia1", "path": ["1615", "1715"]})
    assert refused.value.rule == "caricat §3.1"
    t.send("italian", {"type": "move", "unit": "savoia1", "path": ["1615", "1714"]})
    assert t.state.units["savoia1"].hex == "1714"


def test_a_retreat_never_crosses_what_its_unit_may_not_cross():
    """caricat §13.2.3: cavalry crosses the escarpment (3204|3303) only on a road, even in a retreat (§7.4); infantry
    may. Both retreats go toward Ponton, the Austrian lines (§13.1.1)."""
    choices = {}
    for unit in ("radetzky", "kinsky1"):
        state = position(units={unit: "3204", "guardie1": "3104"}, seat="austrian")
        choices[unit] = RT.retreat_choices(RULESET.world(state), unit)
    assert choices == {"radetzky": ["3203"], "kinsky1": ["3203", "3303"]}


def test_out_of_command_range_is_said_in_the_refusal_of_a_move_and_in_the_status():
    """Issue 19 item 16: a unit's movement points cut by command range (caricat §4.3) is named where it decides a
    refusal, not only "not enough movement points", and the game's notices list the activated leader's units out of
    range with what it costs them."""
    units = {"savoia1": "0401", "savoia2": "0801", "kinsky1": "2608", **FAR}  # Broglia (3) with savoia1, 4 away
    state = activated(position(units=units), "broglia")
    t = Table(state)
    with pytest.raises(IllegalCommand) as refused:  # four clear hexes: 4 MP of 4 - 1
        t.send("italian", {"type": "move", "unit": "savoia2", "path": ["0801", "0802", "0803", "0804", "0805"]})
    assert refused.value.rule == "caricat §6"
    said = ("savoia2 is out of command: beyond its leader broglia's command range of 3 hexes (caricat §4.3): "
            "1 MP less, no melee")
    assert str(refused.value) == f"not enough movement points to reach 0805: {said} [caricat §6]"
    assert RULESET.notices(state, "austrian") == RULESET.notices(state, "italian") == [said]
    assert RULESET.notices(position(units=units), "italian") == []  # no activation under way
