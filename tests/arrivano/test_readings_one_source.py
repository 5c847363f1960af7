"""rev-g G1 for Arrivano (whose readings were always the state's copy): the reading the game plays is the one its
status lists, whatever a position file's state carries; a ruling's patch on `/interpretations` is refused, naming
the ruling's `interpretation` field. Caldiero: tests/caldiero/test_rev_g.py."""

from __future__ import annotations

from pathlib import Path

from tests.parabellum.readings_one_source import (
    cli_refuses_reading_patch, playing_position_reading, refused_reading_patch,
)

# arrivano's default is after_terrain (caldiero's strength_ratio)
BELOW = {"op": "add", "path": "/interpretations/below_1_5_declared_on", "value": "strength_ratio"}


def test_a_position_s_state_cannot_plant_a_reading_the_status_does_not_list() -> None:
    played, listed, default = playing_position_reading("arrivano", "montebello", "blocked_entry", "no_such_reading")
    assert played == listed == default == "delay"
    played, listed, default = playing_position_reading("arrivano", "montebello", "below_1_5_declared_on",
                                                       "strength_ratio")
    assert played == listed == default == "after_terrain"


def test_a_ruling_s_patch_cannot_set_a_reading_behind_the_status(tmp_path: Path) -> None:
    refused, before, after = refused_reading_patch("arrivano", "montebello", BELOW)
    assert before == after and refused.rule == "arbitro §U.4"
    assert '"interpretation": {"below_1_5_declared_on": "strength_ratio"}' in refused.message
    served = cli_refuses_reading_patch(tmp_path, "arrivano", "montebello", BELOW)
    assert served["rule"] == "arbitro §U.4" and "/interpretations/below_1_5_declared_on" in served["message"]
