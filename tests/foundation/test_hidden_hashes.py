"""Nothing served to a seat is a hash it can test guesses against (arbitro §V.3), tried as an attacker would:
build every candidate for what is hidden from the seat, hash it, and look for the hash in everything the seat is
served (its log, view, status, export, the CLI's replay).

The duel hides each seat's card: red's is one of three, so the attacker (blue) has three candidates at most; the
true one is among them, so a served hash of the true record is found whatever else the attacker gets wrong."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from arbitro.events.codec import canonical, sha256_hex
from arbitro.projections.game import GameState, state_hash

from .conftest import BLUE_CARD, Cli, position_file
from .duel import DECKS


def served_to(app: Arbitro, run: Cli, game: str, seat: str) -> str:
    """Everything `seat` can ask for about `game`, as one text."""
    parts: list[Any] = [app.log(game, seat), app.view(game, seat), app.status(game), list(app.export(game, seat)),
                        run.json("replay", game, "--as", seat)]
    return json.dumps(parts)


def red_card_candidates(state: GameState[Any]) -> list[GameState[Any]]:
    """The true state with red's hidden card replaced by each card red might hold."""
    out = []
    for card in DECKS["red"]:
        candidate = state.__copy__()
        candidate.rules = state.rules.__copy__()
        candidate.rules.cards = {**state.rules.cards, "red": card}
        out.append(candidate)
    return out


def test_no_checkpoint_state_hash_is_served_to_a_seat(app: Arbitro, run: Cli) -> None:
    game = app.create("duel", "standard", game_id="g")
    app.submit(game, "red", {"type": "end_turn"})
    app.submit(game, "blue", {"type": "end_turn"})  # round 1 ends: a checkpoint records the state hash
    checkpoint = next(e for e in app.log(game) if e["type"] == "checkpoint")
    before = app.state_at(game, checkpoint["seq"] - 1)
    assert checkpoint["event"]["state_hash"] == state_hash(before)  # the umpire's log keeps it: snapshots, verify
    served = served_to(app, run, game, "blue")
    guessed = [s.rules.cards["red"] for s in red_card_candidates(before) if state_hash(s) in served]
    assert guessed == [], f"blue recovered red's card {guessed} by hashing candidate states"
    blue_checkpoint = next(e for e in app.log(game, "blue") if e["type"] == "checkpoint")
    assert "salt" not in blue_checkpoint, "a redacted event keeps its salt secret, so its own hash tests nothing"
    assert app.verify(game).passed


def test_a_position_game_does_not_serve_the_position_file_hash(app: Arbitro, run: Cli, tmp_path: Path) -> None:
    path = position_file(tmp_path)
    position = json.loads(path.read_text())
    game = app.create("duel", position=position, game_id="p")
    served = served_to(app, run, game, "blue")
    for card in DECKS["red"]:
        candidate = {**position, "state": {**position["state"], "cards": {"red": card, "blue": BLUE_CARD}}}
        assert sha256_hex(canonical(candidate)) not in served, f"blue can test red's card {card} against origin"
    # The umpire (and anyone once the seed is revealed) can still tell which file the game started from.
    seed = app.game(game).seed
    assert seed is not None
    assert app.status(game)["origin"]["position"] == rnd.position_digest(seed, canonical(position))
    other = rnd.position_digest(rnd.new_seed(), canonical(position))
    assert app.status(game)["origin"]["position"] != other, "the digest is keyed by this game's seed"


def test_a_fork_does_not_serve_the_parent_s_suspended_command(app: Arbitro) -> None:
    """A transcribed duel suspends its opening until the umpire enters both draws; after red's card is entered,
    the request carries it in `entered`. A fork made then starts with that request pending."""
    game = app.create("duel", "standard", transcribed=True, game_id="t")
    red_card = DECKS["red"][2]
    app.submit(game, "umpire", {"type": "enter_random", "values": [red_card]})
    parent_view = [e for e in app.log(game, "blue") if e["type"] == "random_requested"]
    assert parent_view and red_card not in json.dumps(parent_view)  # the parent's log redacts it
    fork = app.fork(game, app.game(game).head_seq, new_id="f")
    assert app.state_at(fork).core.pending is not None, "the fork must carry the pending request (else no test)"
    created = app.log(fork, "blue")[0]["event"]
    request = created["initial_core"]["pending"]["request"]
    assert request["entered"] == [] and request["command"] == {"type": "open_scenario"}
    assert red_card not in json.dumps(app.log(fork, "blue")), "the fork served red's entered card to blue"
    umpire = app.log(fork)[0]["event"]["initial_core"]["pending"]["request"]
    assert umpire["entered"] == [[red_card]], "the umpire still sees what was entered"
