"""The Store contract, continued (events.store.Store): what a store keeps beside the log, on every backend. A seat
registers one key per game at a time (arbitro §L.6: the umpire withdraws it) and its signatures are kept with their commands; a seat's copy of a game played by
e-mail is kept whole, replaced by a longer one, and never beside the game itself; snapshots and commands are read
back by game and number; notes are chained (the event they are about, the note before them in their chain); and
deleting a game removes everything stored of it and nothing of another game. Mutants of events/sqlite.py showed
no test reaching most of these (issue 20)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from arbitro.events.codec import sha256_hex
from arbitro.events.postgres import PostgresStore
from arbitro.events.records import GENESIS
from arbitro.events.signing import CommandSignature
from arbitro.events.sqlite import SQLiteStore
from arbitro.events.store import Annotation, GameExists, GameNotFound, Snapshot, Store, StoreError

from .test_store_contract import append, chained, command, create, game_record, register

KEY_A, KEY_B = "a1" * 32, "b2" * 32


def signature(n: int) -> CommandSignature:
    return CommandSignature(public_key=KEY_A, command={"type": "note", "n": n}, signature=f"{n:0128x}")


def note(store: Store, game: str, seq: int, seat: str, text: str, private: bool = False) -> Annotation:
    return store.add_annotation(Annotation(game=game, id=0, seq=seq, seat=seat, private=private, text=text,
                                           created_at="2026-01-01T00:00:00+00:00"))


class RecordsContract:
    def make_store(self, tmp_path: Path) -> Store:
        raise NotImplementedError

    @pytest.fixture
    def store(self, tmp_path: Path) -> Iterator[Store]:
        store = self.make_store(tmp_path)
        yield store
        store.close()  # type: ignore[attr-defined]

    # --- seats' keys and signatures (arbitro §L.6) -------------------------------------------------------------
    def test_a_seat_registers_one_key_per_game_signing_from_the_command_after_its_registration(
            self, store: Store) -> None:
        create(store, "g1")
        create(store, "g2")
        append(store, "g1", 1, "k1")
        append(store, "g1", 2, "k2")
        assert store.seat_keys("g1") == {}
        assert register(store, "g1", "red", KEY_A) == 3  # the registering command: the last its seat does not sign
        assert register(store, "g1", "blue", KEY_B) == 4
        assert store.seat_keys("g1") == {"blue": (KEY_B, 4), "red": (KEY_A, 3)}
        assert list(store.seat_keys("g1")) == ["blue", "red"]
        with pytest.raises(StoreError) as twice:
            register(store, "g1", "red", KEY_B)
        assert str(twice.value) == (f"game g1: red already registered the key {KEY_A[:16]}...; a seat has one key per game "
                                   "at a time (the umpire's withdraw_key ends it, arbitro §L.6): nothing appended")
        assert store.seat_keys("g1")["red"] == (KEY_A, 3)  # the first key stands
        assert register(store, "g2", "red", KEY_B) == 1  # keys are per game
        assert store.seat_keys("g2") == {"red": (KEY_B, 1)}
        with pytest.raises(GameNotFound, match="'nope'"):
            store.put_tokens("nope", {"red": "f" * 64})  # nor tokens

    def test_a_signature_is_kept_with_its_command(self, store: Store) -> None:
        create(store, "g1")
        create(store, "g2")
        head = store.game("g1")
        record = command("g1", 1, "k1", head.head_seq)
        store.append("g1", head.head_seq, record, chained("g1", record, head.head_seq + 1, head.head_hash, 1),
                     signature=signature(1))
        append(store, "g1", 2, "k2")  # unsigned
        head = store.game("g1")
        record = command("g1", 3, "k3", head.head_seq)
        store.append("g1", head.head_seq, record, chained("g1", record, head.head_seq + 1, head.head_hash, 1),
                     signature=signature(3))
        assert store.command_signatures("g1") == {1: signature(1), 3: signature(3)}
        assert list(store.command_signatures("g1")) == [1, 3]
        assert store.command_signatures("g2") == {}

    def test_an_imported_game_keeps_its_seats_keys_signatures_and_notes(self, store: Store) -> None:
        created = command("g1", 0, "create:g1", 0, seat="umpire")
        first = chained("g1", created, 1, GENESIS, 2)
        signed = command("g1", 1, "k1", 2)
        imported = Annotation(game="g1", id=0, seq=2, seat="red", private=False, text="imported",
                              created_at="2026-01-01T00:00:00+00:00")
        store.import_game(game_record("g1"), [(created, first), (signed, chained("g1", signed, 3, first[-1].hash, 1))],
                          [imported], signatures={1: signature(1)}, seat_keys={"red": (KEY_A, 0), "blue": (KEY_B, 1)})
        assert store.seat_keys("g1") == {"blue": (KEY_B, 1), "red": (KEY_A, 0)}
        assert store.command_signatures("g1") == {1: signature(1)}
        (kept,) = store.annotations("g1")
        assert (kept.id, kept.text, kept.at_hash, kept.prev) == (1, "imported", first[1].hash, GENESIS)
        assert kept.hash == kept.digest()

    # --- seats' copies of a game played by e-mail -----------------------------------------------------------
    def test_a_seats_copy_is_kept_whole_replaced_and_never_beside_the_game_itself(self, store: Store) -> None:
        create(store, "g1")
        assert store.seat_copy("mail") is None and store.seat_copies() == []
        store.put_seat_copy("mail", "red", 4, '{"export": 1}')
        store.put_seat_copy("another", "blue", 2, '{"export": "b"}')
        assert store.seat_copy("mail") == ("red", '{"export": 1}')
        store.put_seat_copy("mail", "red", 9, '{"export": 2}')  # a longer one replaces it
        assert store.seat_copy("mail") == ("red", '{"export": 2}')
        assert store.seat_copies() == [("another", "blue", '{"export": "b"}'), ("mail", "red", '{"export": 2}')]
        with pytest.raises(GameExists) as beside:
            store.put_seat_copy("g1", "red", 9, "{}")
        assert str(beside.value) == ("a game 'g1' already exists in this database: this database holds the game "
                                     "itself, not a seat's copy of it")
        assert store.seat_copy("g1") is None

    # --- reads by game and number -------------------------------------------------------------------------------
    def test_snapshots_are_listed_by_number_per_game(self, store: Store) -> None:
        create(store, "g1")
        create(store, "g2")
        for seq in (30, 10, 20):
            store.put_snapshot("g1", Snapshot(seq, f"state {seq}".encode(), sha256_hex(f"state {seq}".encode())))
        store.put_snapshot("g2", Snapshot(5, b"other", sha256_hex(b"other")))
        assert store.snapshots("g1") == [Snapshot(s, f"state {s}".encode(), sha256_hex(f"state {s}".encode()))
                                         for s in (10, 20, 30)]
        assert store.snapshots("g2") == [Snapshot(5, b"other", sha256_hex(b"other"))]
        assert store.snapshots("nope") == []

    def test_a_forks_record_is_read_back_whole_with_its_parent(self, store: Store) -> None:
        """A fork names the game and the event it was made from (its parent, that event's number and hash): the
        store gives back every field of a game's record as it was stored."""
        create(store, "g1")
        parent = store.game("g1")
        fork = msgspec.structs.replace(game_record("g2"), parent="g1", parent_seq=parent.head_seq,
                                       parent_hash=parent.head_hash)
        record = command("g2", 0, "create:g2", 0, seat="umpire")
        store.create_game(fork, record, chained("g2", record, 1, GENESIS, 1))
        stored = store.game("g2")
        assert (stored.parent, stored.parent_seq, stored.parent_hash) == ("g1", 2, parent.head_hash)
        assert msgspec.structs.replace(stored, head_seq=0, head_hash=GENESIS) == fork
        assert [g for g in store.games() if g.id == "g2"] == [stored]

    def test_a_command_is_read_by_its_number(self, store: Store) -> None:
        create(store, "g1")
        create(store, "g2")
        append(store, "g1", 1, "k1", count=3)
        found = store.command("g1", 1)
        assert found is not None and found.record == command("g1", 1, "k1", 2)
        assert (found.first_seq, found.last_seq) == (3, 5) and found.hash == sha256_hex(found.record.body())
        assert store.command("g1", 2) is None and store.command("g2", 1) is None

    def test_a_command_that_caused_no_event_is_kept_with_the_empty_range_and_leaves_the_head(self, store: Store) -> None:
        """No shipped command causes no event, but the store takes one (an import, a future ruleset): it is kept,
        numbered, with the range 0..0 (it names no event), and the head stays where it was but for its command."""
        create(store, "g1")
        before = store.game("g1")
        store.append("g1", before.head_seq, command("g1", 1, "k1", before.head_seq), [])
        found = store.command("g1", 1)
        assert found is not None and (found.first_seq, found.last_seq) == (0, 0)
        after = store.game("g1")
        assert (after.head_seq, after.head_hash, after.head_cmd) == (before.head_seq, before.head_hash, 1)
        appended = append(store, "g1", 2, "k2", count=1)  # the chain goes on from the same head
        assert [e.seq for e in store.events("g1")] == [1, 2, 3] and appended[0].seq == 3

    # --- notes' chains ----------------------------------------------------------------------------------------
    def test_notes_are_chained_to_their_event_and_to_the_note_before_them_in_their_chain(self, store: Store) -> None:
        events = create(store, "g1", events=3)
        public = note(store, "g1", 1, "red", "a bold start")
        secret = note(store, "g1", 2, "blue", "blue's plan", private=True)
        later = note(store, "g1", 3, "blue", "well played")
        red_secret = note(store, "g1", 3, "red", "red's plan", private=True)
        blue_again = note(store, "g1", 3, "blue", "plan b", private=True)
        assert [n.at_hash for n in (public, secret, later)] == [e.hash for e in events]
        assert public.prev == GENESIS and later.prev == public.hash  # the public chain
        assert secret.prev == GENESIS and blue_again.prev == secret.hash  # blue's own chain
        assert red_secret.prev == GENESIS  # red's own, apart from blue's
        for n in (public, secret, later, red_secret, blue_again):
            assert n.hash == n.digest() and n.game == "g1"
        # each numbered within its own chain (a seat's numbers count only what it may read), listed chain by chain
        assert [(n.chain, n.id) for n in store.annotations("g1")] == [
            ("public", 1), ("public", 2), ("private:blue", 1), ("private:blue", 2), ("private:red", 1)]
        assert store.annotations("g1") == [public, later, secret, blue_again, red_secret]
        with pytest.raises(StoreError, match="game g1 has no event #9 to annotate"):
            note(store, "g1", 9, "red", "about nothing")
        assert len(store.annotations("g1")) == 5

    # --- deletion -----------------------------------------------------------------------------------------------
    def test_deleting_a_game_removes_everything_of_it_and_nothing_of_another(self, store: Store) -> None:
        kept = []
        for game in ("g1", "g2"):
            create(store, game)
            append(store, game, 1, "k1")
            store.put_snapshot(game, Snapshot(2, b"s", sha256_hex(b"s")))
            note(store, game, 1, "red", "a note")
            register(store, game, "red", KEY_A)
            head = store.game(game)
            record = command(game, 3, "k2", head.head_seq)
            store.append(game, head.head_seq, record, chained(game, record, head.head_seq + 1, head.head_hash, 1),
                         signature=signature(2))
            kept.append((store.game(game), list(store.events(game)), list(store.commands(game)), store.snapshots(game),
                         store.annotations(game), store.seat_keys(game), store.command_signatures(game)))
        store.delete_game("g1")
        with pytest.raises(GameNotFound):
            store.game("g1")
        assert [g.id for g in store.games()] == ["g2"]
        assert (list(store.events("g1")), list(store.commands("g1")), store.snapshots("g1"), store.annotations("g1"),
                store.seat_keys("g1"), store.command_signatures("g1")) == ([], [], [], [], {}, {})
        assert (store.game("g2"), list(store.events("g2")), list(store.commands("g2")), store.snapshots("g2"),
                store.annotations("g2"), store.seat_keys("g2"), store.command_signatures("g2")) == kept[1]
        with pytest.raises(GameNotFound, match="'g1'"):
            store.delete_game("g1")
        create(store, "g1")  # the id is free again, with nothing left over
        assert list(store.commands("g1"))[0].record.cmd == 0 and store.seat_keys("g1") == {}


class TestSQLiteMemoryRecords(RecordsContract):
    def make_store(self, tmp_path: Path) -> Store:
        return SQLiteStore(":memory:")


class TestSQLiteFileRecords(RecordsContract):
    def make_store(self, tmp_path: Path) -> Store:
        return SQLiteStore(tmp_path / "arbitro.db")


class TestPostgresRecords(RecordsContract):
    """A real PostgreSQL server, started by the tests (tests/conftest.py: postgres_url)."""

    @pytest.fixture(autouse=True)
    def _server(self, postgres_url: str) -> None:
        self.url = postgres_url

    def make_store(self, tmp_path: Path) -> Store:
        return PostgresStore(self.url)
