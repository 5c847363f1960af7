"""The activated general's one try to change his order (parabellum/activation.py), run for both variants: once an
activation, a commander on the map, another order, a die at most his initiative (caldiero §5.2.2, arrivano
§5.2.1); a formation without its general cannot try (caldiero §4.4.5, arrivano §4.5.5); what a game bars besides
comes through; the listing is exactly the orders the refusals allow."""

from __future__ import annotations

from arbitro.adjudicator.parabellum import activation
from arbitro.adjudicator.parabellum.orders import ORDERS
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.ruleset import Rule

SECTIONS = {"caldiero": ("5.2.2", "4.4.5"), "arrivano": ("5.2.1", "4.5.5")}


def test_a_general_on_the_map_may_try_any_other_order(variant: Variant) -> None:
    assert activation.order_changes(variant.rules, tried=False, giver="gen", current="defence") == \
        ["advance", "attack", "manoeuvre"]
    assert activation.order_change_problem(variant.rules, "attack", tried=False, giver="gen", current="defence") is None


def test_the_refusals_cite_each_book(variant: Variant) -> None:
    order_rule, no_general = SECTIONS[variant.book]
    tried = activation.order_change_problem(variant.rules, "attack", tried=True, giver="gen", current="defence")
    assert tried is not None and tried[0].section == order_rule and "already tried" in tried[1]
    alone = activation.order_change_problem(variant.rules, "attack", tried=False, giver=None, current="defence")
    assert alone is not None and alone[0].section == no_general
    same = activation.order_change_problem(variant.rules, "defence", tried=False, giver="gen", current="defence")
    assert same is not None and same[0].section == order_rule and "already defence" in same[1]
    assert activation.order_changes(variant.rules, tried=True, giver="gen", current="defence") == []
    assert activation.order_changes(variant.rules, tried=False, giver=None, current=None) == []


def test_what_a_game_bars_comes_first_and_empties_the_listing(variant: Variant) -> None:
    barred = (Rule(variant.book, "99.9", "a game's own bar"), "barred here")
    assert activation.order_change_problem(variant.rules, "attack", tried=False, giver=None, current="defence",
                                           barred=barred) == barred
    assert activation.order_changes(variant.rules, tried=False, giver="gen", current="defence", barred=barred) == []


def test_the_die_passes_at_most_the_initiative() -> None:
    assert [d for d in range(1, 7) if activation.passes(d, 3)] == [1, 2, 3]
    assert set(ORDERS) == {"advance", "attack", "defence", "manoeuvre"}
