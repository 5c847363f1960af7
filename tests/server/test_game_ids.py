"""rev-p P4: a game id no request could address ("a/b": `/games/{id}` matches no slash; "a?b", "a#b": the query and
fragment; a newline) was made with its tokens, then reached by nothing. It is refused where it is taken, 400."""

from __future__ import annotations

import pytest

from .conftest import Server


@pytest.mark.parametrize("game_id", ["a/b", "a?b", "a\nb", "a#b", ".."])
def test_a_game_id_no_request_could_address_is_refused_when_the_game_is_made(server: Server, game_id: str) -> None:
    made = server.host.post("/games", json={"ruleset": "duel", "scenario": "standard", "id": game_id})
    assert made.status_code == 400, made.text
    assert "a game id is letters, digits" in made.json()["message"]
    assert server.host.get("/games").json() == []
