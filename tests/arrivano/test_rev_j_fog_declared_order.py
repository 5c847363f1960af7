"""rev-j: fog14's declared_order (98789af) under both hidden facts at once. IR40 (8 + 5 SP) holds the village in
Letzenyi's independent column (arrivano §16.2), Letzenyi and Schellenberg with it (every piece of formation S
examinable: the column's membership and order are still never served to France, projections/arrivano.served_own),
both battalions F-marked (§16.3.4: the marker shows on a failed and an untested unit alike). Game A: the column under
Attack, the fatigue test failed (true order: Defence by §16.3.4). Game B: the column under Defence, untested (true
order: Defence by the column). Game C: the column under Attack, untested (true order: Attack). France attacks with a
reduced 6e légère (3 SP), §10.1's village needing Defence: legal(), the refusal and the view must be the same bytes."""

from __future__ import annotations

from arbitro.projections.arrivano import Column
from tests.arrivano.harness import RULESET, at_step, declaration_served, position, village_attack_hexes

VILLAGE, ATT, BACK = village_attack_hexes()
DEFENDERS = ["ir40-i", "ir40-ii-iii"]


def served(column_order: str, failed: bool) -> tuple[bytes, bytes, str]:
    state = position({"6e-legere-i": ATT, "ir40-ii-iii": VILLAGE, "ir40-i": VILLAGE},
                     leaders={"watrin": BACK, "schellenberg": VILLAGE, "letzenyi": VILLAGE},
                     orders={"W": "advance", "S": "attack"})
    state.options = ["independent_columns", "open_order", "physical_exhaustion"]
    state.columns = {"letzenyi": Column(units=DEFENDERS, order=column_order)}
    state.units["6e-legere-i"].reduced = True
    for u in DEFENDERS:
        state.units[u].open_order, state.units[u].marker_turn = "F", state.turn - 1
        state.units[u].fatigue_defence_turn = state.turn if failed else 0
    assert not RULESET.unexaminable(state, "france", [VILLAGE])
    return declaration_served(at_step(state, "W", "combat"), "france", ["6e-legere-i"], VILLAGE)


def test_column_order_and_fatigue_together_tell_france_nothing() -> None:
    a, b, c = served("attack", True), served("defence", False), served("attack", False)
    assert a[0] == b[0] == c[0], "the views differ: the hidden facts are not hidden"
    assert a[1] == b[1] == c[1], "legal() tells the column's order or the fatigue test"
    assert a[2] == b[2] == c[2], f"the declaration tells them: {a[2]!r} / {b[2]!r} / {c[2]!r}"
