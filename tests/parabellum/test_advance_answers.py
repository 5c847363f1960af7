"""The advance after combat answered in both games the same way (rev-assault2): the units advancing together are a
set, accepted in any order and stored in one (commands.as_set, §12.7.3 in both); a wrong advance from the seat whose
advance is awaited is an IllegalCommand citing §12.7 with what is permitted (parabellum/advance.refusal), in
Caldiero as in Arrivano (Caldiero refused it as NotYourDecision, which says the decision is another's)."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import IllegalCommand, MalformedCommand
from arbitro.events import parabellum as pb
from tests.arrivano import test_combat as A
from tests.caldiero import test_combat as C


def caldiero_de() -> C.Table:
    """Caldiero (caldiero §12.7.3): fr-18-ligne and fr-40-ligne with Massena at ATT, DEF emptied by a De."""
    t = C.table({"fr-18-ligne": C.ATT, "fr-40-ligne": C.ATT}, {"au-mahoney-jager": C.DEF}, leaders={"massena": C.ATT})
    C.attack(t, ["fr-18-ligne", "fr-40-ligne"], [C.DEF], dice=[3])
    assert C.result_of(t) == "De"
    return t


def arrivano_de() -> A.Table:
    """Arrivano (arrivano §12.7.3): 6e-legere-i and -ii with Watrin at X, D emptied by a De."""
    t = A.fight({"6e-legere-i": A.X, "6e-legere-ii": A.X}, {"mariassy-jager": A.D}, leaders={"watrin": A.X})
    A.assault(t, ["6e-legere-i", "6e-legere-ii"], dice=[5])
    assert A.resolved(t).result == "De"
    return t


def test_a_stack_advances_whatever_order_its_units_are_named_in() -> None:
    for t, units, to in ((caldiero_de(), ["fr-40-ligne", "fr-18-ligne"], C.DEF),
                         (arrivano_de(), ["6e-legere-ii", "6e-legere-i"], A.D)):
        t.send("france", {"type": "advance", "units": units, "to": to})
        assert t.of(pb.UnitsAdvanced)[-1].units == tuple(sorted(units)), "stored in one order, as legal() lists it"


def test_the_advances_are_listed_in_one_order_whatever_order_the_attackers_were_declared_in() -> None:
    """One lister for both games (parabellum/advance.listed): the attackers taken in sorted order, so Caldiero's
    assault declared with its units in another order lists the same advances in the same order (Arrivano sorted)."""
    declared = []
    for attackers in (["fr-18-ligne", "fr-40-ligne"], ["fr-40-ligne", "fr-18-ligne"]):
        t = C.table({"fr-18-ligne": C.ATT, "fr-40-ligne": C.ATT}, {"au-mahoney-jager": C.DEF}, leaders={"massena": C.ATT})
        C.attack(t, attackers, [C.DEF], dice=[3])
        declared.append(t.legal("france"))
    assert declared[0] == declared[1] and declared[0][0] == {"type": "advance", "units": ["fr-18-ligne"], "to": C.DEF}


def test_a_wrong_advance_is_illegal_citing_the_advance_in_both_games() -> None:
    for game, t, wrong in (("caldiero", caldiero_de(), {"units": ["fr-18-ligne"], "to": C.ATT}),
                           ("arrivano", arrivano_de(), {"units": ["6e-legere-i"], "to": A.X})):
        with pytest.raises(IllegalCommand) as refused:
            t.send("france", {"type": "advance", **wrong})
        assert refused.value.rule == f"{game} §12.7", refused.value
        assert "not a permitted advance" in str(refused.value) and "permitted: " in str(refused.value)
        assert not t.of(pb.UnitsAdvanced), "nothing advanced"


def test_arrivanos_guns_alone_are_eliminated_once_by_the_automatic_de() -> None:
    """arrivano §11.1.1: an assault on guns alone is an automatic DE and the attacker must advance. The guns go with
    the DE (one unit_eliminated citing §11.1.1); the advance that follows finds the hex empty, so the kernel's overrun
    (parabellum/advance.advanced, caldiero §11.1.1's "eliminate ... se almeno una unità attaccante avanza") makes no
    second elimination."""
    t = A.fight({"6e-legere-i": A.X}, {"art-gottesheim": A.D})
    A.assault(t, ["6e-legere-i"])
    t.send("austria", {"type": "defensive_fire", "target": None})
    t.send("france", {"type": "advance", "units": ["6e-legere-i"], "to": A.D})
    assert [(e.unit, e.rule) for e in t.of(pb.UnitEliminated)] == [("art-gottesheim", "arrivano §11.1.1")]
    assert t.state.units["6e-legere-i"].hex == A.D


def test_the_units_an_exchange_costs_are_a_set_named_in_any_order() -> None:
    """caldiero §12.5.4 Ex, reading any_sufficient: the defender names the units it loses, a set (commands.as_set),
    the listed `["au-colloredo", "au-hungarian"]` accepted as `["au-hungarian", "au-colloredo"]`."""
    t, _ = C._ex_defender_frame("any_sufficient")
    t.send("austria", {"type": "exchange_loss", "units": ["au-hungarian", "au-colloredo"]}, dice=[1])
    assert [e.unit for e in t.of(pb.UnitEliminated)][-2:] == ["au-colloredo", "au-hungarian"]


def test_a_unit_an_exchange_costs_named_twice_is_a_malformed_command() -> None:
    """caldiero §12.5.4: the units an Ex costs are a set; a name given twice is refused as malformed (what, where),
    not read as two losses or as the one unit."""
    t, _ = C._ex_defender_frame("any_sufficient")
    with pytest.raises(MalformedCommand, match="more than once"):
        t.send("austria", {"type": "exchange_loss", "units": ["au-hungarian", "au-hungarian"]}, dice=[1])
