"""rev-k (review of ux15 662f2e1, K4): parabellum/orders.command_hidden_from reads the hexes of the defender's
formation's units as well as its commanders, because a unit next to one in command is in command (caldiero §4.3.2;
arrivano §4.4.2): an unseen neighbour can put a seen defender in command. No test reached that half (dropping the
formation's units from `places` passed every test). This one does, on rev-f's F0 declaration (test_rev_f_fog_command).

The village 1612 holds Hohenzollern's Banal Grenz and Gyulai (Attack); Hohenzollern stands at 1715, in France's sight
and beyond his range of 1612; 1712, next to 1612 and within his range, is out of France's sight, and so is 2520. Two
games differ only in which of Colloredo (Hohenzollern's) and a battalion of another formation stands in 1712 and which
in 2520: with Colloredo in 1712 the village is in command by contiguity (Attack: no village benefit, a Defence order's),
otherwise out of command (Defence: the benefit). France sees a marker in each hex either way: the refusal it is served
must be the same."""

from __future__ import annotations

from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import command
from tests.caldiero.harness import RULESET, position
from tests.caldiero.test_rev_f_fog_command import served_declaration

CHAIN, FAR_OFF, GENERAL_AT = "1712", "2520", "1715"


def _other_formation() -> str:
    state = position({}, options=("fog_of_war",))
    return next(u for u, s in sorted(state.units.items()) if s.side == "austria" and s.arm == "infantry"
                and s.formation != "hohenzollern")


def _declared(colloredo_at: str) -> tuple[bytes, str, bool]:
    other = _other_formation()
    state = position({"fr-carabiniers": "1512", "au-banal-grenz": "1612", "au-gyulai": "1612", "au-colloredo": colloredo_at,
                      other: FAR_OFF if colloredo_at == CHAIN else CHAIN},
                     leaders={"massena": "1511", "hohenzollern": GENERAL_AT},
                     orders={"massena": "attack", "hohenzollern": "attack"}, options=("fog_of_war",))
    state.direction_released = ["massena", "augereau"]
    state.units["fr-carabiniers"].reduced = True
    assert RULESET.unexaminable(state, "france", [GENERAL_AT, CHAIN, FAR_OFF, "1612"]) == {CHAIN, FAR_OFF}, "sight"
    view, refusal, w = served_declaration(state)
    return view, refusal, "au-gyulai" in command.in_command(CALDIERO_VARIANT, w, "hohenzollern")


def test_a_declaration_s_refusal_does_not_tell_whether_an_unseen_neighbour_puts_the_defenders_in_command() -> None:
    chained, apart = _declared(CHAIN), _declared(FAR_OFF)
    assert (chained[2], apart[2]) == (True, False), "the premise: Colloredo in 1712 puts the village in command"
    assert chained[0] == apart[0], "the views differ: the hidden fact is not hidden"
    assert chained[1] == apart[1], f"the refusal tells it: {chained[1]!r} != {apart[1]!r}"
