"""Movement under an order (arrivano §5.1, §8, §9; caldiero §5.1, §8, §9) on the generic hex engine.

What an order lets a unit do with enemy zones of control becomes a `ZocRules`; the rest of the move
(costs, minimum move, stops) is `reachable`/`check_path`, so the path finding is the engine's."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from arbitro.adjudicator.maps.hexgrid import HexId
from arbitro.adjudicator.maps.movement import ZocRules

EzocEntry = Literal["yes", "no", "with_friend"]


@dataclass(frozen=True)
class OrderMove:
    """The movement permissions of an order (tables/orders.json in Arrivano)."""

    enter_ezoc: EzocEntry
    ezoc_to_ezoc: bool  # straight from one enemy ZoC hex to another (arrivano §5.1.3: with a test)
    max_hexes: int | None


def zoc_rules(order: OrderMove, ezoc: frozenset[HexId], friendly: Callable[[HexId], bool],
              march_column: bool = False) -> ZocRules:
    """Enemy ZoC for a combat unit: entering stops (§8.2.1); Manoeuvre never enters, Defence only where a
    friendly unit stands (arrivano §5.1.3-§5.1.4); a march column never enters (arrivano §9.3.2)."""
    if march_column or order.enter_ezoc == "no":
        return ZocRules(hexes=ezoc, entry="prohibited", zoc_to_zoc=order.ezoc_to_ezoc)
    may_enter = friendly if order.enter_ezoc == "with_friend" else None
    return ZocRules(hexes=ezoc, entry="stop", may_enter=may_enter, zoc_to_zoc=order.ezoc_to_ezoc)


def one_hex_only(start: str) -> Callable[[HexId, HexId], bool]:
    """A step veto keeping the move to one hex (arrivano §5.1.3 Defence; §17.2.7 Storm)."""
    return lambda a, b: a == start
