"""`games_per_token` ("games one token may make", http_access.Limits) counts an umpire's amendments (rev-p P3: a
`POST /games/{id}/amend` makes a fork with its own tokens and went around the quota) and the whole family of forks
descending from one created game (each fork's umpire holds a new token, which started a fresh quota)."""

from __future__ import annotations

from arbitro.adjudicator.http_access import Limits

from .conftest import serve


def test_an_umpire_whose_forks_are_refused_makes_no_game_by_amending_either() -> None:
    server = serve(":memory:", Limits(commands_per_second=10_000, games_per_token=1))
    try:
        game = server.new()
        server.app.submit(game, "red", {"type": "end_turn"})
        server.app.reveal(game, "for the amendment", seat="umpire", expose_hidden=True)  # arbitro §D.5
        umpire = server.client("umpire", game)
        assert umpire.post(f"/games/{game}/fork", json={"at": 5}).status_code == 201, "its one game"
        assert umpire.post(f"/games/{game}/fork", json={"at": 5}).status_code == 429, "the quota is spent"
        games = len(server.app.store.games())
        amended = umpire.post(f"/games/{game}/amend", json={"at": 6, "command": {"type": "end_turn"}})
        assert amended.status_code == 429, f"an amendment made game {amended.json().get('fork')} past the quota"
        assert len(server.app.store.games()) == games
    finally:
        server.stop()


def test_a_chain_of_forks_counts_against_the_game_first_created() -> None:
    """Each fork's umpire holds a token of its own; the quota follows the family, not the token (rev-p P3)."""
    server = serve(":memory:", Limits(commands_per_second=10_000, games_per_token=2))
    try:
        game = server.new()
        server.app.submit(game, "red", {"type": "end_turn"})
        made = server.client("umpire", game).post(f"/games/{game}/fork", json={"at": 5})
        assert made.status_code == 201, made.text
        child, child_umpire = made.json()["game"], made.json()["tokens"]["umpire"]
        grandchild = server.client(token=child_umpire).post(f"/games/{child}/fork", json={"at": 1})
        assert grandchild.status_code == 201, grandchild.text
        third = server.client(token=grandchild.json()["tokens"]["umpire"]).post(
            f"/games/{grandchild.json()['game']}/fork", json={"at": 1})
        assert third.status_code == 429, f"a third game descending from {game} past a quota of two: {third.text}"
    finally:
        server.stop()
