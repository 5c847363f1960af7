"""One data-file error for every ruleset (adjudicator/datafiles.py): a broken file of any ruleset, and of the map
and table kit, raises the same DataError, naming file, JSON path and problem, with every problem found at once."""

from __future__ import annotations

import ast
import hashlib
import json
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated

import pytest

from arbitro.adjudicator.arrivano import data_model as arrivano
from arbitro.adjudicator.caldiero import loader as caldiero
from arbitro.adjudicator.datafiles import (DataError, DataProblem, Names, OwnData, Problem, StrictModel, data_digest,
                                          files_digest, named, read_json)
from arbitro.adjudicator.maps.hexmap import load_map
from arbitro.adjudicator.marengo import data_loader as marengo
from arbitro.adjudicator.tables import load_table

ROOT = Path(__file__).resolve().parents[2]


def test_the_error_lists_every_problem_and_names_the_first() -> None:
    error = DataError([DataProblem("a.json", "$.x", "bad"), DataProblem("b.json", "$.y[2]", "worse")])
    assert (error.file, error.path, error.problem) == ("a.json", "$.x", "bad")
    assert str(error) == "a.json: $.x: bad\nb.json: $.y[2]: worse"
    assert DataError.in_file("c.json", [Problem("$.z", "odd")]).problems == (DataProblem("c.json", "$.z", "odd"),)
    with pytest.raises(ValueError, match="at least one problem"):
        DataError([])


