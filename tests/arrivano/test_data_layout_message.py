"""`DataFolder.moved`, Caldiero's old-flat-layout refusal, once ran for
Arrivano, whose layout never changed: a stray root-level file is refused as "the data folder's layout changed: move
it to <scenario>/map.json" (a literal placeholder), and every other problem of the folder is hidden behind it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arbitro.adjudicator.arrivano.data_model import ARRIVANO_DATA
from arbitro.adjudicator.datafiles import DataError


def test_an_arrivano_folder_is_not_told_its_layout_changed_and_keeps_its_other_problems(tmp_path: Path) -> None:
    shutil.copytree(ARRIVANO_DATA.folder, tmp_path, dirs_exist_ok=True)
    shutil.copy(tmp_path / "montebello" / "map.json", tmp_path / "map.json")  # a stray copy at the root
    oob = tmp_path / "montebello" / "oob.json"
    raw = json.loads(oob.read_text())
    raw["units"][0]["arm"] = "dragoons"  # a real problem, which the user must also be told
    oob.write_text(json.dumps(raw))
    with pytest.raises(DataError) as caught:
        ARRIVANO_DATA.read_folder(tmp_path)
    text = str(caught.value)
    assert "<scenario>" not in text, text
    assert "montebello/oob.json" in text, text
