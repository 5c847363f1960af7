"""Positions (docs/rulesets/caricat.md): a position is checked with every problem reported at once; nothing in
Caricat! is hidden, so both seats are served the same view."""

from __future__ import annotations

from tests.caricat.harness import RULESET, position


def test_a_position_reports_every_problem_at_once():
    state = position(units={"savoia1": "1011", "savoia2": "1011", "kinsky1": "9999"})
    state.leaders["broglia"].level = "charge"
    state.units["kinsky2"].hits = 7
    state.units["kinsky1"].where = "map"
    problems = RULESET.validate_position(state)
    assert any("kinsky1" in p and "9999" in p for p in problems)
    assert any("1011 holds savoia1 and savoia2" in p and "caricat §5" in p for p in problems)
    assert any("broglia" in p and "charge" in p for p in problems)
    assert any("kinsky2" in p and "hits 7" in p for p in problems)


def test_the_scenarios_set_ups_are_valid_positions():
    for scenario in ("pastrengo", "montebello"):
        assert RULESET.validate_position(RULESET.new_state(scenario, ())) == []


def test_both_seats_see_the_whole_position():
    state = RULESET.new_state("pastrengo", ("taxis",))
    assert RULESET.view(state, "italian") == RULESET.view(state, "austrian") == RULESET.view(state, "umpire")
    assert RULESET.secrets(state, "italian") == set()
