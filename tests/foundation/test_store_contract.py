"""The Store contract (events.store.Store), run against every backend (eventsourcing style).

`StoreContract` holds the tests; each backend subclasses it and says how to make a store. A PostgreSQL
store, when there is one, subclasses it too and must pass the same tests. The contract: an append is one
transaction against an expected head (a stale one is refused naming the current head), an idempotency key
is used once, nothing of a refused or failed append is kept, two racers at the same head cannot both win,
snapshots and annotations round-trip. File-backed stores also keep everything committed through a corrupt
byte elsewhere, which replay reports as a chain break at its sequence number.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import IllegalCommand, MalformedCommand, NotYourDecision, NotYourTurn, UnknownSeat
from arbitro.adjudicator.service import Arbitro
from arbitro.events import core
from arbitro.events.codec import sha256_hex
from arbitro.events.records import GENESIS, CommandRecord, EventBody, GameRecord, StoredEvent, seal
from arbitro.events import postgres as postgres_module
from arbitro.events.postgres import PostgresStore
from arbitro.events.sqlite import SQLiteStore
from arbitro.events.store import (
    Annotation,
    DuplicateKey,
    GameExists,
    GameNotFound,
    KeyChange,
    Snapshot,
    StaleSequence,
    Store,
    StoreError,
)
from arbitro.projections.fold import ChainBroken, Replayer
from arbitro.projections.game import state_hash

registry.register("duel", "tests.foundation.duel:DuelRuleset")


# --- records built by hand: the store knows nothing of rulesets ----------------------------------------
def game_record(game_id: str) -> GameRecord:
    return GameRecord(id=game_id, ruleset="duel", version="1.0.0", scenario="standard", kind="generated",
                      seed="ab" * 32, seed_commitment="cd" * 32, seats=("red", "blue"), created_at="2026-01-01T00:00:00+00:00")


def command(game_id: str, cmd: int, key: str, expected_seq: int, seat: str = "red") -> CommandRecord:
    return CommandRecord(game=game_id, cmd=cmd, seat=seat, key=key, salt=f"{cmd:032x}", command={"type": "note", "n": cmd},
                         expected_seq=expected_seq, received_at="2026-01-01T00:00:00+00:00")


def chained(game_id: str, record: CommandRecord, first_seq: int, prev: str, count: int) -> list[StoredEvent]:
    """`count` sealed events continuing the chain from `prev`."""
    out = []
    for seq in range(first_seq, first_seq + count):
        body = EventBody(game=game_id, seq=seq, cmd=record.cmd, cmd_hash=record.digest(), seat=record.seat,
                         salt=f"{seq:032x}", prev=prev, event=core.Checkpoint(state_hash=f"{seq:064x}", reason="test"))
        out.append(seal(body))
        prev = out[-1].hash
    return out


def create(store: Store, game_id: str, events: int = 2) -> list[StoredEvent]:
    record = command(game_id, 0, f"create:{game_id}", 0, seat="umpire")
    stored = chained(game_id, record, 1, GENESIS, events)
    store.create_game(game_record(game_id), record, stored)
    return stored


def append(store: Store, game_id: str, cmd: int, key: str, count: int = 2) -> list[StoredEvent]:
    """Append at the store's current head; returns the appended events."""
    head = store.game(game_id)
    record = command(game_id, cmd, key, head.head_seq)
    stored = chained(game_id, record, head.head_seq + 1, head.head_hash, count)
    store.append(game_id, head.head_seq, record, stored)
    return stored


def register(store: Store, game_id: str, seat: str, key: str, cmd: int | None = None) -> int:
    """`seat`'s registration of `key` (arbitro §L.6): a command of its own at the head, written with its append."""
    head = store.game(game_id)
    cmd = head.head_cmd + 1 if cmd is None else cmd
    record = command(game_id, cmd, f"register-{seat}-{cmd}", head.head_seq, seat=seat)
    store.append(game_id, head.head_seq, record, chained(game_id, record, head.head_seq + 1, head.head_hash, 1),
                 key_change=KeyChange(seat, key, registered=True))
    return cmd


def snapshot_of_log(store: Store, game_id: str) -> tuple[Any, ...]:
    """Everything a game holds, to prove that a refused append changed nothing."""
    return (store.game(game_id), list(store.events(game_id)), list(store.commands(game_id)))


def submit_order(arbitro: Arbitro, game_id: str, count: int) -> None:
    """Play `count` legal commands of a duel (the first legal command of the awaited seat)."""
    for _ in range(count):
        seat = arbitro.awaiting(game_id).seats[0]
        arbitro.submit(game_id, seat, arbitro.legal(game_id, seat)[0])


