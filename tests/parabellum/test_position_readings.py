"""ux15 (rev-j R-j-6): a position's refusals about readings say where and what. (a) `arbitro new --position FILE`
names FILE; (c) a state copy naming a reading the ruleset does not know says "no such reading" first (the top level's
words), not "move it to the top level", which would only lead to that second refusal; (d) a state copy naming only
readings in force (some of them, or a default spelt out) plants nothing and is accepted, the genesis storing the
readings in force (creation.readings_as_written). Both Para Bellum games, each with a reading of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.creation import genesis
from arbitro.adjudicator.errors import BadPosition
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from tests.parabellum.readings_one_source import cli_refuses_planted_reading, planting_position_reading

GAMES = [("arrivano", "montebello", "strength_ratio"), ("caldiero", "historical", "after_terrain")]
BELOW = "below_1_5_declared_on"  # the other reading of each game's default


@pytest.mark.parametrize("ruleset, scenario, other", GAMES)
def test_an_unknown_reading_in_the_state_is_refused_as_unknown(ruleset: str, scenario: str, other: str) -> None:
    said = str(planting_position_reading(ruleset, scenario, "no_such_reading_name", "x"))
    assert said == (f"state.interpretations.no_such_reading_name: no such reading 'x' ({ruleset} has no reading named "
                    f"no_such_reading_name; `arbitro interpretations {ruleset}` lists them)"), said
    said = str(planting_position_reading(ruleset, scenario, BELOW[:-3], "x"))  # a name mistyped: the nearest named
    assert f"no reading named {BELOW[:-3]}; did you mean {BELOW}?" in said, said
    said = str(planting_position_reading(ruleset, scenario, BELOW, "no_such_reading"))
    assert said == (f"state.interpretations.{BELOW}: no such reading 'no_such_reading' ({BELOW}: "
                    f"{'|'.join(registry.get(ruleset).interpretations()[BELOW].choices)})"), said


@pytest.mark.parametrize("ruleset, scenario, other", GAMES)
def test_a_state_copy_naming_only_readings_in_force_is_accepted(ruleset: str, scenario: str, other: str) -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    known = registry.get(ruleset).interpretations()
    tie = next(n for n in sorted(known) if n != BELOW)  # a reading left at its default
    position = app.position(app.create(ruleset, scenario), seat="umpire")
    position["interpretations"] = {BELOW: other}
    for copy in ({}, {BELOW: other}, {tie: known[tie].default}, {BELOW: other, tie: known[tie].default}):
        position["state"]["interpretations"] = copy
        game = app.create(ruleset, position=position)
        assert app.status(game).interpretations == app.state_at(game).rules.interpretations == {BELOW: other}
        stored = genesis(registry.get(ruleset), "00" * 32, salt_key="00" * 32, position=position).initial["interpretations"]
        assert stored == {BELOW: other}, (copy, stored)
    position["state"]["interpretations"] = {BELOW: known[BELOW].default}  # the default, not the reading in force
    with pytest.raises(BadPosition, match="not the readings in force"):
        app.create(ruleset, position=position)


def test_the_cli_names_the_position_file(tmp_path: Path) -> None:
    said = cli_refuses_planted_reading(tmp_path, "arrivano", "montebello", BELOW, "strength_ratio")
    named = tmp_path / "planted.json"
    assert f"error (input/bad-position): position file {named}: state.interpretations is" in said, said
