"""`GET /games/{id}/legal?piece=...` (issue 15's lazy listing): the commands of the seat's whole listing that name the
piece, in its order (Marengo's, filtered from its listing: a ruleset with no listing of its own for one piece); a piece
the seat gives no order to now, or no piece at all, lists nothing."""

from __future__ import annotations

from arbitro.adjudicator.ruleset import naming, pieces_named

from .conftest import Server


def test_the_legal_endpoint_lists_one_piece_s_commands(server: Server) -> None:
    game = server.new("marengo", "marengo")
    austria = server.client("austria", game)
    whole = austria.get(f"/games/{game}/legal").json()
    blocks = sorted({p for c in whole for p in pieces_named(c)})
    assert blocks
    for block in blocks:
        listed = austria.get(f"/games/{game}/legal", params={"piece": block}).json()
        assert listed == naming(whole, block) and listed
    assert austria.get(f"/games/{game}/legal", params={"piece": "FRA_nobody"}).json() == []
    assert server.client("france", game).get(f"/games/{game}/legal", params={"piece": blocks[0]}).json() == []
