"""Every command of the CLI's whole tree (a group's subcommands too: `dispute open`), walked from click's own
command tree (the queue's item 11, rev-q): its --help shows an example of itself, and it takes --json, whose errors
are JSON a script can read, with the exit status of their kind. test_docs.py checks the top-level commands' examples;
`export` and `position` took no --json (a script passing it got click's usage error), now they do."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from arbitro.cli import cli

from .conftest import Cli

# What takes no --json, and why: nothing of theirs is a result a script reads.
NO_JSON = {
    "serve": "a server: it answers HTTP, whose errors are JSON already",
    "demo": "a narrated demonstration for a person, which prints its commands as a person would type them",
}


def leaves(command: click.Command, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Each command that runs (not a group) with its path from `arbitro`."""
    if isinstance(command, click.Group):
        ctx = click.Context(command)
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            assert sub is not None, name
            yield from leaves(sub, (*path, name))
    else:
        yield path, command


COMMANDS = dict(leaves(cli))
# `arbitro remote ...` reads no database: its unknown game is the server's answer (tests/server/test_cli_remote.py).
WITH_GAME = sorted(p for p, c in COMMANDS.items() if p[0] != "remote" and any(
    isinstance(a, click.Argument) and a.name == "game" for a in c.params))


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=" ".join)
def test_every_command_shows_an_example_of_itself(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(cli, [*path, "--help"], prog_name="arbitro")
    assert result.exit_code == 0, result.output
    assert "Example:" in result.stdout, f"arbitro {' '.join(path)} --help has no example"
    assert f"arbitro {' '.join(path)} " in result.stdout.split("Example:", 1)[1]


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=" ".join)
def test_every_command_takes_json_but_those_that_say_why_not(path: tuple[str, ...]) -> None:
    options = {o for p in COMMANDS[path].params for o in getattr(p, "opts", ())}
    assert ("--json" in options) != (" ".join(path) in NO_JSON), path


VALUES = {"game": "no-such-game", "seat": "umpire", "ruleset_name": "duel", "command": '{"type": "end_turn"}'}
EXTRA = {("dispute", "rule"): ("--dismiss",), ("submit",): ("--as", "umpire")}  # asked before the game is read


@pytest.mark.parametrize("path", WITH_GAME, ids=" ".join)
def test_an_unknown_game_is_a_json_error_under_json(run: Cli, path: tuple[str, ...], tmp_path: Path) -> None:
    """Every command naming a GAME, given one the database does not have: a JSON error on stdout, exit status 3."""
    run("new", "duel", "standard", "--id", "g")  # the database exists: the game is what is missing
    args = [*path, *EXTRA.get(path, ())]
    for param in COMMANDS[path].params:  # each required value filled with one of the right type
        if isinstance(param, click.Argument):
            args += [VALUES.get(param.name or "", "1" if param.type is click.INT else "x")] * max(param.nargs, 1)
        elif param.required:
            args += [param.opts[0], VALUES.get(param.name or "", str(tmp_path / "out") if param.name == "output" else "1")]
    answer = run(*args, "--json", code=3).stdout
    assert json.loads(answer)["error"] == "store/game-not-found", answer


def test_export_and_position_answer_in_json_what_they_wrote(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    exported, position = tmp_path / "g.jsonl", tmp_path / "p.json"
    written = run.json("export", "g", "-o", str(exported))
    assert written == {"file": str(exported), "records": len(exported.read_text(encoding="utf-8").splitlines())}
    assert run.json("position", "g", "-o", str(position)) == {"file": str(position)}
    assert json.loads(position.read_text(encoding="utf-8")) == json.loads(run("position", "g").stdout)
