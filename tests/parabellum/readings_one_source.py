"""One source for the readings a Para Bellum game plays (review rev-g G1): the umpire's rulings in the core, the
ones `status` lists. A position file's `state.interpretations` is not a ruling (projections/fold.Fold.initial makes
the state's copy from the core's), and a ruling's patch may not touch `/interpretations` (refused, naming the
ruling's `interpretation` field: adjudicator/engine_steps.ruling_patch). Shared by tests/caldiero/test_rev_g.py and
tests/arrivano/test_readings_one_source.py, each game with a reading of its own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.service import Arbitro
from arbitro.cli import cli
from arbitro.events.sqlite import SQLiteStore


def playing_position_reading(ruleset: str, scenario: str, name: str, value: str) -> tuple[str, str, str]:
    """A game made from its own position whose state alone names `name`=`value` (the top level names none): the
    reading it plays, the one its status lists, and the book's default."""
    app = Arbitro(SQLiteStore(":memory:"))
    position = app.position(app.create(ruleset, scenario), seat="umpire")
    assert position["interpretations"] == {}
    position["state"]["interpretations"] = {name: value}
    game = app.create(ruleset, position=position)
    default = registry.get(ruleset).interpretations()[name].default
    played = app.state_at(game).rules.interpretations.get(name, default)
    return played, app.status(game).interpretations.get(name, default), default


def refused_reading_patch(ruleset: str, scenario: str, op: dict[str, Any]) -> tuple[IllegalCommand, int, int]:
    """The refusal of a ruling whose patch touches the state's copy of the readings, and the game's head before and
    after (nothing stored)."""
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create(ruleset, scenario)
    before = app.status(game).head
    with pytest.raises(IllegalCommand) as refused:
        app.submit(game, "umpire", {"type": "ruling", "reason": "fix the state", "patch": [op]})
    assert app.state_at(game).rules.interpretations == {} and app.status(game).interpretations == {}
    return refused.value, before, app.status(game).head


def cli_refuses_reading_patch(tmp: Path, ruleset: str, scenario: str, op: dict[str, Any]) -> dict[str, Any]:
    """`arbitro submit` of such a ruling: exit 1 (a refused command), its JSON error; the head stays."""
    runner, env = CliRunner(), {"ARBITRO_DB": str(tmp / "g.db"), "ARBITRO_STORE": None}

    def run(*args: str, code: int = 0) -> Any:
        result = runner.invoke(cli, [*args, "--json"], env=env, prog_name="arbitro")
        assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
        return json.loads(result.stdout)

    runner.invoke(cli, ["new", ruleset, scenario, "--id", "g", "--no-seat-entropy"], env=env, catch_exceptions=False)
    head = run("status", "g")["head"]
    ruling = {"type": "ruling", "reason": "fix the state", "patch": [op]}
    refused = run("submit", "g", "--as", "umpire", json.dumps(ruling), code=1)
    assert run("status", "g")["head"] == head
    return refused  # type: ignore[no-any-return]
