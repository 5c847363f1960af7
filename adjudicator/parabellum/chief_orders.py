"""The orders sub-phase (caldiero §3.1 A-1, §4.2, §5.2, §5.2.1; arrivano §3.1 A-1, §4.3, §5.2 and its note to
§5.2.1), written once: a commander in chief on the map changes, without a die, the order of a formation of his side
whose general is on the map within his command range, to another order, recorded as his (`change`); D5
(`Variant.chief_changes_limited`): arrivano §4.3 allows him at most as many changes as his initiative, each counted
against him, caldiero §4.2 no limit. A general out of his range may only try by his own initiative when activated
(caldiero §5.2.2, arrivano §5.2.1: GENERAL_ORDER; parabellum/activation.py). Caldiero §20.1.1's Bonaparte changing
his own formation's order is this change too: he is its general and its commander in chief, in his own range.
`legal()` lists the changes `chief_order_problem` allows (`changes`), so a listed change is never refused and a
refused one never listed."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.orders import ORDERS
from arbitro.adjudicator.parabellum.sequence import Refusal, refuse
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.events.parabellum import OrderChanged


def chief_bar(variant: Variant, w: World, chief: str, formation: str) -> Refusal | None:
    """Why `chief` may not change `formation`'s order now, whatever the order, or None: not a formation of his side,
    he is off the map, he made as many changes as D5 allows (his changes in this sub-phase, as the state counts them:
    `chief_changes_made`), its general is
    off the map or out of his command range. Each refusal cites the rule it applies: the orders sub-phase's own
    (ORDER_CHANGES, §5.2 in both: only generals in command receive new orders), the D5 limit (CHIEF_ORDERS, arrivano
    §4.3) or the range (GENERAL_OUT_OF_RANGE)."""
    rules, side = variant.rules, w.leader_side(chief)
    f = w.state.formations.get(formation)
    if f is None or f.side != side:
        return rules.ORDER_CHANGES, f"{formation} is not one of your formations"
    if w.leader_on_map(chief) is None:
        return rules.ORDER_CHANGES, f"your commander in chief ({chief}) is not on the map"
    if variant.chief_changes_limited and w.state.chief_changes_made(side) >= w.leader_initiative(chief):
        return rules.CHIEF_ORDERS, f"{chief} has made as many changes as his initiative allows ({rules.CHIEF_ORDERS})"
    general = w.general_on_map(formation)
    if general is None:
        return rules.ORDER_CHANGES, f"the general of {formation} is not on the map"
    if w.leader_hex(general) not in w.command_reach(chief):
        return rules.GENERAL_OUT_OF_RANGE, (f"{general} is out of {chief}'s command range: only his own initiative may "
                                            f"change the order ({rules.GENERAL_OUT_OF_RANGE})")
    return None


def chief_order_problem(variant: Variant, w: World, chief: str, formation: str, order: str) -> Refusal | None:
    """Why `chief` may not change `formation`'s order to `order` now (`chief_bar`, or it already has it), or None."""
    bar = chief_bar(variant, w, chief, formation)
    if bar is not None:
        return bar
    if w.state.formations[formation].order == order:
        return variant.rules.ORDER_CHANGES, f"{formation}'s order is already {order}"
    return None


def in_reach(variant: Variant, w: World, chief: str) -> list[str]:
    """The formations whose order `chief` may change now, in id order (`chief_bar`)."""
    return [f for f in sorted(w.state.formations) if chief_bar(variant, w, chief, f) is None]


def changes(variant: Variant, w: World, seat: str) -> list[dict[str, Any]]:
    """The changes `seat`'s chief may make now, as legal() lists them: by formation, then in the orders' order."""
    chief = w.commander_in_chief(seat)
    return [{"type": "change_order", "formation": f, "order": o} for f in in_reach(variant, w, chief)
            for o in ORDERS if chief_order_problem(variant, w, chief, f, o) is None]


def change(a: Act[Any], seat: str, command: Any) -> None:
    """Carry out `seat`'s chief's `change_order` (refused as `chief_order_problem` says), both games' orders step's
    handler: recorded as his (`by`), counted against him where D5 limits him."""
    w, variant, formation, order = a.world(), a.variant, command.formation, command.order
    chief = w.commander_in_chief(seat)
    problem = chief_order_problem(variant, w, chief, formation, order)
    if problem is not None:
        refuse(*problem)
    a.emit(OrderChanged(formation=formation, order=order, by=chief, rule=str(variant.rules.CHIEF_ORDERS),
                        counts_against_chief=variant.chief_changes_limited))
