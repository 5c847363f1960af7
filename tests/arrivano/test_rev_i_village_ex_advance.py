"""rev-i (review of k-assault4 4d527f8/96685e6/6a336e3): a village's DR turned EX on a passed test (arrivano §10.1.1,
§12.5.4) runs its exchange inside the assault's frame while the DR's stage dr_tests waits there; the exchange's tests
must leave that frame open (arrivano/assault.exchange_tests: `dr`) and must not open a second advance: the DR's own
advance, below the frame, already covers the village (§12.7: the choice is made once). Mutating `dr` to False in
exchange_tests passed every Arrivano test touching villages, exchanges and DR choices; this test fails on it."""

from __future__ import annotations

from arbitro.events import core
from tests.arrivano.harness import at_step, ev, position, village_attack_hexes


def test_a_village_ex_that_empties_the_village_asks_the_advance_once() -> None:
    village, att, back = village_attack_hexes()
    for die in range(1, 7):
        t = at_step(position({"6e-legere-i": att, "6e-legere-ii": att, "ir18-i": village}, leaders={"watrin": back},
                             orders={"W": "attack"}), "W", "combat")
        t.send("france", {"type": "assault", "attackers": ["6e-legere-i", "6e-legere-ii"], "targets": [village]}, [die])
        if t.of(ev.AssaultResolved)[-1].result != "Dr":
            continue
        t.send("austria", {"type": "dr_choice", "choice": "exchange"}, [1])  # the test passed: DR becomes EX
        asked = []
        while (p := t.pending()) is not None and len(asked) < 10:
            asked.append(p.kind)
            t.send(p.seat, p.options[-1] if p.kind == "advance" else p.options[0], [1])  # decline the advance
        assert t.state.units["ir18-i"].where != "map", "the EX took the village's only unit"
        opened = [e.frame.kind for e in t.of(core.DecisionOpened) if e.frame.kind == "advance"]
        assert len(opened) == 1, f"the advance into the emptied village is asked once (§12.7), opened {opened}; asked {asked}"
        return
    raise AssertionError("no die gives DR against this village")
