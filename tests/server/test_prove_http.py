"""Provable rolls over HTTP (arbitro §R.5): `POST /games` with `provable_rolls`, and the umpire's `POST
/games/{id}/prove` `{index}`, refused to a seat whichever way it asks."""

from __future__ import annotations

from arbitro.events import random as rnd

from .conftest import Server


def test_the_umpire_proves_a_roll_over_http_and_a_seat_is_refused(server: Server) -> None:
    game = server.new(provable_rolls=True)
    red, blue, umpire = (server.client(role, game) for role in ("red", "blue", "umpire"))
    assert red.post(f"/games/{game}/commands", json={"command": {"type": "attack", "aim": "high"}}).status_code == 200
    assert blue.post(f"/games/{game}/commands", json={"command": {"type": "guard", "stance": "low"}}).status_code == 200
    created = umpire.get(f"/games/{game}/events").json()[0]["event"]
    assert created["roll_keys"] == 4096 and len(created["roll_key_root"]) == 64
    asked = blue.post(f"/games/{game}/prove", json={"index": 0})  # red's hidden card
    assert asked.status_code == 403 and "arbitro §R.5" in asked.text
    sent = blue.post(f"/games/{game}/commands", json={"command": {"type": "prove_roll", "index": 0}})
    assert sent.status_code == 422 and "only the umpire proves a roll" in sent.text and "arbitro §R.5" in sent.text
    answer = umpire.post(f"/games/{game}/prove", json={"index": 2})
    assert answer.status_code == 200, answer.text
    (event,) = [e["event"] for e in answer.json()["events"]]
    assert event["type"] == "roll_proven" and event["index"] == 2
    assert rnd.proves_key(created["roll_key_root"], 4096, 2, event["key"], event["path"])
    early = umpire.post(f"/games/{game}/prove", json={"index": 3})
    assert early.status_code == 422 and "has not been rolled yet" in early.text


def test_a_game_is_made_without_provable_rolls_unless_asked(server: Server) -> None:
    game = server.new()
    created = server.client("umpire", game).get(f"/games/{game}/events").json()[0]["event"]
    assert "roll_key_root" not in created
