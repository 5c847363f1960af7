"""The picture endpoint's errors (issue 13): the position after an event the game does not have is not found (404,
as the view's); a ruleset that draws no map picture is a request the server understands and cannot fulfil (501),
never a client's bad input (400)."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.pictures.rulesets import PICTURES

from .conftest import Server


def test_a_picture_after_an_event_the_game_does_not_have_is_not_found(server: Server) -> None:
    game = server.new()
    umpire = server.client("umpire", game)
    head = umpire.get(f"/games/{game}").json()["head"]
    assert umpire.get(f"/games/{game}/picture", params={"at": head}).status_code == 200
    for at in (head + 1, 0):
        for what in ("picture", "view"):
            response = umpire.get(f"/games/{game}/{what}", params={"at": at})
            assert response.status_code == 404, (what, at, response.text)
            assert response.json()["error"] == "lookup/no-such-event"
            assert f"there is no #{at}" in response.json()["message"]


def test_a_ruleset_that_draws_no_picture_answers_501(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    game = server.new()
    monkeypatch.delitem(PICTURES, "duel")
    response = server.client("red", game).get(f"/games/{game}/picture")
    assert response.status_code == 501 and response.json()["error"] == "render/no-picture"
    assert "no map picture for duel games: pictures are drawn for " in response.json()["message"]
    assert "issue" not in response.json()["message"]  # a user's message, not the project's notes
