"""The documentation keeps up with the code: every CLI command has --help with an example and is shown
in README.md, and every engine rule the code cites is defined in docs/engine-rules.md."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from arbitro.adjudicator import registry
from arbitro.cli import cli

from .conftest import REPO

COMMANDS = cli.list_commands(click.Context(cli))  # the lazily loaded ones too (cli.LAZY_COMMANDS)
CODE_DIRS = ("adjudicator", "events", "projections")


def test_the_cli_has_the_commands_the_product_promises() -> None:
    promised = {"rulesets", "games", "new", "status", "legal", "submit", "view", "log", "replay", "fork", "undo",
                "annotate", "export", "import", "verify", "reveal", "position"}
    assert promised <= set(COMMANDS), promised - set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_help_with_an_example(name: str) -> None:
    result = CliRunner().invoke(cli, [name, "--help"], prog_name="arbitro")
    assert result.exit_code == 0, result.output
    assert "Example:" in result.stdout
    example = result.stdout.split("Example:", 1)[1]
    assert f"arbitro {name}" in example, f"the example of {name} does not show `arbitro {name}`"


def test_the_top_level_help_has_an_example_and_lists_every_command() -> None:
    text = CliRunner().invoke(cli, ["--help"], prog_name="arbitro").stdout
    assert "Example:" in text
    for name in COMMANDS:
        assert re.search(rf"^\s+{re.escape(name)}\s", text, re.MULTILINE), name


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_appears_in_the_readme(name: str) -> None:
    readme = REPO / "README.md"
    assert readme.exists(), "README.md is missing"
    assert f"arbitro {name}" in readme.read_text(encoding="utf-8"), f"README.md does not show `arbitro {name}`"


def _cited_engine_rules() -> set[str]:
    cited: set[str] = set()
    for folder in CODE_DIRS:
        for path in sorted((REPO / folder).rglob("*.py")):
            cited |= set(re.findall(r"arbitro §([A-Z]\.\d+)", path.read_text(encoding="utf-8")))
    for path in sorted(REPO.glob("cli*.py")):  # cli.py and the modules beside it
        cited |= set(re.findall(r"arbitro §([A-Z]\.\d+)", path.read_text(encoding="utf-8")))
    return cited


def test_every_engine_rule_the_code_cites_is_defined_in_the_docs() -> None:
    cited = _cited_engine_rules()
    assert {"S.2", "R.4", "U.1", "U.4"} <= cited  # the search finds what the engine cites
    doc = REPO / "docs" / "engine-rules.md"
    assert doc.exists(), "docs/engine-rules.md is missing"
    defined = set(re.findall(r"\*\*§([A-Z]\.\d+)\*\*", doc.read_text(encoding="utf-8")))
    assert cited <= defined, f"cited but not defined in docs/engine-rules.md: {sorted(cited - defined)}"


def test_readme_states_the_exit_statuses_the_cli_uses() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for status, meaning in ((0, "success"), (1, "rejected"), (2, "bad input"), (3, "not found")):
        assert re.search(rf"\b{status}\b[^.;,]*{meaning}", readme), (status, meaning)


def test_docs_links_in_the_readme_resolve() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/[^)#]+)\)", readme)
    assert links, "README.md links its design notes"
    missing = [link for link in links if not Path(REPO, link).exists()]
    assert not missing, missing


def test_the_readmes_walk_through_names_only_its_games_seats_and_readings() -> None:
    """The README's "Using it" block plays one Marengo game, $G: every seat it names is one of that game's (it named
    a `red` that no shipped game has), and every reading it rules on is Marengo's (it named Caldiero's, which the
    game refuses), with one of its choices."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index("## Using it"):readme.index("**Before a reveal**")]
    assert "G=$(arbitro new marengo marengo)" in block
    marengo = registry.get("marengo")
    seats = {*next(iter(marengo.scenarios().values())).seats, "umpire"}
    named = set(re.findall(r"--(?:as|seat|for) ([a-z_]+)", block)) | set(re.findall(r'"seats?": \["?([a-z_]+)', block))
    assert named and named <= seats, named - seats
    readings = marengo.interpretations()
    ruled = re.findall(r"--ruling ([a-z_]+)=([a-z_]+)", block) + re.findall(r'"interpretation": \{"([a-z_]+)": "([a-z_]+)"',
                                                                          block)
    assert ruled and all(name in readings and choice in readings[name].choices for name, choice in ruled), ruled
    assert all(ruleset == "marengo" for ruleset in re.findall(r"arbitro interpretations ([a-z]+)", block))
