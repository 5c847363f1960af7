"""The activated general's one try to change his order (parabellum/activation.py), run for both variants: once an
activation, a commander on the map, another order, a die at most his initiative (caldiero §5.2.2, arrivano
§5.2.1); a formation without its general cannot try (caldiero §4.4.5, arrivano §4.5.5); what a game bars besides
comes through; the listing is exactly the orders the refusals allow, on a position of each game (`tries` and
`try_order`, with each variant's commander and bar: caldiero §17.1.3's ice storm, arrivano §4.5.5's lost chief)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.caldiero.loader import BATTLE, CALDIERO_DATA
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import activation
from arbitro.adjudicator.parabellum.orders import ORDERS
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.ruleset import Rule
from arbitro.events.parabellum import OrderChanged, OrderChangeTried
from arbitro.projections.parabellum import Activation, FormationState

SECTIONS = {"caldiero": ("5.2.2", "4.4.5"), "arrivano": ("5.2.1", "4.5.5")}


def test_the_refusals_cite_each_book(variant: Variant) -> None:
    order_rule, no_general = SECTIONS[variant.book]
    assert activation.try_problem(variant, _world(), "france", "attack") is None
    tried = activation.try_problem(variant, _world(tried=True), "france", "attack")
    assert tried is not None and tried[0].section == order_rule and "already tried" in tried[1]
    alone = _world()
    alone.general_on_map = lambda f: None
    found = activation.try_problem(variant, alone, "france", "attack")
    assert found is not None and found[0].section == no_general
    same = activation.try_problem(variant, _world(), "france", "defence")
    assert same is not None and same[0].section == order_rule and "already defence" in same[1]


def test_what_a_game_bars_comes_first_and_empties_the_listing(variant: Variant) -> None:
    barred = (Rule(variant.book, "99.9", "a game's own bar"), "barred here")
    alone = _world()
    alone.general_on_map = lambda f: None

    class Barring(type(variant)):  # type: ignore[misc]
        def order_try_barred(self, w: Any, seat: str) -> tuple[Rule, str] | None:
            return barred

    assert activation.try_problem(Barring(), alone, "france", "attack") == barred
    assert activation.tries(Barring(), _world(), "france") == []
    assert set(ORDERS) == {"advance", "attack", "defence", "manoeuvre"}

CALDIERO_WEATHER = CALDIERO_DATA.shipped().scenarios[BATTLE].weather


def _world(tried: bool = False, weather: int = 0, chief: str = "map") -> Any:
    """A position of either game with formation f1 activated, its general "gen" (initiative 3) on the map."""
    state = SimpleNamespace(activation=Activation(formation="f1", order_tried=tried), weather=weather, columns={},
                            formations={"f1": FormationState(side="france", general="gen", order="defence")},
                            leaders={"chief": SimpleNamespace(where=chief)})
    return SimpleNamespace(state=state, general_on_map=lambda f: "gen", leader_initiative=lambda le: 3,
                           weather_box=lambda: CALDIERO_WEATHER.in_force(weather),  # caldiero's track (§17.1.3: box 3)
                           leader_role=lambda le: "general",
                           commander_in_chief=lambda side: "chief", reading=lambda name: "all_changes")


def _act(variant: Variant, w: Any, events: list[Any], die: Any) -> Any:
    """The procedure's context as the try asks it (parabellum/act.Act): the variant, the position, emit, one die."""
    return SimpleNamespace(variant=variant, world=lambda: w, emit=events.append,
                           roll=lambda purpose, detail: (die(purpose, detail),))


@pytest.mark.parametrize("die, passed", [(3, True), (4, False)])
def test_the_try_is_listed_rolled_and_recorded(variant: Variant, die: int, passed: bool) -> None:
    w, events, asked = _world(), [], []
    assert activation.tries(variant, w, "france") == [{"type": "try_order_change", "order": o}
                                                       for o in ("advance", "attack", "manoeuvre")]
    activation.try_order(_act(variant, w, events, lambda purpose, detail: asked.append(detail) or die), "france",
                         _try("attack"))
    assert asked == [{"table": "initiative", "needs_at_most": 3}]
    assert [type(e) for e in events] == [OrderChangeTried, *([OrderChanged] if passed else [])]
    assert events[0].succeeded is passed and (not passed or events[1].by == "gen")


def test_what_is_not_listed_is_refused_with_the_same_words(variant: Variant) -> None:
    bars = {"caldiero": _world(weather=3), "arrivano": _world(chief="lost")}  # §17.1.3 / §4.5.5
    for w in (_world(tried=True), bars[variant.book]):
        assert activation.tries(variant, w, "france") == []
        with pytest.raises(IllegalCommand) as refused:
            activation.try_order(_act(variant, w, [], lambda p, d: 1), "france", _try("attack"))
        rule, words = activation.try_problem(variant, w, "france", "attack")  # type: ignore[misc]
        assert (refused.value.rule, refused.value.message) == (str(rule), words)


def test_a_rule_may_pass_it_without_a_die(variant: Variant) -> None:
    events: list[Any] = []
    free = Rule(variant.book, "20.1", "a rule that makes it pass")

    class Freeing(type(variant)):  # type: ignore[misc]
        def order_change_free(self, w: Any, giver: str) -> Rule | None:
            return free if giver == "gen" else None

    activation.try_order(_act(Freeing(), _world(), events, lambda p, d: 6), "france", _try("attack"))
    assert events[-1].rule == str(free) and events[0].succeeded


def test_caldiero_bonaparte_tries_without_a_die() -> None:
    """caldiero §20.1.1: a commander in chief commanding a formation changes its order without a die."""
    w = _world()
    w.leader_role = lambda le: "commander_in_chief"
    events: list[Any] = []
    activation.try_order(_act(CALDIERO_VARIANT, w, events, lambda p, d: 6), "france", _try("attack"))
    assert events[-1].rule == "caldiero §20.1" and events[0].succeeded
    w.leader_role = lambda le: "general"
    assert CALDIERO_VARIANT.order_change_free(w, "gen") is None


def _try(order: str) -> Any:
    """A `try_order_change` to `order`, as the step hands it to its handler."""
    return SimpleNamespace(type="try_order_change", order=order)
