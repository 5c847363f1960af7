"""Arrivano's assault declaration (arrivano §12.2-§12.4): the refusals no test reached (coverage of tests/parabellum,
caldiero and arrivano, twenty-first session), each with its words and citation: a unit or hex named twice, an enemy
unit among the attackers, a unit that attacked this turn, a hex with no enemy, a hex attacked in this segment."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano.variant import ARRIVANO
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.projections.arrivano import ArrivanoState
from tests.arrivano.harness import RULESET, at_step, open_ground, position

X = open_ground()
GRID = RULESET.data.scenarios["montebello"].map.grid
D, EMPTY, BACK = GRID.neighbour(X, 1), GRID.neighbour(X, 2), GRID.neighbour(X, 4)


def attacked_this_turn(s: ArrivanoState) -> None:
    s.units["6e-legere-i"].attacked_turn = s.turn


def attacked_hex(s: ArrivanoState) -> None:
    s.attacked_hexes = [D]


@pytest.mark.parametrize("attackers, targets, made, rule, words", [
    (["6e-legere-i", "6e-legere-i"], [D], None, R.DECLARE, "a unit or hex is named twice"),
    (["6e-legere-i"], [D, D], None, R.DECLARE, "a unit or hex is named twice"),
    (["ir18-i"], [D], None, R.DECLARE, "attackers must be your units"),
    (["6e-legere-i"], [D], attacked_this_turn, ARRIVANO.ONCE, "a unit attacks only once per turn"),
    (["6e-legere-i"], [EMPTY], None, ARRIVANO.COMBAT, f"{EMPTY} holds no enemy unit"),
    (["6e-legere-i"], [D], attacked_hex, ARRIVANO.ONCE, f"{D} was already attacked in this combat segment"),
])
def test_a_declaration_the_rules_bar_is_refused_by_its_rule(attackers: list[str], targets: list[str],
                                                            made: Callable[[ArrivanoState], None] | None, rule: object,
                                                            words: str) -> None:
    state = position({"6e-legere-i": X, "ir18-i": D}, leaders={"watrin": BACK}, orders={"W": "attack"})
    if made is not None:
        made(state)
    t = at_step(state, "W", "combat")
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "assault", "attackers": attackers, "targets": targets})
    assert e.value.rule == str(rule) and str(e.value).startswith(words)