def test_reading_names_the_file_and_where_the_json_breaks(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text('{"a": 1,\n "b": }', encoding="utf-8")
    with pytest.raises(DataError) as caught:
        read_json(bad, "x.json")
    assert caught.value.problems == (DataProblem("x.json", "line 2 column 7", "not valid JSON: Expecting value"),)
    with pytest.raises(DataError, match=r"^gone\.json: \$: file not found$"):
        read_json(tmp_path / "gone.json", "gone.json")


def _copy(tmp_path: Path, source: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(source, target)
    return target


def _break(path: Path, edit: Callable[[dict], None]) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    edit(doc)
    path.write_text(json.dumps(doc), encoding="utf-8")


def _marengo(tmp_path: Path) -> None:
    data = _copy(tmp_path, marengo.DATA_DIR)
    _break(data / "armies.json", lambda a: a["blocks"][0].update(strength=9, arm="dragoons"))
    marengo.load_from(data / "map.json", data / "armies.json")


def _caldiero(tmp_path: Path) -> None:
    data = _copy(tmp_path, caldiero.CALDIERO_DATA.folder)
    _break(data / "caldiero" / "oob.json", lambda d: (d["units"][0].update(strength=-1), d["units"][1].update(arm="dragoons")))
    caldiero.CALDIERO_DATA.load(data)


def _arrivano(tmp_path: Path) -> None:
    data = _copy(tmp_path, arrivano.ARRIVANO_DATA.folder)
    _break(data / "montebello" / "oob.json",
           lambda d: (d["units"][0].update(strength="five"), d["units"][1].update(arm="dragoons")))
    arrivano.ARRIVANO_DATA.load(data)


def _hexmap(tmp_path: Path) -> None:
    data = _copy(tmp_path, caldiero.CALDIERO_DATA.folder)
    _break(data / "caldiero" / "map.json", lambda m: (m["meta"].update(provisional="yes"), m["grid"].update(orientation="round")))
    load_map(data / "caldiero" / "map.json")


@pytest.mark.parametrize("load", [_marengo, _caldiero, _arrivano, _hexmap], ids=lambda f: f.__name__.lstrip("_"))
def test_every_loader_raises_the_one_error_with_every_problem_of_the_file(tmp_path: Path, load) -> None:
    with pytest.raises(DataError) as caught:
        load(tmp_path)
    problems = caught.value.problems
    assert len(problems) >= 2 and len({p.path for p in problems}) >= 2, problems  # both edits, not just the first
    assert all(isinstance(p, DataProblem) and p.file.endswith(".json") and p.path.startswith("$") for p in problems)


def test_the_table_kit_raises_it_too(tmp_path: Path) -> None:
    path = tmp_path / "crt.json"
    path.write_text(json.dumps({"name": "t", "title": "t", "provisional": 1, "columns_are": "odds", "columns": ["1-1"],
                                "rows": {"1": ["X"]}, "results": {}}), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_table(path)
    assert {p.path for p in caught.value.problems} == {"$.provisional", "$.results"}


def test_no_ruleset_defines_its_own_data_error() -> None:
    """The one place: any other *DataError or *DataProblem class under adjudicator/, or any exception class in a
    ruleset's loader, would be a second type."""
    others = []
    for path in (ROOT / "adjudicator").rglob("*.py"):
        loader = path.name in ("loader.py", "data_loader.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = {b.id for b in node.bases if isinstance(b, ast.Name)}
            if node.name.endswith(("DataError", "DataProblem")) or (loader and bases & {"ValueError", "Exception"}):
                others.append(f"{path.relative_to(ROOT)}:{node.name}")
    assert sorted(others) == ["adjudicator/datafiles.py:DataError", "adjudicator/datafiles.py:DataProblem"], others


def test_own_data_keeps_the_folders_used_last_and_builds_each_once_while_kept() -> None:
    """A long-lived server meets one data folder a game: built once per content while kept, the KEPT used last kept
    (review rev-fidelity 5), an evicted one built again from its texts when met again."""
    built: list[str] = []

    def build(files: Mapping[str, str]) -> str:
        built.append(files["a.json"])
        return files["a.json"]

    own: OwnData[str] = OwnData("test-own", build, lambda: "shipped")
    folders = [{"a.json": str(i)} for i in range(OwnData.KEPT + 1)]
    for files in folders:
        assert own.load(files) == files["a.json"]
    assert own.load(folders[-1]) == folders[-1]["a.json"] and len(built) == OwnData.KEPT + 1  # kept: not built again
    assert own.load(folders[0]) == "0" and built[-1] == "0" and len(built) == OwnData.KEPT + 2  # evicted: built again


def test_own_data_answers_the_same_files_at_once_and_a_mapping_changed_in_place_afresh() -> None:
    """A ruleset asks for a game's data many times per command with its state's one `data_files` mapping: the data
    is not built (nor the texts hashed) again; but the same mapping changed in place is the data of what it holds."""
    built: list[dict[str, str]] = []

    def build(files: Mapping[str, str]) -> dict[str, str]:
        built.append(dict(files))
        return dict(files)

    own = OwnData("test-own-data", build, dict)
    files = {"oob.json": '{"a": 1}'}
    assert own.load(files) == {"oob.json": '{"a": 1}'} and own.load(files) is own.load(files)
    assert len(built) == 1
    files["oob.json"] = '{"a": 2}'
    assert own.load(files) == {"oob.json": '{"a": 2}'}
    files["map.json"] = "{}"
    assert own.load(files) == {"oob.json": '{"a": 2}', "map.json": "{}"}
    assert len(built) == 3


def test_no_two_different_sets_of_files_hash_alike_however_their_bytes_run_on() -> None:
    """The data hash frames each name and content by its length (issue 19): joined with NUL separators, one file
    whose text holds a NUL and the next name, and two files, gave the same bytes to hash."""
    one = {"a.json": "x\0b.json\0y"}
    two = {"a.json": "x", "b.json": "y"}
    assert files_digest(one) != files_digest(two)
    assert data_digest([("ab", b"c")]) != data_digest([("a", b"bc")]) != data_digest([("a", b"b"), ("c", b"")])
    assert files_digest(two) == files_digest(dict(reversed(two.items())))  # the order given does not matter
    framed = b"".join(len(part).to_bytes(8, "big") + part for part in (b"a.json", b"x", b"b.json", b"y"))
    assert files_digest(two) == hashlib.sha256(framed).hexdigest()  # as docs/exchange-format.md describes it



HEXES, SIDES = Names("hex"), Names("side")


class _Flag(StrictModel):
    hex: Annotated[str, HEXES]
    note: str = ""


class _File(StrictModel):
    winner: Annotated[str, SIDES]
    losers: list[Annotated[str, SIDES]]
    flags: dict[str, _Flag]
    last: Annotated[str, HEXES] | None = None
    title: str


def test_named_finds_every_marked_name_at_its_json_path() -> None:
    """`named`: every string a field's type marks with `Names`, however deep (a record's record, a list, an optional,
    a dict's values, never its keys), at its JSON path; unmarked strings are not names."""
    record = _File(winner="france", losers=["austria"], flags={"A": _Flag(hex="0101", note="x")}, title="t")
    assert list(named(record)) == [(SIDES, "$.winner", "france"), (SIDES, "$.losers[0]", "austria"),
                                   (HEXES, "$.flags.A.hex", "0101")]
    assert list(named(record.model_copy(update={"last": "0202"})))[-1] == (HEXES, "$.last", "0202")
