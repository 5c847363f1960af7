"""Issue 14 (13, 10): what a newcomer meets first. The README's test command shows its summary, its "Using it"
commands and the demo's hints run as printed, `--help` examples name only what ships, and a refusal is a
refusal: `export --as SEAT --with-seed`, `legal` without `--as`, a fork or an undo to the middle of a command."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from arbitro.adjudicator import core_commands as cc
from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import MalformedCommand
from arbitro.cli import cli

from .conftest import DUEL, REPO, Cli, arbitro_exe, exchange

SHIPPED = sorted(registry.SHIPPED)


# --- the README's test command -------------------------------------------------------------------
def _pytest_args(text: str) -> list[str]:
    """The arguments after `-m pytest` on the one line of `text` that runs the tests."""
    (line,) = [line for line in text.splitlines() if "-m pytest" in line]
    return shlex.split(line.split("-m pytest", 1)[1])


def _quiet(args: list[str]) -> int:
    return sum(a.count("q") for a in args if re.fullmatch(r"-q+", a)) + args.count("--quiet")


@pytest.mark.parametrize("source", ["README.md", ".ci/run"])
def test_the_test_command_as_documented_prints_the_summary_line(source: str, tmp_path: Path) -> None:
    args = _pytest_args((REPO / source).read_text(encoding="utf-8"))
    addopts = shlex.split(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
                          .get("addopts", ""))
    assert _quiet(args) + _quiet(addopts) <= 1, f"{source} with pyproject's addopts is -qq: no 'N passed' line"
    # Run it as documented, on one quick test, without the workers (-n does not change what is printed).
    args = [a for a in args if a not in ("-n", "auto", "--dist", "loadgroup")]
    node = "tests/foundation/test_docs.py::test_readme_states_the_exit_statuses_the_cli_uses"
    done = subprocess.run([sys.executable, "-m", "pytest", *args, "-p", "no:cacheprovider", node], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^1 passed in ", done.stdout, re.MULTILINE), done.stdout


# --- the README's commands and the demo's hints run as printed -----------------------------------
def test_the_readme_says_to_activate_the_virtual_environment_before_using_it() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    using = readme.split("## Using it", 1)[1].split("```sh", 1)[1]
    first = next(line for line in using.splitlines() if line.strip())
    assert first.split("#")[0].strip() == ". .venv/bin/activate", first
    setup = readme.split("## Set up", 1)[1].split("## ", 1)[0]
    assert "python3 -m venv .venv" in setup  # the environment that line activates is the one the set-up makes


def test_the_demos_hints_run_as_printed_without_an_active_virtual_environment(tmp_path: Path) -> None:
    exe = arbitro_exe()
    if len(exe) != 1:
        pytest.skip("the arbitro console script is not installed beside this interpreter")
    env = {**os.environ, "ARBITRO_RULESETS": DUEL, "PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}
    env.pop("ARBITRO_DB", None)
    db = tmp_path / "demo.db"
    done = subprocess.run([*exe, "demo", "--ruleset", "duel", "--steps", "4", "--db", str(db)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    hints = done.stdout.split("Try: ", 1)[1].splitlines()[0].split("; ")
    assert len(hints) == 3
    for hint in hints:  # each hint, typed into the shell as printed
        ran = subprocess.run(hint, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
        assert ran.returncode == 0, f"{hint!r}: {ran.stderr}"
    assert (tmp_path / "game.jsonl").is_file()


# --- --help examples name only what ships -----------------------------------------------------------
def _examples() -> list[tuple[str, str]]:
    out = []
    for name in ["", *cli.list_commands(click.Context(cli))]:  # the lazily loaded ones too
        text = CliRunner().invoke(cli, [*([name] if name else []), "--help"], prog_name="arbitro").stdout
        for line in text.split("Example:", 1)[1].splitlines() if "Example:" in text else []:
            if line.strip().startswith("arbitro "):
                out.append((name or "arbitro", line.strip()))
    return out


@pytest.mark.parametrize("where, line", _examples())
def test_help_examples_use_only_shipped_rulesets_seats_and_commands(where: str, line: str) -> None:
    words = shlex.split(line.split("  (", 1)[0], comments=True)  # a "# ..." remark is prose
    seats = {s for name in SHIPPED for sc in registry.get(name).scenarios().values() for s in sc.seats} | {"umpire"}
    ruleset = None
    for word in words[2:]:
        match = re.fullmatch(r"([a-z]+)-[0-9a-f]{4,}", word)  # a game id: named after its ruleset
        if match:
            assert match.group(1) in SHIPPED, f"{where}: {line}: game {word} is of an unshipped ruleset"
            ruleset = match.group(1)
    for flag, value in zip(words, words[1:]):
        if flag == "--as":
            assert value in seats, f"{where}: {line}: no shipped scenario has a seat {value!r}"
        if flag == "--ruleset":
            assert value in SHIPPED, f"{where}: {line}: {value!r} is not shipped"
    if words[1] == "new" and len(words) > 2:
        assert words[2] in SHIPPED, f"{where}: {line}"
        ruleset = words[2]
        if len(words) > 3 and not words[3].startswith("-"):
            assert words[3] in registry.get(ruleset).scenarios(), f"{where}: {line}: no scenario {words[3]}"
        for flag, value in zip(words, words[1:]):
            if flag == "--option":
                assert value in registry.get(ruleset).scenarios()[words[3]].options, f"{where}: {line}"
    for word in words:
        if word.startswith("{"):  # a command: it parses as one of that ruleset's (or the engine's)
            command = json.loads(word)
            if command["type"] in cc.CORE_COMMAND_TYPES:
                cc.core_commands.validate_python(command)
            else:  # a placeholder GAME: some shipped ruleset has the command
                parsed = [name for name in ([ruleset] if ruleset else SHIPPED) if _parses(name, command)]
                assert parsed, f"{where}: {line}: no shipped ruleset has this command"


def _parses(ruleset: str, command: dict[str, object]) -> bool:
    try:
        registry.get(ruleset).parse_command(command)
    except MalformedCommand:
        return False
    return True


# --- refusals that were silent or inconsistent -----------------------------------------------------
def test_export_as_a_seat_with_the_seed_is_refused_not_ignored(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    target = tmp_path / "red.jsonl"
    error = run("export", "g", "--as", "red", "--with-seed", "-o", str(target), code=2).stderr
    assert "--with-seed" in error and "umpire" in error
    assert not target.exists()
    run("export", "g", "--as", "red", "-o", str(target))  # without it, red's export as before
    assert json.loads(target.read_text().splitlines()[0])["seed"] is None


def test_legal_without_as_names_the_games_seats(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    error = run("legal", "g", code=2).stderr
    assert "--as" in error and "red, blue, umpire" in error
    assert run.json("legal", "g", code=2)["error"] == "input/bad"
    assert "no game 'nope'" in run("legal", "nope", code=3).stderr  # the game is looked up first


def test_a_fork_and_an_undo_to_the_middle_of_a_command_are_refused_alike(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")  # blue's guard: several events from one command
    middle = run.json("log", "g")[-2]["seq"]
    undo = run.json("undo", "g", "--as", "umpire", "--to", str(middle), "--reason", "try it", code=1)
    fork = run.json("fork", "g", "--at", str(middle), code=1)
    assert undo["error"] == fork["error"] == "rules/illegal"
    assert undo["rule"] == fork["rule"] == "arbitro §U.3"
    assert "middle of" in undo["message"] and "middle of" in fork["message"]
    assert len(run.json("games")) == 1  # nothing forked
    # each names the command and the points on either side of it, so that the umpire need not read the log for one
    log = run.json("log", "g")
    cmd = log[-2]["cmd"]
    began, end = min(e["seq"] for e in log if e["cmd"] == cmd), max(e["seq"] for e in log if e["cmd"] == cmd)
    where = f"#{middle} is in the middle of command {cmd} (events #{began}-#{end}):"
    assert undo["message"] == f"{where} take back to the end of a command, #{began - 1} or #{end}"
    assert fork["message"] == f"{where} fork at the end of a command, #{began - 1} or #{end}"
    creation = run.json("fork", "g", "--at", "1", code=1)["message"]  # inside the creation: its end alone
    assert creation.startswith("#1 is in the middle of command 0 (events #1-#") and " or " not in creation


@pytest.mark.parametrize("command", ["knowledge", "entropy"])
def test_a_required_seat_left_out_is_named_missing_not_taken_as_none(run: Cli, command: str) -> None:
    """click 8.3+ took the explicit `default=None` of a required --as as a value: `view GAME` without --as said
    "unknown seat None". Each command whose --as is required says it is missing (usage, exit 2). (`view`'s --as is
    optional since 16e48cb: the umpire's, or on a seat's copy the copy's seat.)"""
    run("new", "duel", "standard", "--id", "g")
    shown = run(command, "g", code=2)
    assert "None" not in shown.output + shown.stderr
    assert "--as" in shown.output + shown.stderr


def test_render_and_report_refuse_a_file_name_their_format_is_not(run: Cli, tmp_path: Path) -> None:
    """`render -o map.png` wrote an SVG named .png (and `--png` then wrote map.png over it); `report -o game.pdf`
    wrote HTML named .pdf. Each is refused before anything is drawn, naming the formats (exit 2)."""
    run("new", "marengo", "marengo", "--id", "m")
    png, pdf = tmp_path / "map.png", tmp_path / "game.pdf"
    assert "render writes an SVG picture: name the file .svg" in run("render", "m", "-o", str(png), code=2).stderr
    assert "a report is written as HTML or Markdown: name the file .html or .md" in run(
        "report", "m", "-o", str(pdf), code=2).stderr
    assert not png.exists() and not pdf.exists()
    run("render", "m", "-o", str(tmp_path / "MAP.SVG"))  # the suffix in any case
