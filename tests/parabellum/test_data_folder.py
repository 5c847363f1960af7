"""A user's own data folder for both Para Bellum games (issue 19 points 14-15): `arbitro new caldiero|arrivano
SCENARIO --data DIR` loads a folder the way the shipped one is loaded (parabellum/loader.DataFolder, written once for
both), every problem at once; the game carries the files in its genesis and state, its data hash is theirs, verify
replays it without the folder, and two games on different data in one process never share an answer."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arbitro.adjudicator import registry
from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.errors import BadInput, Rejected
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro
from arbitro.cli import cli
from arbitro.events.sqlite import SQLiteStore
from tests.arrivano import harness as arrivano
from tests.caldiero import harness as caldiero

OOB = {"caldiero": "caldiero/oob.json", "arrivano": "montebello/oob.json"}
SCENARIO = {"caldiero": "historical", "arrivano": "montebello"}


def own(ruleset: str, unit: str, **values: Any) -> dict[str, str]:
    """The shipped folder as a user's own, with one counter's printed values changed."""
    r = registry.get(ruleset)
    files = r.read_data(r.folder.folder)
    oob = json.loads(files[OOB[ruleset]])
    next(u for u in oob["units"] if u["id"] == unit).update(values)
    files[OOB[ruleset]] = json.dumps(oob, ensure_ascii=False)
    return files


def caldiero_moves(files: dict[str, str] | None) -> caldiero.Table:
    state = caldiero.position({"au-banal-grenz": "2120"}, leaders={"hohenzollern": "2120"},
                              orders={"hohenzollern": "manoeuvre"})
    return caldiero.activate(caldiero.RULESET.adopt_data(state, files), "hohenzollern")


def test_a_caldiero_unit_moves_by_the_counter_its_game_carries_and_another_game_by_the_printed_one() -> None:
    """caldiero §9.1: a unit spends its movement allowance. On a counter sheet where the Banal Grenz moves 12
    (printed 5 in the shipped reconstruction) it reaches hexes it cannot reach on the shipped data, in the same
    process, before and after: nothing derived from one data set answers for the other (point 15)."""
    shipped_before = {c["to"] for c in caldiero_moves(None).legal("austria") if c["type"] == "move"}
    mine = caldiero_moves(own("caldiero", "au-banal-grenz", movement=12))
    far = sorted({c["to"] for c in mine.legal("austria") if c["type"] == "move"} - shipped_before)
    assert far, "a 12-MP unit reaches farther than a 5-MP one"
    mine.send("austria", {"type": "move", "units": ["au-banal-grenz"], "to": far[0]})
    assert mine.unit("au-banal-grenz").hex == far[0]
    shipped = caldiero_moves(None)
    assert {c["to"] for c in shipped.legal("austria") if c["type"] == "move"} == shipped_before
    with pytest.raises(Rejected):
        shipped.send("austria", {"type": "move", "units": ["au-banal-grenz"], "to": far[0]})


def test_an_arrivano_unit_moves_by_the_counter_its_game_carries() -> None:
    """arrivano §9.1, the same on Arrivano's data layout (montebello/oob.json)."""
    unit = "mariassy-jager"

    def table(files: dict[str, str] | None) -> arrivano.Table:
        state = arrivano.position({unit: "3509"}, leaders={"ott": "3509"}, orders={"R": "manoeuvre"})
        return arrivano.at_step(arrivano.RULESET.adopt_data(state, files), "R", "movement")

    def reach(t: arrivano.Table) -> set[str]:
        return {c["to"] for c in t.legal("austria") if c["type"] == "move" and c["unit"] == unit}

    shipped = reach(table(None))
    mine = table(own("arrivano", unit, movement=12))
    far = sorted(reach(mine) - shipped)
    assert far and shipped < reach(mine)
    mine.send("austria", {"type": "move", "unit": unit, "to": far[0], "column": False})
    assert mine.state.units[unit].hex == far[0]
    with pytest.raises(Rejected):
        table(None).send("austria", {"type": "move", "unit": unit, "to": far[0], "column": False})


