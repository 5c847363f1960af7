"""The README's demonstration: real play through the adjudicator, a rejection, views, fork, replay, verify."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from click.testing import CliRunner

from arbitro.adjudicator import demo, registry
from arbitro.adjudicator.service import Arbitro
from arbitro.cli import cli
from arbitro.events.sqlite import SQLiteStore
from tests import seeds

registry.register("duel", "tests.foundation.duel:DuelRuleset")


@pytest.fixture(autouse=True)
def seats_entropy_from_the_tests_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo's seats draw their entropy from a fresh secret, as real clients do; here from the test's seeds
    (tests/seeds.py), so the demo plays the same game every run (its dice mix that entropy in, arbitro §R.2)."""
    monkeypatch.setattr(demo, "secrets", SimpleNamespace(token_hex=lambda n: seeds.SEEDS.new_seed()[: 2 * n]))


def test_the_demo_plays_rejects_views_forks_replays_and_verifies(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    result = CliRunner().invoke(cli, ["demo", "--ruleset", "duel", "--steps", "10", "--db", str(db)])
    assert result.exit_code == 0, result.output
    out = result.output
    for step in ("1. created", "2. playing 10 commands", "3. ", "4. each seat's view", "5. forked", "6. replayed",
                 "7. verified"):
        assert step in out
    assert "rejected [" in out and "VERIFIED" in out
    app = Arbitro(SQLiteStore(db))
    games = app.store.games()
    assert len(games) == 2 and sum(g.parent is not None for g in games) == 1
    main = next(g for g in games if g.parent is None)
    played = [c.record.command["type"] for c in app.store.commands(main.id)][1:]
    assert played[-1] == "fork", "the fork is the umpire's act, recorded in the parent's log (arbitro §R.3)"
    played = [t for t in played if t not in ("fork", "commit_entropy", "reveal_entropy")]
    assert len(played) == 10, "the demo's probing and its rejected command appended nothing"
    assert app.verify(main.id).passed


# Issue 14.14: every shipped ruleset's demo leaves set-up and reaches movement, combat and dice.
COMBAT_EVENTS = {
    "caldiero": ("assault_resolved", "artillery_fired"),
    "arrivano": ("assault_resolved", "artillery_fired", "infantry_fired"),
    "marengo": ("assault_resolved", "bombardment_resolved", "strength_lost", "loss_task_ended"),  # losses: issue 18
}
MOVES = {"caldiero": "units_moved", "arrivano": "units_moved", "marengo": "blocks_moved"}
ROLLS = {"caldiero": "dice_rolled", "arrivano": "dice_rolled", "marengo": "items_drawn"}  # Marengo draws, never rolls


@pytest.mark.parametrize("ruleset", sorted(COMBAT_EVENTS))
def test_each_rulesets_demo_reaches_movement_combat_and_dice(tmp_path: Path, ruleset: str) -> None:
    db = tmp_path / "demo.db"
    result = CliRunner().invoke(cli, ["demo", "--ruleset", ruleset, "--db", str(db)], env={"ARBITRO_DB": None})
    assert result.exit_code == 0, result.output
    played = [line for line in result.output.splitlines() if ": {\"type\": " in line]
    shown = " ".join(line.split(" -> ", 1)[1] for line in played if " -> " in line)
    assert MOVES[ruleset] in shown and ROLLS[ruleset] in shown, result.output
    assert any(kind in shown for kind in COMBAT_EVENTS[ruleset]), result.output
    assert "VERIFIED" in result.output  # how long it takes is bench/'s to measure, never a timed test
    app = Arbitro(SQLiteStore(db))  # what it printed is what the game's log holds
    main = next(g for g in app.store.games() if g.parent is None)
    logged = {e["type"] for e in app.log(main.id)}
    assert MOVES[ruleset] in logged and ROLLS[ruleset] in logged and logged & set(COMBAT_EVENTS[ruleset])
