"""The orders sub-phase's change (parabellum/chief_orders.py), run for both variants: the listing is exactly what
`change` accepts; a change is recorded as the chief's (`by`), citing the orders sub-phase, counted against him where
D5 limits him (arrivano §4.3; caldiero §4.2 no limit); a refused change is refused with the listing's reason."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.parabellum import chief_orders
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.events.parabellum import OrderChanged
from arbitro.projections.parabellum import FormationState


def _world(general_hex: str = "1010", made: int = 0) -> Any:
    """France's chief "chief" (initiative 2, his range the hexes 1010-1011, `made` changes counted against him) and
    formation f1 under Defence, its general "gen" at `general_hex`."""
    state = SimpleNamespace(formations={"f1": FormationState(side="france", general="gen", order="defence")},
                            chief_changes_made=lambda side: made)
    where = {"chief": "1010", "gen": general_hex}
    return SimpleNamespace(state=state, leader_side=lambda le: "france", leader_on_map=where.get,
                           leader_hex=where.__getitem__, general_on_map=lambda f: "gen", leader_initiative=lambda le: 2,
                           command_reach=lambda le: frozenset({"1010", "1011"}), commander_in_chief=lambda side: "chief")


def _act(variant: Variant, w: Any, events: list[Any]) -> Any:
    """The procedure's context as the change asks it (parabellum/act.Act): the variant, the position, emit."""
    return SimpleNamespace(variant=variant, world=lambda: w, emit=events.append)


def _change(order: str) -> Any:
    """f1's `change_order` to `order`, as the orders step hands it to its handler."""
    return SimpleNamespace(type="change_order", formation="f1", order=order)


def test_a_listed_change_is_recorded_as_the_chiefs(variant: Variant) -> None:
    w, events = _world(), []
    assert [c["order"] for c in chief_orders.changes(variant, w, "france")] == ["advance", "attack", "manoeuvre"]
    chief_orders.change(_act(variant, w, events), "france", _change("attack"))
    assert events == [OrderChanged(formation="f1", order="attack", by="chief", rule=str(variant.rules.CHIEF_ORDERS),
                                   counts_against_chief=variant.chief_changes_limited)]


@pytest.mark.parametrize("general_hex, made", [("1015", 0), ("1010", 2)])
def test_what_is_not_listed_is_refused(variant: Variant, general_hex: str, made: int) -> None:
    w = _world(general_hex, made)
    limited = general_hex == "1010"  # only D5's limit refuses him in range: caldiero lists the change
    assert bool(chief_orders.changes(variant, w, "france")) == (limited and not variant.chief_changes_limited)
    if chief_orders.changes(variant, w, "france"):
        return
    with pytest.raises(IllegalCommand) as refused:
        chief_orders.change(_act(variant, w, []), "france", _change("attack"))
    rule, words = chief_orders.chief_order_problem(variant, w, "chief", "f1", "attack")  # type: ignore[misc]
    assert (refused.value.rule, refused.value.message) == (str(rule), words)
