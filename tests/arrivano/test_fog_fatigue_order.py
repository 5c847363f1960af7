"""fog14 (f0fix's "Left"): a failed fatigue test (arrivano §16.3.4 "se fallisce le unità assumono un Ordine di Difesa
per quel turno") must not tell the attacker, through an assault's legal() listing or its refusal, what it was not
served (engine-rules §V.4). The test is the unit's own side's, made where the enemy may not examine it (arrivano
§11.3.2) its event is a stub and its die's purpose cut; what the table shows afterwards is the F marker, on a unit
that failed and on one not yet tested alike (§16.3.4: only a pass removes it). So the Defence a failure imposes is
not a fact the attacker may read at the declaration.

The shape of tests/arrivano/test_rev_f_fog_command.py: a reduced 6e légère (3 SP) beside a village (§10.1: its column
left only for a defender under a Defence order) held by IR40 (8 + 5 SP), both F-marked, with Schellenberg in the
village (every piece of formation S on the map examinable: its command is France's to establish), S under Attack. In
one game IR40 failed its fatigue test this turn, in the other it has not been tested."""

from __future__ import annotations

from arbitro.adjudicator.arrivano import rules as R
from arbitro.events import arrivano as ev
from arbitro.projections.arrivano import ArrivanoState
from tests.arrivano.harness import RULESET, at_step, declaration_served, position, village_attack_hexes

VILLAGE, ATT, BACK = village_attack_hexes()
DEFENDERS = ["ir40-i", "ir40-ii-iii"]


def state_with(failed: bool, village: str = VILLAGE) -> ArrivanoState:
    state = position({"6e-legere-i": ATT, "ir40-ii-iii": village, "ir40-i": village},
                     leaders={"watrin": BACK, "schellenberg": village}, orders={"W": "advance", "S": "attack"})
    state.options = ["open_order", "physical_exhaustion"]
    state.units["6e-legere-i"].reduced = True
    for u in DEFENDERS:
        state.units[u].open_order, state.units[u].marker_turn = "F", state.turn - 1
        state.units[u].fatigue_defence_turn = state.turn if failed else 0
    return state


def served(failed: bool) -> tuple[bytes, bytes, str]:
    """What France is served at the combat step: its view, the assaults legal() lists, the declaration's answer."""
    state = state_with(failed)
    assert not RULESET.unexaminable(state, "france", [VILLAGE])
    return declaration_served(at_step(state, "W", "combat"), "france", ["6e-legere-i"], VILLAGE)


def test_a_fatigue_test_out_of_sight_is_not_served() -> None:
    """The premise: made where France may not examine the unit, the test's result is served France as a stub."""
    state = state_with(False, village="1013")
    assert RULESET.unexaminable(state, "france", ["1013"]) == {"1013"}
    tested = ev.OpenOrderTested(unit="ir40-i", test="fatigue", passed=False, rule=str(R.EXHAUSTION))
    served_france = RULESET.redact(tested, "france", state)
    assert served_france is not None and "passed" not in served_france and "unit" not in served_france


def test_a_failed_fatigue_test_is_not_told_by_the_declaration() -> None:
    failed, untested = served(True), served(False)
    assert failed[0] == untested[0], "the views differ: the hidden fact is not hidden"
    assert failed[1] == untested[1], "legal() tells whether the defender failed its fatigue test out of sight"
    assert failed[2] == untested[2], f"the declaration tells it: {failed[2]!r} != {untested[2]!r}"
