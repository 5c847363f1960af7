"""rev-k K6 (pre-existing): arrivano §14.1 "le unità di cavalleria o artiglieria a cavallo non \"moved\"". A unit's
`moved_turn` is served in no view (SystemState.unit_served), and a move made wholly out of the enemy's sight is served
as a stub naming no unit (projections/parabellum.served_route), so a question opened only for cavalry that did not
move this turn told the attacker whether it moved out of its sight.

The reading (interpretation before_combat_moved): `moved_side`, the default: "Moved" in quotes names the counter's
Moved side (§11, §11.0.1), which only artillery has, so cavalry may retreat whether or not it moved; `moved_this_turn`:
cavalry that moved this turn may not either, and is asked anyway (it may only stay).

Two games differ only in whether Bussy (R, under Defence, in France's sight now) moved this turn. France attacks it
with infantry; France must be served the same bytes under either reading."""

from __future__ import annotations

from typing import Any

import pytest

from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, at_step, position


def assaulted(moved: bool, reading: str) -> tuple[bytes, list[dict[str, Any]]]:
    state = position({"bussy": "0802", "28e-i": "0902", "28e-ii": "0902"}, leaders={"lannes": "1302", "ott": "0802"},
                     orders={"L": "attack", "R": "defence"})
    state.units["bussy"].moved_turn = state.turn if moved else state.turn - 1
    assert not RULESET.unexaminable(state, "france", ["0802"]), "Bussy in France's sight"
    t = at_step(state, "L", "combat")
    t.rule({"before_combat_moved": reading})
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", {"type": "assault", "attackers": ["28e-i", "28e-ii"], "targets": ["0802"]}))]
    awaited = t.pending()
    assert awaited is not None and awaited.kind == "cavalry_retreat", "asked whether it moved or not"
    retreats = [o for o in awaited.options if o.get("to")]
    return served(RULESET, FOLD, before, made, "france"), retreats


def test_moved_cavalry_may_retreat_before_combat_by_default() -> None:
    moved, idle = assaulted(True, "moved_side"), assaulted(False, "moved_side")
    assert moved[1] and moved[1] == idle[1], "cavalry has no Moved side: it may retreat whether or not it moved"
    assert moved[0] == idle[0]


@pytest.mark.parametrize("reading", ["moved_side", "moved_this_turn"])
def test_whether_the_attacked_cavalry_moved_this_turn_is_not_told_by_the_question(reading: str) -> None:
    moved, idle = assaulted(True, reading), assaulted(False, reading)
    if reading == "moved_this_turn":
        assert idle[1] and not moved[1], "the premise: only the idle cavalry may retreat before combat (§14.1)"
    assert moved[0] == idle[0], "France learns Bussy moved this turn out of its sight (the question opened or not)"
