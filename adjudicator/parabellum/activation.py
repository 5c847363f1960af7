"""The activated general's one try to change his formation's order (caldiero §5.2.2, arrivano §5.2.1), written once:
once an activation, by a commander on the map (the formation's general; arrivano §16.2: an independent column's
officer, `Variant.order_giver`), to another order, passing with a die at most his initiative. What else bars it is
each game's to say (`Variant.order_try_barred`: caldiero §17.1.3 the ice storm; arrivano §4.5.5 a lost commander in
chief, reading `cic_loss_scope`), and what passes it without a die (`Variant.order_change_free`: caldiero §20.1.1);
the die is the procedure's (`Act.roll`, worded by the variant). `legal()` lists the tries
`try_problem` allows (`tries`), and `try_order` refuses what it refuses, so a listed try is never refused and a refused
one never listed. The activation's end is recorded here too (`end`)."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.orders import ORDERS
from arbitro.adjudicator.parabellum.sequence import Refusal, refuse
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.events.parabellum import ActivationEnded, OrderChanged, OrderChangeTried


def try_problem(variant: Variant, w: World, seat: str, order: str) -> Refusal | None:
    """Why the activated group's commander may not try to change its order to `order` now, or None: no activation is
    under way (a hand-written position), he already tried in this activation, the variant bars it
    (`order_try_barred`), no commander is on the map to try (caldiero §4.4.5, arrivano §4.5.5; the variant's
    `order_giver`), or the group already has that order."""
    act, rules = w.state.activation, variant.rules
    if act is None:
        return rules.GENERAL_ORDER, (f"no activation is under way at the {w.state.step} step: a general tries when his "
                                     "formation is activated")
    giver, current = variant.order_giver(w, act)
    if act.order_tried:
        return rules.GENERAL_ORDER, f"the general already tried to change the order in this activation ({rules.GENERAL_ORDER})"
    barred = variant.order_try_barred(w, seat)
    if barred is not None:
        return barred
    if giver is None:
        return rules.NO_GENERAL, f"no general on the map to change the order ({rules.NO_GENERAL})"
    if current == order:
        return rules.GENERAL_ORDER, f"the order is already {order}"
    return None


def tries(variant: Variant, w: World, seat: str) -> list[dict[str, Any]]:
    """The tries legal() lists, in the orders' order: those `try_problem` allows."""
    return [{"type": "try_order_change", "order": o} for o in ORDERS if try_problem(variant, w, seat, o) is None]


def try_order(a: Act[Any], seat: str, command: Any) -> None:
    """Carry out the `try_order_change` (both games' handler; refused as `try_problem` says): it passes with a die at
    most the commander's initiative (caldiero §5.2.2, arrivano §5.2.1), or without one where a rule says so, which the
    change then cites (`Variant.order_change_free`: caldiero §20.1.1, Bonaparte's own); the try and, if it passed, the
    change are recorded as the commander's (an independent column's as its `column`'s, arrivano §16.2)."""
    w, variant, order = a.world(), a.variant, command.order
    problem = try_problem(variant, w, seat, order)
    if problem is not None:
        refuse(*problem)
    act, rules = w.state.activation, variant.rules
    assert act is not None
    giver = variant.order_giver(w, act)[0] or ""
    free, value = variant.order_change_free(w, giver), w.leader_initiative(giver)
    what = f"the column of {act.column}" if act.column else act.formation
    succeeded = free is not None or a.roll(f"{rules.GENERAL_ORDER} order change of {what}",
                                           {"table": "initiative", "needs_at_most": value})[0] <= value
    a.emit(OrderChangeTried(formation=act.formation, order=order, succeeded=succeeded, rule=str(rules.GENERAL_ORDER)))
    if succeeded:
        a.emit(OrderChanged(formation=act.formation, order=order, by=giver, column=act.column,
                            rule=str(free or rules.GENERAL_ORDER)))


def end(a: Act[Any], seat: str = "") -> None:
    """The activation's end (caldiero §3.1 B.6, arrivano §3.1 B-6), its column's where an independent column was
    activated (arrivano §16.2, §17.2.9); the initiative follows (Caldiero's automatic row, Arrivano's caller)."""
    act = a.state.activation
    assert act is not None
    a.emit(ActivationEnded(formation=act.formation, column=act.column, rule=str(a.variant.rules.END_ACTIVATION)))
