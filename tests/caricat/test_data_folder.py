"""A user's own data folder (issue 19 points 14-15): `arbitro new caricat SCENARIO --data DIR` plays on it the way the
shipped data are played, checked whole (every problem of every file at once), carried and hashed by the game, and
cached by content hash, so that two games on different data in one process never share an answer."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arbitro.adjudicator import registry
from arbitro.adjudicator.caricat.loader import DATA, FILES, read_folder
from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.service import Arbitro
from arbitro.cli import cli
from arbitro.events.sqlite import SQLiteStore
from tests.caricat.conformance.cases import CASES
from tests.caricat.conformance.kit import Played, Step, position_of

VILLAGE_FIRE = next(c for c in CASES if c.title.startswith("Terrain takes a die"))  # fire at a unit in Colà


def _folder(tmp_path: Path, village_fire_dice: int | None = None) -> Path:
    """The shipped data as a user's folder; optionally a terrain effects table where a village takes more dice."""
    folder = tmp_path / "my-caricat"
    shutil.copytree(DATA, folder)
    if village_fire_dice is not None:
        terrain = json.loads((folder / "terrain.json").read_text(encoding="utf-8"))
        terrain["combat"]["terrain"]["villaggio"]["fire_dice"] = village_fire_dice
        (folder / "terrain.json").write_text(json.dumps(terrain, ensure_ascii=False), encoding="utf-8")
    return folder


def _fire_at_cola(app: Arbitro, data: dict[str, str] | None, dice: tuple[int, ...]) -> tuple[Played, list[Any]]:
    g = Played(app, app.create("caricat", position=position_of(VILLAGE_FIRE), data=data, transcribed=True))
    events = g.send(Step("italian", VILLAGE_FIRE.steps[0].command, dice=(dice, (1, 1, 1))))
    return g, events


def test_a_game_plays_on_its_own_data_and_another_on_the_shipped_data_in_one_process(tmp_path: Path) -> None:
    files = read_folder(_folder(tmp_path, village_fire_dice=-2))
    assert sorted(files) == sorted(FILES)
    app = Arbitro(SQLiteStore(":memory:"))
    own, events = _fire_at_cola(app, files, (1,))  # a village takes two dice of savoia1's three: one die
    assert [e["dice"] for e in events if e["type"] == "fire_resolved"][0] == 1
    shipped, events = _fire_at_cola(app, None, (1, 1))  # the shipped table: two dice
    assert [e["dice"] for e in events if e["type"] == "fire_resolved"][0] == 2
    assert own.state.data_files == files and shipped.state.data_files == {}
    assert "data_files" not in registry.get("caricat").view(own.state, "italian")  # public, too long to serve
    assert app.verify(own.id).passed and app.verify(shipped.id).passed


def test_the_genesis_carries_the_data_and_its_hash(tmp_path: Path) -> None:
    files = read_folder(_folder(tmp_path, village_fire_dice=-2))
    app = Arbitro(SQLiteStore(":memory:"))
    gid = app.create("caricat", "pastrengo", data=files)
    created = app.log(gid, "umpire", 1, 1)[0]["event"]
    ruleset = registry.get("caricat")
    assert created["origin"]["data"] == files
    assert created["data_hash"] == ruleset.data_hash(files) != ruleset.data_hash()
    assert app.state_at(gid).rules.data_files == files
    assert app.verify(gid).passed


def test_every_problem_of_every_file_is_reported_at_once(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    system = json.loads((folder / "system.json").read_text(encoding="utf-8"))
    system["movement"]["infantry"] = "four"
    (folder / "system.json").write_text(json.dumps(system), encoding="utf-8")
    (folder / "montebello_map.json").write_text("{not json", encoding="utf-8")
    (folder / "pastrengo.json").unlink()
    with pytest.raises(DataError) as caught:
        read_folder(folder)
    where = {(p.file, p.path.split(" ")[0]) for p in caught.value.problems}
    assert {("pastrengo.json", "$"), ("system.json", "$.movement.infantry"), ("montebello_map.json", "line")} <= where
    with pytest.raises(DataError, match="not a folder"):
        read_folder(tmp_path / "nowhere")


def test_arbitro_new_with_data_dir(tmp_path: Path) -> None:
    folder = _folder(tmp_path, village_fire_dice=-2)
    db = str(tmp_path / "games.db")
    run = CliRunner().invoke(cli, ["new", "caricat", "pastrengo", "--data", str(folder), "--db", db,
                                   "--no-seat-entropy"])
    assert run.exit_code == 0, run.output
    gid = run.output.strip().splitlines()[-1]
    assert Arbitro(SQLiteStore(db)).state_at(gid).rules.data_files == read_folder(folder)
    verified = CliRunner().invoke(cli, ["verify", gid, "--db", db])
    assert verified.exit_code == 0 and "the data folder the genesis carries" in verified.output
    (folder / "terrain.json").write_text("[]", encoding="utf-8")
    bad = CliRunner().invoke(cli, ["new", "caricat", "pastrengo", "--data", str(folder), "--db", db])
    assert bad.exit_code != 0 and "terrain.json" in bad.output
