"""Non-interference over HTTP: two games that differ only in a hidden fact, the faces of two Austrian blocks
(marengo §4: france sees where a face-down block is, not what it is), serve france the same bytes from its
stream, its events (also in plain words), its view, its legal commands and its map picture, command after command,
and the picture after every event (issue 13: what the browser viewer shows). The only values that differ are the
chain's digests (`hash`, `prev`, `cmd_hash`: SHA-256 over the whole salted event, arbitro §V.3) and the position
digest keyed by the secret seed (`origin.position`), which a seat cannot test candidates against."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from arbitro.adjudicator import service
from tests.marengo.harness import position
from tests.seeds import same_secrets

from .conftest import Server, serve

X, Y = ("cascina_grossa", "reserve"), ("castel_ceriolo", "reserve")
OPAQUE = re.compile(r'"(hash|prev|cmd_hash|position)":"[0-9a-f]{64}"')


def swapped(pos: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    """The same position with blocks `a` and `b` exchanging place and token: the same tokens in the same places,
    other faces under them."""
    state = json.loads(json.dumps(pos["state"]))
    blocks = state["blocks"]
    for field in ("zone", "place", "token"):
        blocks[a][field], blocks[b][field] = blocks[b][field], blocks[a][field]
    return {**pos, "state": state}


@pytest.fixture
def twins(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Server, Server]]:
    """Two servers with one game each, `twin`, alike but for the faces at X and Y; the same seed and clock."""
    same_secrets(monkeypatch)
    monkeypatch.setattr(service, "now", lambda: "2026-11-28T08:00:00+00:00")
    first = position({"AUT_OTT_A": X, "AUT_NOBILI": Y, "FRA_CHAMPEAUX": ("torre_garofoli", "reserve")})
    second = swapped(first, "AUT_OTT_A", "AUT_NOBILI")
    assert first != second
    servers = serve(":memory:"), serve(":memory:")
    for server, pos in zip(servers, (first, second)):
        server.new("marengo", None, position=pos, id="twin")
    yield servers
    for server in servers:
        server.stop()


def seen_by_france(server: Server) -> str:
    france = server.client("france", "twin")
    stream = france.get("/games/twin/stream", params={"follow": "false"}).text
    parts = [stream, *(france.get(f"/games/twin/{what}").text for what in ("events", "view", "legal", "picture")),
             france.get("/games/twin/events", params={"words": "true"}).text]
    return OPAQUE.sub(r'"\1":"(digest)"', "\n".join(parts))


def test_france_is_served_the_same_bytes_whichever_face_is_hidden(twins: tuple[Server, Server]) -> None:
    first, second = twins
    assert first.app.view("twin", "umpire") != second.app.view("twin", "umpire")  # the games do differ
    assert len({s.client("umpire", "twin").get("/games/twin/picture").content for s in twins}) == 2  # and show it
    assert seen_by_france(first) == seen_by_france(second)
    for step in range(12):
        awaiting = first.client("umpire", "twin").get("/games/twin").json()["awaiting"]
        if awaiting["kind"] == "game_over":
            break
        seat = awaiting["seats"][0]
        legal = [c for c in first.client(seat, "twin").get("/games/twin/legal").json()
                 if c in second.client(seat, "twin").get("/games/twin/legal").json()]
        command = next((c for c in legal if c["type"] == "move"), legal[0])  # moves first: the faces travel
        for server in twins:
            sent = server.client(seat, "twin").post("/games/twin/commands", json={"command": command,
                                                                                   "key": f"step-{step}"})
            assert sent.status_code == 200, sent.text
        assert seen_by_france(first) == seen_by_france(second), f"after {seat}'s {command}"
    pictures = [[server.client("france", "twin").get("/games/twin/picture", params={"at": seq}).content
                 for seq in range(1, first.app.game("twin").head_seq + 1)] for server in twins]
    assert pictures[0] == pictures[1]
    assert len(set(pictures[0])) > 1, "the pictures do change along the game"
    served = seen_by_france(first) + "".join(p.decode() for p in pictures[0])
    assert "AUT_OTT_A" not in served and "AUT_NOBILI" not in served
