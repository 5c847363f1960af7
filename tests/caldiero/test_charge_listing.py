"""A movement listing asks caldiero §20.2's charge of the groups that may charge alone (issue 15): every end of every
group asked it before, though a group with one unit not a charging cavalry unit (its counter) never charges."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.caldiero import legal
from arbitro.adjudicator.caldiero.scenario_rules import chargers
from tests.parabellum.test_move_search_parts import movement_positions


def test_a_listing_asks_the_charge_only_of_groups_that_may_charge(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset, positions = movement_positions("caldiero-tempo-regge.jsonl", 6)
    asked: list[tuple[object, tuple[str, ...]]] = []
    charge_problem = legal.charge_problem
    monkeypatch.setattr(legal, "charge_problem", lambda w, g, *a: asked.append((w, g)) or charge_problem(w, g, *a))
    listed = 0
    for rules in positions:
        w = ruleset.world(rules)
        assert w.option("cavalry_charges")
        for cmd in legal._move_commands(w, w.state.seat):
            listed += 1
            if cmd["charge"]:  # listed only where the charge's own check finds nothing against it
                assert chargers(w, tuple(cmd["units"]))
    assert listed > 100
    assert asked and all(chargers(w, g) for w, g in asked)  # before: every end of every group, cavalry or not
