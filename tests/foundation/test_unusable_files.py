"""rev-q (nineteenth session; the queue's "a CLI file that exists but cannot be read"): a file named on the command
line that exists but cannot be read (a directory, a pipe, no permission) or cannot be written (its folder missing,
no permission) got a traceback and exit status 1 (the status of a rule's refusal) from every command that writes
one (`export -o`, `keygen`, `receipt -o`, `render`, `report`, `submit --offline`, `position -o`) and from `entropy`
and `verify`; or "no such file" (exit 3) for a pipe or a directory that is there (`arbitro verify <(curl ...)`).
Each is now refused naming the file and the system's reason: `input/file-unusable`, exit status 2 (bad input).
The machine runs as root, so permissions are simulated by making the read or the write raise PermissionError."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arbitro.adjudicator import exchange_file

from .conftest import Cli


UNUSABLE = "error (input/file-unusable): "


@pytest.fixture
def game(run: Cli) -> str:
    """A duel g, and a Marengo game m for what draws a map."""
    run("new", "duel", "standard", "--id", "g")
    run("new", "marengo", "marengo", "--id", "m")
    return "g"


def refused(run: Cli, *args: str) -> str:
    """The command's error, which must be the unusable file's (exit status 2, never a traceback)."""
    error = run(*args, code=2).stderr.strip().splitlines()[-1]
    assert error.startswith(UNUSABLE), error
    return error.removeprefix(UNUSABLE)


@pytest.mark.parametrize("args", [
    ("export", "g", "-o", "{missing}/g.jsonl"),
    ("keygen", "-o", "{missing}/red.key"),
    ("receipt", "g", "-o", "{missing}/r.json"),
    ("render", "m", "-o", "{missing}/map.svg"),
    ("report", "g", "-o", "{missing}/g.html"),
    ("report", "g", "-o", "{missing}/g.md"),
    ("report", "m", "--viewer", "-o", "{missing}/m-viewer.html"),
    ("position", "g", "-o", "{missing}/p.json"),
    ("submit", "g", "--as", "red", '{{"type": "end_turn"}}', "--offline", "-o", "{missing}/red.json"),
])
def test_a_file_that_cannot_be_written_is_named_with_the_reason(
    run: Cli, game: str, tmp_path: Path, args: tuple[str, ...],
) -> None:
    message = refused(run, *(a.format(missing=tmp_path / "no-such-folder") for a in args))
    assert "no-such-folder" in message and "cannot be written (No such file or directory)" in message, message
    assert not (tmp_path / "no-such-folder").exists()


@pytest.mark.parametrize("make, kind", [(os.mkdir, "a directory"), (os.mkfifo, "a pipe or a device")])
def test_an_export_to_verify_that_is_not_a_regular_file_is_said_so(
    run: Cli, tmp_path: Path, make: object, kind: str,
) -> None:
    """Not "no such file" (exit 3): it is there. verify reads its file twice (each line checked again as it is
    judged), so a pipe cannot be verified in place; replay reads SOURCE the same way."""
    there = tmp_path / "g.jsonl"
    make(there)  # type: ignore[operator]
    for command in ("verify", "replay"):
        message = refused(run, command, str(there))
        assert message == f"{there}: cannot be read: not a regular file ({kind}); save the export to a file", message


def test_a_file_the_cli_may_not_read_is_named_with_the_reason(
    run: Cli, game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    command = tmp_path / "end.json"
    command.write_text('{"type": "end_turn"}', encoding="utf-8")
    denied = PermissionError(13, "Permission denied")

    def read_bytes(self: Path) -> bytes:
        raise denied

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    message = refused(run, "submit", "g", "--as", "red", "--file", str(command))
    assert message == f"{command}: cannot be read (Permission denied)"


def test_an_export_verify_may_not_open_is_named_with_the_reason(
    run: Cli, game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    export = tmp_path / "g.jsonl"
    run("export", "g", "-o", str(export))

    def denied(*_: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(exchange_file, "open", denied, raising=False)
    assert refused(run, "verify", str(export)) == f"{export}: cannot be read (Permission denied)"


def test_an_entropy_file_that_is_a_directory_is_named(run: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`arbitro entropy` keeps the seat's entropy in a file (GAME.SEAT.entropy, made before it is committed)."""
    monkeypatch.chdir(tmp_path)
    run("new", "duel", "standard", "--id", "e", "--seat-entropy")
    (tmp_path / "e.red.entropy").mkdir()
    assert refused(run, "entropy", "e", "--as", "red") == "e.red.entropy: cannot be read (Is a directory)"
