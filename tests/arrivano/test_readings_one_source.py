"""rev-g G1 for Arrivano (whose readings were always the state's copy): the reading the game plays is the one its
status lists; a position file whose state names readings other than its top level's is refused; a ruling's patch on `/interpretations` is refused, naming
the ruling's `interpretation` field. Caldiero: tests/caldiero/test_rev_g.py."""

from __future__ import annotations

from pathlib import Path

from tests.parabellum.readings_one_source import (
    cli_refuses_planted_reading, cli_refuses_reading_patch, folded_reading_patch, planting_position_reading, position_reading,
    refused_reading_patch,
)

# arrivano's default is after_terrain (caldiero's strength_ratio)
BELOW = {"op": "add", "path": "/interpretations/below_1_5_declared_on", "value": "strength_ratio"}


def test_a_position_s_state_cannot_plant_a_reading_the_status_does_not_list(tmp_path: Path) -> None:
    refused = planting_position_reading("arrivano", "montebello", "blocked_entry", "no_such_reading")
    assert str(refused).startswith("state.interpretations.blocked_entry: no such reading 'no_such_reading'")  # ux15
    refused = planting_position_reading("arrivano", "montebello", "below_1_5_declared_on", "strength_ratio")
    assert str(refused) == ('state.interpretations is {"below_1_5_declared_on":"strength_ratio"}, not the readings in '
                            'force {}: a reading is chosen by the position\'s top-level "interpretations" (or an '
                            'umpire\'s ruling); leave state.interpretations out or name only readings in force')
    assert "state.interpretations" in cli_refuses_planted_reading(tmp_path, "arrivano", "montebello", "blocked_entry",
                                                                  "no_such_reading")


def test_a_position_s_reading_is_in_force_and_stored_as_in_force() -> None:
    """The top level's reading plays, is listed, and is what the genesis stores, the state's copy naming it, empty
    (as a fresh game's state is written) or left out."""
    for copy in ("same", "empty", "out"):
        assert position_reading("arrivano", "montebello", "below_1_5_declared_on", "strength_ratio", copy) == (
            "strength_ratio", "strength_ratio", {"below_1_5_declared_on": "strength_ratio"})


def test_a_ruling_s_patch_cannot_set_a_reading_behind_the_status(tmp_path: Path) -> None:
    refused, before, after = refused_reading_patch("arrivano", "montebello", BELOW)
    assert before == after and refused.rule == "arbitro §U.4"
    assert '"interpretation": {"below_1_5_declared_on": "strength_ratio"}' in refused.message
    served = cli_refuses_reading_patch(tmp_path, "arrivano", "montebello", BELOW)
    assert served["rule"] == "arbitro §U.4" and "/interpretations/below_1_5_declared_on" in served["message"]


def test_a_stored_ruling_s_patch_leaves_the_readings_the_core_s() -> None:
    """g1fix's belt and braces: the fold makes the state's copy the core's again after every ruling."""
    assert folded_reading_patch("arrivano", "montebello", BELOW) == ({}, {})
