"""fogm (rev-k K5): a charge judges a counter-charge at each hex it enters (arrivano §14.2.4 "quando una cavalleria
nemica in carica passa in un esagono adiacente ad una cavalleria ... e in questo esagono non ci sono altre unità"), so
the charger had a line of sight to the hexes beside its path as it passed (adjacent hexes: nothing between, §11.3) and
may examine their stacks (§11.3.2 "si può esaminare uno stack nemico solo se si ha una LoS all'esagono"). The engine
judges sight where pieces stand after each command; a charge that runs on has told the charger that no stack beside
its path held a lone cavalry that could counter-charge, so it records the charger's sighting of those stacks
(movement.passed_beside): what it was told, it is shown.

On Montebello (found by search; rev-k's geometry no longer holds, the charge now takes another path): the 12e Hussards
and Lannes at 3703 (L under Attack) charge Bach (R, Defence) in 3708 from 3609, along 3604-3504-3505-3506-3507-3508-
3609; 3406, next to 3505, is out of France's sight before and after, and holds IR 28-I, disordered (no ZoC, §15: the
charge's path is the same with it there or not), which lets the charge run on."""

from __future__ import annotations

from typing import Any

from arbitro.events import arrivano as ev
from arbitro.events import parabellum as pb
from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, at_step, position

CHARGER, TARGET, START, STOP, BESIDE = "12e-hussards", "3708", "3703", "3609", "3406"
PATH = ("3604", "3504", "3505", "3506", "3507", "3508", "3609")
CHARGE = {"type": "move", "unit": CHARGER, "to": STOP, "column": False, "charge": TARGET}


def charge_offered(**more: str) -> Any:
    """L's movement step, France's charge offered, with IR 28-I disordered at BESIDE and `more` units placed (unit:
    hex; test_rev_n_charge_beside_stopped adds a counter-charger): the table before the charge."""
    state = position({CHARGER: START, "bach": TARGET, "ir28-i": BESIDE, **more}, leaders={"lannes": START},
                     orders={"L": "attack", "R": "defence"})
    state.units["ir28-i"].status = "disordered"
    assert RULESET.unexaminable(state, "france", [BESIDE]) == {BESIDE}, "the premise: BESIDE out of France's sight"
    t = at_step(state, "L", "movement")
    assert CHARGE in t.legal("france"), "the set-up must offer this charge (a changed map broke it)"
    return t


def charging() -> tuple[Any, bytes]:
    """France's charge with IR 28-I, disordered, alone at BESIDE: the table after it and France's service."""
    t = charge_offered()
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", CHARGE))]
    return t, served(RULESET, FOLD, before, made, "france")


def test_a_charge_that_runs_on_examines_the_stacks_beside_its_path() -> None:
    t, france = charging()
    assert t.of(ev.UnitsMoved)[-1].path == PATH and t.pending() is None, "the premise: the charge runs on"
    assert RULESET.unexaminable(t.state, "france", [BESIDE]) == {BESIDE}, "the premise: not in sight where it ends"
    sighted = [e for e in t.of(pb.PiecesSighted) if e.seat == "france"]
    assert any("ir28-i" in e.pieces for e in sighted), "France was told what BESIDE is not, and shown nothing"
    assert b'"ir28-i"' in france, "France's service names the battalion it examined in passing"
