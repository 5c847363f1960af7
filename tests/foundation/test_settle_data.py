"""Issue 15: the service freezes a ruleset's loaded data out of the garbage collector's sight once per ruleset per
process (service.settle_data), never per game: frozen objects are never collected, so a freeze per game or per
request would leak in a long-running server."""

from __future__ import annotations

import gc

import pytest

from arbitro.adjudicator import service
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore


def test_a_rulesets_data_is_frozen_once_per_process_not_per_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service, "_SETTLED", set())  # as in a fresh process
    frozen: list[int] = []
    collected: list[int] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(len(collected)))
    monkeypatch.setattr(gc, "collect", lambda *a: collected.append(1) or 0)
    for n in range(3):  # three applications (a CLI call each, or a server's) and two games each, in one process
        app = Arbitro(SQLiteStore(":memory:"))
        for g in ("a", "b"):
            app.create("duel", "standard", game_id=f"{g}{n}", seed="5e" * 32)
            app.legal(f"{g}{n}", "red")
    assert frozen == [1]  # once, after a full collection (no garbage frozen)
    assert service.settle_data("duel", Arbitro(SQLiteStore(":memory:")).adjudicator("duel").ruleset) is False
    assert "duel" in service._SETTLED and frozen == [1]
