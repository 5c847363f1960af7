"""Review rev-assault: the DR test after a multi-hex DR (arrivano §12.5.4 with §13.1.2, "si tira un solo dado per
stack"), and §11.1 for the guns a DR-test rout leaves in the hex it retreated to."""

from __future__ import annotations

import pytest

from tests.arrivano.harness import at_step, position, village_attack_hexes
from tests.arrivano.test_combat import GRID, X, assault, dr_tests, fight, resolved

D1, D2 = GRID.neighbour(X, 1), GRID.neighbour(X, 2)
(BEHIND,) = [h for h in GRID.neighbours(D1) if GRID.is_adjacent(h, D2) and h != X]


def test_a_multi_hex_dr_tests_one_stack_on_one_die():
    """Both defending hexes' units retreat into the same hex: there they are one stack, and one die decides both
    (§13.1.2 "il risultato si applica a tutte le unità nell'esagono"). Two dice (2 then 5) let the same stack end
    half disordered, half routed."""
    t = fight({"6e-legere-i": X, "6e-legere-ii": X}, {"ir18-i": D1, "ir18-ii": D2})
    assault(t, ["6e-legere-i", "6e-legere-ii"], targets=sorted([D1, D2]), dice=[6])
    assert resolved(t).result == "Dr"
    p = t.pending()
    (first,) = p.options[0]["units"]
    t.send("austria", {"type": "retreat", "to": BEHIND, "units": [first], "off_map": False})
    p = t.pending()
    assert p is not None and p.kind == "retreat", p
    (second,) = p.options[0]["units"]
    t.send("austria", {"type": "retreat", "to": BEHIND, "units": [second], "off_map": False}, dice=[2, 5])
    assert t.state.units["ir18-i"].hex == t.state.units["ir18-ii"].hex == BEHIND
    assert t.state.units["ir18-i"].status == t.state.units["ir18-ii"].status
    assert len(dr_tests(t)) == 1, [r.purpose for r in dr_tests(t)]


def test_guns_in_the_hex_a_dr_test_rout_leaves_are_eliminated():
    """arrivano §11.1 "L'artiglieria in stack con unità da combattimento che siano state ... forzate a ritirarsi a
    seguito di un assalto è eliminata": the DR unit retreats into its battery's hex, fails its test and routs two
    more hexes (§15.2.1), a retreat the assault forced; as a Dd rout (flow.disorder_by_combat), the refused village
    DR (dr_choice) and Caldiero's Dr rout (open_retreats from_combat) eliminate the guns, so here."""
    t = fight({"6e-legere-i": X}, {"ir18-i": D1, "art-gottesheim": BEHIND})
    assault(t, ["6e-legere-i"], targets=[D1], dice=[6])
    assert resolved(t).result == "Dr"
    t.send("austria", {"type": "retreat", "to": BEHIND, "units": ["ir18-i"], "off_map": False}, dice=[5])
    assert t.state.units["ir18-i"].status == "routed" and t.pending().kind == "retreat"
    assert t.state.units["art-gottesheim"].where == "eliminated"


def village_dr(choice: str, dice: list[int]):
    """A DR against a village held under a Defence order, met by `choice` (arrivano §10.1.1) on `dice`."""
    village, att, back = village_attack_hexes()
    for die in range(1, 7):
        t = at_step(position({"6e-legere-i": att, "6e-legere-ii": att, "ir18-i": village}, leaders={"watrin": back},
                             orders={"W": "attack"}), "W", "combat")
        t.send("france", {"type": "assault", "attackers": ["6e-legere-i", "6e-legere-ii"], "targets": [village]}, [die])
        if resolved(t).result == "Dr":
            t.send("austria", {"type": "dr_choice", "choice": choice}, dice)
            return t, village
    pytest.fail("no die gives DR against this village: the provisional CRT changed, so this set-up needs another")


def test_a_village_that_holds_takes_no_dr_test():
    """The hold test replaces the DR test (§10.1.1): the DR's one dr_test, pushed before the choice, loses the
    village's units, so no DR test die follows (a second die, 6, would rout the unit)."""
    t, village = village_dr("hold", [1, 6])
    assert t.state.units["ir18-i"].hex == village and t.state.units["ir18-i"].status == "disordered"
    assert dr_tests(t) == []


def test_a_village_exchange_takes_an_attacker_though_the_dr_test_waits_above_the_advance():
    """A passed exchange test makes the DR an EX (§10.1.1): the attackers come from the advance the DR opened,
    which now waits below the DR's dr_test too: the French choose their loss between their tied battalions
    (§12.5.4 EX), and each side loses one."""
    t, _ = village_dr("exchange", [1])
    p = t.pending()
    assert (p.kind, p.seat) == ("exchange_loss", "france"), p
    t.send("france", {"type": "exchange_loss", "units": ["6e-legere-ii"]}, [1])
    lost = [u for u in ("6e-legere-i", "6e-legere-ii", "ir18-i") if t.state.units[u].where != "map"]
    assert lost == ["6e-legere-ii", "ir18-i"], lost
