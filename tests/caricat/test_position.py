"""Positions (docs/rulesets/caricat.md): a position is checked with every problem reported at once; nothing in
Caricat! is hidden, so both seats are served the same view."""

from __future__ import annotations

import msgspec
import pytest

from arbitro.adjudicator.errors import BadPosition
from arbitro.adjudicator.service import POSITION_FORMAT, Arbitro
from arbitro.events.sqlite import SQLiteStore
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


def test_a_position_whose_header_and_state_name_two_battles_is_refused() -> None:
    """A position file whose header names Pastrengo and whose state is Montebello's is refused naming both (it made a
    game recorded as the header's battle and played on the state's); one naming the state's battle is taken."""
    state = msgspec.to_builtins(RULESET.new_state("montebello", ()))
    position = {"format": POSITION_FORMAT, "ruleset": "caricat", "scenario": "pastrengo", "state": state}
    with pytest.raises(BadPosition, match="named scenario 'pastrengo' and its state is of 'montebello'"):
        Arbitro(SQLiteStore(":memory:")).create("caricat", position=position)
    app = Arbitro(SQLiteStore(":memory:"))
    assert app.state_at(app.create("caricat", position={**position, "scenario": "montebello"})).rules.scenario == \
        "montebello"
