"""rev-g G1: the reading a Caldiero procedure plays (parabellum/act.Act.reading, since 4c29b87 the state's copy of the
rulings) must be the one the game's status reports (the core's rulings), where a position file's state carries its
own `interpretations` (even one that is no reading at all: such a position is refused), and where a ruling's patch writes `/interpretations`
(refused: the ruling's `interpretation` field sets a reading). Arrivano: tests/arrivano/test_readings_one_source.py."""

from __future__ import annotations

from pathlib import Path

from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore

from tests.parabellum.readings_one_source import (
    cli_refuses_reading_patch, folded_reading_patch, planting_position_reading, position_reading, refused_reading_patch,
)

BELOW = {"op": "add", "path": "/interpretations/below_1_5_declared_on", "value": "after_terrain"}


def test_a_position_s_state_cannot_plant_a_reading_the_status_does_not_list() -> None:
    # Act.reading reads the state's copy (interpretation_in_force(ruleset, ctx.state.interpretations, name)), as
    # legal() does; 'no_such_reading' is not one of reroll|french: the position is refused as no such reading
    refused = planting_position_reading("caldiero", "historical", "initiative_tie", "no_such_reading")
    assert str(refused).startswith("state.interpretations.initiative_tie: no such reading 'no_such_reading'")  # ux15
    refused = planting_position_reading("caldiero", "historical", "below_1_5_declared_on", "after_terrain")
    assert 'state.interpretations is {"below_1_5_declared_on":"after_terrain"}, not the readings in force {}' in str(refused)
    assert position_reading("caldiero", "historical", "below_1_5_declared_on", "after_terrain", "same") == (
        "after_terrain", "after_terrain", {"below_1_5_declared_on": "after_terrain"})


def test_a_ruling_s_patch_cannot_set_a_reading_behind_the_status() -> None:
    """A ruling's patch would write the state's copy of the readings (what Act.reading and legal() read), not the
    core's (what `status` lists): refused, naming the ruling that sets the reading, nothing stored."""
    refused, before, after = refused_reading_patch("caldiero", "historical", BELOW)
    assert before == after and refused.rule == "arbitro §U.4"
    assert "/interpretations/below_1_5_declared_on" in refused.message
    assert '"interpretation": {"below_1_5_declared_on": "after_terrain"}' in refused.message
    whole, _, _ = refused_reading_patch("caldiero", "historical",
                                        {"op": "replace", "path": "/interpretations", "value": {}})
    assert '"interpretation": {"NAME": "READING"}' in whole.message
    removed, _, _ = refused_reading_patch("caldiero", "historical",
                                          {"op": "remove", "path": "/interpretations/initiative_tie"})
    assert '"interpretation": {"initiative_tie": "reroll"}' in removed.message  # the book's reading back


def test_the_cli_refuses_it_with_the_refused_status(tmp_path: Path) -> None:
    refused = cli_refuses_reading_patch(tmp_path, "caldiero", "historical", BELOW)
    assert refused["rule"] == "arbitro §U.4" and "interpretation" in refused["message"]


def test_a_ruling_s_interpretation_still_sets_it() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("caldiero", "historical")
    app.submit(game, "umpire", {"type": "ruling", "reason": "the club's reading",
                                "interpretation": {"below_1_5_declared_on": "after_terrain"}})
    assert app.state_at(game).rules.interpretations == app.status(game).interpretations == {
        "below_1_5_declared_on": "after_terrain"}


def test_a_stored_ruling_s_patch_leaves_the_readings_the_core_s() -> None:
    """g1fix's belt and braces: the fold makes the state's copy the core's again after every ruling."""
    assert folded_reading_patch("caldiero", "historical", BELOW) == ({}, {})
