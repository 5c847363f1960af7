"""One source for the readings a Para Bellum game plays (review rev-g G1): the umpire's rulings in the core, the
ones `status` lists. A position file's `state.interpretations` is not a ruling (projections/fold.Fold.initial makes
the state's copy from the core's; a position whose state names readings other than its top level's is refused,
creation.readings_as_written), and a ruling's patch may not touch `/interpretations` (refused, naming the
ruling's `interpretation` field: adjudicator/engine_steps.ruling_patch). Shared by tests/caldiero/test_rev_g.py and
tests/arrivano/test_readings_one_source.py, each game with a reading of its own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arbitro.adjudicator import registry
from arbitro.adjudicator.creation import genesis
from arbitro.adjudicator.errors import BadPosition, IllegalCommand
from arbitro.adjudicator.service import Arbitro
from arbitro.cli import cli
from arbitro.events import core
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.fold import Fold


def planting_position_reading(ruleset: str, scenario: str, name: str, value: str) -> BadPosition:
    """A game made from its own position whose state alone names `name`=`value` (the top level names none): refused
    (creation.readings_as_written), nothing created."""
    app = Arbitro(SQLiteStore(":memory:"))
    position = app.position(app.create(ruleset, scenario), seat="umpire")
    assert position["interpretations"] == {}
    position["state"]["interpretations"] = {name: value}
    with pytest.raises(BadPosition) as refused:
        app.create(ruleset, position=position)
    assert len(app.games()) == 1
    return refused.value


def position_reading(ruleset: str, scenario: str, name: str, value: str, copy: str) -> tuple[str, str, Any]:
    """A game made from a position whose top level names `name`=`value`, its state's copy of the readings (`copy`)
    the `same`, `empty` or left `out`: the reading it plays, the one its status lists, and the genesis' stored copy
    (what a seat is served)."""
    app = Arbitro(SQLiteStore(":memory:"))
    position = app.position(app.create(ruleset, scenario), seat="umpire")
    position["interpretations"] = {name: value}
    position["state"]["interpretations"] = {name: value} if copy == "same" else {}
    if copy == "out":
        del position["state"]["interpretations"]
    game = app.create(ruleset, position=position)
    stored = genesis(registry.get(ruleset), "00" * 32, salt_key="00" * 32, position=position).initial["interpretations"]
    return app.state_at(game).rules.interpretations[name], app.status(game).interpretations[name], stored


def cli_refuses_planted_reading(tmp: Path, ruleset: str, scenario: str, name: str, value: str) -> str:
    """`arbitro new --position` of a position whose state alone names a reading: exit 2 (bad input), its words;
    no game made."""
    runner, env = CliRunner(), {"ARBITRO_DB": str(tmp / "p.db"), "ARBITRO_STORE": None}
    position = Arbitro(SQLiteStore(":memory:"))
    written = position.position(position.create(ruleset, scenario), seat="umpire")
    written["state"]["interpretations"] = {name: value}
    path = tmp / "planted.json"
    path.write_text(json.dumps(written), encoding="utf-8")
    result = runner.invoke(cli, ["new", ruleset, "--position", str(path)], env=env, prog_name="arbitro")
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert runner.invoke(cli, ["games"], env=env).stdout.strip() == "no games"
    return result.stderr


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


def folded_reading_patch(ruleset: str, scenario: str, op: dict[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    """A stored ruling whose patch writes the state's copy of the readings (a log recorded before the refusal,
    e6d9ab9), folded: the state's copy and the core's readings after it."""
    fold = Fold(registry.get(ruleset))
    state = fold.apply_event(None, 1, genesis(registry.get(ruleset), "00" * 32, scenario, salt_key="00" * 32))
    state = fold.apply_event(state, 2, core.RulingMade(reason="recorded before e6d9ab9", patch=(op,)))
    return state.rules.interpretations, state.core.interpretations


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
