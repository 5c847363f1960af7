"""The orders table (D6, tables/orders.json in both games) as the build plays it: the movement obligations are played
by the order's name (§5.1.1 Advance half nearer, §5.1.2 Attack every unit toward the nearest enemy, in both books:
parabellum/orders.py and each game's moves), so the table's `movement_obligation` accepts those values alone: a
folder giving another was played as if it gave them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arbitro.adjudicator.arrivano.data_model import ARRIVANO_DATA
from arbitro.adjudicator.datafiles import DataError


@pytest.mark.parametrize(("order", "value"), [("attack", "half_closer"), ("defence", "half_closer"), ("advance", None)])
def test_a_movement_obligation_the_build_does_not_play_is_refused(tmp_path: Path, order: str, value: str | None) -> None:
    shutil.copytree(ARRIVANO_DATA.folder, tmp_path, dirs_exist_ok=True)
    file = tmp_path / "tables" / "orders.json"
    raw = json.loads(file.read_text(encoding="utf-8"))
    raw["orders"][order]["movement_obligation"] = value
    file.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        ARRIVANO_DATA.load(tmp_path)
    assert [(p.file, p.path) for p in caught.value.problems] == [
        ("tables/orders.json", f"$.orders.{order}.movement_obligation")], caught.value.problems
