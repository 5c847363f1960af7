"""rev-p's minor (eighteenth session), the answer taken (ctx, nineteenth session): a seat's stolen token lets the thief
register the seat's one signing key first (arbitro §L.6: "a seat registers one key per game"), and `invite`, which
replaces the token, cannot undo the registration: the real seat can never command again in that game. Who may give
the seat its signing back is the umpire, by an act that is logged and served to the seats: the fork (§R.3), from the
head or from before the thief's first command. The fork is a new game whose seats register their keys afresh; the
parent keeps its record, the thief's signed commands included, and still verifies (each signature under the key it
was made with); the fork's genesis names the parent and the event it was made from. A key withdrawal inside the
same game is built since (the last test): docs/engine-rules.md §L.6."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.errors import Unsigned
from arbitro.adjudicator.service import Arbitro
from arbitro.events.signing import command_statement, new_private_key, public_key, sign


def signed(app: Arbitro, game: str, seat: str, private: bytes, key: str) -> Any:
    """`seat`'s first legal command, signed with `private` (what the seat's own client sends)."""
    head, command = app.game(game).head_cmd, app.legal(game, seat)[0]  # a seat's head is a command's (§V.6)
    statement = command_statement(game=game, seat=seat, expected_seq=head, key=key, command=command)
    return app.submit(game, seat, command, expected_seq=head, key=key, signature=sign(private, statement))


def test_the_umpires_fork_gives_a_seat_whose_key_a_thief_registered_its_signing_back(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    thief, red = new_private_key(), new_private_key()
    app.register_key("g", "red", public_key(thief))  # with red's stolen token, before red registered its own
    app.issue_tokens("g", ["red"])  # the umpire's answer to the leak: a new token for red...
    with pytest.raises(Unsigned, match="arbitro submit --sign"):  # ...but red's own commands are refused
        app.submit("g", "red", app.legal("g", "red")[0])
    with pytest.raises(Exception, match="one key per game"):  # and red cannot register its own
        app.register_key("g", "red", public_key(red))
    before = app.game("g").head_seq
    signed(app, "g", "red", thief, "thief-1")  # the thief commands in red's name
    fork = app.fork("g", before, new_id="g2")  # the umpire's fork, from before the thief's command
    (made,) = [e["event"] for e in app.log(fork, "red", 0, 0)[0]["events"] if e["type"] == "game_created"]
    assert made["origin"]["fork"] == "g", "served to the seat: the game its own was made from"
    assert app.store.seat_keys(fork) == {}
    app.register_key(fork, "red", public_key(red))
    with pytest.raises(Unsigned, match="does not verify"):
        signed(app, fork, "red", thief, "thief-2")  # the thief's key signs nothing there
    signed(app, fork, "red", red, "red-1")  # and red signs again, with its own key
    for game in ("g", fork):  # the parent's signatures, the thief's included, still verify under their key
        checks = {c.name: c for c in app.verify(game).checks}
        assert app.verify(game).passed and checks["seat signatures"].status == "passed", checks


def test_the_umpire_withdraws_the_thiefs_key_in_the_same_game_and_the_seat_registers_its_own(app: Arbitro) -> None:
    """The same theft answered inside the game (arbitro §L.6's withdrawal): a new token for red, so the thief cannot
    register again; the thief's key withdrawn by a chained event; red registers its own and signs. The thief's key
    signs nothing more; the log verifies, the thief's signature under the key in force at its command."""
    app.create("duel", "standard", game_id="g")
    thief, red = new_private_key(), new_private_key()
    app.register_key("g", "red", public_key(thief))
    app.issue_tokens("g", ["red"])
    signed(app, "g", "red", thief, "thief-1")
    while not app.legal("g", "red"):  # blue's turn
        app.submit("g", "blue", app.legal("g", "blue")[0])
    withdrawal = app.submit("g", "umpire", {"type": "withdraw_key", "seat": "red", "reason": "red's token was stolen"})
    (event,) = [e["event"] for e in withdrawal.events if e["type"] == "key_withdrawn"]
    assert (event["public_key"], event["first_cmd"]) == (public_key(thief), 2)  # after its registration, command 1
    app.register_key("g", "red", public_key(red))
    with pytest.raises(Unsigned, match="does not verify"):
        signed(app, "g", "red", thief, "thief-2")
    signed(app, "g", "red", red, "red-1")
    checks = {c.name: c for c in app.verify("g").checks}
    assert app.verify("g").passed and checks["seat signatures"].status == "passed", checks
    assert f"red's key {public_key(thief)[:16]} withdrawn at command" in checks["seat signatures"].detail
