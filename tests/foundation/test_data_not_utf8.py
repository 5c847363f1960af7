"""rev-o O6's rest (fix-o's note): a data file that is not UTF-8 (`arbitro new --data FOLDER`, a map or table read by
datafiles.read_json) is reported as every other data problem is (file, path, problem) in errors.not_utf8's words
(the byte, where it is, "save it as UTF-8"), not Python's codec words ("'utf-8' codec can't decode byte 0xff in
position 0: invalid start byte" or "cannot read it as UTF-8 text: 'utf-8' codec ..."), for every ruleset's loader."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arbitro.adjudicator import registry
from arbitro.adjudicator.datafiles import DataError, DataProblem, read_json
from arbitro.cli import cli

WORDS = "not UTF-8 text (byte 0xff at offset 0); save it as UTF-8"
SCENARIO = {"caldiero": "historical", "arrivano": "campotenese", "caricat": "montebello", "marengo": "marengo",
            "monferrato": "1628"}


def _folder(tmp_path: Path, ruleset: str) -> tuple[Path, str]:
    """The ruleset's shipped data written to a folder, its first file saved with a byte no UTF-8 text starts with."""
    folder = tmp_path / ruleset
    files = registry.get(ruleset).shipped_data()
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    bad = sorted(files)[0]
    (folder / bad).write_bytes(b"\xff" + (folder / bad).read_bytes())
    return folder, bad


@pytest.mark.parametrize("ruleset", sorted(SCENARIO))
def test_a_data_file_not_in_utf8_is_a_data_problem_in_one_wording(tmp_path: Path, ruleset: str) -> None:
    folder, bad = _folder(tmp_path, ruleset)
    with pytest.raises(DataError) as e:
        registry.get(ruleset).read_data(folder)
    (problem,) = [p for p in e.value.problems if Path(p.file).name == Path(bad).name]
    assert (problem.path, problem.problem) == ("$", WORDS), e.value.problems


def test_the_cli_names_the_file_the_byte_and_the_fix(tmp_path: Path) -> None:
    folder, bad = _folder(tmp_path, "marengo")
    run = CliRunner().invoke(cli, ["new", "marengo", "marengo", "--data", str(folder), "--db", str(tmp_path / "g.db")])
    assert run.exit_code == 2 and f"{bad}: $: {WORDS}" in run.output, run.output


def test_read_json_says_the_same(tmp_path: Path) -> None:
    """datafiles.read_json (maps, movement costs, tables): the same words, naming the file it was given."""
    path = tmp_path / "map.json"
    path.write_bytes(b'\xff{"hexes": []}')
    with pytest.raises(DataError) as e:
        read_json(path, "maps/x/map.json")
    assert e.value.problems == (DataProblem("maps/x/map.json", "$", WORDS),)
