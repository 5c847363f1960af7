"""Issue 15: a ruleset's loaded data is frozen out of the garbage collector's sight once per ruleset per process
(preload.settle_data), never per game: frozen objects are never collected, so a freeze per game or per request would
leak in a long-running server. The server does it at its start (its lifespan); a one-shot command, which gains nothing
from it, never pays for it."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import pytest

from arbitro.adjudicator import preload, registry
from arbitro.adjudicator.server import create_app
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore


@pytest.fixture
def freezes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """gc.freeze's calls (each the number of full collections before it), in a process as fresh as a new one."""
    monkeypatch.setattr(preload, "_SETTLED", set())
    frozen: list[int] = []
    collected: list[int] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(len(collected)))
    monkeypatch.setattr(gc, "collect", lambda *a: collected.append(1) or 0)
    return frozen


def play_two_games_in_three_apps() -> None:
    for n in range(3):  # three applications (a CLI call each, or a server's) and two games each, in one process
        app = Arbitro(SQLiteStore(":memory:"))
        for g in ("a", "b"):
            app.create("duel", "standard", game_id=f"{g}{n}", seed="5e" * 32, salt_key="a1" * 32)
            app.legal(f"{g}{n}", "red")


def test_an_application_alone_freezes_nothing(freezes: list[int]) -> None:
    play_two_games_in_three_apps()
    assert freezes == [] and preload._SETTLED == set()


def test_the_server_settles_every_ruleset_at_its_start_once(freezes: list[int],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    duel = registry.get("duel")
    built: list[str] = []
    new_state = duel.new_state
    monkeypatch.setattr(duel, "new_state",
                        lambda scenario, options: built.append(scenario) or new_state(scenario, options))
    broken: dict[str, Any] = {"duel": duel, "broken": "ruleset 'broken' is not available in this build (ImportError)"}
    monkeypatch.setattr(registry, "available", lambda: broken)
    api = create_app(Arbitro(SQLiteStore(":memory:")), "host")
    assert freezes == [] and built == []  # made, not started

    async def start() -> None:
        async with api.router.lifespan_context(api):  # what uvicorn runs before the first request
            pass

    asyncio.run(start())
    assert freezes == [1] and preload._SETTLED == {"duel"}  # after a full collection: no garbage frozen
    assert sorted(built) == sorted(duel.scenarios())  # every scenario's initial state: its data loaded
    play_two_games_in_three_apps()
    assert freezes == [1]  # never again, per game or per application
    assert preload.settle_data({"duel": duel}) == [] and freezes == [1]
