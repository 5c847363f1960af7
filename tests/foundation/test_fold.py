"""The fold's use of snapshots and its chain check at the start (projections/fold.py, arbitro §L): a snapshot
saves folding only when the chained checkpoint after it vouches for it, and a log whose first event is not
chained to the genesis is broken. Tried as an attacker would: forged snapshots, a dropped first event."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import sha256_hex
from arbitro.events.records import StoredEvent
from arbitro.events.store import Snapshot
from arbitro.projections.fold import ChainBroken, Replayer, snapshot_of
from arbitro.projections.game import state_bytes

from .conftest import Cli, exchange


class Spy:
    """The store, recording where each read of events starts; optionally hiding event #1."""

    def __init__(self, store: Any, drop_first: bool = False, drop: int = 0) -> None:
        self.store, self.firsts = store, []  # type: list[int]
        self.drop = 1 if drop_first else drop

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def events(self, game_id: str, first: int = 1, last: int | None = None) -> Iterator[StoredEvent]:
        self.firsts.append(first)
        return (e for e in self.store.events(game_id, first, last) if e.seq != self.drop)


@pytest.fixture
def played(db: Path, app: Arbitro) -> Arbitro:
    run = Cli(db)
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    exchange(run, "g", attacker="blue", aim="low", stance="low")  # a full round: a checkpoint and its snapshot
    return app


def replay(app: Arbitro, spy: Spy) -> bytes:
    return state_bytes(Replayer(app.replayer("g").fold, spy, "g").state_at())  # type: ignore[arg-type]


def test_a_snapshot_vouched_for_by_its_checkpoint_is_used_and_gives_the_folded_state(played: Arbitro) -> None:
    (snap, *_) = played.store.snapshots("g")
    truth = state_bytes(played.replayer("g").state_at(use_snapshots=False))
    spy = Spy(played.store)
    assert replay(played, spy) == truth
    assert 1 not in spy.firsts and snap.seq in spy.firsts  # folded from the snapshot on, not from #1
    # a snapshot is the state's seq, canonical bytes and their SHA-256
    assert snapshot_of(played.replayer("g").state_at(snap.seq, use_snapshots=False)) == \
        Snapshot(snap.seq, snap.state, sha256_hex(snap.state))


@pytest.mark.parametrize("forgery", ["digest", "state", "no checkpoint after", "at the head"])
def test_a_snapshot_not_vouched_for_is_ignored_and_the_log_folded_from_the_start(played: Arbitro, forgery: str) -> None:
    (snap, *_) = played.store.snapshots("g")
    truth = state_bytes(played.replayer("g").state_at(use_snapshots=False))
    head = played.game("g").head_seq
    if forgery == "digest":  # the digest column does not match the bytes
        fake = Snapshot(snap.seq, snap.state, "0" * 64)
    elif forgery == "state":  # bytes and digest agree, but the checkpoint after records another hash
        forged = snap.state.replace(b'"hp":{"blue":', b'"hp":{"blue":1', 1)
        fake = Snapshot(snap.seq, forged, sha256_hex(forged))
    else:  # a snapshot where no checkpoint follows: a genuine state, but nothing in the chain vouches for it
        seq = head if forgery == "at the head" else snap.seq - 1
        fake = snapshot_of(played.replayer("g").state_at(seq, use_snapshots=False))
        played.store.put_snapshot("g", fake)
        spy = Spy(played.store)
        assert Replayer(played.replayer("g").fold, spy, "g").state_at(seq) is not None  # type: ignore[arg-type]
        assert 1 in spy.firsts
        return
    played.store.put_snapshot("g", fake)
    spy = Spy(played.store)
    assert replay(played, spy) == truth
    assert 1 in spy.firsts


def test_a_log_whose_first_event_is_missing_is_broken(played: Arbitro) -> None:
    """Event #2 names #1's hash, not the genesis: served without #1, the fold refuses it."""
    with pytest.raises(ChainBroken):
        list(Replayer(played.replayer("g").fold, Spy(played.store, drop_first=True), "g").bodies(1))  # type: ignore[arg-type]


def test_a_log_missing_an_event_in_the_middle_is_broken_at_the_event_after_it(played: Arbitro) -> None:
    """Each event names the hash of the one before: with #5 deleted, #6 does not follow #4."""
    with pytest.raises(ChainBroken) as broken:
        list(Replayer(played.replayer("g").fold, Spy(played.store, drop=5), "g").bodies(1))  # type: ignore[arg-type]
    assert str(broken.value) == "game g, event #6: does not follow the event before it (deleted, inserted or reordered)"
    assert (broken.value.game, broken.value.seq) == ("g", 6)
