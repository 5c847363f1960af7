"""rev-f (pre-existing; the same mechanism 95d0c06 gives Caldiero): an assault's declaration refusal and the legal()
listing tell the attacker whether an enemy unit in a village is in command, so where its general stands out of sight
(arrivano §11.3.2 "si può esaminare uno stack nemico solo se si ha una LoS"; engine-rules §V.4).

A reduced 6e légère (3 SP) next to a village (arrivano §10.1: its column left only for a defender under a Defence
order, `requires_defence_order`) held by Schellenberg's IR40 (8 + 5 SP), his formation under an Attack order. In one
game Schellenberg stands at 1013, within his command range (§4.4) of the village and out of France's sight: the
defenders are in command, obey Attack, the village gives nothing, 3 v 13 is 1-5 and may be declared. In the other he
stands at 0807, also out of sight, beyond his range: out of command (§5.3), Defence, the village's column left, worse
than 1-5: refused (§12.4.2, default reading after_terrain) and absent from legal(). France's view is the same bytes."""

from __future__ import annotations

from tests.arrivano.harness import RULESET, at_step, declaration_served, position, village_attack_hexes

VILLAGE, ATT, BACK = village_attack_hexes()


def served(general_at: str) -> tuple[bytes, bytes, str]:
    state = position({"6e-legere-i": ATT, "ir40-ii-iii": VILLAGE, "ir40-i": VILLAGE},
                     leaders={"watrin": BACK, "schellenberg": general_at}, orders={"W": "advance", "S": "attack"})
    state.units["6e-legere-i"].reduced = True
    assert RULESET.unexaminable(state, "france", [general_at]) == {general_at}
    return declaration_served(at_step(state, "W", "combat"), "france", ["6e-legere-i"], VILLAGE)


def test_an_assault_s_refusal_does_not_tell_where_an_unseen_general_stands() -> None:
    near, far = served("1013"), served("0807")
    assert near[0] == far[0], "the views differ: the hidden fact is not hidden"
    assert near[1] == far[1], "legal() tells whether the unseen general is within range of the village"
    assert near[2] == far[2], f"the declaration tells it: {near[2]!r} != {far[2]!r}"
