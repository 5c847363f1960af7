"""The advance after combat (parabellum/advance.py), run for both variants: one unit alone (§12.7.2 in both), or any
choice of two or more of a stack whose general stands with it (§12.7.3 in both, issue 19 defect 3)."""

from __future__ import annotations

from arbitro.adjudicator.parabellum import advance
from arbitro.adjudicator.parabellum.variant import Variant

HEX = {"a": "1612", "b": "1612", "c": "1612", "d": "1613"}


def test_one_unit_alone_or_any_two_or_more_with_their_general(variant: Variant) -> None:
    found = advance.groups(["a", "b", "c", "d"], HEX.__getitem__, lambda u: HEX[u] == "1612")
    assert found == [("a",), ("a", "b", "c"), ("a", "b"), ("a", "c"), ("b", "c"), ("b",), ("c",), ("d",)]


def test_without_their_general_units_advance_one_at_a_time(variant: Variant) -> None:
    assert advance.groups(["a", "b"], HEX.__getitem__, lambda u: False) == [("a",), ("b",)]


def test_only_groups_that_fit_where_they_go(variant: Variant) -> None:
    """Stacking (§7.1 in both) where they would end: a group that does not fit is not offered."""
    found = advance.groups(["a", "b", "c"], HEX.__getitem__, lambda u: True, fits=lambda g: len(g) <= 2)
    assert found == [("a",), ("a", "b"), ("a", "c"), ("b", "c"), ("b",), ("c",)]
