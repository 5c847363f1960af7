"""One reader of a file someone hands arbitro (fix-r, eighteenth session): errors.read_utf8, which both
datafiles.read_text (a data file: DataError) and cli_common.read_text (a file named on the command line: NoSuchFile,
BadFile) use, each keeping its own error type and words (test_data_not_utf8.py, test_rev_o_file_not_utf8.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitro.adjudicator import cli_common, datafiles
from arbitro.adjudicator.datafiles import DataError, DataProblem
from arbitro.adjudicator.errors import BadFile, FileUnusable, NoSuchFile, read_utf8


def _refused(e: OSError | UnicodeDecodeError) -> Exception:
    return ValueError(type(e).__name__)


def test_read_utf8_decodes_or_says_what_failed(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text("è", encoding="utf-8")
    bad.write_bytes(b"\xff")
    assert read_utf8(good, _refused) == "è"
    for path, why in ((bad, "UnicodeDecodeError"), (tmp_path / "none", "FileNotFoundError"),
                      (tmp_path, "IsADirectoryError")):
        with pytest.raises(ValueError, match=f"^{why}$"):
            read_utf8(path, _refused)


def test_each_reader_keeps_its_own_error_type_and_words(tmp_path: Path) -> None:
    with pytest.raises(DataError) as data:
        datafiles.read_text(tmp_path / "none", "maps/x.json")
    assert data.value.problems == (DataProblem("maps/x.json", "$", "file not found"),)
    with pytest.raises(DataError) as data:
        datafiles.read_text(tmp_path, "maps")
    assert data.value.problems[0].problem.startswith("cannot read file: ")
    with pytest.raises(NoSuchFile, match="none: give another file"):
        cli_common.read_text(str(tmp_path / "none"), "give another file")
    (tmp_path / "bad").write_bytes(b"a\xfe")
    with pytest.raises(BadFile, match=r"bad: not UTF-8 text \(byte 0xfe at offset 1\); save it as UTF-8"):
        cli_common.read_text(str(tmp_path / "bad"))
    with pytest.raises(FileUnusable, match=r": cannot be read \(Is a directory\)$"):  # any other OSError (rev-q)
        cli_common.read_text(str(tmp_path))
