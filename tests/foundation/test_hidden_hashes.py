"""Nothing served to a seat is a hash it can test guesses against (arbitro §V.3), tried as an attacker would:
build every candidate for what is hidden from the seat, hash it, and look for the hash in everything the seat is
served (its log, view, status, export, the CLI's replay).

The duel hides each seat's card: red's is one of three, so the attacker (blue) has three candidates at most; the
true one is among them, so a served hash of the true record is found whatever else the attacker gets wrong."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from arbitro.events.codec import canonical, sha256_hex
from arbitro.projections.game import GameState, state_hash

from .conftest import BLUE_CARD, Cli, position_file, rechain
from .duel import DECKS
from arbitro.adjudicator.seat_numbers import events_of


def served_to(app: Arbitro, run: Cli, game: str, seat: str) -> str:
    """Everything `seat` can ask for about `game`, as one text."""
    parts: list[Any] = [events_of(app.log(game, seat)), app.view(game, seat), app.status(game), list(app.export(game, seat)),
                        run.json("replay", game, "--as", seat)]
    return json.dumps(msgspec.to_builtins(parts))


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
    blue_checkpoint = next(e for e in events_of(app.log(game, "blue")) if e["type"] == "checkpoint")
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
    # The umpire (and anyone once the game's end reveals the salt key) can still tell which file the game started
    # from; the seed, which a dispute may reveal mid-game, cannot (events.random.position_digest).
    key, seed = app.game(game).salt_key, app.game(game).seed
    assert key is not None and seed is not None
    assert app.status(game).origin["position"] == rnd.position_digest(key, canonical(position))
    assert app.status(game).origin["position"] != rnd.position_digest(seed, canonical(position))
    other = rnd.position_digest(rnd.new_salt_key(), canonical(position))
    assert app.status(game).origin["position"] != other, "the digest is keyed by this game's salt key"


def test_a_fork_does_not_serve_the_parent_s_suspended_command(app: Arbitro) -> None:
    """A transcribed duel suspends its opening until the umpire enters both draws; after red's card is entered,
    the request carries it in `entered`. A fork made then starts with that request pending."""
    game = app.create("duel", "standard", transcribed=True, game_id="t")
    red_card = DECKS["red"][2]
    app.submit(game, "umpire", {"type": "enter_random", "values": [red_card]})
    parent_view = [e for e in events_of(app.log(game, "blue")) if e["type"] == "random_requested"]
    assert parent_view and red_card not in json.dumps(parent_view)  # the parent's log redacts it
    fork = app.fork(game, app.game(game).head_seq, new_id="f")
    assert app.state_at(fork).core.decisions, "the fork must carry the pending request (else no test)"
    created = events_of(app.log(fork, "blue"))[0]["event"]
    request = created["initial_core"]["decisions"][-1]["ctx"]
    assert request["entered"] == [] and json.loads(request["command"]) == {"type": "open_scenario"}
    assert red_card not in json.dumps(events_of(app.log(fork, "blue"))), "the fork served red's entered card to blue"
    umpire = app.log(fork)[0]["event"]["initial_core"]["decisions"][-1]["ctx"]
    assert umpire["entered"] == [[red_card]], "the umpire still sees what was entered"


# --- command hashes (issue 9 point 5) -----------------------------------------------------------------------
def test_a_seat_cannot_recover_another_seat_s_command_from_its_hash(app: Arbitro, run: Cli) -> None:
    """Red's command is one of four; blue is served its `cmd_hash` in every event it caused. Blue builds red's
    record for each candidate, with everything else right (key, time, head), and every salt it could know."""
    game = app.create("duel", "standard", game_id="g")
    app.submit(game, "red", {"type": "attack", "aim": "low"}, key="red-1")
    stored = list(app.store.commands(game))[1]
    served = served_to(app, run, game, "blue")
    assert stored.hash in served, "blue is served red's command hash (else this test tests nothing)"
    assert stored.record.salt not in served, "red's command salt is served to red and the umpire only"
    known_salts = ["", rnd.command_salt("00" * 32, game, 1), rnd.salt("00" * 32, game, 1)]
    fields = {k: v for k, v in msgspec.to_builtins(stored.record).items() if k != "salt"}
    for command in app.legal(game, "red") + [{"type": "attack", "aim": "low"}]:
        guesses = [canonical({**fields, "command": command})]  # the record as it was hashed before it had a salt
        guesses += [canonical({**fields, "command": command, "salt": s}) for s in known_salts]
        found = [c for c in guesses if sha256_hex(c) in served]
        assert found == [], f"blue recovered red's command {command} from its hash"
    assert stored.record.digest() == stored.hash  # the umpire (who holds the record) checks it
    red_export = "\n".join(app.export(game, "red"))
    assert stored.record.salt in red_export, "red's own export holds its command with its salt"


def test_command_salts_derive_from_the_salt_key_not_the_seed(app: Arbitro) -> None:
    one = app.create("duel", "standard", game_id="one")
    two = app.create("duel", "standard", game_id="two")
    for game in (one, two):
        app.submit(game, "red", {"type": "end_turn"}, key="same")
    salts = {g: [c.record.salt for c in app.store.commands(g)] for g in (one, two)}
    for game in (one, two):
        key, seed = app.game(game).salt_key, app.game(game).seed
        assert key is not None and seed is not None and key != seed
        assert salts[game] == [rnd.command_salt(key, game, cmd) for cmd in range(len(salts[game]))]
        assert salts[game][-1] != rnd.command_salt(seed, game, len(salts[game]) - 1), "a revealed seed opens no salt"
    assert rnd.command_salt("ab" * 32, "g", 1) != rnd.command_salt("cd" * 32, "g", 1), "the salt depends on the key"
    assert rnd.command_salt(None, "g", 1) != rnd.command_salt(None, "g", 1), "without the key: fresh random salts"


def test_verify_fails_a_log_whose_command_salt_does_not_derive_from_the_salt_key(app: Arbitro, tmp_path: Path) -> None:
    """A careful forger swaps a command's salt for one a seat knows, rehashes the record, points every event of that
    command at the new hash and rechains the log: the chain holds, and only the salt check can catch it, once the
    game's end has revealed the salt key."""
    game = app.create("duel", "standard", ["short"], game_id="g")
    while app.status(game).outcome is None:
        app.submit(game, app.status(game).awaiting.seats[0], {"type": "end_turn"})
    records = [json.loads(line) for line in app.export(game, "umpire")]
    command = next(r for r in records if r["record"] == "command" and r["cmd"] == 1)
    command["body"]["salt"] = "00" * 16
    command["hash"] = sha256_hex(canonical(command["body"]))
    for record in records:
        if record["record"] == "event" and record["body"]["cmd"] == 1:
            record["body"]["cmd_hash"] = command["hash"]
    rechain(records)
    report = app.verify_lines([canonical(r).decode() for r in records])
    checks = {c.name: c for c in report.checks}
    assert not report.passed and checks["salts"].status == "failed", report.checks
    assert "command 1" in checks["salts"].detail and "salt key" in checks["salts"].detail
    honest = app.verify(game)
    assert honest.passed and {c.name: c.status for c in honest.checks}["salts"] == "passed"
