"""fogm: a test a side makes of its own stack, out of the enemy's sight, is served to the enemy alike whatever its
die (engine-rules §V.4, "one rule for hidden tests"; rev-k's K2 note and K9). That it was rolled, and under which
rule, is public; its faces are its owner's (arrivano §11.3.2: the enemy may not examine the stack, whose markers the
outcome changes); what it changed is served as the stack is: not at all where the enemy may not examine it.
Each test plays two games differing only in the die and asks for Austria's whole service (log items per command,
view, status: bench/served.served)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, at_step, ev, open_ground, position

X = open_ground()
GRID = RULESET.data.scenarios["montebello"].map.grid
BEYOND = GRID.neighbour(GRID.neighbour(X, 4), 4)


def recovering(die: int) -> tuple[bytes, bytes, str]:
    """arrivano §15.3: W's combat step (Defence) ends with 6e Légère II, disordered at BEYOND out of Austria's sight,
    trying to recover (§15.3.1: a 1 passes, a 6 fails); France then tries nothing more. Returns Austria's service,
    France's, and the unit's status after."""
    state = position({"6e-legere-i": X, "6e-legere-ii": BEYOND, "ir18-i": "3914"}, leaders={"watrin": X},
                     orders={"W": "defence"})
    state.units["6e-legere-ii"].status = "disordered"
    assert RULESET.unexaminable(state, "austria", [X, BEYOND]) == {X, BEYOND}, "out of Austria's sight"
    t = at_step(state, "W", "combat")
    before = FOLD.copy(t.game)
    made: list[tuple[str, list[Any]]] = [("france", t.send("france", {"type": "recover", "hex": BEYOND}, [die]))]
    made.append(("france", t.send("france", {"type": "recover", "hex": None})))
    assert t.state.activation is None
    return (served(RULESET, FOLD, before, made, "austria"), served(RULESET, FOLD, before, made, "france"),
            t.state.units["6e-legere-ii"].status)


def served_to_its_owner_only(play: Callable[[int], tuple[bytes, bytes, Any]], premise: tuple[Any, Any],
                             leak: str) -> None:
    """Plays the test with a 1 (it passes) and a 6 (it fails): Austria must be served the same bytes, France not."""
    passed, failed = play(1), play(6)
    assert (passed[2], failed[2]) == premise, "the premise: one passes, the other fails"
    assert passed[0] == failed[0], leak
    assert passed[1] != failed[1], "France, the owner, is served its own test's die and result"


def played_at(state: Any, step: str, command: dict[str, Any], die: int,
              results: Callable[[Any], list[bool]]) -> tuple[bytes, bytes, list[bool]]:
    """France sends `command` with `die` at W's `step`. Returns Austria's service, France's, and the test's results."""
    t = at_step(state, "W", step)
    before = FOLD.copy(t.game)
    made: list[tuple[str, list[Any]]] = [("france", t.send("france", command, [die]))]
    return served(RULESET, FOLD, before, made, "austria"), served(RULESET, FOLD, before, made, "france"), results(t)


def test_a_recovery_out_of_sight_serves_its_result_to_nobody_but_its_owner() -> None:
    served_to_its_owner_only(recovering, ("good", "disordered"),
                             "Austria learns whether an unseen French stack recovered (the die or a stub)")


def fatigue(die: int) -> tuple[bytes, bytes, list[bool]]:
    """arrivano §16.3.4: W under Advance; 6e Légère II, F-marked at BEYOND out of Austria's sight, tests as the
    movement sub-phase begins (fatigue_test_timing: before_acting) when France ends its bombardment step: a 1 passes,
    a 6 fails. Returns Austria's service, France's, and the test's results."""
    state = position({"6e-legere-i": X, "6e-legere-ii": BEYOND, "ir18-i": "3914"}, leaders={"watrin": X},
                     orders={"W": "advance"})
    state.options = ["open_order", "physical_exhaustion"]
    state.units["6e-legere-ii"].open_order, state.units["6e-legere-ii"].marker_turn = "F", state.turn - 1
    assert RULESET.unexaminable(state, "austria", [X, BEYOND]) == {X, BEYOND}, "out of Austria's sight"
    return played_at(state, "bombardment", {"type": "end_step"}, die,
                     lambda t: [e.passed for e in t.of(ev.OpenOrderTested)])


def test_a_fatigue_test_out_of_sight_serves_its_die_to_nobody_but_its_owner() -> None:
    served_to_its_owner_only(fatigue, ([True], [False]),
                             "Austria learns whether an unseen F-marked French stack failed (the die's faces)")


def officer_tried(die: int) -> tuple[bytes, bytes, list[bool]]:
    """arrivano §3.1 B-4 (interpretation officer_order_change: efficiency_test): W activated under Attack, 6e Légère
    I out of command at FAR beside the officer Gency, out of Austria's sight; Gency has it test for Manoeuvre (a 1
    passes, a 6 fails). Returns Austria's service, France's, and the test's outcome."""
    far = "3914"
    state = position({"6e-legere-i": far, "ir18-i": "0801"}, leaders={"watrin": X, "gency": far}, orders={"W": "attack"})
    assert RULESET.unexaminable(state, "austria", [far]) == {far}, "out of Austria's sight"
    return played_at(state, "movement", {"type": "officer_order", "officer": "gency", "order": "manoeuvre"}, die,
                     lambda t: [e.succeeded for e in t.of(ev.OfficerOrderTried)])


def test_an_officers_order_test_out_of_sight_serves_its_result_to_nobody_but_its_owner() -> None:
    served_to_its_owner_only(officer_tried, ([True], [False]),
                             "Austria learns whether an unseen French stack took its officer's order")
