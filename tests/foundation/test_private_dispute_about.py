"""A private claim's disputed events are its writer's and the umpire's (arbitro §D.4): which events a seat disputes
can tell what it knows (the roll it saw, the move it doubts), so the other seats are served that a dispute was
opened, by whom, and not about what. Non-interference: two games that differ only in the events red's private claim
is about serve blue the same bytes."""

from __future__ import annotations

import msgspec

from arbitro.adjudicator import settling
from arbitro.adjudicator.cli_disputes import dispute_text
from arbitro.adjudicator.report_phrases import NoteNames
from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import canonical
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.disputes import WITHHELD

from .conftest import fixed_duel
from arbitro.adjudicator.seat_numbers import events_of

CHAIN = ("hash", "prev", "cmd_hash", "salt")  # salted digests: blue cannot test guesses against them (§V.3)


def played(about: list[int]) -> Arbitro:
    app = fixed_duel()
    app.submit("g", "red", {"type": "dispute_open", "about": about, "text": "this was wrong", "private": True})
    app.submit("g", "blue", {"type": "dispute_reply", "dispute": 1, "text": "what was?"})
    return app


def served_to(app: Arbitro, seat: str) -> bytes:
    log = [{k: v for k, v in e.items() if k not in CHAIN} for e in events_of(app.log("g", seat))]
    disputes = settling.disputes(app, "g", seat)
    listing = dispute_text(disputes, "g", NoteNames(app.notes("g", seat), seat))
    return canonical([log, msgspec.to_builtins(disputes), listing, app.view("g", seat),
                      msgspec.to_builtins(app.status("g", seat))])


def test_which_events_a_private_claim_disputes_serves_the_other_seat_the_same_bytes() -> None:
    one, other = played([0]), played([1, 2])  # red's numbers: commands (engine-rules §V.6)
    assert served_to(one, "blue") == served_to(other, "blue")
    (seen,) = settling.disputes(one, "g", "blue")
    assert seen.about == WITHHELD and seen.claim.by == "red"
    assert settling.disputes(one, "g", "red")[0].about == [0]  # as red sent it
    assert settling.disputes(one, "g", "umpire")[0].about == [5]  # the log's: the creation's last event
    for seat in ("red", "umpire"):
        assert served_to(one, seat) != served_to(other, seat), seat


def test_a_public_claim_shows_every_seat_what_it_disputes() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    app.create("duel", "standard", game_id="g", seed="5e" * 32, salt_key="a1" * 32)
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    app.submit("g", "blue", {"type": "dispute_open", "about": [1], "text": "the aim was seen"})
    assert settling.disputes(app, "g", "red")[0].about == [1]  # red's attack, command #1, as every seat numbers it
