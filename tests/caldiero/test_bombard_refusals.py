"""Caldiero's bombardment (caldiero §11.4): the refusals no test reached (coverage of tests/parabellum, caldiero and
arrivano, twenty-first session), each with its words and citation: a gun of another formation than the active one
(§3.1 B), one off the map (§11.4), a routed one (§15.2)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from arbitro.projections.caldiero import CaldieroState
from tests.caldiero.harness import activate, position

GUN = "fr-massena-iv-8pdr"


def off_the_map(s: CaldieroState) -> None:
    s.units[GUN].where, s.units[GUN].hex = "offmap", ""


def routed(s: CaldieroState) -> None:
    s.units[GUN].status = "routed"


@pytest.mark.parametrize("gun, made, rule, words", [
    ("fr-augereau-v-8pdr", None, "caldiero §3.1 B", "fr-augereau-v-8pdr is not in the active formation"),
    (GUN, off_the_map, "caldiero §11.4", f"{GUN} is not on the map"),
    (GUN, routed, "caldiero §15.2", f"{GUN} is routed"),
])
def test_a_gun_that_may_not_bombard_is_refused_by_its_rule(gun: str, made: Callable[[CaldieroState], None] | None,
                                                           rule: str, words: str) -> None:
    s = position({GUN: "1417", "fr-augereau-v-8pdr": "1416", "fr-18-ligne": "1317", "au-colloredo": "1617"},
                 leaders={"massena": "1318"}, orders={"massena": "defence"})
    if made is not None:
        made(s)
    t = activate(s, "massena", step="bombardment")
    assert str(t.refuse("france", {"type": "bombard", "artillery": [gun], "target": "1617"}, rule)).startswith(words)
