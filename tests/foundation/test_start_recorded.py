"""`Arbitro.start_recorded` (ctx, nineteenth session): a recorded game started again from its genesis and the secrets
its log's game record holds, so that its commands can be submitted again. relog, bench/rulesets.py and
tests/foundation/test_state_before.py each called the private `_start_game`, and the test's copy dropped the salt key
(harmless for the shipped logs, made before it; a keyed log would have been salted by nothing its genesis commits
to). Secrets that are not the committed ones are refused now, and a fork's genesis keeps its parent."""

from __future__ import annotations

import msgspec
import pytest

from arbitro.adjudicator.errors import BadInput
from arbitro.adjudicator.service import Arbitro
from arbitro.events import core
from arbitro.events.sqlite import SQLiteStore
from tests.foundation.conftest import ended

CLOCK = "2026-11-30T11:00:00+00:00"


def recorded(app: Arbitro, game: str) -> tuple[core.GameCreated, dict[str, str]]:
    """A game's genesis and secrets as its export with the seed records them (the umpire's `--with-seed`)."""
    lines = [msgspec.json.decode(line) for line in app.export(game, "umpire", with_seed=True)]
    record = next(r for r in lines if r["record"] == "game")
    event = next(r for r in lines if r["record"] == "event")["body"]["event"]
    return msgspec.convert(event, core.GameCreated), record


def replayed(app: Arbitro, game: str, into: Arbitro, game_id: str | None = None) -> str:
    """`game` started again in `into` and its commands submitted again, as relog does."""
    created, record = recorded(app, game)
    again = into.start_recorded(created, record["seed"], game_id or game, salt_key=record.get("salt_key"))
    for command in list(app.store.commands(game))[1:]:
        into.submit(again, command.record.seat, command.record.command, key=command.record.key)
    return again


def test_a_keyed_game_started_again_is_salted_and_verified_as_its_log() -> None:
    """The same events, hash for hash (the clock fixed: each command's arrival time is in its events' hashes)."""
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: CLOCK)
    app.create("duel", "standard", ["short"], game_id="g")
    ended(app, "g")
    other = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: CLOCK)
    again = replayed(app, "g", other)
    assert [e.hash for e in other.store.events(again)] == [e.hash for e in app.store.events("g")]
    assert other.verify(again).passed


def test_a_fork_started_again_keeps_its_parent(app: Arbitro) -> None:
    """The parent is read from the genesis's origin: verify compares the game record's with it (arbitro §L.1)."""
    app.create("duel", "standard", ["short"], game_id="p")
    app.submit("p", "red", {"type": "end_turn"})
    fork = app.fork("p", app.game("p").head_seq, new_id="f")
    ended(app, fork)
    again = replayed(app, fork, app, "f2")
    assert (app.game(again).parent, app.game(again).parent_seq) == ("p", app.game(fork).parent_seq)
    assert app.verify(again).passed


def test_secrets_other_than_the_committed_ones_are_refused(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    created, record = recorded(app, "g")
    seed, key = record["seed"], record["salt_key"]
    with pytest.raises(BadInput, match="commits to a salt key"):
        app.start_recorded(created, seed, "dropped")  # the old test's copy: the salt key dropped
    with pytest.raises(BadInput, match="salt key given is not"):
        app.start_recorded(created, seed, "wrong", salt_key=seed)
    with pytest.raises(BadInput, match="seed given is not"):
        app.start_recorded(created, key, "wrong", salt_key=key)
    with pytest.raises(BadInput, match="seed given is not"):
        app.start_recorded(created, "not hex", "wrong", salt_key=key)
    old = msgspec.structs.replace(created, salt_key_commitment=msgspec.UNSET)
    with pytest.raises(BadInput, match="commits to no salt key"):
        app.start_recorded(old, seed, "old", salt_key=key)
    with pytest.raises(BadInput, match="game id"):
        app.start_recorded(created, seed, "a/b", salt_key=key)
    assert [g.id for g in app.store.games()] == ["g"], "nothing stored"
