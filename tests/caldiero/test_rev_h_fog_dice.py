"""rev-h (review of cb7e7b4, k-seq's one efficiency stack die): what the kernel's wording of a stack's die serves a
seat that may examine the stack but not the hexes around it (caldiero §20.4: "Si può esaminare uno stack nemico solo
se si ha una LoS all'esagono dove questo si trova"). The die's `values` are the units' values as the test reads them,
with the caldiero §13.2 bonus of the formation's general "nel suo esagono o in quello adiacente": so a general standing
next to the stack, out of the seat's sight, is told by the number."""

from __future__ import annotations

from arbitro.events import core
from tests.caldiero.harness import FOLD, RULESET, Table, position
from tests.caldiero.test_fog_served import FOG, served

STACK = "1515"  # in Austria's sight (au-colloredo at 1917), outside its ZoC
NEXT_TO_IT, FAR = "1514", "2518"  # both out of Austria's sight; the first next to STACK


def reorganised(general_at: str) -> tuple[bytes, bytes]:
    """Austria's bytes and the umpire's when the disordered fr-40-ligne at STACK (Massena's formation, Defence)
    reorganises on a 1 (caldiero §13.1.1: it passes whatever the value), Massena standing at `general_at`."""
    state = position({"fr-40-ligne": STACK, "au-colloredo": "1917"}, leaders={"massena": general_at},
                     orders={"massena": "defence"}, options=FOG)
    state.units["fr-40-ligne"].status = "disordered"
    state.phase, state.step, state.seat = "command", "reorganise", "france"
    assert not RULESET.unexaminable(state, "austria", [STACK])
    assert RULESET.unexaminable(state, "austria", [NEXT_TO_IT, FAR]) == {NEXT_TO_IT, FAR}
    t = Table(state)
    before = FOLD.copy(t.game)
    events = t.send("france", {"type": "reorganise", "hex": STACK}, dice=[1], pad=0)
    assert [e for e in events if isinstance(e, core.DiceRolled)], "the stack rolled"
    return served(before, events)


def test_a_general_out_of_sight_next_to_an_examined_stack_is_not_told_by_its_die() -> None:
    near, far = reorganised(NEXT_TO_IT), reorganised(FAR)
    assert near[1] != far[1], "the umpire's record holds the §13.2 bonus"
    assert near[0] == far[0], "Austria is told (values 6, not 3) that Massena stands next to the stack it examines"


def test_a_die_whose_values_hold_a_general_s_bonus_cites_caldiero_13_2() -> None:
    """The kernel's wording cites EFFICIENCY_COMMANDER (§13.2 in both) "when a commander's modifier is on the die";
    Caldiero's commander adds to the value instead (D9), so its die never cites §13.2, though the value it shows (6
    for a printed 3) is §13.2's: the record does not say which rule raised it (standards: a rule's citation in the
    events it causes). The rulebook entry caldiero EFFICIENCY_COMMANDER is never cited."""
    state = position({"fr-40-ligne": STACK, "au-colloredo": "1917"}, leaders={"massena": NEXT_TO_IT},
                     orders={"massena": "defence"})
    state.units["fr-40-ligne"].status = "disordered"
    state.phase, state.step, state.seat = "command", "reorganise", "france"
    events = Table(state).send("france", {"type": "reorganise", "hex": STACK}, dice=[1])
    die = next(e for e in events if isinstance(e, core.DiceRolled) and e.detail.get("table") == "efficiency")
    assert die.detail["values"] == "6"
    assert die.detail["rule"] == "caldiero §13.2", die.detail
