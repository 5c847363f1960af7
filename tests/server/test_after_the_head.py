"""rev-q's Q4 over HTTP: a number naming an event (the umpire's) or a command (a seat's, engine-rules §V.6) the game
does not have is not found (404, lookup/no-such-event) at every door that takes one, as docs/http-api.md says of "a
position (`at`) after an event the game does not have", never bad input (400); each door keeps its words
(tests/foundation/test_after_the_head.py walks the CLI's)."""

from __future__ import annotations

from typing import Any

from .conftest import Server


def test_every_http_door_refuses_a_number_past_the_head_as_not_found(server: Server) -> None:
    game = server.new()
    server.app.submit(game, "red", {"type": "end_turn"})
    server.app.reveal(game, "for the amendment", seat="umpire", expose_hidden=True)  # amend needs it (arbitro §D.5)
    umpire, red = server.client("umpire", game), server.client("red", game)
    head = umpire.get(f"/games/{game}").json()["head"]
    past, has = head + 1, f"game {game} has events #1 to #{head}"
    doors: list[tuple[Any, str, str, dict[str, Any], str]] = [
        (umpire, "get", "view", {"at": past}, f"{has}; there is no #{past}"),
        (red, "get", "view", {"at": 9}, "; there is no #9"),
        (umpire, "get", "picture", {"at": past}, f"{has}; there is no #{past}"),
        (umpire, "get", "replay", {"to": past}, f"there is no #{past}"),
        (red, "get", "replay", {"to": 9}, "; there is no #9"),
        (umpire, "get", "position", {"at": past}, f"{has}; there is no #{past}"),
        (umpire, "get", "knowledge", {"at": past}, f"{has}; there is no #{past}"),
        (red, "get", "knowledge", {"at": 9}, "; there is no #9"),
        (umpire, "post", "notes", {"at": past, "text": "a note"}, f"{has}; cannot annotate #{past}"),
        (red, "post", "notes", {"at": 9, "text": "a note"}, "; cannot annotate #9"),
        (umpire, "post", "fork", {"at": past}, f"{has}; cannot fork at #{past}"),
        (umpire, "post", "amend", {"at": past, "command": {"type": "end_turn"}}, f"{has}; there is no #{past}"),
    ]
    for client, method, door, asked, words in doors:
        sent = {"params": asked} if method == "get" else {"json": asked}
        response = client.request(method.upper(), f"/games/{game}/{door}", **sent)
        assert response.status_code == 404, (door, asked, response.text)
        assert response.json()["error"] == "lookup/no-such-event" and words in response.json()["message"], \
            (door, asked, response.text)
    assert umpire.get(f"/games/{game}").json()["head"] == head  # nothing was appended
