"""Each named interpretation (adjudicator/caricat/readings.py, docs/rulesets/caricat.md) switches what it says: the
same position and dice under each reading."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.caricat import CaricatRuleset
from arbitro.adjudicator.caricat.world import World
from arbitro.events import caricat as ev
from tests.caricat.harness import RULESET, Table, activated, position

FAR = {"sigismund1": "3305", "guardie1": "1415"}


@pytest.mark.parametrize(("reading", "losses"), [("in_turn", (1, 1)), ("each_unit", (2, 2))])
def test_melee_losses_shared_in_turn_or_taken_by_each_unit(reading, losses):
    """caricat §7.2.1 "il perdente subisce 2 perdite di morale", with two attackers losing by 4."""
    units = {"savoia1": "1011", "savoia2": "1012", "kinsky1": "1111", **FAR}
    state = position(units=units, levels={"broglia": "advance", "wolgemuth": "hold"})
    t = Table(activated(state, "broglia"), {"melee_losses": reading})
    t.send("italian", {"type": "melee", "units": ["savoia1", "savoia2"], "target": "kinsky1"})
    assert t.top().kind == "aim"
    # defensive fire misses; attack 8 + 2 = 10, defence 4 + 1 (Wolgemuth) + 9 = 14: the attackers lose by 4
    t.send("austrian", {"type": "aim", "attacker": "savoia1"}, dice=[1, 1, 1, 1, 1, 5, 4, 1, 2])
    assert t.of(ev.MeleeResolved)[0].difference == 4
    assert (t.state.units["savoia1"].hits, t.state.units["savoia2"].hits) == losses


@pytest.mark.parametrize(("reading", "hits"), [("reaction_only", 0), ("reaction_and_level", 1)])
def test_a_cavalry_retreat_before_combat_into_an_enemy_zone_costs_a_level_only_under_one_reading(reading, hits):
    """caricat §9.2 "ma è soggetta a reazione di movimento": the reaction fire declined, what is left is the zone."""
    units = {"reuss": "0802", "savoia1": "0801", "savoia2": "0803", "cuneo7": "0702", "cuneo8": "0902", **FAR}
    t = Table(activated(position(units=units), "broglia"), {"retreat_before_zone": reading})
    t.send("italian", {"type": "fire", "units": ["savoia1"], "target": "reuss"})
    t.send("austrian", {"type": "try_retreat", "attempt": True}, dice=[5])
    while t.top().kind == "retreat":
        t.send("austrian", t.legal("austrian")[0])
    while t.top() is not None and t.top().kind == "reaction":
        t.send("italian", {"type": "react", "fire": False})
    assert t.state.units["reuss"].hits == hits


@pytest.mark.parametrize(("reading", "hit"), [("hold_bonus", True), ("no_hold_bonus", False)])
def test_holds_plus_one_on_reaction_fire_under_one_reading(reading, hit):
    """caricat §3.1 "aggiungono +1 al tiro di dado in fuoco difensivo": a 5 against morale 6 hits with Hold's +1."""
    state = position(units={"carabinieri": "0701", "kinsky1": "0802", **FAR}, hits={"carabinieri": 1},
                     levels={"wolgemuth": "hold"})
    t = Table(activated(state, "carabinieri", "cavalry"), {"reaction_hold": reading})
    t.send("italian", {"type": "move", "unit": "carabinieri", "path": ["0701", "0702"]})
    t.send("austrian", {"type": "react", "fire": True}, dice=[5, 1, 1, 1, 2])
    fire = t.of(ev.FireResolved)[0]
    assert fire.modifier == (1 if hit else 0) and fire.hits == (1 if hit else 0)


@pytest.mark.parametrize(("reading", "offered"), [("either_side", True), ("attacker_only", False)])
def test_the_defender_who_wins_advances_only_under_one_reading(reading, offered):
    """caricat §7.2.1 "il vincitore può avanzare"."""
    state = position(units={"savoia1": "1011", "kinsky1": "1111", **FAR},
                     levels={"broglia": "advance", "wolgemuth": "hold"})
    t = Table(activated(state, "broglia"), {"winner_advance": reading})
    t.send("italian", {"type": "melee", "units": ["savoia1"], "target": "kinsky1"}, dice=[1, 1, 1, 1, 1, 6, 6, 1, 2])
    while t.top() is not None and t.top().kind == "retreat":
        t.send("italian", t.legal("italian")[0])
    assert (t.top() is not None and t.top().kind == "advance") == offered


