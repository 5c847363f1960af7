"""A Para Bellum game's carried data (review rev-fidelity 1-3, /work/team/r/rev-fidelity.md): a position's state
carrying changed files is named non-standard and hashed as played; carried names and texts no folder can hold are
DataErrors naming each file; a bad data folder reports its unreadable files with every other file's problems. The
same promise for every ruleset with a data folder: tests/foundation/test_position_carried_data.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.datafiles import DataError
from tests.parabellum.test_overrides import overridden

OOB = {"caldiero": "caldiero/oob.json", "arrivano": "montebello/oob.json"}
CRT = {"caldiero": "tables/crt.json", "arrivano": "tables/crt.json"}


@pytest.mark.parametrize("ruleset", ["caldiero", "arrivano"])
def test_a_position_saved_from_an_overridden_game_is_still_named_non_standard(ruleset: str) -> None:
    """`arbitro position` of a game with a fixed CRT result, played again with `arbitro new --position`: the new game
    plays on the changed table (the state carries data_files), so its status must still name it as non-standard and
    its data hash must not claim the shipped data. Today: non_standard == [], data_hash == the shipped data's, verify
    says 'the same data files', and no seat is told."""
    app, gid, _ = overridden(ruleset, {"kind": "crt", "column": "3-1", "roll": 4, "result": "Ex"})
    again = app.create(ruleset, position=app.position(gid, seat="umpire"))
    r = registry.get(ruleset)
    state = app.state_at(again).rules
    table = r.scenario_on(state).crt
    assert table.result(4, "3-1") == "Ex"  # the new game plays the changed table (shipped: Dr in both books)...
    created = app.log(again, "umpire", 1, 1)[0]["event"]
    assert app.status(again, app.game(again).seats[0]).non_standard != []  # ...so every seat must be told
    assert created["data_hash"] != r.data_hash()


@pytest.mark.parametrize("ruleset", ["caldiero", "arrivano"])
def test_carried_names_that_collide_as_file_and_folder_are_a_data_error(ruleset: str) -> None:
    """A genesis (an imported log, a position's state) carrying 'oob.json' and 'oob.json/x.json', or a name too long
    for the file system: a DataError naming it, not FileExistsError/OSError out of from_files."""
    folder = registry.get(ruleset).folder
    files = folder.read_folder(folder.folder)
    first = sorted(files)[0]
    for extra in (f"{first}/x.json", "a" * 300 + ".json", "\udce9.json"):
        with pytest.raises(DataError) as e:
            folder.from_files({**files, extra: "{}"})
        assert [p.file for p in e.value.problems] in ([first], [extra]), e.value.problems
    with pytest.raises(DataError) as e:  # a lone surrogate cannot be written as UTF-8
        folder.from_files({**files, first: '{"x": "\udce9"}'})
    assert [p.file for p in e.value.problems] == [first]


@pytest.mark.parametrize("ruleset", ["caldiero", "arrivano"])
def test_a_file_not_in_utf8_is_reported_with_every_other_files_problems(tmp_path: Path, ruleset: str) -> None:
    """read_folder's 'every problem of every file at once': a CRT saved in Latin-1 and a counter of strength "three"
    are both named. Today only the undecodable file is, and the user fixes one, runs again, and meets the next."""
    folder = tmp_path / ruleset
    shutil.copytree(registry.get(ruleset).folder.folder, folder)
    oob = json.loads((folder / OOB[ruleset]).read_text(encoding="utf-8"))
    oob["units"][0]["strength"] = "three"
    (folder / OOB[ruleset]).write_text(json.dumps(oob), encoding="utf-8")
    (folder / CRT[ruleset]).write_bytes((folder / CRT[ruleset]).read_bytes() + b"\xe9")
    with pytest.raises(DataError) as e:
        registry.get(ruleset).read_data(folder)
    named = {p.file for p in e.value.problems}
    assert named == {OOB[ruleset], CRT[ruleset]}, e.value.problems
