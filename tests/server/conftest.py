"""The HTTP server under test: uvicorn started in-process on an ephemeral loopback port, over its own SQLite
database, and httpx clients holding one role's token each."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from arbitro.adjudicator import registry
from arbitro.adjudicator.http_access import Limits
from arbitro.adjudicator.pictures.model import Approach, AreaPicture, Block, Zone
from arbitro.adjudicator.pictures.rulesets import PICTURES
from arbitro.adjudicator.server import create_app
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore

registry.register("duel", "tests.foundation.duel:DuelRuleset")


def duel_picture(view: Any, provisional: tuple[str, ...], data: Any = None) -> AreaPicture:
    """The duel's map for the server's picture endpoint: one zone a side, its block with its hit points, and the
    seat's own card (hidden from the other seat) on its own block only."""
    state, seat = view["state"], view["seat"]
    blocks = {side: (Block(side, id=side, label=f"hp {hp}", values=state.get("my_card") or "" if side == seat else ""),)
              for side, hp in sorted(state["hp"].items())}
    return AreaPicture(title="Duel", caption=f"round {state['round']}", zones=(Zone("red", "Red"), Zone("blue", "Blue")),
                       approaches=(Approach("red", "blue", "wide"),), blocks=blocks,
                       colours={"red": "#b22222", "blue": "#1f4e9c"}, provisional=provisional)


PICTURES.setdefault("duel", duel_picture)

HOST_TOKEN = "host-token-for-the-tests"
FAST = Limits(commands_per_second=10_000, games_per_token=10_000)  # the tests' games are not throttled


class Server:
    """A running server: `client(role)` is an httpx client with that role's token (of `game`, by default the last
    game `new` made), `host` the operator's."""

    def __init__(self, app: Arbitro, limits: Limits, poll: float = 0.5, open_creation: bool = False) -> None:
        self.app = app
        self.api = create_app(app, HOST_TOKEN, limits=limits, poll=poll, open_creation=open_creation)
        self.uvicorn = uvicorn.Server(uvicorn.Config(self.api, host="127.0.0.1", port=0, log_level="warning",
                                                     lifespan="on"))
        self.thread = threading.Thread(target=self.uvicorn.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.uvicorn.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)
        self.url = f"http://127.0.0.1:{self.uvicorn.servers[0].sockets[0].getsockname()[1]}"
        self.tokens: dict[str, dict[str, str]] = {}
        self.clients: dict[str | None, httpx.Client] = {}
        self.host = self.client(token=HOST_TOKEN)

    def client(self, role: str | None = None, game: str | None = None, token: str | None = None) -> httpx.Client:
        if role is not None:
            token = self.tokens[game or self.last][role]
        if token not in self.clients:  # one client a token: making one costs a TLS context (~0.1 s)
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            self.clients[token] = httpx.Client(base_url=self.url, headers=headers, timeout=60)
        return self.clients[token]

    def new(self, ruleset: str = "duel", scenario: str | None = "standard", **fields: Any) -> str:
        response = self.host.post("/games", json={"ruleset": ruleset, "scenario": scenario, "seat_entropy": False,
                                                  **fields})
        assert response.status_code == 201, response.text
        body = response.json()
        self.tokens[body["game"]] = body["tokens"]
        self.last = body["game"]
        return str(body["game"])

    def stop(self) -> None:
        for client in self.clients.values():
            client.close()
        self.uvicorn.should_exit = True
        self.thread.join(timeout=10)


def serve(path: Path | str, limits: Limits = FAST, poll: float = 0.5) -> Server:
    return Server(Arbitro(SQLiteStore(path)), limits, poll)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """One server for a test module, over an in-memory database (each test makes its own games)."""
    running = serve(":memory:")
    yield running
    running.stop()


def sse_messages(lines: Iterator[str], until: Any = None) -> Iterator[dict[str, Any]]:
    """Server-Sent Events from a stream's lines: {"event", "id", "data"} (data decoded)."""
    message: dict[str, Any] = {}
    for line in lines:
        if not line:
            if "data" in message:
                message["data"] = json.loads(message["data"])
                yield message
            message = {}
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        message[field] = value[1:] if value.startswith(" ") else value
