"""arrivano §12.1 ("nell'ordine esatto (prima tutte le fasi 1, poi le fasi 2 etc.)"): the "Attack?" tests (step 4,
§12.2.2) come after the retreats before combat (step 2, §14.1) and the defensive fire (step 3, §11.4.4), as in
Caldiero (one stage of the kernel's, parabellum/assault_stages.attack_tests). Until the nineteenth session Arrivano
took them at the declaration, and an assault whose every test failed was cancelled before the defender was asked."""

from __future__ import annotations

from arbitro.events import core
from tests.arrivano.harness import Table, ev, position
from tests.arrivano.test_combat import BACK, D, GUNS, X, X2, _miss, fight, resolved
from arbitro.projections.parabellum import Activation

TEST = "'Attack?' test"


def test_the_defensive_fire_comes_before_the_attack_tests():
    """Advance-order attackers: the guns of the assaulted hex are asked first; the tests' dice follow their fire."""
    state = position({"6e-legere-i": X, "6e-legere-ii": X2, "ir18-i": D} | {GUNS[0]: D},
                     leaders={"watrin": BACK}, orders={"W": "advance"})
    state.activation = Activation(formation="W")
    state.phase, state.step, state.seat = "action", "combat", "france"
    t = Table(state)
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i", "6e-legere-ii"], "targets": [D]})
    assert t.pending().kind == "defensive_fire" and not [r for r in t.rolls if TEST in r.purpose]
    t.send("austria", {"type": "defensive_fire", "target": X}, [_miss(t, GUNS[0], X), 1, 1, 3])
    assert t.of(ev.ArtilleryFired)[-1].result == "-"
    purposes = [r.purpose for r in t.rolls]
    assert "bombardment" in purposes[0] and all(TEST in p for p in purposes[1:3]), purposes
    assert purposes[1].startswith("arrivano §13.1") and purposes[1].endswith(f"arrivano §12.2.2 {TEST} at {X}")


def test_the_cavalry_is_asked_though_every_test_then_fails():
    """§14.1 before §12.2.2: the defending cavalry may retreat first; the test that fails afterwards cancels the
    assault (§12.2.2: "non possono attaccare"), citing it."""
    t = fight({"6e-legere-i": X}, {"bussy": D}, order="advance")
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i"], "targets": [D]})
    assert t.pending().kind == "cavalry_retreat" and not t.rolls
    t.send("austria", {"type": "cavalry_retreat", "to": None, "units": None, "off_map": False}, [6])
    assert [TEST in r.purpose for r in t.rolls] == [True]
    r = resolved(t)
    assert (r.result, r.notes, r.rule) == ("cancelled", ("every Attack? test failed",), "arrivano §12.2.2")
    assert t.pending() is None and t.state.units["bussy"].hex == D
    assert not t.of(ev.StatusChanged)  # no other penalty


def test_the_tests_and_the_next_stage_are_one_revision_of_the_frame():
    """§12.2.2 in the kernel's attack_tests: those that failed out of the attackers, recorded as `tested` (§12.4.2
    reads them), and the assault moved on, in one `decision_revised` after the tests' dice (two till the twentieth
    session: `tested`, then the attackers and the stage)."""
    t = fight({"6e-legere-i": X, "6e-legere-ii": X2}, {"ir18-i": D}, order="advance")
    events = t.send("france", {"type": "assault", "attackers": ["6e-legere-i", "6e-legere-ii"], "targets": [D]},
                    [1, 6, 3])  # 6e-legere-ii's test fails
    tests = [i for i, e in enumerate(events) if isinstance(e, core.DiceRolled) and TEST in e.purpose]
    after = events[tests[-1] + 1:]
    until = next(i for i, e in enumerate(after) if isinstance(e, (core.DiceRolled, ev.AssaultResolved)))
    revised = [e.ctx for e in after[:until] if isinstance(e, core.DecisionRevised)]
    assert [(c.attackers, c.tested) for c in revised] == [(("6e-legere-i",), ("6e-legere-ii",))]