@pytest.mark.parametrize("ruleset", ["caldiero", "arrivano"])
def test_the_genesis_carries_the_data_a_fork_keeps_them_and_verify_replays_them(ruleset: str) -> None:
    files = own(ruleset, "au-banal-grenz" if ruleset == "caldiero" else "mariassy-jager", efficiency=1)
    r = registry.get(ruleset)
    app = Arbitro(SQLiteStore(":memory:"))
    gid = app.create(ruleset, SCENARIO[ruleset], data=files)
    created = app.log(gid, "umpire", 1, 1)[0]["event"]
    assert created["origin"]["data"] == files
    assert created["data_hash"] == r.data_hash(files) != r.data_hash()
    assert app.state_at(gid).rules.data_files == files
    assert SelfPlay(app, gid, seed="fidelity").play(12) == 12
    child = app.fork(gid, app.game(gid).head_seq)
    assert app.log(child, "umpire", 1, 1)[0]["event"]["origin"]["data"] == files
    report = app.verify(gid)
    assert report.passed, report.failures()
    assert next(c for c in report.checks if c.name == "scenario data").detail == "the data folder the genesis carries"
    assert app.verify(child).passed
    assert "data_files" not in json.dumps(app.view(gid, "austria"))  # never served to a seat


def _folder(tmp_path: Path, ruleset: str, *edits: tuple[str, Callable[[Any], None]]) -> Path:
    folder = tmp_path / ruleset
    shutil.copytree(registry.get(ruleset).folder.folder, folder)
    for name, edit in edits:
        doc = json.loads((folder / name).read_text(encoding="utf-8"))
        edit(doc)
        (folder / name).write_text(json.dumps(doc), encoding="utf-8")
    return folder


def _first(key: str, value: Any) -> Callable[[Any], None]:
    return lambda doc: doc["units"][0].update({key: value})


@pytest.mark.parametrize("ruleset,crt", [("caldiero", "tables/crt.json"), ("arrivano", "tables/crt.json")])
def test_every_problem_of_every_file_at_once_exit_status_2(tmp_path: Path, ruleset: str, crt: str) -> None:
    """A folder with a counter of a strength "three", a unit of an unknown formation and a CRT that is no JSON:
    `arbitro new` names each problem (file, JSON path, what) in one refusal, exit status 2, and stores nothing."""
    def unknown_formation(doc: Any) -> None:
        doc["units"][1]["formation"] = "nobody"
    folder = _folder(tmp_path, ruleset, (OOB[ruleset], _first("strength", "three")))
    (folder / crt).write_text("{", encoding="utf-8")
    db = str(tmp_path / "g.db")
    run = CliRunner().invoke(cli, ["new", ruleset, SCENARIO[ruleset], "--data", str(folder), "--db", db])
    assert run.exit_code == 2, run.output
    assert f"{OOB[ruleset]}: $.units[0].strength:" in run.output
    assert f"{crt}: line 1 column 2: not valid JSON" in run.output
    folder = _folder(tmp_path / "2", ruleset, (OOB[ruleset], unknown_formation))
    run = CliRunner().invoke(cli, ["new", ruleset, SCENARIO[ruleset], "--data", str(folder), "--db", db])
    assert run.exit_code == 2 and f"{OOB[ruleset]}: $.units[1].formation: unknown formation 'nobody'" in run.output
    (folder / OOB[ruleset]).unlink()
    run = CliRunner().invoke(cli, ["new", ruleset, SCENARIO[ruleset], "--data", str(folder), "--db", db])
    assert run.exit_code == 2 and "file not found" in run.output and OOB[ruleset] in run.output
    run = CliRunner().invoke(cli, ["new", ruleset, SCENARIO[ruleset], "--data", str(tmp_path / "none"), "--db", db])
    assert run.exit_code == 2 and "no such folder" in run.output
    assert not Path(db).exists()  # refused before anything is stored


