"""fogm: Caldiero's twin of tests/arrivano/test_fog_hidden_tests.py (engine-rules §V.4, one rule for hidden tests): a
stack out of Austria's sight that tries to reorganise (caldiero §15.3, under the fog §20.4) serves Austria alike
whatever its die: that a die was rolled under §13.1 is public; its faces, and the status change a pass makes
(§15.3.1), are France's. Served as tests/parabellum/served_status.served (log items per command, view, status)."""

from __future__ import annotations

from tests.caldiero.harness import FOLD, RULESET, Table, position
from tests.caldiero.test_fog_served import FOG, OOC, OTHER
from tests.parabellum.served_status import served


def reorganising(die: int) -> tuple[bytes, bytes, str]:
    """The disordered fr-40-ligne at OOC (Massena's formation, Defence), out of Austria's sight, tries to reorganise
    (a 1 passes, a 6 fails, caldiero §13.1.1). Returns Austria's service, France's and the unit's status after."""
    state = position({"fr-18-ligne": "1417", "fr-40-ligne": OOC, "au-colloredo": "1917"}, leaders={"massena": "1317"},
                     orders={"massena": "defence"}, options=FOG)
    state.units["fr-40-ligne"].status = "disordered"
    state.phase, state.step, state.seat = "command", "reorganise", "france"
    assert RULESET.unexaminable(state, "austria", [OOC]) == {OOC}, "out of Austria's sight"
    t = Table(state)
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", {"type": "reorganise", "hex": OOC}, dice=[die], pad=0))]
    return (served(RULESET, FOLD, before, made, "austria"), served(RULESET, FOLD, before, made, "france"),
            t.state.units["fr-40-ligne"].status)


def test_a_reorganisation_out_of_sight_serves_its_result_to_nobody_but_its_owner() -> None:
    passed, failed = reorganising(1), reorganising(6)
    assert (passed[2], failed[2]) == ("good", "disordered"), "the premise: one passes, the other fails"
    assert passed[0] == failed[0], "Austria learns whether an unseen French stack reorganised (the die or a stub)"
    assert passed[1] != failed[1], "France, the owner, is served its own test's die and result"


def tried_at(where: str) -> bytes:
    """As `reorganising` (a 6: it fails), the disordered stack at `where`, OOC or OTHER, both out of Austria's sight,
    each holding a French battalion: Austria's service."""
    other = OTHER if where == OOC else OOC
    state = position({"fr-18-ligne": "1417", "fr-40-ligne": where, "fr-32-ligne": other, "au-colloredo": "1917"},
                     leaders={"massena": "1317"}, orders={"massena": "defence"}, options=FOG)
    state.units["fr-40-ligne"].status = "disordered"
    state.phase, state.step, state.seat = "command", "reorganise", "france"
    assert RULESET.unexaminable(state, "austria", [OOC, OTHER]) == {OOC, OTHER}, "out of Austria's sight"
    t = Table(state)
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", {"type": "reorganise", "hex": where}, dice=[6], pad=0))]
    return served(RULESET, FOLD, before, made, "austria")


def test_which_unseen_stack_tried_to_reorganise_is_not_served() -> None:
    """Austria sees a marker on both stacks (projections/parabellum.view, `hidden_stacks`); which of them tried is
    which holds a unit in disorder or rout (§15.3): the step's record of the hex (StepRecorded) is France's."""
    assert tried_at(OOC) == tried_at(OTHER), "Austria learns which unseen French stack is disordered"