class StoreContract:
    """Abstract: subclasses define `make_store` (and may add backend-specific tests)."""

    #: whether a second store object can be opened on the same data (a file, a server)
    shared_by_path = False

    def make_store(self, tmp_path: Path) -> Store:
        raise NotImplementedError

    def open_again(self, tmp_path: Path) -> Store:
        """A second, independent store over the same data (another connection or process)."""
        raise NotImplementedError

    @pytest.fixture
    def store(self, tmp_path: Path) -> Iterator[Store]:
        store = self.make_store(tmp_path)
        yield store
        close = getattr(store, "close", None)
        if close is not None:
            close()

    # --- round trip --------------------------------------------------------------------------------
    def test_create_append_read_round_trip(self, store: Store) -> None:
        created = create(store, "g1", events=3)
        first = append(store, "g1", 1, "k1", count=2)
        second = append(store, "g1", 2, "k2", count=1)
        everything = created + first + second

        assert list(store.events("g1")) == everything
        assert [e.seq for e in everything] == [1, 2, 3, 4, 5, 6]
        assert list(store.events("g1", 4, 5)) == first
        assert list(store.events("g1", 6)) == second
        assert list(store.events("g1", 7)) == []

        game = store.game("g1")
        assert (game.head_seq, game.head_hash) == (6, second[-1].hash)
        assert game.seats == ("red", "blue") and game.seed == "ab" * 32 and game.kind == "generated"
        assert [g.id for g in store.games()] == ["g1"]

        commands = list(store.commands("g1"))
        assert [c.record.cmd for c in commands] == [0, 1, 2]
        assert [(c.first_seq, c.last_seq) for c in commands] == [(1, 3), (4, 5), (6, 6)]
        assert commands[1].record == command("g1", 1, "k1", 3)
        assert commands[1].hash == sha256_hex(commands[1].record.body())
        found = store.command_by_key("g1", "red", "k2")
        assert found is not None and found.record.cmd == 2 and (found.first_seq, found.last_seq) == (6, 6)
        assert store.command_by_key("g1", "red", "never-used") is None

    def test_games_are_separate_logs(self, store: Store) -> None:
        create(store, "g1")
        create(store, "g2", events=1)
        append(store, "g2", 1, "same-key")
        append(store, "g1", 1, "same-key")  # keys are per game
        assert store.game("g1").head_seq == 4 and store.game("g2").head_seq == 3
        assert all(e.seq <= 4 for e in store.events("g1")) and len(list(store.events("g2"))) == 3
        assert sorted(g.id for g in store.games()) == ["g1", "g2"]

    def test_unknown_game_and_existing_game(self, store: Store) -> None:
        create(store, "g1")
        with pytest.raises(GameNotFound, match="'nope'"):
            store.game("nope")
        with pytest.raises(GameNotFound, match="'nope'"):
            store.append("nope", 0, command("nope", 1, "k", 0), chained("nope", command("nope", 1, "k", 0), 1, GENESIS, 1))
        with pytest.raises(GameExists, match="^a game 'g1' already exists in this database$"):
            create(store, "g1")
        assert store.game("g1").head_seq == 2

    # --- optimistic concurrency and idempotency ----------------------------------------------------------
    def test_stale_expected_sequence_is_refused_naming_the_head(self, store: Store) -> None:
        create(store, "g1")
        append(store, "g1", 1, "k1", count=3)  # head #5
        before = snapshot_of_log(store, "g1")
        record = command("g1", 2, "k2", 2)
        with pytest.raises(StaleSequence) as refused:
            store.append("g1", 2, record, chained("g1", record, 3, GENESIS, 1))
        assert refused.value.head == 5 and refused.value.expected == 2
        assert str(refused.value) == ("game g1: expected the log at #2 but its head is #5; read the new events and "
                                      "resubmit against #5")
        assert refused.value.code == "store/stale-sequence"
        assert snapshot_of_log(store, "g1") == before

    def test_duplicate_idempotency_key_is_refused_by_the_store(self, store: Store) -> None:
        create(store, "g1")
        append(store, "g1", 1, "retry-me")
        before = snapshot_of_log(store, "g1")
        head = store.game("g1")
        record = command("g1", 2, "retry-me", head.head_seq)
        with pytest.raises(DuplicateKey) as refused:
            store.append("g1", head.head_seq, record, chained("g1", record, head.head_seq + 1, head.head_hash, 1))
        assert refused.value.cmd == 1 and refused.value.key == "retry-me"
        assert str(refused.value) == "game g1: idempotency key 'retry-me' was already used by red for command 1"
        assert snapshot_of_log(store, "g1") == before

    def test_an_appends_snapshots_are_kept_with_it_and_a_refused_ones_are_not(self, store: Store) -> None:
        """Snapshots go in the append's own transaction (issue 15: one commit per submit): kept with its events, and
        nothing of them when the append is refused."""
        create(store, "g1")
        head = store.game("g1")
        record = command("g1", 1, "k1", head.head_seq)
        events = chained("g1", record, head.head_seq + 1, head.head_hash, 2)
        kept = Snapshot(events[0].seq, b"state", sha256_hex(b"state"))
        store.append("g1", head.head_seq, record, events, None, [kept])
        assert store.snapshots("g1") == [kept]
        stale = command("g1", 2, "k2", head.head_seq)
        with pytest.raises(StaleSequence):
            store.append("g1", head.head_seq, stale, chained("g1", stale, head.head_seq + 1, head.head_hash, 1), None,
                         [Snapshot(events[1].seq, b"no", sha256_hex(b"no"))])
        assert store.snapshots("g1") == [kept]

    def test_a_failing_append_keeps_nothing_of_itself(self, store: Store) -> None:
        """Atomicity: the second event collides with the first (same seq), after the command row went in."""
        create(store, "g1")
        before = snapshot_of_log(store, "g1")
        head = store.game("g1")
        record = command("g1", 1, "k1", head.head_seq)
        events = chained("g1", record, head.head_seq + 1, head.head_hash, 1)
        with pytest.raises(StoreError):
            store.append("g1", head.head_seq, record, events + events)
        assert snapshot_of_log(store, "g1") == before
        append(store, "g1", 1, "k1")  # the key was not consumed by the failed append
        assert store.game("g1").head_seq == 4

    def test_racing_appends_at_the_same_head_exactly_one_wins(self, store: Store, tmp_path: Path) -> None:
        """Two threads, each with the store it would have in a server (its own connection where the backend
        can open one), append at the same expected head; repeated to vary the interleaving."""
        create(store, "g1")
        stores = [store, self.open_again(tmp_path) if self.shared_by_path else store]
        try:
            for round_ in range(25):
                head = store.game("g1")
                outcomes: list[object] = [None, None]
                barrier = threading.Barrier(2)

                def racer(i: int, head: GameRecord = head, round_: int = round_) -> None:
                    record = command("g1", round_ + 1, f"round{round_}-racer{i}", head.head_seq)
                    events = chained("g1", record, head.head_seq + 1, head.head_hash, 1 + i)
                    barrier.wait()
                    try:
                        stores[i].append("g1", head.head_seq, record, events)
                        outcomes[i] = "won"
                    except Exception as e:  # noqa: BLE001 - the test classifies it below
                        outcomes[i] = e

                threads = [threading.Thread(target=racer, args=(i,)) for i in (0, 1)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join(timeout=30)
                winners = [i for i, o in enumerate(outcomes) if o == "won"]
                assert len(winners) == 1, f"round {round_}: {outcomes}"
                loser = outcomes[1 - winners[0]]
                assert isinstance(loser, StaleSequence), f"round {round_}: the loser got {loser!r}"
                new_head = store.game("g1")
                assert loser.head == new_head.head_seq == head.head_seq + 1 + winners[0]
            prev = GENESIS
            for e in store.events("g1"):  # still one unbroken chain
                assert msgspec.json.decode(e.body)["prev"] == prev and sha256_hex(e.body) == e.hash
                prev = e.hash
        finally:
            if stores[1] is not store:
                stores[1].close()  # type: ignore[attr-defined]

    def test_an_append_arriving_mid_transaction_waits_then_is_refused_as_stale(self, store: Store, tmp_path: Path) -> None:
        """The interleaving forced: the first append is held inside its transaction (after its head check)
        while the second arrives at the same expected head. The second must wait, then be refused naming
        the first's new head; it must not fail with a driver error nor slip in."""
        create(store, "g1")
        other = self.open_again(tmp_path) if self.shared_by_path else store
        head = store.game("g1")
        inside, release = threading.Event(), threading.Event()

        class HeldEvents(list):  # type: ignore[type-arg]
            def __iter__(self):  # type: ignore[no-untyped-def]
                inside.set()  # the store is writing our events: its transaction is open
                assert release.wait(10)
                return super().__iter__()

        first_record = command("g1", 1, "first", head.head_seq)
        first_events = HeldEvents(chained("g1", first_record, head.head_seq + 1, head.head_hash, 2))
        second_record = command("g1", 1, "second", head.head_seq)
        second_events = chained("g1", second_record, head.head_seq + 1, head.head_hash, 1)
        outcomes: dict[str, object] = {}

        def run(name: str, target: Store, record: CommandRecord, events: list[StoredEvent]) -> None:
            try:
                target.append("g1", head.head_seq, record, events)
                outcomes[name] = "won"
            except Exception as e:  # noqa: BLE001 - classified below
                outcomes[name] = e

        first = threading.Thread(target=run, args=("first", store, first_record, first_events))
        first.start()
        try:
            assert inside.wait(10), "the first append never reached its events"
            second = threading.Thread(target=run, args=("second", other, second_record, second_events))
            second.start()
            second.join(timeout=0.3)  # give it time to collide with the open transaction
        finally:
            release.set()
        first.join(timeout=10)
        second.join(timeout=10)
        try:
            assert outcomes["first"] == "won", outcomes
            refused = outcomes["second"]
            assert isinstance(refused, StaleSequence), f"the second append got {refused!r}"
            assert refused.head == head.head_seq + 2
            assert [c.record.key for c in store.commands("g1")] == ["create:g1", "first"]
        finally:
            if other is not store:
                other.close()  # type: ignore[attr-defined]

    def test_a_reader_sharing_the_store_never_sees_an_uncommitted_append(self, store: Store) -> None:
        """One store object used by two threads (as a server would): while an append is inside its
        transaction, another thread's read must not see it, and must not see it at all once it rolls back."""
        create(store, "g1")
        head = store.game("g1")
        inside, release = threading.Event(), threading.Event()

        class FailingEvents(list):  # type: ignore[type-arg]
            def __iter__(self):  # type: ignore[no-untyped-def]
                inside.set()  # the command row is written, the transaction open
                assert release.wait(10)
                raise RuntimeError("the append fails after its command row went in")

        record = command("g1", 1, "in-flight", head.head_seq)
        events = FailingEvents(chained("g1", record, head.head_seq + 1, head.head_hash, 1))
        writer = threading.Thread(target=lambda: pytest.raises(RuntimeError, store.append, "g1", head.head_seq, record, events))
        seen: list[object] = []
        reader = threading.Thread(target=lambda: seen.append(store.command_by_key("g1", "red", "in-flight")))
        writer.start()
        try:
            assert inside.wait(10)
            reader.start()
            reader.join(timeout=0.3)
        finally:
            release.set()
        writer.join(timeout=10)
        reader.join(timeout=10)
        assert seen == [None], "a reader saw a command whose append was then rolled back"
        assert store.command_by_key("g1", "red", "in-flight") is None and store.game("g1").head_seq == head.head_seq

    # --- reads as of one moment ---------------------------------------------------------------------
    def test_a_read_transaction_sees_one_moment_whatever_is_committed_meanwhile(self, store: Store, tmp_path: Path) -> None:
        """verify, export and check read a game in several queries: inside `read_transaction` they all see the game
        as it was when it began, while appends commit through the store itself (a server's other thread) and through
        another connection; the store sees them at once, the transaction's reader never."""
        create(store, "g1")
        append(store, "g1", 1, "k1")
        other = self.open_again(tmp_path) if self.shared_by_path else store
        try:
            with store.read_transaction() as reader:
                moment = snapshot_of_log(reader, "g1")
                notes = reader.annotations("g1")
                append(store, "g1", 2, "itself")
                append(other, "g1", 3, "other")
                assert store.game("g1").head_seq == moment[0].head_seq + 4
                assert snapshot_of_log(reader, "g1") == moment
                assert reader.command_by_key("g1", "red", "k1") is not None
                assert reader.command_by_key("g1", "red", "other") is None and reader.annotations("g1") == notes
                assert list(reader.events("g1", moment[0].head_seq + 1)) == []
                with reader.read_transaction() as again:  # nested: the same moment
                    assert snapshot_of_log(again, "g1") == moment
                with pytest.raises(StoreError, match="read transaction"):  # ReadOnlyStore: it writes nothing
                    append(reader, "g1", 9, "from-the-reader")
            assert store.command_by_key("g1", "red", "from-the-reader") is None
            with store.read_transaction() as later:  # a new moment sees what was committed
                assert later.game("g1") == store.game("g1")
        finally:
            if other is not store:
                other.close()  # type: ignore[attr-defined]

    def test_submit_with_a_used_key_returns_the_original_result_and_appends_nothing(self, store: Store) -> None:
        arbitro = Arbitro(store)
        game_id = arbitro.create("duel", "standard")
        first = arbitro.submit(game_id, "red", {"type": "attack", "aim": "high"}, key="click-1")
        before = snapshot_of_log(store, game_id)
        again = arbitro.submit(game_id, "red", {"type": "attack", "aim": "high"}, key="click-1")
        assert again.duplicate is True and first.duplicate is False
        assert again.cmd == first.cmd and again.events == first.events and again.head == first.head
        assert snapshot_of_log(store, game_id) == before
        # The game goes on: the retried attack was not applied twice (blue must guard, not red attack).
        assert arbitro.awaiting(game_id).seats == ["blue"]

    def test_a_rejected_command_appends_nothing(self, store: Store) -> None:
        arbitro = Arbitro(store)
        game_id = arbitro.create("duel", "standard")
        arbitro.submit(game_id, "red", {"type": "attack", "aim": "low"})
        before = snapshot_of_log(store, game_id)
        with pytest.raises(NotYourDecision):  # blue must guard first (duel §4)
            arbitro.submit(game_id, "red", {"type": "end_turn"}, key="rejected")
        with pytest.raises(NotYourDecision):  # ... and blue itself may do nothing else meanwhile
            arbitro.submit(game_id, "blue", {"type": "attack", "aim": "high"}, key="rejected")
        with pytest.raises(MalformedCommand):
            arbitro.submit(game_id, "blue", {"type": "guard", "stance": "sideways"})
        with pytest.raises(UnknownSeat):
            arbitro.submit(game_id, "green", {"type": "guard", "stance": "low"})
        assert snapshot_of_log(store, game_id) == before
        assert store.command_by_key(game_id, "blue", "rejected") is None  # the key stays free for a corrected command
        arbitro.submit(game_id, "blue", {"type": "guard", "stance": "low"}, key="rejected")
        before = snapshot_of_log(store, game_id)
        with pytest.raises(NotYourTurn):
            arbitro.submit(game_id, "red", {"type": "end_turn"})  # blue's turn now (duel §2)
        with pytest.raises(IllegalCommand):
            arbitro.submit(game_id, "blue", {"type": "guard", "stance": "high"})  # no attack to guard against
        assert snapshot_of_log(store, game_id) == before

    # --- the change feed ------------------------------------------------------------------------------------
    def test_wait_for_append_returns_at_once_when_the_head_is_past(self, store: Store) -> None:
        create(store, "g1")  # head #2
        assert store.wait_for_append("g1", 1, timeout=30) == 2  # already past: no wait
        assert store.wait_for_append("g1", 2, timeout=0) == 2  # nothing new: the timeout returns the head
        assert store.wait_for_append("g1", 2, timeout=0.05) == 2
        with pytest.raises(GameNotFound):
            store.wait_for_append("nope", 0, timeout=0)

    def test_wait_for_append_wakes_on_an_append_by_this_or_another_connection(self, store: Store,
                                                                              tmp_path: Path) -> None:
        """A live stream waits on the head; an append wakes it whether it came through the same store object
        (one server process) or through another connection to the same data (another server process)."""
        create(store, "g1")
        writers = [store] + ([self.open_again(tmp_path)] if self.shared_by_path else [])
        try:
            for writer in writers:
                head = store.game("g1").head_seq
                woke: list[int] = []
                waiter = threading.Thread(target=lambda: woke.append(store.wait_for_append("g1", head, timeout=60)))
                waiter.start()
                waiter.join(timeout=0.2)  # let it block first, so that the append is what wakes it
                appended = append(writer, "g1", head, f"wake-{head}", count=2)
                waiter.join(timeout=60)
                assert not waiter.is_alive(), "the waiter was not woken by the append"
                assert woke == [appended[-1].seq] == [head + 2]
        finally:
            for other in writers[1:]:
                other.close()  # type: ignore[attr-defined]

    # --- snapshots and annotations ----------------------------------------------------------------------
    def test_snapshot_round_trip(self, store: Store) -> None:
        create(store, "g1")
        create(store, "g2")
        assert store.snapshot_at_or_before("g1", 100) is None
        for seq in (10, 30, 20):
            data = f'{{"seq":{seq}}}'.encode() + bytes(range(256))  # any bytes, not only text
            store.put_snapshot("g1", Snapshot(seq, data, sha256_hex(data)))
        got = store.snapshot_at_or_before("g1", 25)
        assert got is not None and got.seq == 20 and got.state.startswith(b'{"seq":20}')
        assert got.state_hash == sha256_hex(got.state) and len(got.state) == 10 + 256
        assert store.snapshot_at_or_before("g1", 30).seq == 30  # type: ignore[union-attr]
        assert store.snapshot_at_or_before("g1", 10**9).seq == 30  # type: ignore[union-attr]
        assert store.snapshot_at_or_before("g1", 9) is None
        assert store.snapshot_at_or_before("g2", 10**9) is None  # per game
        store.put_snapshot("g1", Snapshot(20, b"again", sha256_hex(b"again")))  # rewriting one replaces it
        assert store.snapshot_at_or_before("g1", 25) == Snapshot(20, b"again", sha256_hex(b"again"))

    def test_engine_snapshots_are_used_and_give_the_replayed_state(self, store: Store) -> None:
        arbitro = Arbitro(store)
        game_id = arbitro.create("duel", "standard")
        submit_order(arbitro, game_id, 9)  # at least one full round: the duel checkpoints every round
        head = arbitro.game(game_id).head_seq
        snap = store.snapshot_at_or_before(game_id, head)
        assert snap is not None and 1 < snap.seq < head
        replayer = Replayer(arbitro.adjudicator("duel").fold, store, game_id)
        for seq in range(1, head + 1):
            assert state_hash(replayer.state_at(seq)) == state_hash(replayer.state_at(seq, use_snapshots=False))

    def test_annotations(self, store: Store) -> None:
        create(store, "g1")
        create(store, "g2")

        def note(game: str, seq: int, seat: str, text: str, private: bool = False) -> Annotation:
            return store.add_annotation(Annotation(game=game, id=0, seq=seq, seat=seat, private=private, text=text,
                                                   created_at="2026-01-01T00:00:00+00:00"))

        a = note("g1", 1, "red", "opening: a bold attack")
        b = note("g1", 2, "blue", "private plan", private=True)
        c = note("g2", 2, "umpire", "ruling expected")
        d = note("g1", 2, "blue", "a public afterthought")
        e = note("g1", 1, "red", "red's own plan", private=True)
        f = note("g1", 2, "blue", "a second private plan", private=True)
        # numbered per chain (arbitro §L.1): public 1, 2; blue's 1, 2; red's 1; no count shared between chains
        assert [(n.chain, n.id) for n in (a, b, c, d, e, f)] == [
            ("public", 1), ("private:blue", 1), ("public", 1), ("public", 2), ("private:red", 1), ("private:blue", 2)]
        assert (d.prev, f.prev, e.prev) == (a.hash, b.hash, GENESIS)  # each linked within its own chain
        assert store.annotations("g1") == [a, d, b, f, e]  # the public chain first, then each seat's
        assert store.annotations("g2") == [c]
        assert b.private is True and b.text == "private plan" and b.seat == "blue"
        assert store.annotations("nope") == []
        arbitro = Arbitro(store)
        game_id = arbitro.create("duel", "standard")
        arbitro.annotate(game_id, "red", 0, "public note")  # a seat's note is at a command (engine-rules §V.6)
        arbitro.annotate(game_id, "blue", 0, "blue's secret", private=True)
        assert [n.text for n in arbitro.annotations(game_id, "red")] == ["public note"]
        assert [n.text for n in arbitro.annotations(game_id, "blue")] == ["public note", "blue's secret"]

    def test_tokens_are_stored_as_hashes_per_game_and_role(self, store: Store) -> None:
        create(store, "g1")
        create(store, "g2")
        store.put_tokens("g1", {"red": "a" * 64, "umpire": "b" * 64})
        store.put_tokens("g2", {"red": "c" * 64})
        assert store.token_role("a" * 64) == ("g1", "red")
        assert store.token_role("b" * 64) == ("g1", "umpire")
        assert store.token_role("c" * 64) == ("g2", "red")
        assert store.token_role("d" * 64) is None
        store.put_tokens("g1", {"red": "e" * 64})  # a new token for a role replaces the old one
        assert store.token_role("a" * 64) is None and store.token_role("e" * 64) == ("g1", "red")
        assert store.tokens("g1") == {"red": "e" * 64, "umpire": "b" * 64} and store.tokens("g2") == {"red": "c" * 64}
        with pytest.raises(GameNotFound):
            store.put_tokens("nope", {"red": "f" * 64})
        store.delete_game("g1")  # a game's tokens go with it
        assert store.token_role("e" * 64) is None and store.token_role("b" * 64) is None
        assert store.token_role("c" * 64) == ("g2", "red")
        assert store.tokens("g1") == {}

    def test_a_seats_copy_is_kept_replaced_and_deleted_never_beside_the_game(self, store: Store) -> None:
        store.put_seat_copy("g2", "red", 3, "first export")
        store.put_seat_copy("g2", "red", 5, "longer export")
        assert store.seat_copy("g2") == ("red", "longer export")
        assert store.seat_copies() == [("g2", "red", "longer export")]
        create(store, "g1")
        with pytest.raises(GameExists):
            store.put_seat_copy("g1", "red", 1, "a copy beside the game itself")
        store.delete_seat_copy("g2")
        assert store.seat_copy("g2") is None and store.seat_copies() == []
        with pytest.raises(GameNotFound):
            store.delete_seat_copy("g2")
        assert store.game("g1").id == "g1"  # the game itself is not a copy: untouched

    def test_an_append_that_withdraws_a_key_drops_its_registration_with_it_or_appends_nothing(self, store: Store) -> None:
        """arbitro §L.6: the withdrawal's events and the registration's end are one transaction; a withdrawal of a
        key no longer registered (another withdrawal won) appends nothing."""
        create(store, "g1")
        assert register(store, "g1", "red", "a" * 64) == 1
        assert register(store, "g1", "blue", "b" * 64) == 2
        head = store.game("g1")
        record = command("g1", 3, "w1", head.head_seq, seat="umpire")
        store.append("g1", head.head_seq, record, chained("g1", record, head.head_seq + 1, head.head_hash, 1),
                     key_change=KeyChange("red", "a" * 64, registered=False))
        assert store.seat_keys("g1") == {"blue": ("b" * 64, 2)}
        assert register(store, "g1", "red", "c" * 64) == 4  # a new key, after the withdrawal's command
        before = snapshot_of_log(store, "g1")
        head = store.game("g1")
        record = command("g1", 5, "w2", head.head_seq, seat="umpire")
        with pytest.raises(StoreError, match="red's key aaaaaaaaaaaaaaaa is not registered"):
            store.append("g1", head.head_seq, record, chained("g1", record, head.head_seq + 1, head.head_hash, 1),
                         key_change=KeyChange("red", "a" * 64, registered=False))
        assert snapshot_of_log(store, "g1") == before
        assert store.seat_keys("g1") == {"blue": ("b" * 64, 2), "red": ("c" * 64, 4)}

    def test_an_append_that_registers_a_key_writes_it_with_its_command_or_appends_nothing(self, store: Store) -> None:
        """arbitro §L.6: a registration is a command of its own; its append writes the registration (`since_cmd` the
        command's number) in its transaction, and one for a seat whose key is in force appends nothing. It moves the
        head, so a command judged before it is stale (the race a registration outside the chain left open)."""
        create(store, "g1")
        append(store, "g1", 1, "before")  # red's, unsigned, before any key
        stale_head = store.game("g1").head_seq
        assert register(store, "g1", "red", "a" * 64) == 2
        assert store.seat_keys("g1") == {"red": ("a" * 64, 2)}
        before = snapshot_of_log(store, "g1")
        with pytest.raises(StoreError, match=r"red already registered the key aaaaaaaaaaaaaaaa\.\.\.; a seat has one key"):
            register(store, "g1", "red", "b" * 64)
        record = command("g1", 3, "raced", stale_head)
        with pytest.raises(StaleSequence):
            store.append("g1", stale_head, record, chained("g1", record, stale_head + 1, "0" * 64, 2))
        assert snapshot_of_log(store, "g1") == before and store.seat_keys("g1") == {"red": ("a" * 64, 2)}


# --- backends --------------------------------------------------------------------------------------------------
class TestSQLiteMemoryStore(StoreContract):
    def make_store(self, tmp_path: Path) -> Store:
        return SQLiteStore(":memory:")


class TestSQLiteFileStore(StoreContract):
    shared_by_path = True

    def make_store(self, tmp_path: Path) -> Store:
        return SQLiteStore(tmp_path / "arbitro.db")

    def open_again(self, tmp_path: Path) -> Store:
        return SQLiteStore(tmp_path / "arbitro.db")

    def test_wal_and_full_synchronous_by_default(self, store: SQLiteStore) -> None:
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL

    def test_committed_appends_survive_closing_and_reopening(self, store: SQLiteStore, tmp_path: Path) -> None:
        created = create(store, "g1")
        appended = append(store, "g1", 1, "k1")
        store.close()
        reopened = SQLiteStore(tmp_path / "arbitro.db")
        try:
            assert list(reopened.events("g1")) == created + appended
            assert reopened.game("g1").head_hash == appended[-1].hash
        finally:
            reopened.close()

    def test_racing_processes_at_the_same_head_exactly_one_wins(self, store: SQLiteStore, tmp_path: Path) -> None:
        path = tmp_path / "arbitro.db"
        create(store, "g1")
        head = store.game("g1")
        context = multiprocessing.get_context("spawn")
        barrier = context.Barrier(2)
        results = context.Queue()
        racers = [context.Process(target=_race_in_process, args=(str(path), i, head.head_seq, head.head_hash, barrier, results))
                  for i in (0, 1)]
        for p in racers:
            p.start()
        for p in racers:
            p.join(timeout=60)
        outcomes = dict(results.get(timeout=5) for _ in racers)
        assert sorted(outcomes.values()) == ["stale at #3", "won"] or sorted(outcomes.values()) == ["stale at #4", "won"], outcomes
        winner = next(i for i, o in outcomes.items() if o == "won")
        assert store.game("g1").head_seq == head.head_seq + 1 + winner
        assert [c.record.key for c in store.commands("g1")] == ["create:g1", f"process-{winner}"]

    def test_a_flipped_byte_in_an_event_body_is_a_chain_break_and_nothing_else_is_lost(self, tmp_path: Path) -> None:
        path = tmp_path / "flip.db"
        store = SQLiteStore(path)
        arbitro = Arbitro(store)
        victim, bystander = arbitro.create("duel", "standard"), arbitro.create("duel", "standard")
        submit_order(arbitro, victim, 6)
        submit_order(arbitro, bystander, 6)
        fold = arbitro.adjudicator("duel").fold
        heads = {g: arbitro.game(g).head_seq for g in (victim, bystander)}
        states = {g: state_hash(arbitro.state_at(g)) for g in (victim, bystander)}
        commands = {g: len(list(store.commands(g))) for g in (victim, bystander)}
        target = 5
        before_break = state_hash(arbitro.state_at(victim, target - 1))
        body = next(iter(store.events(victim, target, target))).body
        store.close()

        _vacuum(path)  # one copy of each row in the main file (no WAL, no stale free pages)
        _flip_byte_in(path, body, body.index(b'"seat":') + 8)  # a letter of the event's seat

        reopened = SQLiteStore(path)
        try:
            replayer = Replayer(fold, reopened, victim)
            with pytest.raises(ChainBroken) as broken:
                replayer.state_at(use_snapshots=False)
            assert broken.value.seq == target and f"#{target}" in str(broken.value)
            with pytest.raises(ChainBroken) as again:
                list(replayer.bodies(1))
            assert again.value.seq == target
            # Nothing committed is lost: every row of both games is still there and the other game is intact.
            for game_id in (victim, bystander):
                assert [e.seq for e in reopened.events(game_id)] == list(range(1, heads[game_id] + 1))
                assert reopened.game(game_id).head_seq == heads[game_id]
                assert len(list(reopened.commands(game_id))) == commands[game_id]
            intact = Replayer(fold, reopened, bystander)
            assert state_hash(intact.state_at(use_snapshots=False)) == states[bystander]
            # The victim's log up to the break still replays to the state it had.
            assert state_hash(Replayer(fold, reopened, victim).state_at(target - 1, use_snapshots=False)) == before_break
        finally:
            reopened.close()


class TestPostgresStore(StoreContract):
    """A real PostgreSQL server, started by the tests (tests/foundation/conftest.py: postgres_server)."""

    shared_by_path = True

    @pytest.fixture(autouse=True)
    def _server(self, postgres_url: str) -> None:
        self.url = postgres_url

    def make_store(self, tmp_path: Path) -> Store:
        return PostgresStore(self.url)

    def open_again(self, tmp_path: Path) -> Store:
        return PostgresStore(self.url)

    def test_another_process_append_wakes_a_waiter_by_notify_not_by_polling(
        self, store: PostgresStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        """With the head's re-reading pushed out of reach (POLL_SECONDS = 10 minutes), only the NOTIFY of the
        other connection's append can wake the waiter: several stateless servers serve one live stream."""
        monkeypatch.setattr(postgres_module, "POLL_SECONDS", 600.0)
        create(store, "g1")
        other = self.open_again(tmp_path)
        try:
            woke: list[int] = []
            waiter = threading.Thread(target=lambda: woke.append(store.wait_for_append("g1", 2, timeout=300)),
                                      daemon=True)
            waiter.start()
            waiter.join(timeout=0.5)
            appended = append(other, "g1", 1, "notify-me", count=3)
            waiter.join(timeout=60)
            assert not waiter.is_alive(), "no NOTIFY woke the waiter"
            assert woke == [appended[-1].seq] == [5]
        finally:
            other.close()  # type: ignore[attr-defined]


def _vacuum(path: Path) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("VACUUM")
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()


def _flip_byte_in(path: Path, needle: bytes, offset_in_needle: int) -> None:
    data = bytearray(path.read_bytes())
    at = data.find(needle)
    assert at >= 0 and data.find(needle, at + 1) < 0, "the event body must be stored exactly once"
    data[at + offset_in_needle] ^= 0x01
    path.write_bytes(bytes(data))


def _race_in_process(path: str, i: int, head_seq: int, head_hash: str, barrier: Any, results: Any) -> None:
    store = SQLiteStore(path)
    record = command("g1", 1, f"process-{i}", head_seq)
    events = chained("g1", record, head_seq + 1, head_hash, 1 + i)
    barrier.wait()
    try:
        store.append("g1", head_seq, record, events)
        results.put((i, "won"))
    except StaleSequence as e:
        results.put((i, f"stale at #{e.head}"))
    except Exception as e:  # noqa: BLE001 - reported to the parent as a failure
        results.put((i, f"{type(e).__name__}: {e}"))
    finally:
        store.close()
