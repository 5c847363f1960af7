"""rev-o O3 (seventeenth session): `legal(game, seat, piece)` (speed11 9126c46, issue 15's lazy listing; `GET
/games/{id}/legal?piece=`, and speed12's `arbitro legal --unit`) lists "the commands of the whole listing that name the
piece", by `ruleset.pieces_named`, whose COMMAND_PIECE_FIELDS claim to be "every ruleset's command fields naming the
pieces ordered". Marengo orders its blocks by `blocks` (move, activate, assault, continue, pursue, block_manoeuvre,
defending_leaders), its leaders by `leaders` and the blocks that stay by `stay`: none of them is in the table, so a
block's own listing misses every such command. tests/server/test_legal_by_piece_http.py could not see it: it compares
the piece's listing with the whole listing filtered by the same `pieces_named`.

Marengo's opening: after the first command, the whole listing holds commands naming blocks in `blocks`
(`continue` naming b014 here)."""

from __future__ import annotations

from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore


def test_a_blocks_own_listing_holds_the_commands_that_order_it_by_blocks() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("marengo", "marengo", game_id="g")
    seat = app.status(game).awaiting.seats[0]
    app.submit(game, seat, app.legal(game, seat)[0])
    seat = app.status(game).awaiting.seats[0]
    whole = app.legal(game, seat)
    block = next((b for c in whole for b in c.get("blocks") or []), None)
    assert block is not None, "the whole listing orders a block by `blocks` (else this test tests nothing)"
    ordering = [c for c in whole if block in (c.get("blocks") or [])]
    assert [c for c in app.legal(game, seat, block) if c in ordering] == ordering, \
        f"legal(piece={block!r}) leaves out the commands that order it by `blocks`"
