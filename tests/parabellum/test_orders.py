"""The orders both books share (caldiero §5.1, §11.0; arrivano §5.1, §11), run for both variants."""

from __future__ import annotations

from arbitro.adjudicator.parabellum import orders
from arbitro.adjudicator.parabellum.variant import Variant


def test_artillery_may_always_choose_manoeuvre_or_defence(variant: Variant) -> None:
    """caldiero §11.0, arrivano §11: its own order, and Manoeuvre or Defence whatever that order is; each once."""
    assert orders.artillery_orders("attack") == ["attack", "defence", "manoeuvre"]
    assert orders.artillery_orders("advance") == ["advance", "defence", "manoeuvre"]
    assert orders.artillery_orders("defence") == ["defence", "manoeuvre"]
    assert orders.artillery_orders("manoeuvre") == ["defence", "manoeuvre"]
    assert set(orders.ARTILLERY_ALWAYS) < set(orders.ORDERS)
