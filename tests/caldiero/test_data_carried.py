"""A stored game that carries its own data folder (`arbitro new caldiero
historical --data DIR`, made before the layout change) must still be verifiable: verify reports its failed checks,
it does not stop with a data error telling the auditor to move files that exist only inside the game's genesis.

The fixture is a real export made with main at e9ba9c3 (before 6e9f5d3): `arbitro new caldiero historical --data
<the then shipped flat folder> --id cold --no-seat-entropy`, one `place` submitted, `arbitro export cold`."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from arbitro.adjudicator.caldiero.loader import CALDIERO_DATA
from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.exchange import read_lines
from arbitro.adjudicator.verify import verify

FIXTURE = Path(__file__).parent / "fixtures" / "caldiero-flat-data-e9ba9c3.jsonl.gz"


def test_a_log_carrying_a_folder_in_the_old_flat_layout_is_verified_not_refused() -> None:
    lines = gzip.decompress(FIXTURE.read_bytes()).decode("utf-8").splitlines()
    report = verify(read_lines(lines, FIXTURE.name))  # on main: raises DataError ("move it to tables/crt.json")
    assert not report.passed
    assert any(c.status == "failed" for c in report.checks)


def test_a_box_s_missing_movement_table_is_named_where_the_box_names_it(tmp_path: Path) -> None:
    """A user who follows the layout message ("movement_3.json: move it to caldiero/movement_3.json") keeps box 3's
    `"movement_table": "movement_3.json"`; the refusal must name the entry to edit (caldiero/weather.json,
    $.boxes[3].movement_table), not only a bare 'movement_3.json: $: file not found' for a file the user just moved."""
    shutil.copytree(CALDIERO_DATA.folder, tmp_path, dirs_exist_ok=True)
    weather = tmp_path / "caldiero" / "weather.json"
    raw = json.loads(weather.read_text())
    raw["boxes"][3]["movement_table"] = "movement_3.json"  # as the old flat folder had it
    weather.write_text(json.dumps(raw))
    with pytest.raises(DataError) as caught:
        CALDIERO_DATA.load(tmp_path)
    assert any(p.file == "caldiero/weather.json" and "movement_table" in p.path for p in caught.value.problems), \
        caught.value.problems


def test_a_box_s_movement_table_outside_the_folder_is_refused(tmp_path: Path) -> None:
    """A game carries its folder's files and hashes them (data_hash); a weather box's `movement_table` is joined to
    the folder unchecked (loader.load_movement_by_box: `data_dir / name`), so an absolute or '..' path reads a file
    the game does not carry: its moves then depend on a file outside the game, and verify's data check still passes
    when that file changes. (Pre-existing; 6e9f5d3 removed Arrivano's other such paths, map/oob/weather.)"""
    folder, outside = tmp_path / "mine", tmp_path / "outside.json"
    shutil.copytree(CALDIERO_DATA.folder, folder)
    shutil.copy(folder / "tables" / "movement.json", outside)
    weather = folder / "caldiero" / "weather.json"
    raw = json.loads(weather.read_text())
    raw["boxes"][3]["movement_table"] = str(outside)
    weather.write_text(json.dumps(raw))
    with pytest.raises(DataError) as caught:  # the game would not carry it: refused where the box names it
        CALDIERO_DATA.read_folder(folder)
    assert [(p.file, p.path) for p in caught.value.problems] == [("caldiero/weather.json", "$.boxes[3].movement_table")]
