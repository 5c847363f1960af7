"""The salt key (events.random, arbitro §V.3; rev-o O1's lasting answer): every salt and origin.position's digest
derive from a second secret committed in the genesis and revealed only at the game's end, so a seed made public
earlier (a dispute's reveal; the parent's seed a `keep_dice` fork replays from its first event) opens no hash a seat
was served. A game made before the key (no commitment in its genesis, as every shipped log) is still salted, checked
and revealed as it was: by its seed. A mid-game reveal still asks the umpire's `expose_hidden` in every game: the
seed opens every hidden roll and draw (rev-p's guard tests). Play taken back past the end is salted at random (P1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.creation import genesis
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from arbitro.events.codec import canonical, sha256_hex
from arbitro.events.sqlite import SQLiteStore
from tests.foundation.duel import DECKS

from .conftest import OnPostgres, OnSQLiteFile, ended, position_file
from .test_event_counts_channels import served_bytes

PARENT_KEY, FORK_KEY, SEED = "a1" * 32, "b2" * 32, "5e" * 32


def kept_dice_fork(tmp_path: Path, red_card: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Arbitro, str]:
    """A duel from a position where red holds `red_card`, one exchange in, its seed revealed mid-game (a dispute),
    forked at its head keeping the dice: everything fixed but red's card (the secrets included)."""
    monkeypatch.setattr(rnd, "new_salt_key", lambda: FORK_KEY)
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-11-30T00:00:00+00:00")
    position = json.loads(position_file(tmp_path, red_card=red_card).read_text())
    app.create("duel", position=position, game_id="g", seed=SEED, salt_key=PARENT_KEY)
    app.submit("g", "red", {"type": "attack", "aim": "high"}, key="r1")
    app.submit("g", "blue", {"type": "guard", "stance": "low"}, key="b1")
    app.reveal("g", "a dispute over a roll", seat="umpire", expose_hidden=True)
    return app, app.fork("g", app.game("g").head_seq, keep_dice=True, new_id="f")


def found_cards(app: Arbitro, fork: str, key: str) -> list[str]:
    """Blue's attack on the fork's genesis: the whole parent position, red's card in it. Blue knows everything in
    the genesis but that card, and the item's links; it hashes each candidate with the salt `key` would give."""
    item = app.log(fork, "blue")[0]
    (created,) = [e for e in app.log(fork, "umpire") if e["type"] == "game_created"]
    found = []
    for card in DECKS["red"]:
        initial = {**created["event"]["initial"], "cards": {**created["event"]["initial"]["cards"], "red": card}}
        body = {"game": fork, "seq": 1, "cmd": 0, "cmd_hash": item["cmd_hash"], "seat": item["seat"],
                "salt": rnd.salt(key, fork, 1), "prev": item["prev"],
                "event": {**created["event"], "initial": initial}}
        if sha256_hex(canonical(body)) == item["hash"]:
            found.append(card)
    return found


def test_a_kept_dice_forks_public_seed_opens_none_of_its_hashes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app, fork = kept_dice_fork(tmp_path, DECKS["red"][1], monkeypatch)
    assert app.game(fork).seed == SEED and app.game(fork).salt_key == FORK_KEY  # the parent's dice, its own key
    assert len(app.log(fork, "blue")[0]["events"]) == 1, "the fork's first command makes its genesis alone"
    assert found_cards(app, fork, SEED) == [], "blue, given the public seed, finds red's card"
    assert found_cards(app, fork, PARENT_KEY) == [], "a fork's salts are its own, not its parent's"
    assert found_cards(app, fork, FORK_KEY) == [DECKS["red"][1]]  # the attack is sound: the fork's end reveals that


def test_two_kept_dice_forks_differing_in_red_s_card_serve_blue_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    falcon, wolf = (kept_dice_fork(tmp_path, card, monkeypatch)[0] for card in DECKS["red"][:2])
    assert canonical(falcon.log("f", "umpire")) != canonical(wolf.log("f", "umpire"))  # control
    for seat_sees in (lambda app: app.log("f", "blue"), lambda app: app.status("f", "blue"),
                      lambda app: app.view("f", "blue")):
        assert served_bytes(seat_sees(falcon)) == served_bytes(seat_sees(wolf))


def test_the_games_end_reveals_the_salt_key_and_every_salt_is_checked(app: Arbitro) -> None:
    app.create("duel", "standard", ["short"], game_id="g")
    ended(app, "g")
    log = app.log("g", "blue")
    revealed = [e["event"] for item in log for e in item["events"] if e["type"] == "salt_key_revealed"]
    assert [r["salt_key"] for r in revealed] == [app.game("g").salt_key], "served to every seat, once, at the end"
    checks = {c.name: c.status for c in app.verify_lines(list(app.export("g", "umpire"))).checks}
    assert checks["salt key commitment"] == checks["salts"] == "passed"


