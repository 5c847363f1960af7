"""Who may declare march column, written once (parabellum/movement.column_problem), run for both variants: §9.3 in both
books ("una unità su strada o strada minore ... può dichiarare"): an order the orders table lets march in column
(caldiero §5.1.1, §5.1.4; arrivano §5.1), a road at the start unless the variant keeps the whole column move to roads
(D38 `column_keeps_to_roads`); entering the map, no start to ask of."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from arbitro.adjudicator.parabellum.movement import column_problem
from arbitro.adjudicator.parabellum.variant import Variant

TABLE = {"advance": True, "attack": False, "defence": False, "manoeuvre": True}


def world(keep_to_roads: str = "as_caldiero") -> Any:
    orders = {o: SimpleNamespace(march_column=m) for o, m in TABLE.items()}
    return SimpleNamespace(orders=SimpleNamespace(orders=orders), order_rules=orders.__getitem__,
                           reading=lambda name: keep_to_roads,
                           hexmap=SimpleNamespace(roads_at=lambda h: ("road",) if h == "0101" else ()))


def test_an_order_that_allows_it_and_a_road_at_the_start(variant: Variant) -> None:
    w = world()
    assert column_problem(variant, w, ["advance"], "0101") is None
    assert column_problem(variant, w, ["attack", "manoeuvre"], "0101") is None  # any order the group may act under
    assert column_problem(variant, w, ["manoeuvre"], "") is None  # entering the map
    refused = column_problem(variant, w, ["attack", "defence"], "0101")
    assert refused is not None and refused[0] == variant.rules.MARCH_COLUMN
    assert "Advance or Manoeuvre" in refused[1] and str(variant.rules.MARCH_COLUMN) in refused[1]
    off_road = column_problem(variant, w, ["advance"], "0202")
    assert off_road is not None and off_road[0] == variant.rules.MARCH_COLUMN and "0202 has none" in off_road[1]


@pytest.mark.parametrize("reading", ["roads_only", "as_caldiero"])
def test_off_the_road_as_d38_reads_it(variant: Variant, reading: str) -> None:
    """Where the whole column move keeps to roads (arrivano's reading `roads_only`) the path's roads say it, not the
    start: the start without a road is then no refusal of its own."""
    w = world(reading)
    keeps = variant.column_keeps_to_roads(w.reading)
    assert (column_problem(variant, w, ["advance"], "0202") is None) is keeps
