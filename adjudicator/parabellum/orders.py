"""The four orders of the system (caldiero §5.1, arrivano §5.1). What each permits differs between the books
(D6: caldiero's fixed permissions in caldiero/system_orders.py, arrivano's tables/orders.json)."""

from __future__ import annotations

from typing import Final

ORDERS: Final = ("advance", "attack", "defence", "manoeuvre")
