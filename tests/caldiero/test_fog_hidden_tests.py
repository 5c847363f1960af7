"""fogm: Caldiero's twin of tests/arrivano/test_fog_hidden_tests.py (engine-rules §V.4, one rule for hidden tests): a
stack out of Austria's sight that tries to reorganise (caldiero §15.3, under the fog §20.4) serves Austria alike
whatever its die: that a die was rolled under §13.1 is public; its faces, and the status change a pass makes
(§15.3.1), are France's. Served as bench/served.served (log items per command, view, status)."""

from __future__ import annotations

import msgspec

from arbitro.adjudicator.reveal import served_values
from arbitro.events import caldiero as ev
from bench.served import served
from tests.caldiero.harness import FOLD, RULESET, Table, activate, position
from tests.caldiero.test_fog_served import FOG, OOC, OTHER


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


def order_tried(die: int) -> tuple[bytes, bytes, list[str]]:
    """caldiero §5.3.1: Massena's activation (Attack), fr-40-ligne out of command at OOC, out of Austria's sight and
    beyond the chief's range, tests to take Manoeuvre (a 1 passes, a 6 fails). Returns Austria's service, France's
    and the orders the unit was set. (fogm's strict xfail, closed by rev-l L6's fix: the enemy is served no
    unit_order_set, whatever its rule, and a die is rolled in the chief's range too.)"""
    state = position({"fr-18-ligne": "1417", "fr-40-ligne": OOC, "au-colloredo": "1917"}, leaders={"massena": "1317"},
                     orders={"massena": "attack"}, options=FOG)
    assert RULESET.unexaminable(state, "austria", [OOC]) == {OOC}, "out of Austria's sight"
    t = activate(state, "massena", step="orders")
    assert t.state.activation is not None and "fr-40-ligne" in t.state.activation.out_of_command
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", {"type": "unit_order", "hex": OOC, "order": "manoeuvre"}, dice=[die], pad=0))]
    return (served(RULESET, FOLD, before, made, "austria"), served(RULESET, FOLD, before, made, "france"),
            [e.order for _, events in made for e in events if isinstance(e, ev.UnitOrderSet)])


def test_an_order_test_out_of_sight_serves_its_result_to_nobody_but_its_owner() -> None:
    passed, failed = order_tried(1), order_tried(6)
    assert (passed[2], failed[2]) == (["manoeuvre"], []), "the premise: one passes, the other fails"
    assert passed[0] == failed[0], "Austria learns whether an unseen French stack took the order it tried for"
    assert passed[1] != failed[1], "France, the owner, is served its own test's die and result"


def order_asked(order: str, die: int) -> bytes:
    """caldiero §5.3.1 under §20.4: fr-40-ligne out of command at OOC, beyond the chief's range, with Austria's
    Colloredo and Gyulai two hexes off either side (the stack and every hex its die is about examined: else its words
    are cut to the rule, §V.4), tests to take `order`. Austria's service."""
    state = position({"fr-18-ligne": "1417", "fr-40-ligne": OOC, "au-colloredo": "2317", "au-gyulai": "2617"},
                     leaders={"massena": "1317"}, orders={"massena": "attack"}, options=FOG)
    about = RULESET.variant.bonus_reach(RULESET.world(state), OOC)
    assert RULESET.unexaminable(state, "austria", about) == frozenset(), "in Austria's sight"
    t = activate(state, "massena", step="orders")
    before = FOLD.copy(t.game)
    return served(RULESET, FOLD, before, [("france", t.send("france", {"type": "unit_order", "hex": OOC, "order": order},
                                                            dice=[die], pad=0))], "austria")


def test_the_order_a_seen_stack_tests_for_is_not_served() -> None:
    """At the table the enemy examining the stack sees its Fuori Comando marker (§3 B-2) and the die, not the order:
    it is chosen once the test passes (§5.3.1 "se riesce l'unità per questo turno può scegliere l'Ordine che vuole"),
    and no counter shows it (docs/rulesets/caldiero.md §5.3.1). The die's words named it ("..., to attack")."""
    for die in (1, 6):
        assert order_asked("manoeuvre", die) == order_asked("attack", die), "Austria is told the order asked"


def test_a_proof_of_an_unseen_stacks_test_goes_to_its_owner_alone() -> None:
    """A roll's key recomputes its die (arbitro §R.5): a proof of the reorganisation test of a stack out of Austria's
    sight, served Austria without its faces (ParaBellumRuleset.redact_random, §20.4), is served France alone
    (reveal.served_values, the proof's visible_to), though the roll itself is public; a test at Colloredo's hex, out of
    France's sight, to Austria alone: each seat as it was served the die."""
    state = position({"fr-18-ligne": "1417", "fr-40-ligne": OOC, "au-colloredo": "1917"}, leaders={"massena": "1317"},
                     orders={"massena": "defence"}, options=FOG)
    state.units["fr-40-ligne"].status = "disordered"
    state.phase, state.step, state.seat = "command", "reorganise", "france"
    t = Table(state)
    t.send("france", {"type": "reorganise", "hex": OOC}, dice=[1], pad=0)
    (roll,) = t.rolls
    assert roll.visible_to is None and roll.detail.get("table") == "efficiency", "the premise: a public roll's die"
    assert served_values(RULESET, roll, t.game, ("austria", "france")) == ("france",)
    seen = msgspec.structs.replace(roll, detail={**roll.detail, "hex": "1917"}, about=("1917",))
    assert RULESET.unexaminable(t.state, "austria", ["1917"]) == set(), "the premise: Austria sees 1917"
    assert served_values(RULESET, seen, t.game, ("austria", "france")) == ("austria",)
