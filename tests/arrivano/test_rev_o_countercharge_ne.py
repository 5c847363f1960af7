"""rev-o O5 (seventeenth session): k-res 1c8c5f99 deleted Arrivano's `ne_testable` ("a counter-charge is never
tested ... §14.2.4 lets only cavalry "con un Ordine di Difesa" counter-charge, and the NE test is for attackers that
"avevano Ordine Attacco""), saying its guard repeated what the orders say. It does not where the counter-charger's
order is read again at the resolution: a unit of a formation under Attack is out of command, so under Defence, when
it counter-charges (§5.3, §14.2.4), and back in command, so under Attack, when the counter-charge is fought at the
combat's start, if the active side moves away the unit that stood on its command line (arrivano §4.4.3: a command
line is traced through no hex holding enemy units) in between.

Montebello as tests/arrivano/test_countercharge_refusal.py: Bussy (R, Attack) at 0802, Ott (R's general) at 0806,
the 28e-i at 0804 cutting Ott's line, so Bussy is under Defence; the 12e hussards charge it, Bussy counter-charges;
France moves the 28e-i to 0903 (Bussy back in command: Attack) and ends its movement; the counter-charge is fought
at 1-2 and the die's 5 reads Ne. Before 1c8c5f99 the counter-charger was not offered the Ne test; now it is."""

from __future__ import annotations

from arbitro.adjudicator.parabellum.orders import order_of
from tests.arrivano.harness import RULESET, at_step, position


def test_a_countercharge_made_under_defence_takes_no_ne_test_when_its_order_reads_attack_again() -> None:
    state = position({"bussy": "0802", "12e-hussards": "1301", "ir40-i": "1208", "28e-i": "0804"},
                     leaders={"lannes": "1302", "ott": "0806"}, orders={"L": "attack", "R": "attack"})
    t = at_step(state, "L", "movement")
    t.send("france", {"type": "move", "unit": "12e-hussards", "to": "0902", "column": False, "charge": "0802"})
    assert order_of(RULESET.world(t.state), "bussy") == "defence", "the premise: Bussy is out of command"
    t.send("austria", {"type": "countercharge", "unit": "bussy"})
    t.send("france", {"type": "move", "unit": "28e-i", "to": "0903", "column": False})
    assert order_of(RULESET.world(t.state), "bussy") == "attack", "the premise: Bussy is back in command"
    made = t.send("france", {"type": "end_step"}, [5])
    assert [e.result for e in made if type(e).__name__ == "AssaultResolved"] == ["Ne"], "the premise: an Ne"
    pending = t.pending()
    assert pending is None or pending.kind != "ne_choice", \
        "the counter-charger, which attacked under Defence (§14.2.4), is offered the Ne test (§12.5.4: 'Ordine Attacco')"
