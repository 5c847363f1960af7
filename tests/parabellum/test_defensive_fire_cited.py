"""The defensive fire's question (the kernel's assault_stages.ask_fire, step 3 of §12.1 in both books) cites each
book's rule, in the decision's `rule` and in its prompt: caldiero §11.4.5, arrivano §11.4.4 ("l'artiglieria può
bombardare uno degli esagoni dove sono presenti unità attaccanti"). Mutation testing (queue 4, rev-r) found no test
reading either: a question citing nothing ("None") survived."""

from __future__ import annotations

from tests.arrivano import harness as arrivano
from tests.arrivano.test_combat import BACK, D, GUNS, X
from tests.caldiero.test_combat import ATT, DEF, attack, table
from arbitro.projections.parabellum import Activation


def test_caldieros_question_cites_its_rule() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF, "au-brabeck-3pdr": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[])
    asked = t.awaited()
    assert asked is not None and asked.kind == "defensive_fire"
    assert (asked.rule, asked.prompt) == ("caldiero §11.4.5", "defending artillery may bombard one attacking hex "
                                                              "(caldiero §11.4.5)")


def test_arrivanos_question_cites_its_rule() -> None:
    state = arrivano.position({"6e-legere-i": X, "ir18-i": D, GUNS[0]: D}, leaders={"watrin": BACK},
                              orders={"W": "attack"})
    state.activation = Activation(formation="W")
    state.phase, state.step, state.seat = "action", "combat", "france"
    t = arrivano.Table(state)
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i"], "targets": [D]})
    asked = t.awaited()
    assert asked is not None and asked.kind == "defensive_fire"
    assert (asked.rule, asked.prompt) == ("arrivano §11.4.4", "defending artillery may bombard one attacking hex "
                                                              "(arrivano §11.4.4)")
