"""The data files (monferrato §2.3, §2.1, scenario, §16): the map has what the rules name, every problem of a broken
file is reported at once with its file and JSON path, and what is provisional is said (status, verify)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.monferrato.data import CHITS_FILE, MAP_FILE, OOB_FILE, SCENARIO_FILE, load, load_from
from tests.monferrato.harness import new_game


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