@pytest.mark.parametrize("ruleset", ["caldiero", "arrivano"])
def test_cli_new_with_data_and_verify(tmp_path: Path, ruleset: str) -> None:
    folder = _folder(tmp_path, ruleset, (OOB[ruleset], _first("efficiency", 1)))
    db = str(tmp_path / "g.db")
    run = CliRunner().invoke(cli, ["new", ruleset, SCENARIO[ruleset], "--data", str(folder), "--db", db,
                                   "--no-seat-entropy"])
    assert run.exit_code == 0, run.output
    gid = run.output.strip().splitlines()[-1]
    shutil.rmtree(folder)  # the game carries its data: verify needs no folder
    # In a fresh process (review rev-fidelity 6): no data built in this one can stand in for the genesis's texts.
    verified = subprocess.run([sys.executable, "-c", "from arbitro.cli import cli; cli()", "verify", gid, "--db", db],
                              capture_output=True, text=True, check=False)
    assert verified.returncode == 0 and "the data folder the genesis carries" in verified.stdout, verified


@pytest.mark.parametrize("name", ["../oob.json", "/etc/oob.json", "a/../../oob.json", "oob.txt", "a\\oob.json", ""])
def test_carried_files_named_outside_a_folder_are_refused_before_anything_is_written(name: str) -> None:
    """A genesis edited to carry a file named outside the data folder (an attacker's log) is refused, naming it."""
    folder = registry.get("caldiero").folder
    files = dict(folder.read_folder(folder.folder))
    files[name] = "{}"
    with pytest.raises(DataError) as e:
        folder.from_files(files)
    assert [p.file for p in e.value.problems] == [name]


def folder_with_default(name: str, default: str, *more_choices: str) -> dict[str, str]:
    """Arrivano's shipped folder as a user's own, its interpretations.json giving `name` another default."""
    r = registry.get("arrivano")
    files = r.read_data(r.folder.folder)
    spec = json.loads(files["interpretations.json"])
    entry = next(i for i in spec["interpretations"] if i["name"] == name)
    entry["default"], entry["choices"] = default, [*entry["choices"], *more_choices]
    files["interpretations.json"] = json.dumps(spec, ensure_ascii=False)
    return files


def reading(app: Arbitro, gid: str, name: str) -> str:
    """The reading of `name` the rules play in game `gid` (the state's, as decide and legal read it)."""
    return registry.get("arrivano").world(app.state_at(gid).rules).reading(name)


def test_an_arrivano_folder_s_own_default_reading_is_in_force_and_status_says_so() -> None:
    """A user's folder whose interpretations.json makes `as_caldiero` the default of column_keeps_to_roads (D38,
    arrivano §9.3) plays that reading from its genesis, as a position's readings are (creation.folder_readings):
    `status` lists it in force and names the changed file non-standard; a game on the shipped data plays the shipped
    default, and an umpire's ruling still switches it."""
    app = Arbitro(SQLiteStore(":memory:"))
    gid = app.create("arrivano", "montebello", data=folder_with_default("column_keeps_to_roads", "as_caldiero"))
    assert reading(app, gid, "column_keeps_to_roads") == "as_caldiero"
    status = app.status(gid, "france")
    assert status.interpretations == {"column_keeps_to_roads": "as_caldiero"}
    assert status.non_standard == ["data file interpretations.json: changed"]
    shipped = app.create("arrivano", "montebello")
    assert reading(app, shipped, "column_keeps_to_roads") == "roads_only"
    assert app.status(shipped, "france").interpretations == {}
    app.submit(gid, "umpire", {"type": "ruling", "interpretation": {"column_keeps_to_roads": "roads_only"},
                               "reason": "the shipped reading after all"})
    assert reading(app, gid, "column_keeps_to_roads") == "roads_only"


def test_a_folder_s_default_that_the_rules_do_not_play_is_refused() -> None:
    with pytest.raises(BadInput, match="column_keeps_to_roads's default 'anywhere' is no reading this ruleset plays"):
        Arbitro(SQLiteStore(":memory:")).create(
            "arrivano", "montebello", data=folder_with_default("column_keeps_to_roads", "anywhere", "anywhere"))
