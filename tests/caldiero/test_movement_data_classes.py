"""Caldiero's movement table (tables/movement.json) in a user's data folder (`arbitro new caldiero
historical --data DIR`, checked whole) must declare the unit class the rules price every move with (loader.UNIT_CLASS):
refused at load, naming the file and the field, not accepted and then crashing at the first move (rev-move's finding)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arbitro.adjudicator.caldiero.loader import CALDIERO_DATA
from arbitro.adjudicator.datafiles import DataError


def test_a_movement_table_without_caldiero_s_unit_class_is_refused_at_load(tmp_path: Path) -> None:
    shutil.copytree(CALDIERO_DATA.folder, tmp_path, dirs_exist_ok=True)
    path = tmp_path / "tables" / "movement.json"
    table = json.loads(path.read_text())
    table["unit_classes"] = ["fanteria"]  # every cost is "default": the map kit's own checks pass
    path.write_text(json.dumps(table))
    with pytest.raises(DataError) as e:
        CALDIERO_DATA.load(tmp_path)  # before: loaded, then the first legal() raised ValueError("unknown unit class 'unit'")
    assert "tables/movement.json: $.unit_classes: does not declare 'unit'" in str(e.value)


def test_a_weather_box_scaling_an_unknown_road_is_refused_at_load(tmp_path: Path) -> None:
    """caldiero §17.1.3 as data: the ice storm weighs the minor road too (box 3's `scaled_roads`); a road the movement
    table does not have is named, not ignored."""
    shutil.copytree(CALDIERO_DATA.folder, tmp_path, dirs_exist_ok=True)
    path = tmp_path / "caldiero" / "weather.json"
    weather = json.loads(path.read_text())
    weather["boxes"][3]["scaled_roads"] = ["strada_minore", "mulattiera"]
    path.write_text(json.dumps(weather))
    with pytest.raises(DataError) as e:
        CALDIERO_DATA.load(tmp_path)
    assert "tables/movement.json: $.roads: no road 'mulattiera' (weather box 3's scaled_roads)" in str(e.value)
