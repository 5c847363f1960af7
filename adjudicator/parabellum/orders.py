"""The four orders of the system (caldiero §5.1, arrivano §5.1). What each permits differs between the books
(D6: each game's orders table, caldiero data/orders.json, arrivano tables/orders.json; their movement permissions
are parabellum/movement.order_moves)."""

from __future__ import annotations

from typing import Final

ORDERS: Final = ("advance", "attack", "defence", "manoeuvre")

# caldiero §11.0, arrivano §11 ("possono sempre scegliere di avere un Ordine di Manovra o Difesa"): artillery may
# always act under Manoeuvre or Defence besides the order it has.
ARTILLERY_ALWAYS: Final = ("defence", "manoeuvre")


def artillery_orders(order: str) -> list[str]:
    """The orders an artillery unit whose order is `order` may act under, in order (caldiero §11.0, arrivano §11)."""
    return sorted({order, *ARTILLERY_ALWAYS})
