"""rev-m (sixteenth session): arrivano §17.1.5's march order (Vogelsang's formation O toward Corvino, 2815) ends
`reached` when half of its units (artillery aside) stand in or next to the objective, and ends earlier, `enemy_in_los`,
as soon as an enemy unit sees one of them (ruleset.march_checks). So it ends `reached` only while no French unit sees
those units: their hexes are out of France's sight (arrivano §11.3.2 "si può esaminare uno stack nemico solo se si ha
una LoS"), yet `march_order_ended` (it names no unit, so the fog's redaction serves it whole) and the view's
`march_orders` tell France that half of them stand by Corvino. Two games differing only in where the unseen IR 28-II
stands (next to Corvino, or two hexes off) serve France different bytes when IR 28-I steps next to Corvino."""

from __future__ import annotations

from typing import Any

from bench.served import markers_aside, served
from tests.arrivano.harness import FOLD, RULESET, at_step, position

CORVINO = "2815"


def stepping_next_to_corvino(second_at: str) -> tuple[bytes, bool]:
    """France's service of IR 28-I's step 2713 -> 2714, where the stack markers stand aside (`markers_aside`: the
    markers at 2814 and 2913 are public, whose units they are is not), and whether the march order is still in
    force after it."""
    state = position({"ir28-i": "2713", "ir28-ii": second_at, "ir28-iii": "3116", "6e-legere-i": "0802"},
                     leaders={"vogelsang": "2713"}, orders={"O": "manoeuvre"})
    state.march_orders["vogelsang"] = True
    places = ["2713", "2714", second_at, "3116"]
    assert RULESET.unexaminable(state, "france", places) == set(places), "the premise: every O unit out of sight"
    t = at_step(state, "O", "movement")
    before = FOLD.copy(t.game)
    made: list[tuple[str, list[Any]]] = [("austria", t.send("austria", {"type": "move", "unit": "ir28-i", "to": "2714"}))]
    return markers_aside(served(RULESET, FOLD, before, made, "france")), t.state.march_orders["vogelsang"]


def test_where_unseen_units_of_a_march_order_stand_is_not_told() -> None:
    near, far = stepping_next_to_corvino("2814"), stepping_next_to_corvino("2913")
    assert (near[1], far[1]) == (False, True), "the premise: two of three foot units by Corvino end it, one does not"
    assert near[0] == far[0], "France learns that unseen units of O stand next to Corvino"
