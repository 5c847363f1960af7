"""The umpire's legal() lists the proofs it may ask in a provable game (arbitro §R.5): one `prove_roll` for each roll
or draw made and not yet proven, each a command to send as it is (the server fills in its key and path), each
accepted. None in a game rolling by arbitro-random/1, none to a seat (a proof is the umpire's alone), none for a
piece, none for a roll already proven."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.cli_tables import legal_text, number_ranges
from arbitro.adjudicator.service import Arbitro

from .conftest import Cli
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


def test_the_cli_tells_the_umpire_its_proofs_as_ranges_and_json_keeps_every_one(run: Cli, app: Arbitro) -> None:
    """Text: one line of ranges, not a line per roll (a long game offers hundreds); --json: the full list."""
    game = run.json("new", "duel", "standard", "--provable-rolls")["game"]
    for attacker, defender in (("red", "blue"), ("blue", "red"), ("red", "blue")):
        run.submit(game, attacker, {"type": "attack", "aim": "high"})
        run.submit(game, defender, {"type": "guard", "stance": "low"})
    made = app.state_at(game).core.rolls
    assert made > DAMAGE + 2
    run.json("submit", game, "--as", "umpire", '{"type": "prove_roll", "index": 2}')
    text = run("legal", game, "--as", "umpire").stdout
    assert f"prove_roll ({made - 1}): index 0-1, 3-{made - 1}\n" in text
    assert '  each sent as {"type": "prove_roll", "index": N}\n' in text
    assert '"index": 3}' not in text  # no line per roll
    listed = [c for c in run.json("legal", game, "--as", "umpire") if c["type"] == "prove_roll"]
    assert listed == [{"type": "prove_roll", "index": i} for i in range(made) if i != DAMAGE]


def test_number_ranges_and_a_short_or_mixed_group_stay_a_line_each() -> None:
    assert number_ranges([40, 3, 4, 5, 21, 41]) == "3-5, 21, 40-41"
    three = [{"type": "prove_roll", "index": i} for i in (0, 1, 2)]
    assert legal_text(three, "umpire").count("\n  {") == 3  # too few to gather
    moves = [{"type": "move", "unit": u, "to": 7} for u in "abcd"]
    assert legal_text(moves, "red").count("\n  {") == 4  # the field that differs is not a number
    two = [{"type": "fire", "at": i, "from": i} for i in range(5)]
    assert legal_text(two, "red").count("\n  {") == 5  # two fields differ
