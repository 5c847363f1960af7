"""rev-n (sixteenth session), a guard for fogm's K5 fix (7294a303, arrivano §14.2.4 with §11.3.2): a charge examines
the stacks beside the hexes it enters on EVERY leg it walks, the leg that stops where a counter-charger is asked as
well as the last one. Only the last leg was held by test: deleting `passed_beside` from `movement.charge_on`'s
counter-charge branch survived every Arrivano charge test (tests/arrivano/test_fog_charge_beside.py,
test_countercharge_*, test_fog_cavalry_asked, test_asked_where_hidden, test_commanders_options, test_rev_j_stay_only:
33 passed), though the charger is then told, by its charge running on after the decline, that the unseen stacks
beside the walked hexes hold no counter-charger (rev-k K5) and shown nothing.

fogm's geometry (Montebello: the 12e Hussards charge Bach at 3708 along 3604-...-3609, IR 28-I disordered at 3406
beside 3505, out of France's sight before and after), with Bussy (R, Defence cavalry) alone at 3610: the charge walks
the whole path to 3609, where Austria is asked to counter-charge, and Austria declines. Passes on main."""

from __future__ import annotations

from arbitro.events import arrivano as ev
from arbitro.events import parabellum as pb
from tests.arrivano.harness import RULESET
from tests.arrivano.test_fog_charge_beside import BESIDE, CHARGE, PATH, charge_offered

COUNTER = "3610"  # next to 3609 only of the path's hexes


def test_a_charge_stopped_by_a_counter_charge_question_examines_what_it_passed() -> None:
    t = charge_offered(bussy=COUNTER)
    t.send("france", CHARGE)
    awaited = t.pending()
    assert awaited is not None and (awaited.kind, awaited.seat) == ("countercharge", "austria"), "the premise: asked"
    assert [e.path for e in t.of(ev.UnitsMoved)] == [PATH], "the premise: the whole path walked before the question"
    t.send("austria", {"type": "countercharge", "unit": None})
    assert t.pending() is None, "the premise: declined, the charge ends"
    assert RULESET.unexaminable(t.state, "france", [BESIDE]) == {BESIDE}, "the premise: not in sight where it ends"
    sighted = [p for e in t.of(pb.PiecesSighted) if e.seat == "france" for p in e.pieces]
    assert "ir28-i" in sighted, "France was told what the stack beside its path is not, and shown nothing"
