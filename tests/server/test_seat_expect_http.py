"""The HTTP API's `expected_seq` is in the seat's numbers (engine-rules §V.6): the head the seat's status gives it
is accepted, a stale one refused (409) naming the seat's head, a command's number, never the log's."""

from __future__ import annotations

from .conftest import Server


def test_a_seat_posts_against_its_own_status_head(server: Server) -> None:
    game = server.new()
    red, blue = server.client("red", game), server.client("blue", game)
    head = red.get(f"/games/{game}").json()["head"]
    assert head == 0 and server.client("umpire", game).get(f"/games/{game}").json()["head"] > 0
    sent = red.post(f"/games/{game}/commands", json={"command": {"type": "attack", "aim": "high"}, "expected_seq": head})
    assert sent.status_code == 200, sent.text
    head = blue.get(f"/games/{game}").json()["head"]
    assert head == 1
    stale = blue.post(f"/games/{game}/commands", json={"command": {"type": "guard", "stance": "low"}, "expected_seq": 0})
    assert stale.status_code == 409 and stale.json()["head"] == 1
    assert "expected the game at command #0 but its head is command #1" in stale.json()["message"]
    sent = blue.post(f"/games/{game}/commands", json={"command": {"type": "guard", "stance": "low"}, "expected_seq": head})
    assert sent.status_code == 200, sent.text
