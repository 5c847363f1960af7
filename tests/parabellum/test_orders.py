"""The orders both books share (caldiero §5.1, §11.0; arrivano §5.1, §11), run for both variants."""

from __future__ import annotations

from arbitro.adjudicator.arrivano import data_model as arrivano
from arbitro.adjudicator.caldiero import loader as caldiero
from arbitro.adjudicator.parabellum import movement, orders
from arbitro.adjudicator.parabellum.variant import Variant


def test_artillery_may_always_choose_manoeuvre_or_defence(variant: Variant) -> None:
    """caldiero §11.0, arrivano §11: its own order, and Manoeuvre or Defence whatever that order is; each once. The
    orders it may always choose are the orders table's `artillery_may_choose` (D6, both games' tables/orders.json):
    a user's table that says otherwise is played as it says."""
    folder = caldiero.CALDIERO_DATA if variant.book == "caldiero" else arrivano.ARRIVANO_DATA
    table = folder.shipped().tables.orders
    assert table.artillery_may_choose == ["manoeuvre", "defence"]
    assert orders.artillery_orders(table, "attack") == ["attack", "defence", "manoeuvre"]
    assert orders.artillery_orders(table, "advance") == ["advance", "defence", "manoeuvre"]
    assert orders.artillery_orders(table, "defence") == ["defence", "manoeuvre"]
    assert orders.artillery_orders(table, "manoeuvre") == ["defence", "manoeuvre"]
    own = table.model_copy(update={"artillery_may_choose": ["manoeuvre"]})
    assert orders.artillery_orders(own, "attack") == ["attack", "manoeuvre"]


def test_each_game_s_orders_table_gives_the_movement_permissions(variant: Variant) -> None:
    """§5.1 in both, each game's orders table (caldiero data/orders.json, arrivano tables/orders.json) read once by
    the kernel (`movement.order_moves`): Advance and Attack enter an EZoC, Manoeuvre never, Defence only beside a
    friend and one hex; D7, Defence straight from one EZoC hex to another: never in caldiero ("non possono passare
    direttamente da EZoC a EZoC"), with a test in arrivano (its own procedure), free for the other orders."""
    folder = caldiero.CALDIERO_DATA if variant.book == "caldiero" else arrivano.ARRIVANO_DATA
    table = folder.shipped().tables.orders
    moves = movement.order_moves(table)
    assert movement.order_moves(table) is moves and set(moves) == set(orders.ORDERS)
    assert [moves[o].enter_ezoc for o in orders.ORDERS] == ["yes", "yes", "with_friend", "no"]
    assert [moves[o].max_hexes for o in orders.ORDERS] == [None, None, 1, None]
    assert moves["defence"].ezoc_to_ezoc is (variant.book == "arrivano")
    assert all(moves[o].ezoc_to_ezoc for o in ("advance", "attack", "manoeuvre"))
    assert [table.orders[o].march_column for o in orders.ORDERS] == [True, False, False, True]
    assert [table.orders[o].assault for o in orders.ORDERS] == ["test", "must", "no", "no"]
