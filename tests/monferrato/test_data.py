"""The data files (monferrato §2.3, §2.1, scenario, §16): the map has what the rules name, every problem of a broken
file is reported at once with its file and JSON path, and what is provisional is said (status, verify)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.monferrato.data import CHITS_FILE, MAP_FILE, OOB_FILE, SCENARIO_FILE, load, load_from
import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.service import POSITION_FORMAT
from arbitro.adjudicator.service import Arbitro
from arbitro.cli import cli
from arbitro.events.sqlite import SQLiteStore
from tests.monferrato.harness import app, new_game, state


def test_the_map_holds_what_the_rules_name() -> None:
    d = load()
    assert {z.inset for z in d.zones.values()} == {"monferrato", "mantova", "valtellina"}  # §2.3 three insets
    assert d.zones["casale"].fortress and d.zones["mantova"].fortress  # §2.3
    assert d.border("ivrea", "col_d_asti").kind == "river" and d.border("ivrea", "col_d_asti").bridge  # §2.3.1
    assert d.border("moncalvo", "mencucco").cost == "1"  # §2.3.1 not through Col d'Asti
    assert d.border("milano", "valtellina").cost == "all" and d.border("milano", "cremona").cost == "all"
    walls = [b for b in d.map.borders if b.wall]
    assert {b.zones[0] for b in walls} | {b.zones[1] for b in walls} >= {"casale", "mantova"}
    assert d.scenario.victory_zones == {"casale": 10, "mantova": 10, "trino": 1, "moncalvo": 1, "nizza": 1, "alba": 1}
    assert d.scenario.opening_chits == {"pro_france": ("chit05",)}  # scenario: chit 5 UXELLES
    assert d.chits["chit05"].name == "UXELLES" and d.chits["chit05"].reinforcements == "uxelles"


def test_every_problem_of_every_file_is_reported_at_once(tmp_path: Path) -> None:
    broken = json.loads(MAP_FILE.read_text())
    broken["zones"][0]["region"] = "atlantide"
    broken["borders"].append({"zones": ["casale", "narnia"], "kind": "land"})
    chits = json.loads(CHITS_FILE.read_text())
    chits["chits"][0]["reinforcements"] = "nobody"
    (tmp_path / "map.json").write_text(json.dumps(broken))
    (tmp_path / "chits.json").write_text(json.dumps(chits))
    with pytest.raises(DataError) as exc:
        load_from(tmp_path / "map.json", OOB_FILE, SCENARIO_FILE, tmp_path / "chits.json")
    found = [(p.file, p.path) for p in exc.value.problems]
    assert ("map.json", "$.zones[0].region") in found
    assert any(f == "map.json" and "narnia" in str(p) for (f, _), p in zip(found, exc.value.problems))
    assert any(f == "chits.json" for f, _ in found)


def test_a_malformed_file_names_its_path(tmp_path: Path) -> None:
    bad = json.loads(OOB_FILE.read_text())
    bad["units"][0]["kind"] = "dragon"
    (tmp_path / "oob.json").write_text(json.dumps(bad))
    with pytest.raises(DataError) as exc:
        load_from(MAP_FILE, tmp_path / "oob.json", SCENARIO_FILE, CHITS_FILE)
    assert exc.value.file == "oob.json" and exc.value.path.startswith("$.units[0].kind")


def test_status_and_verify_say_what_is_provisional() -> None:
    g = new_game()
    text = " ".join(g.app.status(g.id).provisional)
    assert "chit table is not in the text" in text and "map.json" in text
    report = g.app.verify(g.id)
    assert report.passed and any("chits.json" in p for p in report.provisional)


# --- a user's own data folder (`arbitro new monferrato 1628 --data DIR`, issue 19 point 14) ---------------------
def folder_with(tmp_path: Path, name: str, edit: Any) -> Path:
    """A data folder holding one shipped file, edited."""
    path = {"map.json": MAP_FILE, "oob.json": OOB_FILE, "scenario.json": SCENARIO_FILE, "chits.json": CHITS_FILE}[name]
    raw = json.loads(path.read_text())
    edit(raw)
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / name).write_text(json.dumps(raw))
    return tmp_path


def test_a_games_own_data_folder_is_played_carried_and_verified(tmp_path: Path) -> None:
    ruleset = registry.get("monferrato")
    folder = folder_with(tmp_path / "low", "scenario.json", lambda s: s.update(morale=3))
    files = ruleset.read_data(folder)
    assert sorted(files) == ["chits.json", "map.json", "oob.json", "scenario.json"]  # the rest are the shipped
    a = app()
    own = a.create("monferrato", "1628", data=files)
    shipped = a.create("monferrato", "1628")
    assert set(a.state_at(own).rules.morale.values()) == {3} and set(a.state_at(shipped).rules.morale.values()) == {7}
    hashes = [a.log(g)[0]["event"]["data_hash"] for g in (own, shipped)]
    assert hashes == [ruleset.data_hash(files), ruleset.data_hash()] and hashes[0] != hashes[1]
    seat = a.state_at(own).core.decisions[-1].seats[0]  # the first set-up choice (monferrato scenario)
    a.submit(own, seat, a.legal(own, seat)[-1])
    assert a.verify(own).passed


def impassable(m: dict[str, Any]) -> None:
    border = next(b for b in m["borders"] if sorted(b["zones"]) == ["alessandria", "tortona"])
    border.update(kind="impassable", bridge=False)


def test_a_position_on_a_data_folder_is_adjudicated_on_it(tmp_path: Path) -> None:
    """The rules read the game's own map in legal(), in decide() and in the decisions on the stack."""
    files = registry.get("monferrato").read_data(folder_with(tmp_path, "map.json", impassable))
    pos = {"format": POSITION_FORMAT, "ruleset": "monferrato", "scenario": "1628", "state": msgspec.to_builtins(state())}
    a = app()
    own, shipped = a.create("monferrato", position=pos, data=files), a.create("monferrato", position=pos)
    move = {"type": "move", "units": ["spa_inf1"], "path": ["tortona"]}
    for g in (own, shipped):
        a.submit(g, "pro_spain", {"type": "activate", "zones": ["alessandria"], "commander": None})
    assert move in a.legal(shipped, "pro_spain") and move not in a.legal(own, "pro_spain")
    with pytest.raises(Rejected) as exc:
        a.submit(own, "pro_spain", move)
    assert exc.value.rule == "monferrato §2.3"
    a.submit(shipped, "pro_spain", move)
    assert a.verify(own).passed


def test_a_broken_data_folder_reports_every_problem_with_its_file(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, "map.json", lambda m: m["zones"][0].update(region="atlantide"))
    (folder / "chits.json").write_text("{not json")
    with pytest.raises(DataError) as exc:
        registry.get("monferrato").read_data(folder)
    files = {p.file for p in exc.value.problems}
    assert files == {f"{folder}/map.json", f"{folder}/chits.json"}
    with pytest.raises(DataError, match="not a folder"):
        registry.get("monferrato").read_data(tmp_path / "nowhere")


def test_the_cli_creates_a_game_on_a_data_folder(tmp_path: Path) -> None:
    folder = folder_with(tmp_path / "data", "scenario.json", lambda s: s.update(morale=5))
    db = tmp_path / "games.db"
    result = CliRunner().invoke(cli, ["new", "monferrato", "1628", "--data", str(folder), "--id", "m", "--json"],
                                env={"ARBITRO_DB": str(db), "ARBITRO_STORE": None, "ARBITRO_SEAT_ENTROPY": "0"})
    assert result.exit_code == 0, result.output
    assert set(Arbitro(SQLiteStore(str(db))).state_at("m").rules.morale.values()) == {5}