def test_every_interpretation_names_its_phrase_and_its_readings():
    for name, i in CaricatRuleset().interpretations().items():
        assert i.name == name and i.default in i.choices and len(i.choices) >= 2
        assert i.rule.startswith("caricat §") and i.phrase


@pytest.mark.parametrize(("reading", "line"), [("single_enemy", False), ("no_friendly_zone", True)])
def test_an_uncontested_zone_is_one_enemys_or_one_no_friend_contests(reading, line):
    """caricat §11 "dove «non contestate» vuole dire che c'è solamente un'unità nemica": Voghera (1216), the Italian
    line's end, lies in gaal1's zone alone, and in fr74's zone too."""
    state = position("montebello", units={"gaal1": "1215", "fr74": "1116", "fr91": "1515"})
    assert World(state, RULESET.data, {"loc_uncontested": reading}).has_loc("fr91") == line


@pytest.mark.parametrize(("reading", "dice"), [("two_more_dice", 8), ("two_dice_each", 4)])
def test_positional_advantage_adds_two_dice_or_gives_each_two(reading, dice):
    """caricat §8 "tirano 2 dadi in combattimento di fuoco"."""
    state = position(units={"savoia1": "0801", "savoia2": "0803", "kinsky1": "0802", **FAR})
    t = Table(activated(state, "broglia"), {"positional_fire": reading})
    t.send("italian", {"type": "fire", "units": ["savoia1", "savoia2"], "target": "kinsky1"})
    t.send("austrian", {"type": "aim", "attacker": "savoia1"}, dice=[1] * dice + [1, 1, 1])
    assert t.of(ev.FireResolved)[0].dice == dice


@pytest.mark.parametrize(("reading", "where"), [("level_per_hex", "map"), ("eliminated", "gone")])
def test_a_unit_that_cannot_retreat_loses_a_level_a_hex_or_is_eliminated(reading, where):
    """caricat §7.4 "deve muoversi il più possibile verso la sua linea di comunicazioni": kinsky1 surrounded."""
    units = {"kinsky1": "0802", "savoia1": "0801", "savoia2": "0901", "piemonte3": "0902", "piemonte4": "0803",
             "cuneo7": "0702", "cuneo8": "0701", **FAR}
    state = position(units=units, levels={"broglia": "advance", "wolgemuth": "hold"})
    t = Table(activated(state, "broglia"), {"blocked_retreat": reading})
    t.send("italian", {"type": "melee", "units": ["savoia1"], "target": "kinsky1"}, dice=[1, 1, 1, 4, 4, 3, 3, 1, 2])
    assert t.state.units["kinsky1"].where == where
    assert t.state.units["kinsky1"].hits == (2 if where == "map" else 5)


@pytest.mark.parametrize(("reading", "rolls"), [("each_round", 2), ("end_of_combat", 1)])
def test_a_leader_rolls_after_each_round_or_once_at_the_end_of_the_combat(reading, rolls):
    """caricat §7.3 "Alla fine del combattimento di fuoco o combattimento di mischia": Broglia stands with savoia1,
    struck by kinsky1's defensive fire and again by the melee it loses."""
    units = {"savoia1": "0801", "kinsky1": "0802", **FAR}
    state = position(units=units, levels={"broglia": "advance", "wolgemuth": "hold"})
    t = Table(activated(state, "broglia"), {"leader_loss": reading})
    leader = [1, 2]  # no doubles: Broglia survives
    melee = [3, 3, 2, 2]  # attack 3 + 6, defence 6 + 4: the attack loses by 1 (a level, a hex back)
    dice = [6, 1, 1] + (leader if reading == "each_round" else []) + melee + leader + [1, 2] * 4
    t.send("italian", {"type": "melee", "units": ["savoia1"], "target": "kinsky1"}, dice=dice)
    while t.top() is not None:  # the retreat and the winner's advance, declined
        seat = t.top().seats[0]
        options = t.legal(seat)
        t.send(seat, next((o for o in options if o.get("unit", "") is None), options[0]), dice=[1, 2] * 4)
    under_fire = [r for r in t.rolls() if "broglia" in r.purpose]
    assert len(under_fire) == rolls and t.state.units["savoia1"].hits >= 2
