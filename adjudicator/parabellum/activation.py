"""The activated general's one try to change his formation's order (caldiero §5.2.2, arrivano §5.2.1), written once:
once an activation, by a commander on the map (the formation's general; arrivano §16.2: an independent column's
officer), to another order, passing with a die at most his initiative. What else bars it is each game's to say
(caldiero §17.1.3: the ice storm; arrivano §4.5.5: a lost commander in chief, reading `cic_loss_scope`), and each
game rolls the die (its own roll, `roll_words` its record) and records the try with `record_try`. `legal()` lists the
orders `order_change_problem` allows, so a listed try is never refused and a refused one never listed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbitro.adjudicator.parabellum.orders import ORDERS
from arbitro.adjudicator.parabellum.rules import Rulebook
from arbitro.adjudicator.ruleset import Rule
from arbitro.events.parabellum import OrderChanged, OrderChangeTried

Refusal = tuple[Rule, str]


def order_change_problem(rules: Rulebook, order: str, *, tried: bool, giver: str | None, current: str | None,
                         barred: Refusal | None = None) -> Refusal | None:
    """Why the activated group may not try to change its order to `order` now, or None: its commander already
    tried in this activation (`tried`), the game bars it (`barred`), no commander is on the map to try (`giver`
    None: caldiero §4.4.5, arrivano §4.5.5), or the group already has that order (`current`)."""
    if tried:
        return rules.GENERAL_ORDER, f"the general already tried to change the order in this activation ({rules.GENERAL_ORDER})"
    if barred is not None:
        return barred
    if giver is None:
        return rules.NO_GENERAL, f"no general on the map to change the order ({rules.NO_GENERAL})"
    if current == order:
        return rules.GENERAL_ORDER, f"the order is already {order}"
    return None


def order_changes(rules: Rulebook, *, tried: bool, giver: str | None, current: str | None,
                  barred: Refusal | None = None) -> list[str]:
    """The orders the activated group's commander may try to change to now, in order (`order_change_problem`)."""
    return [o for o in ORDERS if order_change_problem(rules, o, tried=tried, giver=giver, current=current,
                                                      barred=barred) is None]


def passes(die: int, initiative: int) -> bool:
    """The try succeeds with a die at most the commander's initiative (caldiero §5.2.2, arrivano §5.2.1)."""
    return die <= initiative


def roll_words(rules: Rulebook, what: str, initiative: int) -> tuple[str, dict[str, str | int]]:
    """The purpose and detail a try's die is recorded with (`what`: whose order changes, "massena", "the column of
    franceschi"): the commander's initiative is the most it may show."""
    return f"{rules.GENERAL_ORDER} order change of {what}", {"table": "initiative", "needs_at_most": initiative}


def record_try(emit: Callable[[Any], None], rules: Rulebook, formation: str, order: str, *, succeeded: bool, by: str,
               column: str | None = None, rule: Rule | None = None) -> None:
    """The try and, when it `succeeded`, the change it makes (`by`: who changed it; `column`: an independent
    column's order instead of the formation's, arrivano §16.2; `rule`: what the change cites when another rule made
    it pass, caldiero §20.1.1 Bonaparte's, else the try's)."""
    emit(OrderChangeTried(formation=formation, order=order, succeeded=succeeded, rule=str(rules.GENERAL_ORDER)))
    if succeeded:
        emit(OrderChanged(formation=formation, order=order, by=by, column=column, rule=str(rule or rules.GENERAL_ORDER)))
