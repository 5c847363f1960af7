"""A token the umpire replaced (`POST /games/{id}/invite`, "each replaces that role's old token", docs/http-api.md;
the answer to a token that leaked) is refused on every new request, and a live stream opened with it before ends
with it (rev-p P2: the stream authenticated once, at its start, and went on serving the seat's events, hidden
content the seat may see included). A stream of the new token is unaffected."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .conftest import sse_messages, serve


def test_a_stream_opened_with_a_token_since_replaced_serves_no_later_event() -> None:
    server = serve(":memory:", poll=0.2)
    try:
        game = server.new()
        leaked = server.tokens[game]["blue"]
        thief = server.client(token=leaked)
        with thief.stream("GET", f"/games/{game}/stream") as response:
            messages = sse_messages(response.iter_lines())
            assert next(messages)["id"] == "0", "the stream serves blue's log (the creation first)"
            replaced = server.client("umpire", game).post(f"/games/{game}/invite", json={"seats": ["blue"]})
            assert replaced.status_code == 201, replaced.text
            assert thief.get(f"/games/{game}/view").status_code == 401, "the old token is refused on a new request"
            sent = server.client("red", game).post(f"/games/{game}/commands", json={"command": {"type": "end_turn"}})
            assert sent.status_code == 200, sent.text
            after = _until_quiet(messages)
            later = [m for m in after if m["event"] == "event"]
            assert later == [], f"the replaced token's stream went on serving blue's events: {later}"
            assert after[-1]["event"] == "error" and "replaced by a new invitation" in after[-1]["data"]["message"], after
        fresh = server.client(token=replaced.json()["tokens"]["blue"])
        with fresh.stream("GET", f"/games/{game}/stream") as response:
            served = [m for m in _until_quiet(sse_messages(response.iter_lines())) if m["event"] == "event"]
            assert served and served[-1]["data"], "the new token's stream serves blue's log"
    finally:
        server.stop()


def _until_quiet(messages: Iterator[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages the stream sends next, up to its first `awaiting` notice after an event, or its end."""
    seen: list[dict[str, Any]] = []
    for message in messages:
        seen.append(message)
        if message["event"] == "awaiting" and any(m["event"] == "event" for m in seen):
            break
        if message["event"] == "error":
            break
    return seen
