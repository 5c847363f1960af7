"""Caldiero's movement tables (data/movement.json, movement_3.json) in a user's data folder (`arbitro new caldiero
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
    for name in ("tables/movement.json", "caldiero/movement_3.json"):
        table = json.loads((tmp_path / name).read_text())
        table["unit_classes"] = ["fanteria"]  # every cost is "default": the map kit's own checks pass
        (tmp_path / name).write_text(json.dumps(table))
    with pytest.raises(DataError) as e:
        CALDIERO_DATA.load(tmp_path)  # before: loaded, then the first legal() raised ValueError("unknown unit class 'unit'")
    text = str(e.value)
    for name in ("tables/movement.json", "caldiero/movement_3.json"):
        assert f"{name}: $.unit_classes: does not declare 'unit'" in text
