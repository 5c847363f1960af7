"""rev-o O6 (seventeenth session, minor): a command file that is not UTF-8 is refused with Python's codec words only
("'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"), naming neither the file nor what to do,
where a file that is not JSON is refused naming it ("command (trunc.json) is not valid JSON: ... at line 2 column
1", tests/foundation/test_bad_input.py). The brief's standard: precise, actionable errors."""

from __future__ import annotations

from pathlib import Path

from .conftest import Cli


def test_a_command_file_that_is_not_utf8_is_refused_naming_the_file(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    bad = tmp_path / "move.json"
    bad.write_bytes(b'\xff\xfe{"type": "end_turn"}')
    error = run("submit", "g", "--as", "red", "--file", str(bad), code=2).stderr
    assert "move.json" in error and "UTF-8" in error, error
