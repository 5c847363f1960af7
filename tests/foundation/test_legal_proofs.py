"""The umpire's legal() lists the proofs it may ask in a provable game (arbitro §R.5): one `prove_roll` for each roll
or draw made and not yet proven, each a command to send as it is (the server fills in its key and path), each
accepted. None in a game rolling by arbitro-random/1, none to a seat (a proof is the umpire's alone), none for a
piece, none for a roll already proven."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.service import Arbitro

from .test_roll_proofs import CARD, DAMAGE, provable


def proofs(app: Arbitro, seat: str = "umpire", piece: str | None = None) -> list[dict[str, Any]]:
    return [c for c in app.legal("g", seat, piece) if c["type"] == "prove_roll"]


def test_the_umpire_is_offered_a_proof_of_each_roll_made_and_not_yet_proven() -> None:
    app = provable()
    made = app.state_at("g").core.rolls
    assert made > DAMAGE
    assert proofs(app) == [{"type": "prove_roll", "index": i} for i in range(made)]
    app.submit("g", "umpire", proofs(app)[DAMAGE])  # sent as listed: accepted
    assert [p["index"] for p in proofs(app)] == [i for i in range(made) if i != DAMAGE]  # a roll is proven once
    for listed in proofs(app):  # every one listed is accepted, and leaves the listing
        app.submit("g", "umpire", listed)
    assert proofs(app) == []


def test_a_seat_a_piece_and_a_game_without_provable_rolls_are_offered_none() -> None:
    app = provable()
    assert proofs(app, "red") == proofs(app, "blue") == []  # the umpire's alone (a seat is refused one)
    assert proofs(app, piece="red") == []  # a proof names no piece
    assert proofs(provable(keys=False)) == []  # arbitro-random/1: no single roll can be proven


def test_the_listing_follows_the_game_past_a_cached_head() -> None:
    """legal() is kept per head: a roll made after a listing is offered at the next head."""
    app = provable()
    before = proofs(app)
    app.submit("g", "blue", {"type": "attack", "aim": "high"})
    app.submit("g", "red", {"type": "guard", "stance": "high"})
    after = proofs(app)
    assert after[:len(before)] == before and len(after) > len(before)
    assert {"type": "prove_roll", "index": CARD} in after
