"""Non-interference over HTTP for the notes (arbitro §L.1: a note is numbered within its chain): two games alike
but for whether red wrote private notes between the public ones serve blue the same bytes from every route that
carries notes or their numbers (notes, view, replay, events, disputes citing a note by number, export). Numbered in
one count per game, blue's public notes read 1, 3, 4 where red had written the 2nd."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Iterator

import pytest

from arbitro.adjudicator import service
from arbitro.events import signing
from tests.seeds import same_secrets

from .conftest import Server, serve

SECRET = "red holds the ruby falcon"


def played(server: Server, red_writes: bool) -> None:
    """A duel's attack and guard, then notes: the umpire's public one, red's private one (or none), blue's public
    one and its own private one; blue's dispute cites its public note by number, then its private one privately."""
    server.new(id="g")
    red, blue, umpire = (server.client(role, "g") for role in ("red", "blue", "umpire"))
    for seat, client, command in (("red", red, {"type": "attack", "aim": "high"}),
                                  ("blue", blue, {"type": "guard", "stance": "low"})):
        assert client.post("/games/g/commands", json={"command": command, "key": f"k-{seat}"}).status_code == 200
    # the umpire's at an event (#6, the attack), a seat's at a command (#1 the attack, #2 the guard: engine-rules §V.6)
    notes = [(umpire, 6, "the opening", False), (red, 1, SECRET, True), (blue, 2, "a public answer", False),
             (red, 2, "red again", True), (blue, 2, "blue's own plan", True)]
    for client, at, text, private in notes:
        if client is not red or red_writes:
            written = client.post("/games/g/notes", json={"at": at, "text": text, "private": private})
            assert written.status_code == 201, written.text
    claim = {"about": [2], "text": "see the public answer", "evidence": [{"kind": "note", "note": 2}]}
    assert blue.post("/games/g/disputes", json=claim).status_code == 200
    reply = {"text": "and my own plan", "private": True, "evidence": [{"kind": "note", "note": 1, "private": True}]}
    assert blue.post("/games/g/disputes/1/replies", json=reply).status_code == 200


@pytest.fixture
def twins(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Server, Server]]:
    same_secrets(monkeypatch)
    monkeypatch.setattr(service, "now", lambda: "2026-11-28T08:00:00+00:00")
    monkeypatch.setattr(signing, "new_private_key", lambda: bytes(range(32)))  # the exports name the server's key
    servers = serve(":memory:"), serve(":memory:")
    for server, red_writes in zip(servers, (False, True)):
        keys = itertools.count(1)  # the dispute messages' idempotency keys, else random: the same in both games
        monkeypatch.setattr(secrets, "token_hex", lambda n=32, keys=keys: f"{next(keys):0{2 * n}x}")
        played(server, red_writes)
    yield servers
    for server in servers:
        server.stop()


def seen_by_blue(server: Server) -> str:
    blue = server.client("blue", "g")
    return "\n".join(blue.get(f"/games/g/{route}").text
                     for route in ("notes", "view", "replay", "events", "disputes", "export", "knowledge"))


def test_blue_is_served_the_same_bytes_whether_or_not_red_wrote_private_notes(twins: tuple[Server, Server]) -> None:
    quiet, busy = twins
    assert len(busy.app.store.annotations("g")) == len(quiet.app.store.annotations("g")) + 2  # the games differ
    assert seen_by_blue(quiet) == seen_by_blue(busy)
    assert SECRET not in seen_by_blue(busy) and "a public answer" in seen_by_blue(busy)
    assert [n["id"] for n in busy.client("blue", "g").get("/games/g/notes").json()] == [1, 2, 1]
    assert [n["id"] for n in busy.client("red", "g").get("/games/g/notes").json()] == [1, 2, 1, 2]
