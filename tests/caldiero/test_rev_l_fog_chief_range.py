"""rev-l (fifteenth session): under fog (caldiero §20.4) whether an out-of-command unit takes its order in its
commander in chief's range (§4.3.1: no test) or by a test (§5.3.1) tells the enemy whether that commander in chief,
out of its sight, stands within his command range of the unit. Both make an OrderTestTaken and a UnitOrderSet the
enemy is served whole where it sees the unit; the set cites §4.3.1 in one and §5.3.1 in the other, and only the
test rolled a die. Fixed (sixteenth session): the stack's die is rolled in both, and under fog the enemy is served no
unit's own order (ParaBellumRuleset.owner): a failed test and the chief's range serve it the same bytes.

Massena's 40e (2518), far from Massena (1317): out of command. Austria's Colloredo (2418) sees it (weather 2: the
reach cut to 2, §20.4.1). Bonaparte (command range 6) stands out of Austria's sight: at 2120, four hexes from the
40e (in range), or at 1317 with Massena (out of range). France orders the 40e to Manoeuvre."""

from __future__ import annotations


import pytest

from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.caldiero.harness import FOLD, RULESET, activate, position

CLOSE, FAR = "2120", "1317"


def played(bonaparte: str, die: int) -> tuple[list[str], bytes, bytes]:
    state = position({"fr-40-ligne": "2518", "au-colloredo": "2418"}, leaders={"massena": "1317", "bonaparte": bonaparte},
                     orders={"massena": "attack"}, options=("fog_of_war",), weather=2)
    assert RULESET.unexaminable(state, "austria", [bonaparte, "2518"]) == {bonaparte}, "Bonaparte unseen, the 40e seen"
    t = activate(state, "massena", step="orders")
    assert t.state.activation.out_of_command == ["fr-40-ligne"]
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", {"type": "unit_order", "hex": "2518", "order": "manoeuvre"}, [die], pad=0))]
    assert RULESET.unexaminable(t.state, "austria", [bonaparte]) == {bonaparte}
    rules = [e.rule for e in made[0][1] if type(e).__name__ == "UnitOrderSet"]
    return rules, *(served(RULESET, FOLD, before, made, seat) for seat in ("austria", UMPIRE))


@pytest.mark.parametrize("die, tested", [(1, ["caldiero §5.3.1"]), (6, [])])  # the 40e's efficiency 3: 1 passes, 6 fails
def test_whether_an_unseen_commander_in_chief_is_in_range_is_not_served_to_the_enemy(die: int, tested: list[str]) -> None:
    close, far = played(CLOSE, die), played(FAR, die)
    assert (close[0], far[0]) == (["caldiero §4.3.1"], tested), "the premise: in range the order is taken whatever the die"
    assert close[2] != far[2], "the umpire sees the hidden fact"
    assert close[1] == far[1], "Austria learns whether Bonaparte stands within six hexes of the 40e"
