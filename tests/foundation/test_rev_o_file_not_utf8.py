"""rev-o O6 (seventeenth session, minor): a command file that was not UTF-8 was refused with Python's codec words only
("'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"), naming neither the file nor what to do,
where a file that is not JSON is refused naming it ("command (trunc.json) is not valid JSON: ... at line 2 column
1", tests/foundation/test_bad_input.py). The brief's standard: precise, actionable errors. Every file the CLI reads
is now refused alike: the file, the byte, the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import Cli

NOT_UTF8 = b'\xff\xfe{"type": "end_turn"}\n'


@pytest.mark.parametrize("args", [
    ("submit", "g", "--as", "red", "--file", "{file}"),     # a command file
    ("import", "{file}"),                                    # an exported log to store
    ("replay", "{file}"),                                    # an exported log read in place (cli_common.app_for)
    ("new", "duel", "standard", "--id", "p", "--position", "{file}"),  # a position file
    ("submit", "g", "--as", "red", "--sign", "{file}", '{{"type": "end_turn"}}'),  # a private key file
])
def test_every_file_the_cli_reads_is_refused_alike_when_not_utf8(run: Cli, tmp_path: Path, args: tuple[str, ...]) -> None:
    """One reader (cli_common.read_text) for every file named on the command line: the file, the byte, the fix."""
    run("new", "duel", "standard", "--id", "g")
    bad = tmp_path / "mailed.jsonl"
    bad.write_bytes(NOT_UTF8)
    error = run(*(a.format(file=bad) for a in args), code=2).stderr
    assert "mailed.jsonl: not UTF-8 text (byte 0xff at offset 0); save it as UTF-8" in " ".join(error.split()), error
