"""A user's own data folder (issue 19 points 14-15): `arbitro new marengo marengo --data DIR` plays on it the way
the shipped data are played, checked whole, carried and hashed by the game, cached by content hash."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.marengo.data_loader import DATA_DIR, read_folder
from arbitro.cli import cli
from tests.marengo.harness import Game, app, from_position, own_data, position, ruleset


def _wider_spinetta(m: dict[str, Any]) -> None:
    """A map where La Spinetta holds five pieces of a side (the shipped reconstruction: three)."""
    next(z for z in m["zones"] if z["id"] == "spinetta")["capacity"] = 5


FOUR_INTO_SPINETTA = {"AUT_OTT_A": ("marengo", "reserve"), "AUT_OTT_B": ("marengo", "reserve"),
                      "AUT_OTT_C": ("marengo", "reserve"), "AUT_KAIM_A": ("marengo", "reserve")}


def _move_four(g: Game) -> None:
    g.send("austria", type="move", blocks=[g.tok(b) for b in FOUR_INTO_SPINETTA], to="spinetta")


def test_a_game_plays_on_its_own_data_and_another_on_the_shipped_data_in_one_process() -> None:
    """Two games in one process, on different data: each is adjudicated with its own (marengo §8 capacity);
    nothing derived from one data set answers for the other (caches keyed by content hash, point 15)."""
    own = from_position(position(FOUR_INTO_SPINETTA), own_data(map=_wider_spinetta))
    shipped = from_position(position(FOUR_INTO_SPINETTA))
    _move_four(own)
    assert sum(1 for b in own.state.blocks.values() if b.zone == "spinetta") == 4
    with pytest.raises(Rejected, match="spinetta holds at most 3"):
        _move_four(shipped)
    assert any(c["type"] == "end_turn" for c in own.legal("austria"))
    assert own.app.verify(own.id).passed and shipped.app.verify(shipped.id).passed


def test_the_genesis_carries_the_data_and_its_hash_and_a_fork_keeps_them() -> None:
    files = own_data(map=_wider_spinetta)
    a = app()
    gid = a.create("marengo", "marengo", data=files)
    created = a.log(gid, "umpire", 1, 1)[0]["event"]
    assert created["origin"]["data"] == files
    assert created["data_hash"] == ruleset().data_hash(files) != ruleset().data_hash()
    assert a.state_at(gid).rules.data_files == files
    a.submit(gid, "austria", {"type": "end_turn"})
    child = a.fork(gid, a.game(gid).head_seq)
    forked = a.log(child, "umpire", 1, 1)[0]["event"]
    assert forked["origin"]["data"] == files and forked["data_hash"] == created["data_hash"]
    assert a.verify(gid).passed and a.verify(child).passed


def test_every_problem_of_both_files_is_reported_at_once(tmp_path: Path) -> None:
    for name in ("map.json", "armies.json"):
        (tmp_path / name).write_text((DATA_DIR / name).read_text())
    m = json.loads((tmp_path / "map.json").read_text())
    m["zones"][0]["capacity"] = "four"
    (tmp_path / "map.json").write_text(json.dumps(m))
    a = json.loads((tmp_path / "armies.json").read_text())
    cavalry = next(i for i, b in enumerate(a["blocks"]) if b["arm"] == "cavalry")
    a["blocks"][cavalry]["strength"] = 3
    (tmp_path / "armies.json").write_text(json.dumps(a))
    with pytest.raises(DataError) as exc:
        read_folder(tmp_path)
    where = [(Path(p.file).name, p.path) for p in exc.value.problems]
    assert where == [("map.json", "$.zones[0].capacity"), ("armies.json", f"$.blocks[{cavalry}].strength")]
    (tmp_path / "armies.json").unlink()
    with pytest.raises(DataError) as exc:
        read_folder(tmp_path)
    assert [(Path(p.file).name, p.problem) for p in exc.value.problems][-1] == ("armies.json", "file not found")


def test_a_map_for_a_rules_question_need_not_be_the_scenario() -> None:
    """A position on a map without the scenario's eight stars loads; the scenario on it is refused (§14)."""
    def no_stars(m: dict[str, Any]) -> None:
        for z in m["zones"]:
            z["star"] = None
    files = own_data(map=no_stars)
    g = from_position(position({"AUT_OTT_A": ("marengo", "reserve"), "FRA_WATRIN_A": ("spinetta", "reserve")}), files)
    assert g.state.data_files == files
    with pytest.raises(DataError, match="eight star zones"):
        app().create("marengo", "marengo", data=files)


def test_a_position_validated_on_its_own_data() -> None:
    """The position's strengths are checked against the data it is played on (marengo §4)."""
    two = own_data(armies=lambda a: [b.update(strength=2) for b in a["blocks"] if b["arm"] == "artillery"]
                   and a["piece_set"].update(artillery=[1, 2]))
    pos = position({"AUT_ARTIGLIERIA": ("marengo", "reserve", 2)})
    assert from_position(pos, two).block("AUT_ARTIGLIERIA").strength == 2
    with pytest.raises(Exception, match="strength 2 outside 0..1"):
        from_position(pos)


def test_cli_new_with_data(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    for name, text in own_data(map=_wider_spinetta).items():
        (folder / name).write_text(text)
    db = str(tmp_path / "g.db")
    run = CliRunner().invoke(cli, ["new", "marengo", "marengo", "--data", str(folder), "--db", db, "--no-seat-entropy"])
    assert run.exit_code == 0, run.output
    gid = run.output.strip().splitlines()[-1]
    verified = CliRunner().invoke(cli, ["verify", gid, "--db", db])
    assert verified.exit_code == 0 and "the data folder the genesis carries" in verified.output
    (folder / "map.json").write_text("{")
    bad = CliRunner().invoke(cli, ["new", "marengo", "marengo", "--data", str(folder), "--db", db])
    assert bad.exit_code != 0 and "map.json: line 1" in bad.output
    other = CliRunner().invoke(cli, ["new", "caldiero", "--data", str(folder), "--db", db])
    assert other.exit_code == 2 and all(f"{name}: $: file not found" in other.output  # Caldiero's files, each named
                                        for name in ("oob.json", "crt.json", "scenario.json"))


def test_verification_rebuilds_the_set_up_from_the_armies_the_game_carries() -> None:
    """A game started on its own armies (here each side's gun at strength 2, the shipped one 1) is set up from them,
    and verification rebuilds the set-up it checks the genesis against from the data the genesis carries, not from
    the shipped files, so such a game verifies."""
    files = own_data(armies=lambda a: [b.update(strength=2) for b in a["blocks"] if b["arm"] == "artillery"]
                     and a["piece_set"].update(artillery=[1, 2]))
    a = app()
    gid = a.create("marengo", "marengo", data=files)
    assert a.state_at(gid).rules.blocks["AUT_ARTIGLIERIA"].strength == 2
    a.submit(gid, "austria", {"type": "end_turn"})
    report = a.verify(gid)
    assert report.passed, report.failures()
    assert next(c for c in report.checks if c.name == "re-adjudication").status == "passed"
