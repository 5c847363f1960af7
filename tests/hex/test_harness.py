"""The hex rulesets' harness (tests/hex/harness.py) does what its tests rely on: the dice a test chooses, refusals
checked with their citation on an unchanged position, and the agreement check finding what it is for."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.caricat import CaricatRuleset
from arbitro.adjudicator.randomness import NeedRandom
from arbitro.projections.caricat import CaricatState
from tests.caricat.harness import activated, position
from tests.hex.harness import Dice, Table

DUEL = {"savoia1": "0801", "kinsky1": "0802", "sigismund1": "3305"}


def test_dice_are_one_value_a_die_a_tuple_a_whole_roll_then_the_pad():
    dice = Dice([2, (3, 4), 5], pad=1)
    rolls = [dice.roll(None, i, n, 6, "test")[0] for i, n in enumerate((1, 2, 2, 1))]
    assert rolls == [(2,), (3, 4), (5, 1), (1,)]
    cycled = Dice([], pad=3, cycle=True)
    assert [cycled.roll(None, 0, 1, 6, "test")[0][0] for _ in range(4)] == [3, 2, 1, 6]  # re-rolled ties end
    with pytest.raises(NeedRandom):
        Dice([], pad=0).roll(None, 0, 2, 6, "test")


def test_a_roll_the_test_did_not_give_is_asked_for_as_a_transcribed_game_asks_it():
    t = Table(CaricatRuleset(), activated(position(units=DUEL), "broglia"))
    t.send("italian", {"type": "fire", "units": ["savoia1"], "target": "kinsky1"}, dice=[], pad=0)
    assert t.asked() and t.top().seats == ("umpire",)


def test_refuse_checks_the_citation_and_that_the_position_is_unchanged():
    t = Table(CaricatRuleset(), activated(position(units=DUEL), "broglia"))
    refused = t.refuse("italian", {"type": "melee", "units": ["savoia1"], "target": "sigismund1"}, rule="caricat §7")
    assert "not adjacent" in refused.message
    with pytest.raises(AssertionError, match="refused by caricat §7, not caricat §6"):
        t.refuse("italian", {"type": "melee", "units": ["savoia1"], "target": "sigismund1"}, rule="caricat §6")
    with pytest.raises(AssertionError, match="was accepted"):
        t.refuse("italian", {"type": "fire", "units": ["savoia1"], "target": "kinsky1"})


class ShyCaricat(CaricatRuleset):
    """Lists no melee, though decide accepts one."""

    def legal(self, state: CaricatState, seat: str) -> list[dict[str, Any]]:
        return [c for c in super().legal(state, seat) if c["type"] != "melee"]


def test_the_agreement_check_finds_an_accepted_command_left_unlisted():
    state = activated(position(units=DUEL), "broglia")
    assert Table(CaricatRuleset(), state).disagreements() == []
    found = Table(ShyCaricat(), activated(position(units=DUEL), "broglia")).disagreements()
    assert {d.kind for d in found} == {"accepted but unreachable"} and {d.type for d in found} == {"melee"}
