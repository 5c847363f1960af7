"""The README's demonstration: real play through the adjudicator, a rejection, views, fork, replay, verify."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from arbitro.adjudicator import registry
from arbitro.adjudicator.service import Arbitro
from arbitro.cli import cli
from arbitro.events.sqlite import SQLiteStore

registry.register("duel", "tests.foundation.duel:DuelRuleset")


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
