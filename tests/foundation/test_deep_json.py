"""rev-q (nineteenth session): JSON nested deeper than its decoder goes raised RecursionError, which no reader caught
(each caught its decoder's error alone): a traceback from every CLI command reading a JSON file (a command, a
position, an export to verify or import, a receipt) and HTTP 500 from `POST /games/{id}/mail`
(tests/server/test_limits_stream_mail.py). Each is now bad input naming what it read (errors.too_deep)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitro.adjudicator import datafiles
from arbitro.adjudicator.datafiles import DataError, DataProblem
from arbitro.adjudicator.errors import JsonUnreadable, read_outside_json

from .conftest import Cli

DEEP = "[" * 100_000 + "]" * 100_000
TOO_DEEP = "JSON nested too deeply to read"


@pytest.mark.parametrize("args, where", [
    (("submit", "g", "--as", "red", "--file", "{file}"), "command ({file})"),
    (("new", "duel", "standard", "--id", "p", "--position", "{file}"), "position ({file})"),
    (("verify", "{file}"), "{file}, line 1"),
    (("import", "{file}", "--as-id", "copy"), "{file}, line 1"),
    (("replay", "{file}"), "{file}, line 1"),
    (("verify", "g", "--receipt", "{file}"), "receipt ({file})"),
])
def test_json_nested_too_deeply_is_bad_input_naming_what_was_read(
    run: Cli, tmp_path: Path, args: tuple[str, ...], where: str,
) -> None:
    run("new", "duel", "standard", "--id", "g")
    deep = tmp_path / "deep.jsonl"
    deep.write_text(DEEP + "\n", encoding="utf-8")
    error = run(*(a.format(file=deep) for a in args), code=2).stderr
    assert f"error (input/bad-file): {where.format(file=deep)}: {TOO_DEEP}" in error, error


def test_a_data_file_nested_too_deeply_is_a_data_problem(tmp_path: Path) -> None:
    deep = tmp_path / "map.json"
    deep.write_text(DEEP, encoding="utf-8")
    with pytest.raises(DataError) as refused:
        datafiles.read_json(deep, "map.json")
    assert refused.value.problems[0].problem == TOO_DEEP


def test_a_data_file_with_a_number_too_long_to_read_is_a_data_problem(tmp_path: Path) -> None:
    """As the deep one: a ValueError that is no JSONDecodeError passed read_json as a traceback (reread-a)."""
    long = tmp_path / "map.json"
    long.write_text('{"hexes": %s}' % ("9" * 5000), encoding="utf-8")
    with pytest.raises(DataError) as refused:
        datafiles.read_json(long, "map.json")
    assert refused.value.problems[0].problem == "a number in it is too long to read (over 4,300 digits)"


def test_a_number_too_long_to_read_is_bad_input_in_words_for_the_sender(run: Cli) -> None:
    """json.loads refuses an integer of over 4,300 digits with a ValueError that is no JSONDecodeError, whose words
    advised `sys.set_int_max_str_digits()` (rev-q)."""
    run("new", "duel", "standard", "--id", "g")
    error = run("submit", "g", "--as", "red", '{"type": "undo", "to": %s}' % ("9" * 5000), code=2).stderr
    assert "error (input/bad-file): command (argument): a number in it is too long to read (over 4,300 digits)" \
        in error, error


@pytest.mark.parametrize("text, kind, cli, data", [
    ("{not json", JsonUnreadable.NOT_JSON,
     "is not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2",
     ("line 1 column 2", "not valid JSON: Expecting property name enclosed in double quotes")),
    (DEEP, JsonUnreadable.TOO_DEEP, TOO_DEEP, ("$", TOO_DEEP)),
    ("[%s]" % ("9" * 5000), JsonUnreadable.TOO_LONG, "a number in it is too long to read (over 4,300 digits)",
     ("$", "a number in it is too long to read (over 4,300 digits)")),
])
def test_json_handed_to_arbitro_fails_one_way_each_reader_words(tmp_path: Path, text: str, kind: str, cli: str,
                                                                data: tuple[str, str]) -> None:
    """errors.read_outside_json: json.loads' three failures (a decode error, RecursionError, an overlong integer's
    ValueError) one JsonUnreadable, no ValueError (datafiles' own DataError is one: 44d5244c took it for an overlong
    integer), which the CLI's, the server's and the data files' readers each word as before."""
    with pytest.raises(JsonUnreadable) as unreadable:
        read_outside_json(text)
    assert unreadable.value.kind == kind and not isinstance(unreadable.value, ValueError)
    assert str(unreadable.value.bad_file("command (argument)", "is not valid JSON")).startswith(
        "command (argument)" + ("" if kind == JsonUnreadable.NOT_JSON else ":") + f" {cli}")
    (tmp_path / "map.json").write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as refused:
        datafiles.read_json(tmp_path / "map.json", "map.json")
    assert list(refused.value.problems) == [DataProblem("map.json", *data)]


@pytest.mark.parametrize("ruleset, scenario, file, text", [
    ("marengo", "marengo", "map.json", DEEP),
    ("monferrato", "1628", "chits.json", DEEP),
    ("caricat", "pastrengo", "pastrengo.json", '{"x": %s}' % ("9" * 5000)),
])
def test_a_data_folder_s_file_unreadable_as_json_is_bad_input_not_a_traceback(
    run: Cli, tmp_path: Path, ruleset: str, scenario: str, file: str, text: str,
) -> None:
    """Marengo's, Monferrato's and Caricat's data loaders caught the decode error alone: a --data folder's file nested
    too deeply or holding an overlong number was a RecursionError or ValueError traceback. Now each is the file's
    DataProblem in the words datafiles.read_json gives (datafiles.json_problem)."""
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / file).write_text(text, encoding="utf-8")
    error = run("new", ruleset, scenario, "--data", str(folder), code=2).stderr
    words = TOO_DEEP if text == DEEP else "a number in it is too long to read (over 4,300 digits)"
    assert f"{file}: $: {words}" in error, error
