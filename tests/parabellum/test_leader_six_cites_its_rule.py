"""A natural 6 that tests the commanders cites the subsection that orders the test (caldiero §4.4.1, arrivano §4.5.1:
"Se in un assalto o in un Bombardamento l'attaccante tira un 6"), the variant's `LEADER_SIX`, in a bombardment as
in an assault, never only the section heading (§4.4 / §4.5 "Perdita dei Comandanti"). Found by review
rev-kernel-a 1."""

from __future__ import annotations

from arbitro.adjudicator.parabellum import bombardment
from arbitro.adjudicator.parabellum.variant import Variant
from tests.parabellum.test_bombardment import Firing, ground
from tests.parabellum.test_data import loaded_tables


def test_a_fires_natural_6_cites_the_subsection_that_orders_the_test(variant: Variant) -> None:
    _, table = loaded_tables(variant)
    game = Firing(ground(), die=6)
    bombardment.fire(game, variant, table, ["g1"], "1614", defensive=False)
    causes = [d[2][0] for d in game.dice if d[0] == "kray"]
    six = "4.4.1" if variant.book == "caldiero" else "4.5.1"
    assert causes and causes[0].startswith(variant.cite(six) + " "), causes


def test_an_assaults_natural_6_and_1_cite_their_subsections(variant: Variant) -> None:
    """The same concepts in each book's rulebook data, as the games' assault causes cite them (§4.4.1-§4.4.2,
    §4.5.1-§4.5.2)."""
    first = "4.4" if variant.book == "caldiero" else "4.5"
    assert str(variant.rules.LEADER_SIX) == variant.cite(f"{first}.1")
    assert str(variant.rules.LEADER_ONE) == variant.cite(f"{first}.2")
