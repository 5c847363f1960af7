"""Recovery (caldiero §15.3, arrivano §15.3): a unit in disorder or rout, outside enemy ZoC, whose order allows it
(the orders table, D6), may test its efficiency; passing brings it one level back (§15.3.1 in both: routed to
disordered, disordered to good order). When and which units try is each game's sequence (D20: caldiero in the
Command phase, A-3, for all units; arrivano at the end of an activation, B-6, idle units, reading
`recovery_scope`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from arbitro.adjudicator.parabellum import efficiency
from arbitro.adjudicator.parabellum.data import OrderRules
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum.zoc import enemy_zoc
from arbitro.projections.parabellum import STATUS_BETTER


def may_try(w: World, u: str, ezoc: frozenset[str], order_allows: Callable[[str], bool]) -> bool:
    """Whether unit `u` may try to recover (§15.3 in both): not in good order, not in a hex of `ezoc` (its enemy's
    zones of control), and `order_allows` it (asked last: the order may need the command range worked out)."""
    return w.status(u) != "good" and w.hex_of(u) not in ezoc and order_allows(u)


def recovered(w: World, u: str) -> str:
    """The status a unit passing its recovery test takes: one level better (§15.3.1 in both)."""
    return STATUS_BETTER[w.status(u)]


def order_allows(w: World, rules: OrderRules, u: str) -> bool:
    """Whether the order unit `u` acts under (`rules`, its row of the orders table, D6) lets it try: its `recovery`
    column says yes, no, or `near_commander`: only with a commander of its formation in its hex or next to it
    (arrivano §5.1.4, Manoeuvre: "solo se l'unità è in stack o adiacente ad un Ufficiale o Generale della sua formazione"; caldiero
    §5.1.3 allows Defence alone)."""
    if rules.recovery != "near_commander":
        return rules.recovery == "yes"
    h, formation = w.hex_of(u), w.formation_of(u)
    return h is not None and any(w.leader_formation(le) == formation
                                 for n in w.grid.within(h, 1) for le in w.leaders_at(n))


def stacks(w: World, side: str, units: Iterable[str], order_of: Callable[[str], str]) -> dict[str, list[str]]:
    """The stacks of `side`'s `units` that may try (`may_try`, each by its row of the orders table for the order it
    obeys, `order_of`), by hex in order, each stack's units in the order given (one die a stack, §13.1.2)."""
    ezoc = enemy_zoc(w, side)
    allows = lambda u: order_allows(w, w.orders.orders[order_of(u)], u)  # type: ignore[index]  # noqa: E731
    return dict(efficiency.stacks(w, [u for u in units if may_try(w, u, ezoc, allows)]))