def test_a_game_made_before_the_salt_key_is_salted_and_revealed_by_its_seed(app: Arbitro) -> None:
    """The format marker is the genesis's commitment: without one (an older game, every shipped log) the salts derive
    from the seed, so a mid-game reveal still exposes everything hidden and needs the umpire's `expose_hidden`."""
    created = genesis(registry.get("duel"), SEED, "standard", salt_key=PARENT_KEY)
    old = msgspec.structs.replace(created, salt_key_commitment=msgspec.UNSET)
    assert "salt_key_commitment" not in canonical(old).decode() and not old.salted_by_key()
    game = app.start_recorded(old, SEED, "old")
    app.submit(game, "red", {"type": "attack", "aim": "high"})
    assert [c.record.salt for c in app.store.commands(game)] == [rnd.command_salt(SEED, game, n) for n in (0, 1)]
    with pytest.raises(IllegalCommand, match="expose_hidden"):
        app.reveal(game, "a dispute", seat="umpire")
    app.reveal(game, "a dispute", seat="umpire", expose_hidden=True)
    checks = {c.name: (c.status, c.detail) for c in app.verify(game).checks}
    assert checks["salts"][0] == "passed" and checks["salts"][1].endswith("derive from the seed")
    assert "salt key commitment" not in checks


class SaltKeyColumn:
    """A store made before the salt key: its games table without the column (dropped by hand after a game was
    made). Read as it is, its games hold no key; opened to write, it gets the column, and a new game its key."""

    def open(self, mode: str) -> Any:
        raise NotImplementedError

    def test_an_older_store_reads_its_games_without_a_key_and_gets_the_column_once_opened_to_write(self) -> None:
        app = Arbitro(self.open("create"))
        app.create("duel", "standard", game_id="old")
        app.store.conn.execute("ALTER TABLE games DROP COLUMN salt_key")
        app.store.close()
        read = self.open("read")
        assert read.game("old").salt_key is None and [g.id for g in read.games()] == ["old"]
        read.close()
        app = Arbitro(self.open("write"))
        assert app.game("old").salt_key is None
        assert app.game(app.create("duel", "standard", game_id="new")).salt_key is not None
        app.store.close()


class TestSQLiteSaltKeyColumn(OnSQLiteFile, SaltKeyColumn):
    pass


class TestPostgresSaltKeyColumn(OnPostgres, SaltKeyColumn):
    pass


def test_no_export_holds_the_salt_key_before_the_end_but_the_umpires_with_its_secrets(app: Arbitro) -> None:
    app.create("duel", "standard", ["short"], game_id="g")
    app.submit("g", "red", {"type": "end_turn"})
    app.reveal("g", "a dispute", seat="umpire", expose_hidden=True)
    key = app.game("g").salt_key
    assert key is not None
    head = {seat: json.loads(next(iter(app.export("g", seat)))) for seat in ("red", "blue", "umpire")}
    assert all("salt_key" not in h and h["seed"] == app.game("g").seed for h in head.values()), "the seed alone"
    assert json.loads(next(iter(app.export("g", "umpire", with_seed=True))))["salt_key"] == key  # to move the game
    ended(app, "g")
    assert all(json.loads(next(iter(app.export("g", seat))))["salt_key"] == key for seat in ("red", "umpire"))


def test_play_taken_back_past_the_end_is_salted_at_random_and_still_verifies(app: Arbitro) -> None:
    """rev-p P1: the end reveals the salt key; the umpire takes the end back and play resumes in the same game. Its
    new events must not be salted by the published key (a seat would test its guesses against them): they get fresh
    random salts, which verify says it does not judge."""
    app.create("duel", "standard", ["short"], game_id="g")
    while app.status("g").outcome is None:
        before_the_end = app.game("g").head_seq
        app.submit("g", app.status("g").awaiting.seats[0], {"type": "end_turn"})
    key = app.game("g").salt_key
    assert key is not None
    app.undo("g", "umpire", before_the_end, "the end was entered in error")
    app.submit("g", app.status("g").awaiting.seats[0], {"type": "end_turn"})  # the same command, again
    last = list(app.store.commands("g"))[-1].record
    assert last.salt != rnd.command_salt(key, "g", last.cmd), "a published key salts nothing new"
    salts = {c.name: (c.status, c.detail) for c in app.verify("g").checks}["salts"]
    assert salts[0] == "passed" and salts[1].endswith("the 2 commands after its reveal are salted at random")
