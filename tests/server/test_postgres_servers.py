"""Two servers on one PostgreSQL database, as two stateless processes behind a load balancer would be: a game made
through one is played through the other with the same tokens, and a seat's live stream on one server receives the
events appended through the other at once, woken by the store's change feed (LISTEN/NOTIFY): the stream's own
poll is pushed out of reach, so nothing else could deliver them in time."""

from __future__ import annotations

import httpx

from arbitro.adjudicator.service import Arbitro
from arbitro.events.postgres import PostgresStore

from .conftest import FAST, Server, sse_messages


def test_a_stream_on_one_server_follows_appends_made_through_another(postgres_url: str) -> None:
    first = Server(Arbitro(PostgresStore(postgres_url, mode="create")), FAST, poll=300.0)
    second = Server(Arbitro(PostgresStore(postgres_url)), FAST, poll=300.0)
    try:
        game = first.new()
        second.tokens = first.tokens  # the tokens live in the database: either server knows them
        blue = httpx.Client(base_url=first.url, timeout=60,
                            headers={"Authorization": f"Bearer {first.tokens[game]['blue']}"})
        with blue.stream("GET", f"/games/{game}/stream") as response:
            messages = sse_messages(response.iter_lines())
            assert [next(messages)["id"] for _ in range(5)] == ["1", "2", "3", "4", "5"]
            sent = second.client("red", game).post(f"/games/{game}/commands", json={"command": {"type": "end_turn"}})
            assert sent.status_code == 200, sent.text
            seen = []
            while not seen or seen[-1]["event"] != "awaiting":
                seen.append(next(messages))
            assert [int(m["id"]) for m in seen if m["event"] == "event"] == list(range(6, sent.json()["head"] + 1))
            assert seen[-1]["data"]["seats"] == ["blue"]
        blue.close()
    finally:
        first.stop()
        second.stop()
