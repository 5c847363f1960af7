"""What the SQLite store promises beyond the Store contract (events/sqlite.py), each pinned where mutants of the module
showed nothing noticing (issue 20): the database itself refuses a seat's key used twice, a second writer waits for
the lock instead of failing at once, a transaction that cannot begin leaves the store usable by other threads, and
sqlite3's errors never leak out as sqlite3's."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import msgspec
import pytest

from arbitro.adjudicator.verify import check_annotations
from arbitro.events import sqlite as sqlite_module
from arbitro.events.rows import insert_note, note_row
from arbitro.events.signing import CommandSignature
from arbitro.events.sqlite import SQLiteStore
from arbitro.events.store import (
    Annotation, BrokenChain, CorruptStore, GameNotFound, NoDatabase, ReadOnlyStore, Snapshot, StoreError,
)

from . import test_note_numbers as notes
from .conftest import db_execute, db_rows
from .test_store_contract import append, chained, command, create, game_record, register, snapshot_of_log


def test_the_database_refuses_a_seats_idempotency_key_used_twice_whatever_the_code_checks(tmp_path: Path) -> None:
    """The unique index is the last guard of idempotency (two processes on one file): a row that slipped past the
    store's own check is refused by SQLite. Another seat may use the same key (keys are each seat's own)."""
    store = SQLiteStore(tmp_path / "a.db")
    create(store, "g")
    append(store, "g", 1, "k")
    insert = "INSERT INTO commands VALUES ('g', ?, ?, 'k', '{}', 'h', 0, 0)"
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE constraint failed: commands.game, commands.seat, commands.key"):
        store.conn.execute(insert, (2, "red"))
    store.conn.execute(insert, (2, "blue"))
    store.close()


KEYS = {  # each table's key: what one row of it stands for, once
    "games": "id", "seats": "game, seat", "commands": "game, cmd", "events": "game, seq", "snapshots": "game, seq",
    "seat_keys": "game, seat", "command_signatures": "game, cmd", "tokens": "hash", "seat_copies": "game",
    "meta": "key",
}


def test_the_database_refuses_a_second_row_for_any_tables_key_whatever_the_code_checks(tmp_path: Path) -> None:
    """Every table's key is the database's own (a second process, an older arbitro or a hand edit writes past the
    store's checks): a game id names one game, an event number one event of it, a command number one command, and so
    on; a game's role has one token. Each table's row written again is refused by SQLite, naming the key."""
    store = SQLiteStore(tmp_path / "a.db")
    create(store, "g")
    head = store.game("g")
    store.append("g", head.head_seq, command("g", 1, "k", head.head_seq),
                 chained("g", command("g", 1, "k", head.head_seq), head.head_seq + 1, head.head_hash, 1),
                 signature=CommandSignature(public_key="a1" * 32, command={}, signature="00" * 64))
    store.put_snapshot("g", Snapshot(1, b"state", "ab" * 32))
    register(store, "g", "red", "a1" * 32)
    store.put_tokens("g", {"red": "t1", "blue": "t2"})
    store.put_seat_copy("copy", "red", 2, "{}")
    assert [row[0] for row in store.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            if row[0] in KEYS] == list(KEYS)
    for table, key in KEYS.items():
        cursor = store.conn.execute(f"SELECT * FROM {table} LIMIT 1")
        row = dict(zip([d[0] for d in cursor.description], cursor.fetchone(), strict=True))
        if table == "commands":
            row["key"] = "another"  # not the seat's key again (the test above): the command's number
        if table == "tokens":
            row["role"] = "umpire"  # not the role's token again (below): the token's hash
        columns = ", ".join(f"{table}.{name}" for name in key.split(", "))
        with pytest.raises(sqlite3.IntegrityError, match=f"^UNIQUE constraint failed: {columns}$"):
            store.conn.execute(f"INSERT INTO {table} VALUES ({','.join('?' * len(row))})", tuple(row.values()))
    with pytest.raises(sqlite3.IntegrityError, match="^UNIQUE constraint failed: tokens.game, tokens.role$"):
        store.conn.execute("INSERT INTO tokens VALUES ('t3', 'g', 'red')")  # a role's second token
    store.close()


def test_each_events_command_and_type_have_columns_of_their_own_for_sql_queries(tmp_path: Path) -> None:
    """Beside the body (which rules), an event's command number and type tag are columns of their own, so that an
    umpire's SQL (sqlite-utils, datasette) finds a game's events by type or command without decoding bodies."""
    store = SQLiteStore(tmp_path / "a.db")
    create(store, "g")
    append(store, "g", 1, "k", count=1)
    assert store.conn.execute("SELECT seq, cmd, type FROM events WHERE game='g' ORDER BY seq").fetchall() == [
        (1, 0, "checkpoint"), (2, 0, "checkpoint"), (3, 1, "checkpoint")]
    store.close()


def test_a_database_says_its_schema_version_and_a_seats_copy_row_its_head(tmp_path: Path) -> None:
    """`meta.schema_version` says which schema a database has (docs/stores.md), from its making and on every opening;
    a seat's copy's row says how far the copy reaches, beside the export it holds, for SQL queries."""
    store = SQLiteStore(tmp_path / "a.db")
    store.put_seat_copy("g", "red", 7, "{}")
    store.close()
    store = SQLiteStore(tmp_path / "a.db", mode="write")
    assert store.conn.execute("SELECT key, value FROM meta WHERE key='schema_version'").fetchall() == [
        ("schema_version", str(sqlite_module.SCHEMA_VERSION))]
    assert store.conn.execute("SELECT game, seat, head_seq FROM seat_copies").fetchall() == [("g", "red", 7)]
    store.close()


def test_a_second_writer_waits_for_the_lock_rather_than_failing_at_once(tmp_path: Path) -> None:
    """Several processes on one file: a writer that finds the database locked waits (up to 5 s) for the other's
    transaction to end."""
    store = SQLiteStore(tmp_path / "a.db")
    assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    create(store, "g")
    other = SQLiteStore(tmp_path / "a.db", mode="write")
    assert other.conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    holder = sqlite3.connect(tmp_path / "a.db", isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    timer = threading.Timer(0.5, lambda: holder.execute("COMMIT"))
    timer.start()
    append(other, "g", 1, "k")  # waits for the holder's commit, then succeeds
    timer.join()
    assert [c.record.key for c in store.commands("g")] == ["create:g", "k"]
    holder.execute("BEGIN IMMEDIATE")  # held past the wait: the store's own error, saying the database is busy
    other.conn.execute("PRAGMA busy_timeout=100")  # not 5 s of the suite's time
    with pytest.raises(StoreError, match="is busy") as busy:
        append(other, "g", 2, "k2")
    assert not isinstance(busy.value, CorruptStore)
    holder.execute("ROLLBACK")
    holder.close()
    other.close()
    store.close()


def test_a_transaction_that_cannot_begin_releases_the_store_for_other_threads(tmp_path: Path) -> None:
    """A read-only store refuses a write with ReadOnlyStore, and the lock it took is released: another thread's
    read goes on (it would wait for ever)."""
    path = tmp_path / "a.db"
    store = SQLiteStore(path)
    create(store, "g")
    store.close()
    reader = SQLiteStore(path, mode="read")
    before = snapshot_of_log(reader, "g")
    record = command("g", 1, "k", 2)
    with pytest.raises(ReadOnlyStore):
        reader.append("g", 2, record, chained("g", record, 3, before[0].head_hash, 1))
    answered: list[object] = []
    other = threading.Thread(target=lambda: answered.append(reader.game("g")))
    other.start()
    other.join(timeout=10)
    assert answered == [before[0]], "another thread could not read: the failed write kept the store's lock"
    assert snapshot_of_log(reader, "g") == before
    reader.close()


def test_a_write_that_conflicts_with_stored_rows_is_the_stores_error_and_keeps_nothing(tmp_path: Path) -> None:
    """An import naming one command number twice breaks the commands' key: the store says so in its own error
    (never sqlite3's), and nothing of the import is kept."""
    store = SQLiteStore(tmp_path / "a.db")
    first = command("g", 0, "create:g", 0, seat="umpire")
    events = chained("g", first, 1, "0" * 64, 2)
    twice = command("g", 1, "k", 2)
    again = command("g", 1, "k2", 2)
    with pytest.raises(StoreError, match=r"^the append conflicts with stored data \(UNIQUE constraint failed") as e:
        store.import_game(game_record("g"), [(first, events), (twice, []), (again, [])], [])
    assert not isinstance(e.value, sqlite3.Error)
    assert store.games() == []


def test_a_corrupt_database_file_is_the_stores_error(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(CorruptStore) as corrupt:
        SQLiteStore(path, mode="write")
    assert str(corrupt.value) == f"{path}: not a readable arbitro database (file is not a database)"


@pytest.mark.parametrize("durable, level", [(True, 2), (False, 1)])
def test_a_durable_store_syncs_every_commit_and_a_non_durable_one_only_at_checkpoints(
        tmp_path: Path, durable: bool, level: int) -> None:
    """synchronous=FULL (2): an acknowledged append survives a power loss; `durable=False` (NORMAL, 1) trades that
    for speed where losing the last appends is acceptable (benchmarks, scratch databases)."""
    store = SQLiteStore(tmp_path / "a.db", durable=durable)
    assert store.conn.execute("PRAGMA synchronous").fetchone() == (level,)
    store.close()


@pytest.mark.parametrize("reach", ["game", "delete_game", "delete_seat_copy", "wait_for_append", "append",
                                   "put_tokens"])
def test_a_game_not_in_the_database_is_named_with_the_database_to_list(tmp_path: Path, reach: str) -> None:
    """Bad input gets an actionable error: the game asked for, the file looked in and the command that lists what
    it holds; an in-memory database has no file to name."""
    ask = {"game": lambda s: s.game("nope"), "delete_game": lambda s: s.delete_game("nope"),
           "delete_seat_copy": lambda s: s.delete_seat_copy("nope"),
           "append": lambda s: s.append("nope", 0, command("nope", 1, "k", 0),
                                        chained("nope", command("nope", 1, "k", 0), 1, "0" * 64, 1)),
           "put_tokens": lambda s: s.put_tokens("nope", {"red": "f" * 64}),
           "wait_for_append": lambda s: s.wait_for_append("nope", 0, timeout=0)}[reach]
    path = tmp_path / "a.db"
    for store, where, listing in ((SQLiteStore(path), str(path), f"`arbitro games --db {path}`"),
                                  (SQLiteStore(":memory:"), "this database", "`arbitro games`")):
        create(store, "g")
        with pytest.raises(GameNotFound) as missing:
            ask(store)
        assert str(missing.value) == f"no game 'nope' in {where} (try {listing})" and missing.value.game_id == "nope"
        store.close()


class Clock:
    """time.monotonic for the store, and its condition's wait: waiting moves the clock on, nothing sleeps."""

    def __init__(self) -> None:
        self.now, self.waits = 100.0, []  # type: float, list[float]

    def monotonic(self) -> float:
        return self.now

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None

    def wait(self, seconds: float) -> None:
        self.waits.append(round(seconds, 6))
        self.now += seconds


@pytest.mark.parametrize("timeout, on_file, waits", [
    (0.25, True, [0.1, 0.1, 0.05]),  # a file may be appended to by another process: its head is re-read each 0.1 s
    (0.25, False, [0.25]),  # an in-memory database has no other writer: one wait, woken by its own appends
    (0.0, True, []),  # no time left: the head at once, never a wait
    (-3.0, False, []),
])
def test_a_waiter_for_an_append_waits_out_its_timeout_polling_a_file_and_not_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, timeout: float, on_file: bool, waits: list[float]
) -> None:
    store = SQLiteStore(tmp_path / "a.db" if on_file else ":memory:")
    create(store, "g")
    clock = Clock()
    monkeypatch.setattr(sqlite_module, "time", clock)
    monkeypatch.setattr(store, "_appended", clock)
    assert store.wait_for_append("g", 2, timeout=timeout) == 2  # nothing appended: the head it had
    assert clock.waits == waits
    store.close()


@pytest.mark.parametrize("error, kind, message", [
    (sqlite3.OperationalError("attempt to write a readonly database"), ReadOnlyStore,
     "DB is read-only here: commands that read it work (status, log, view, export, verify ...); writing needs write "
     "access to the file and its directory"),
    (sqlite3.OperationalError("the file is read-only"), ReadOnlyStore, None),
    (sqlite3.OperationalError("unable to open database file"), NoDatabase,
     "cannot open the database DB (unable to open database file)"),
    (sqlite3.OperationalError("database is locked"), StoreError,
     "DB is busy: another process held its write lock past the 5 s wait; nothing was written, try again"),
    (sqlite3.OperationalError("disk I/O error"), CorruptStore, "DB: not a readable arbitro database (disk I/O error)"),
    (sqlite3.DatabaseError("file is not a database"), CorruptStore,
     "DB: not a readable arbitro database (file is not a database)"),
])
def test_each_sqlite3_error_is_the_stores_own_saying_what_to_do(
    error: sqlite3.DatabaseError, kind: type[StoreError], message: str | None
) -> None:
    """sqlite3's errors are translated in one place (events/sqlite.py): read-only, missing, busy, or not a
    readable database, each its own error and words; the store's callers never see sqlite3."""
    translated = sqlite_module._translated(error, "DB")
    assert type(translated) is kind
    if message is not None:
        assert str(translated) == message


def test_notes_of_a_database_made_before_notes_were_chained_read_unchained(tmp_path: Path) -> None:
    """A schema-1 database (notes without their chain's columns) opened read-only cannot gain the columns: its notes
    are read as unchained, for `arbitro check` to report, not refused."""
    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    for table in ("games", "commands", "events"):
        old.execute(f"CREATE TABLE {table} (game TEXT)")
    old.execute("CREATE TABLE annotations (game TEXT, id INTEGER, seq INTEGER, seat TEXT, private INTEGER, text TEXT, "
                "created_at TEXT)")
    old.execute("INSERT INTO annotations VALUES ('g', 1, 2, 'red', 0, 'an old note', '2026-01-01T00:00:00+00:00')")
    old.commit()
    old.close()
    reader = SQLiteStore(path, mode="read")
    assert reader.annotations("g") == [Annotation(game="g", id=1, seq=2, seat="red", private=False, text="an old note",
                                                  created_at="2026-01-01T00:00:00+00:00")]
    assert reader.annotations("g")[0].hash == ""
    reader.close()


# --- what read mode takes for an arbitro database, and the chain an append extends (arbitro §L.7) -------------------
def test_read_mode_refuses_a_sqlite_file_without_the_logs_tables_and_says_which(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    db_execute(path, "CREATE TABLE games (id TEXT)")
    db_execute(path, "CREATE TABLE commands (game TEXT)")
    with pytest.raises(CorruptStore) as refused:
        SQLiteStore(path, mode="read")
    assert str(refused.value) == f"{path}: not an arbitro database (it has no games, commands and events tables)"


def test_read_mode_takes_a_file_with_the_logs_three_tables_for_an_arbitro_database(tmp_path: Path) -> None:
    """The games, commands and events tables are what make a log; the others (notes, keys, snapshots) may be absent
    from an early database, and reading it must not refuse it."""
    path = tmp_path / "a.db"
    store = SQLiteStore(path)
    create(store, "g1")
    store.close()
    for (table,) in db_rows(path, "SELECT name FROM sqlite_master WHERE type='table'"):
        if table not in ("games", "commands", "events"):
            db_execute(path, f"DROP TABLE {table}")
    reader = SQLiteStore(path, mode="read")
    assert reader.game("g1").head_seq == 2 and len(list(reader.events("g1"))) == 2
    reader.close()


def test_an_append_onto_an_edited_head_is_refused_naming_the_game_the_event_and_the_damage(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    store = SQLiteStore(path)
    create(store, "g1")
    create(store, "g2")
    db_execute(path, "UPDATE events SET hash=? WHERE game='g1' AND seq=2", "e" * 64)
    before = snapshot_of_log(store, "g1")
    with pytest.raises(BrokenChain) as refused:
        append(store, "g1", 1, "k1")
    assert str(refused.value) == ("game g1, event #2: the head event does not match its hash (edited in the database); "
                                  "nothing was appended. The database was altered outside arbitro: run `arbitro check "
                                  "g1` to locate every problem")
    assert snapshot_of_log(store, "g1") == before
    append(store, "g2", 1, "k1")  # another game's intact chain is extended
    store.close()


def test_new_events_that_do_not_follow_the_head_are_refused(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "a.db")
    create(store, "g1")
    before = snapshot_of_log(store, "g1")
    record = command("g1", 1, "k1", 2)
    with pytest.raises(BrokenChain) as refused:
        store.append("g1", 2, record, chained("g1", record, 3, "e" * 64, 2))
    assert str(refused.value).startswith("game g1, event #3: the new events do not follow the head; nothing was appended")
    assert snapshot_of_log(store, "g1") == before
    store.close()


def test_write_mode_never_creates_the_file_even_if_it_vanishes_after_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only "create" makes a database: a write-mode open of a file deleted between the existence check and the
    connection fails, rather than writing a new empty database in its place."""
    path = tmp_path / "gone.db"
    monkeypatch.setattr(SQLiteStore, "_check_exists", lambda self, mode: False)  # the check saw the file
    with pytest.raises(StoreError):
        SQLiteStore(path, mode="write")
    assert not path.exists()


class ShmRefused:
    """A read-only connection as SQLite gives one when it cannot make a WAL database's -shm file (a read-only
    directory): its first read fails."""

    def execute(self, *args: object) -> None:
        raise sqlite3.OperationalError("unable to open database file")

    def close(self) -> None:
        pass


@pytest.mark.parametrize("wal", ["checkpointed", "holding commits"])
def test_a_database_whose_shm_cannot_be_made_is_read_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wal: str
) -> None:
    """With nothing in the -wal file every commit is in the main file, so it is read as immutable; with commits still
    in the -wal file an immutable read would miss them, so it is refused (the directory must be made writable)."""
    path = tmp_path / "a.db"
    writer = SQLiteStore(path)
    create(writer, "g1")
    if wal == "checkpointed":
        writer.close()
    else:
        append(writer, "g1", 1, "k1")
        assert Path(f"{path}-wal").stat().st_size > 0
    real, opened = sqlite3.connect, []

    def connect(database: str, *args: object, **kwargs: object) -> object:
        opened.append(database)
        return ShmRefused() if database.endswith("?mode=ro") else real(database, *args, **kwargs)

    monkeypatch.setattr(sqlite_module.sqlite3, "connect", connect)
    if wal == "checkpointed":
        reader = SQLiteStore(path, mode="read")
        assert reader.game("g1").head_seq == 2 and opened[-1].endswith("?mode=ro&immutable=1")
        answered: list[int] = []  # the server's threads share the store
        other = threading.Thread(target=lambda: answered.append(reader.game("g1").head_seq))
        other.start()
        other.join(timeout=10)
        assert answered == [2]
        reader.close()
    else:
        with pytest.raises(StoreError):
            SQLiteStore(path, mode="read")
        assert not any("immutable" in name for name in opened)
        writer.close()


# --- the schema-3 upgrade: notes numbered per chain, once, all or nothing (events.rows.renumber_notes_table) ---------
def older_store(path: Path) -> None:
    """A schema-2 database: one count of notes per game."""
    store = SQLiteStore(path)
    events = create(store, "g1", events=3)
    store.close()
    upgrade = notes.TestSQLiteUpgrade()
    upgrade.path = path
    upgrade.write_old(notes.per_game("g1", events, notes.WRITTEN))


def test_a_renumbering_that_fails_changes_nothing_and_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.db"
    older_store(path)

    def fails(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(sqlite_module, "renumber_notes_table", fails)
    with pytest.raises(RuntimeError, match="the disk is full"):  # its own error, not the rollback's
        SQLiteStore(path, mode="write")
    monkeypatch.undo()
    store = SQLiteStore(path, mode="write")  # rolled back, so done on the next opening
    assert notes.listed(store.annotations("g1")) == notes.NUMBERED
    store.close()


def test_notes_are_renumbered_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.db"
    older_store(path)
    SQLiteStore(path, mode="write").close()
    renumbered: list[object] = []
    monkeypatch.setattr(sqlite_module, "renumber_notes_table", lambda *args, **kwargs: renumbered.append(args))
    store = SQLiteStore(path, mode="write")
    assert renumbered == [] and notes.listed(store.annotations("g1")) == notes.NUMBERED
    store.close()


@pytest.mark.parametrize("mode", ["write", "read"])
def test_only_create_mode_makes_a_database_and_the_others_say_which_commands_do(tmp_path: Path, mode: str) -> None:
    path = tmp_path / "typo.db"
    with pytest.raises(NoDatabase) as missing:
        SQLiteStore(path, mode=mode)  # type: ignore[arg-type]
    assert str(missing.value) == (f"no database at {path}: check --db (or $ARBITRO_DB); `arbitro new`, `arbitro import` "
                                  "or `arbitro demo` create one")
    assert not path.exists()


# --- what a failed read says, what `created` says, and the seats table (issue 20: surviving mutants) ---------------
def test_a_read_that_fails_is_the_stores_corrupt_error_naming_the_file_and_what_sqlite_found(tmp_path: Path) -> None:
    """A database damaged under an open store (here its games table dropped by another hand): every read says which
    file cannot be read and why, in the store's own error."""
    path = tmp_path / "a.db"
    store = SQLiteStore(path)
    create(store, "g")
    store.conn.execute("DROP TABLE games")
    with pytest.raises(CorruptStore) as damaged:
        store.game("g")
    assert str(damaged.value) == f"{path}: cannot read (no such table: games)"
    store.close()


def test_a_store_opened_without_a_path_is_in_memory_and_makes_no_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    store = SQLiteStore()
    create(store, "g")
    assert (store.path, store.where, store.created) == (":memory:", "", False)
    store.close()
    assert list(tmp_path.iterdir()) == []


def test_created_says_whether_opening_made_the_database_file(tmp_path: Path) -> None:
    """`created` is what the CLI reports as "created the database ..." (cli_common.open_app): true only for the
    opening that made the file; an in-memory store has no file to make."""
    path = tmp_path / "a.db"
    first = SQLiteStore(path)
    assert first.created is True
    first.close()
    for mode in ("create", "write", "read"):
        again = SQLiteStore(path, mode=mode)  # type: ignore[arg-type]
        assert again.created is False, mode
        again.close()
    assert SQLiteStore(":memory:").created is False


def test_the_seats_table_lists_a_games_seats_and_its_umpire_flagged(tmp_path: Path) -> None:
    """docs/stores.md's schema: `seats (game, seat, umpire)` holds each seat of a game and the umpire, the umpire
    alone flagged, for whoever reads the database with SQL; deleting the game removes them."""
    path = tmp_path / "a.db"
    store = SQLiteStore(path)
    create(store, "g")
    create(store, "h")
    store.delete_game("h")
    store.close()
    assert db_rows(path, "SELECT game, seat, umpire FROM seats ORDER BY seat") == [
        ("g", "blue", 0), ("g", "red", 0), ("g", "umpire", 1)]


def test_notes_of_a_database_made_before_notes_were_chained_stay_unchained_when_it_is_upgraded(tmp_path: Path) -> None:
    """A schema-1 database (notes with no chain's columns) opened for writing is upgraded to schema 3: its notes are
    kept, each in its chain under its old number (a chain that cannot be checked is not renumbered), and stay
    unchained (no link, no hash), for `arbitro check` and `verify` to report: the upgrade never hashes a note it
    cannot vouch for."""
    path = tmp_path / "old.db"
    store = SQLiteStore(path)
    create(store, "g", events=3)
    store.close()
    db_execute(path, "DROP TABLE annotations")
    db_execute(path, "CREATE TABLE annotations (game TEXT, id INTEGER, seq INTEGER, seat TEXT, private INTEGER, "
                     "text TEXT, created_at TEXT, PRIMARY KEY (game, id))")
    for number, (seq, seat, private, text) in enumerate(notes.WRITTEN, 1):
        db_execute(path, "INSERT INTO annotations VALUES ('g', ?, ?, ?, ?, ?, '2026-01-01T00:00:00+00:00')",
                   number, seq, seat, int(private), text)
    upgraded = SQLiteStore(path, mode="write")
    kept = upgraded.annotations("g")
    upgraded.close()
    assert [(n.chain, n.id, n.text) for n in kept] == [
        ("public", 1, "the opening"), ("public", 4, "a public answer"), ("public", 6, "agreed"),
        ("private:blue", 3, "blue's plan"), ("private:blue", 5, "blue's second plan"), ("private:red", 2, "red's plan")]
    assert all((n.at_hash, n.prev, n.hash) == ("", "", "") for n in kept)
    problem = check_annotations("g", kept, {})
    assert problem is not None and problem.detail == "note 1 (by umpire on #1) is not chained (no hash)"


def test_a_schema_3_databases_notes_are_read_as_stored_never_renumbered(tmp_path: Path) -> None:
    """Only an older database's notes are numbered per chain as they are read. A schema-3 database's are served as
    stored: a chain whose numbers have a gap (its first note removed and the next one re-hashed to start the chain,
    which its links cannot show) keeps the gap a reader sees, opened for reading or for writing."""
    path = tmp_path / "a.db"
    store = SQLiteStore(path)
    events = create(store, "g", events=3)
    store.close()
    stored = notes.per_game("g", events, [(1, "umpire", False, "kept"), (2, "red", False, "kept too")])
    renumbered = [msgspec.structs.replace(n, id=n.id + 1) for n in stored]  # 2 and 3: number 1 is missing
    first = msgspec.structs.replace(renumbered[0], hash=renumbered[0].digest())
    second = msgspec.structs.replace(renumbered[1], prev=first.hash, hash="")
    gap = [first, msgspec.structs.replace(second, hash=second.digest())]
    for note in gap:
        db_execute(path, insert_note("?"), *note_row(note))
    for mode in ("read", "write"):
        reader = SQLiteStore(path, mode=mode)  # type: ignore[arg-type]
        assert reader.annotations("g") == gap, mode
        reader.close()
