"""Review rev-assault: the DR test after a multi-hex DR (arrivano §12.5.4 with §13.1.2, "si tira un solo dado per
stack"), and §11.1 for the guns a DR-test rout leaves in the hex it retreated to."""

from __future__ import annotations

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
