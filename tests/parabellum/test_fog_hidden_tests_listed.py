"""Every efficiency test of a stack in both games (§13.1.2: one die a stack; parabellum/act.stack_test, stack_roll,
rout_test) is made where its stack may stand out of the enemy's sight, or only where an enemy stands next to it. A
test out of sight is served without its faces (ParaBellumRuleset.redact_random), and what its pass or its failure
makes must be served the enemy alike, or the enemy reads the result from the events (rev-k K2, rev-n N1: a recovery's
pass, an order test's; engine-rules §V.4, one rule for hidden tests). The kernel holds that by event type (`withheld`,
tests/parabellum/test_fog_events_held.py), not by a list of rules; this test holds the other half: every function
making such a test is listed, each that may test out of sight with its non-interference test (two games differing
only in the die, the enemy served the same bytes), the rest with why the enemy examines the stack. A new caller fails
until listed (rev-n's invariant for `passed_test`, which this replaces)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import arbitro.adjudicator as adjudicator

TESTERS = {"stack_test", "stack_roll", "stack_tests", "rout_test"}  # the calls that roll a stack's test
MECHANISM = {"parabellum/act.stack_test", "parabellum/act.rout_test", "parabellum/efficiency.stack_tests"}

# may test a stack out of the enemy's sight: its pass/fail non-interference test
OUT_OF_SIGHT = {
    "arrivano/activation.try_recovery": "tests.arrivano.test_fog_hidden_tests:"
                                        "test_a_recovery_out_of_sight_serves_its_result_to_nobody_but_its_owner",
    "arrivano/open_order.fatigue_test": "tests.arrivano.test_fog_hidden_tests:"
                                        "test_a_fatigue_test_out_of_sight_serves_its_die_to_nobody_but_its_owner",
    "arrivano/movement.officer_order": "tests.arrivano.test_fog_hidden_tests:"
                                       "test_an_officers_order_test_out_of_sight_serves_its_result_to_nobody_but_its_owner",
    "caldiero/flow.reorganise": "tests.caldiero.test_fog_hidden_tests:"
                                "test_a_reorganisation_out_of_sight_serves_its_result_to_nobody_but_its_owner",
    "caldiero/system_activation.unit_order_test": "tests.caldiero.test_fog_hidden_tests:"
                                                  "test_an_order_test_out_of_sight_serves_its_result_to_nobody_but_its_owner",
}
# tests only a stack next to an enemy stack (the fog's reach is at least one hex in both games), so examined
NEXT_TO_AN_ENEMY = {
    "arrivano/assault.dr_choice": "an assault's DR test (§12.5.4)",
    "arrivano/movement.move": "Defence from EZoC to EZoC (§5.1.3): the mover is in an enemy ZoC",
    "arrivano/open_order.apply_fire_result": "the target of open-order fire, next to its firer (§16.3.3)",
    "arrivano/steps.light_retreat": "a V unit of an assaulted hex (§16.3.5)",
    "parabellum/assault_stages.attack_tests": "'Attack?' (§12.2.2, both games' stage): an attacker is next to the hex it attacks",
    "parabellum/results.dr_tests": "an assault's Dr test (§12.5.4, both games' stage)", "parabellum/results.dr_tested":
    "an assault's", "parabellum/results.exchange_tested": "an assault's",
    "parabellum/results.exchanged": "an assault's Ex tests (§12.5.4, both games')",
    "parabellum/results.ne_answered": "an assault's Ne (§12.5.4)", "parabellum/results.ne_tested": "the same",
    "parabellum/rout.checks": "routed units an enemy reached (§15.2)",
}


def callers() -> set[str]:
    """Every function of the two games and the kernel that calls one of TESTERS, as `package/module.function`."""
    root = Path(adjudicator.__file__).parent
    found = set()
    for package in ("parabellum", "caldiero", "arrivano"):
        for path in sorted((root / package).glob("*.py")):
            for fn in ast.walk(ast.parse(path.read_text())):
                if isinstance(fn, ast.FunctionDef) and any(
                        isinstance(c, ast.Call) and getattr(c.func, "id", getattr(c.func, "attr", None)) in TESTERS
                        for c in ast.walk(fn)):
                    found.add(f"{package}/{path.stem}.{fn.name}")
    return found - MECHANISM


def test_every_stack_test_is_listed_out_of_sight_or_next_to_an_enemy() -> None:
    found = callers()
    assert sorted(found - set(OUT_OF_SIGHT) - set(NEXT_TO_AN_ENEMY)) == [], "a stack test nobody judged for the fog"
    assert sorted((set(OUT_OF_SIGHT) | set(NEXT_TO_AN_ENEMY)) - found) == [], "listed, but no longer a caller"


def test_each_stack_test_out_of_sight_has_its_non_interference_test() -> None:
    for where, test in OUT_OF_SIGHT.items():
        module, name = test.split(":")
        assert callable(getattr(importlib.import_module(module), name, None)), f"{where}: {test} is gone"
