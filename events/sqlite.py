"""The SQLite store (the embedded default): WAL journal, synchronous=FULL so that an acknowledged append
survives a crash or power loss, one IMMEDIATE transaction per append.

sqlite-utils creates and migrates the schema; the hot paths (append, read) use the connection directly.
sqlite3 errors are translated into the store's own errors here and nowhere else.
"""

from __future__ import annotations

import copy
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

import msgspec
import sqlite_utils

from arbitro.events.codec import sha256_hex
from arbitro.events import signing
from arbitro.events.rows import (
    GAME_TABLES,
    chain_note,
    check_head_link,
    command_from_row,
    event_from_row,
    event_type,
    game_from_row,
    game_row,
    NOTE_COLUMNS,
    note_from_row,
    note_row,
    numbered_per_chain,
    insert_note,
    record_authority,
    renumber_notes_table,
)
from arbitro.events.signing import CommandSignature
from arbitro.events.records import CommandRecord, GameRecord, StoredCommand, StoredEvent
from arbitro.events.store import (
    Annotation,
    CorruptStore,
    DuplicateKey,
    GameExists,
    GameNotFound,
    KeyChange,
    NoDatabase,
    ReadOnlyStore,
    Snapshot,
    StaleSequence,
    StoreError,
)

SCHEMA_VERSION = 3  # 3: notes numbered per chain (docs/stores.md)

# How often a waiter on a file database re-reads the head, to see appends made by other processes (several
# servers on one file): a live stream lags another process's append by at most this.
POLL_SECONDS = 0.1


NOTES_TABLE = """CREATE TABLE {exists}annotations (
    game TEXT, chain TEXT, id INTEGER, seq INTEGER, seat TEXT, private INTEGER, text TEXT, created_at TEXT,
    at_hash TEXT, prev TEXT, hash TEXT, PRIMARY KEY (game, chain, id))"""

OpenMode = Literal["create", "write", "read"]


class SQLiteStore:
    """`mode`: "create" makes the file (and the schema) if it is missing, and says so in `created`; "write" opens
    an existing database only; "read" opens an existing one read-only and never writes to it (nor creates it),
    so a mistyped path is an error, not a new empty database, and a read-only file can still be read."""

    def __init__(self, path: str | Path = ":memory:", *, durable: bool = True, mode: OpenMode = "create") -> None:
        self.path = str(path)
        self._lock = threading.RLock()
        self._appended = threading.Condition(self._lock)  # notified when an append through this object commits
        self._signing_key: bytes | None = None
        self._reading = False  # a read transaction's store (read_transaction): one moment, no writes
        self._tables: set[str] = set()  # tables found (_has_table): none is ever dropped
        self.created = False
        memory = self.path == ":memory:"
        self.where = "" if memory else self.path  # what a missing game's error names as the place looked in
        if not memory:
            self.created = self._check_exists(mode)
        try:
            conn = self._connect(mode) if not memory else sqlite3.connect(self.path, isolation_level=None,
                                                                          check_same_thread=False)
            self.db = sqlite_utils.Database(conn)
            conn.execute("PRAGMA busy_timeout=5000")
            if mode == "read" and not memory:
                self._check_schema(conn)
            else:
                if not memory:
                    self.db.enable_wal()
                conn.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
                self._create_schema()
        except sqlite3.DatabaseError as e:
            raise _translated(e, self.path) from e
        self.conn = conn

    def _check_exists(self, mode: OpenMode) -> bool:
        """Whether opening will create the file; NoDatabase when it is missing and may not be created."""
        file = Path(self.path)
        if file.exists():
            return False
        if mode != "create":
            raise NoDatabase(f"no database at {file}: check --db (or $ARBITRO_DB); `arbitro new`, `arbitro import` "
                             "or `arbitro demo` create one")
        if not file.parent.is_dir():
            raise NoDatabase(f"cannot create the database {file}: the directory {file.parent} does not exist")
        return True

    def _connect(self, mode: OpenMode) -> sqlite3.Connection:
        uri = Path(self.path).resolve().as_uri()
        if mode != "read":
            return sqlite3.connect(f"{uri}?mode={'rwc' if mode == 'create' else 'rw'}", uri=True,
                                   isolation_level=None, check_same_thread=False)
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.OperationalError:
            # A WAL database read where its -shm file cannot be made (a read-only directory). With no -wal file
            # (or an empty one) every committed transaction is in the main file: read as immutable, nothing is missed.
            conn.close()
            wal = Path(self.path + "-wal")
            if wal.exists() and wal.stat().st_size:
                raise
            return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, isolation_level=None,
                                   check_same_thread=False)

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not {"games", "commands", "events"} <= tables:
            raise CorruptStore(f"{self.path}: not an arbitro database (it has no games, commands and events tables)")

    def close(self) -> None:
        self.db.conn.close()

    # --- schema -------------------------------------------------------------------------------
    def _create_schema(self) -> None:
        db = self.db
        db["games"].create(
            {
                "id": str, "ruleset": str, "version": str, "scenario": str, "kind": str, "seed": str,
                "seed_commitment": str, "seats": str, "created_at": str, "head_seq": int, "head_hash": str, "head_cmd": int,
                "parent": str, "parent_seq": int, "parent_hash": str, "salt_key": str,
            }, pk="id", if_not_exists=True)
        if "salt_key" not in db["games"].columns_dict:  # a database made before the salt key (GameRecord.salt_key)
            db["games"].add_column("salt_key", str)
        db["seats"].create({"game": str, "seat": str, "umpire": int}, pk=("game", "seat"), if_not_exists=True)
        db["commands"].create(
            {"game": str, "cmd": int, "seat": str, "key": str, "body": str, "hash": str,
             "first_seq": int, "last_seq": int},
            pk=("game", "cmd"), if_not_exists=True,
        )
        # Idempotency keys are each seat's own (issue 9.11): one seat's key neither collides with another's nor
        # tells it the other used it. Databases made before kept one key space per game: that index goes.
        db.conn.execute("DROP INDEX IF EXISTS idx_commands_game_key")
        db["commands"].create_index(["game", "seat", "key"], unique=True, if_not_exists=True)
        db["events"].create(
            {"game": str, "seq": int, "cmd": int, "type": str, "body": str, "hash": str},
            pk=("game", "seq"), if_not_exists=True,
        )
        db["snapshots"].create(
            {"game": str, "seq": int, "state": bytes, "state_hash": str}, pk=("game", "seq"), if_not_exists=True
        )
        # A note is numbered within its chain: the public one, or its seat's private one (schema 3).
        self._number_notes_per_chain()
        db.conn.execute(NOTES_TABLE.format(exists="IF NOT EXISTS "))
        # A seat's own public key (arbitro §L.6): its commands after `since_cmd` carry its signature.
        db["seat_keys"].create({"game": str, "seat": str, "public_key": str, "since_cmd": int},
                               pk=("game", "seat"), if_not_exists=True)
        db["command_signatures"].create({"game": str, "cmd": int, "signature": str}, pk=("game", "cmd"),
                                        if_not_exists=True)
        # Bearer tokens of the HTTP server's seats and umpire, as SHA-256 hashes only (events.store: access tokens).
        db["tokens"].create({"hash": str, "game": str, "role": str}, pk="hash", if_not_exists=True)
        db["tokens"].create_index(["game", "role"], unique=True, if_not_exists=True)
        # A seat's own copy of a game it plays by e-mail: the export it was sent, as it was sent (events.store).
        db["seat_copies"].create({"game": str, "seat": str, "head_seq": int, "export": str}, pk="game",
                                 if_not_exists=True)
        db["meta"].create({"key": str, "value": str}, pk="key", if_not_exists=True)
        db.conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        # The server's signing key exists from the first write-mode open, so every export names it.
        db.conn.execute("INSERT OR IGNORE INTO meta VALUES ('server_signing_key', ?)", (signing.new_private_key().hex(),))

    def _number_notes_per_chain(self) -> None:
        """Schema 3: a database made before it (its notes numbered in one count per game, which told a seat that
        others wrote private notes) has its notes numbered per chain, in one transaction (events.rows.
        numbered_per_chain). Schema 1's unchained notes stay unchained: `arbitro check` reports them."""
        conn = self.db.conn
        conn.execute("BEGIN IMMEDIATE")  # a second process opening the same old file waits, then finds it done
        try:
            columns = {row[1] for row in conn.execute("PRAGMA table_info(annotations)")}
            if columns and "chain" not in columns:
                renumber_notes_table(conn, "?", NOTES_TABLE.format(exists=""), chained="hash" in columns)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    # --- games --------------------------------------------------------------------------------
    def create_game(self, game: GameRecord, command: CommandRecord, events: list[StoredEvent]) -> None:
        with self._transaction():
            self._insert_game(game)
            self._insert(game.id, command, events)

    def import_game(
        self, game: GameRecord, commands: list[tuple[CommandRecord, list[StoredEvent]]], notes: list[Annotation],
        signatures: dict[int, CommandSignature] | None = None, seat_keys: dict[str, tuple[str, int]] | None = None,
    ) -> None:
        """A whole game (its creation first) with its notes, seats' keys and signatures, in one transaction: all
        of it is stored, or nothing."""
        with self._transaction():
            self._insert_game(game)
            for command, events in commands:
                self._insert(game.id, command, events)
            for seat, (key, since) in sorted((seat_keys or {}).items()):
                self.conn.execute("INSERT INTO seat_keys VALUES (?,?,?,?)", (game.id, seat, key, since))
            for cmd, signature in sorted((signatures or {}).items()):
                self.conn.execute("INSERT INTO command_signatures VALUES (?,?,?)",
                                  (game.id, cmd, msgspec.json.encode(signature).decode()))
            for note in notes:
                self._chain_note(note)

    def delete_game(self, game_id: str) -> None:
        """Remove a game and everything stored of it, in one transaction (its forks keep their own logs)."""
        with self._transaction():
            if not self.conn.execute("SELECT 1 FROM games WHERE id=?", (game_id,)).fetchone():
                raise GameNotFound(game_id, self.where)
            for table in GAME_TABLES:
                self.conn.execute(f"DELETE FROM {table} WHERE game=?", (game_id,))
            self.conn.execute("DELETE FROM games WHERE id=?", (game_id,))

    def _insert_game(self, game: GameRecord) -> None:
        if self.conn.execute("SELECT 1 FROM games WHERE id=?", (game.id,)).fetchone():
            raise GameExists(game.id)
        row = game_row(game)
        cols = ",".join(row)
        self.conn.execute(f"INSERT INTO games ({cols}) VALUES ({','.join('?' * len(row))})", tuple(row.values()))
        self.conn.executemany(
            "INSERT INTO seats VALUES (?,?,?)",
            [(game.id, s, int(s == "umpire")) for s in (*game.seats, "umpire")],
        )

    def game(self, game_id: str) -> GameRecord:
        rows, names = self._read("SELECT * FROM games WHERE id=?", (game_id,))
        if not rows:
            raise GameNotFound(game_id, self.where)
        return game_from_row(dict(zip(names, rows[0], strict=True)))

    def games(self) -> list[GameRecord]:
        rows, names = self._read("SELECT * FROM games ORDER BY created_at, id")
        return [game_from_row(dict(zip(names, r, strict=True))) for r in rows]

    # --- the append ---------------------------------------------------------------------------
    def append(
        self, game_id: str, expected_seq: int, command: CommandRecord, events: list[StoredEvent],
        signature: CommandSignature | None = None, snapshots: Sequence[Snapshot] = (),
        key_change: KeyChange | None = None,
    ) -> None:
        with self._transaction():
            head = self.conn.execute("SELECT head_seq, head_hash FROM games WHERE id=?", (game_id,)).fetchone()
            if head is None:
                raise GameNotFound(game_id, self.where)
            # The key first: a retry that lost the race to its own first attempt is that attempt, not stale.
            used = self.conn.execute(
                "SELECT cmd FROM commands WHERE game=? AND seat=? AND key=?", (game_id, command.seat, command.key)
            ).fetchone()
            if used:
                raise DuplicateKey(game_id, command.key, used[0], command.seat)
            if head[0] != expected_seq:
                raise StaleSequence(game_id, expected_seq, head[0])
            self._check_head_link(game_id, head[0], head[1], events)
            self._insert(game_id, command, events)
            record_authority(self.conn, "?", command, signature, key_change)
            self._put_snapshots(game_id, snapshots)

    def _check_head_link(self, game_id: str, head_seq: int, recorded: str, events: list[StoredEvent]) -> None:
        """Two rows and one hash per append (events.rows.check_head_link)."""
        rows = self.conn.execute(
            "SELECT seq, body, hash FROM events WHERE game=? AND seq>=? AND seq<=? ORDER BY seq",
            (game_id, head_seq - 1, head_seq),
        ).fetchall()
        check_head_link(game_id, head_seq, recorded, rows, events)

    def _insert(self, game_id: str, command: CommandRecord, events: list[StoredEvent]) -> None:
        body = command.body()
        first, last = (events[0].seq, events[-1].seq) if events else (0, 0)
        self.conn.execute(
            "INSERT INTO commands VALUES (?,?,?,?,?,?,?,?)",
            (game_id, command.cmd, command.seat, command.key, body.decode(), sha256_hex(body), first, last),
        )
        self.conn.executemany(
            "INSERT INTO events VALUES (?,?,?,?,?,?)",
            [(game_id, e.seq, command.cmd, event_type(e.body), e.body.decode(), e.hash) for e in events],
        )
        self.conn.execute("UPDATE games SET head_cmd=? WHERE id=?", (command.cmd, game_id))
        if events:
            self.conn.execute(
                "UPDATE games SET head_seq=?, head_hash=? WHERE id=?", (events[-1].seq, events[-1].hash, game_id)
            )

    class _Tx:
        """One IMMEDIATE transaction; the store's lock keeps threads sharing this connection from nesting. A commit
        wakes this object's waiters for appends (wait_for_append)."""

        def __init__(self, conn: sqlite3.Connection, lock: threading.RLock, committed: threading.Condition) -> None:
            self.conn, self.lock, self.committed = conn, lock, committed

        def __enter__(self) -> None:
            self.lock.acquire()
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.DatabaseError as e:  # e.g. a database opened read-only
                self.lock.release()
                raise _translated(e, "the database") from e
            except BaseException:
                self.lock.release()
                raise

        def __exit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
            try:
                self._finish(exc_type, exc)
            finally:
                self.lock.release()

        def _finish(self, exc_type: object, exc: BaseException | None) -> None:
            if exc_type is None:
                self.conn.execute("COMMIT")
                self.committed.notify_all()
                return
            self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.IntegrityError):
                raise StoreError(f"the append conflicts with stored data ({exc})") from exc
            if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, StoreError):
                raise _translated(exc, "the database") from exc

    def _read(self, sql: str, params: tuple[object, ...] = ()) -> tuple[list[tuple[Any, ...]], list[str]]:
        """Rows and column names of a query, read under the store's lock: threads sharing this connection
        never see another thread's append before it commits."""
        with self._lock:
            try:
                cur = self.conn.execute(sql, params)
                return cur.fetchall(), [c[0] for c in cur.description or ()]
            except sqlite3.DatabaseError as e:
                raise CorruptStore(f"{self.path}: cannot read ({e})") from e

    def _transaction(self) -> "SQLiteStore._Tx":
        if self._reading:
            raise ReadOnlyStore("a read transaction (read_transaction) writes nothing: write through the store itself")
        return SQLiteStore._Tx(self.conn, self._lock, self._appended)

    @contextmanager
    def read_transaction(self) -> Iterator[SQLiteStore]:
        """Reads as of one moment (events.store.Store.read_transaction): a connection of its own, in one read
        transaction, which under WAL blocks no writer (their commits are only not seen). In memory, where no second
        connection sees this one's database: a copy of it, taken between two writes."""
        if self._reading:
            yield self
            return
        conn = self._moment()
        reader = copy.copy(self)
        lock = threading.RLock()
        reader.conn, reader._lock, reader._appended, reader._reading = conn, lock, threading.Condition(lock), True
        reader._tables = set(self._tables)  # found before its moment: its own from now on
        try:
            yield reader
        finally:
            conn.close()

    def _moment(self) -> sqlite3.Connection:
        """A read-only connection of its own in a read transaction that has taken its moment (at its first read), or
        in memory a copy of the database."""
        if self.path == ":memory:":
            copied = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            with self._lock:
                self.conn.backup(copied)
            return copied
        try:
            conn = self._connect("read")
            conn.execute("PRAGMA busy_timeout=5000")
            conn.execute("BEGIN")
            conn.execute("SELECT 1 FROM games LIMIT 1")
            return conn
        except sqlite3.DatabaseError as e:
            raise _translated(e, self.path) from e

    # --- reads --------------------------------------------------------------------------------
    def command_by_key(self, game_id: str, seat: str, key: str) -> StoredCommand | None:
        rows, _ = self._read(
            "SELECT body, hash, first_seq, last_seq FROM commands WHERE game=? AND seat=? AND key=?", (game_id, seat, key)
        )
        return command_from_row(rows[0]) if rows else None

    def command(self, game_id: str, cmd: int) -> StoredCommand | None:
        rows, _ = self._read(
            "SELECT body, hash, first_seq, last_seq FROM commands WHERE game=? AND cmd=?", (game_id, cmd)
        )
        return command_from_row(rows[0]) if rows else None

    def commands(self, game_id: str) -> Iterator[StoredCommand]:
        rows, _ = self._read(
            "SELECT body, hash, first_seq, last_seq FROM commands WHERE game=? ORDER BY cmd", (game_id,)
        )
        return (command_from_row(row) for row in rows)

    def events(self, game_id: str, first: int = 1, last: int | None = None) -> Iterator[StoredEvent]:
        rows, _ = self._read(
            "SELECT seq, body, hash FROM events WHERE game=? AND seq>=? AND seq<=? ORDER BY seq",
            (game_id, first, last if last is not None else 1 << 62),
        )
        return (event_from_row(row) for row in rows)

    # --- the change feed ---------------------------------------------------------------------------
    def wait_for_append(self, game_id: str, after_seq: int, timeout: float) -> int:
        """The head once it is past `after_seq`, or at the timeout. An append through this object wakes its
        waiters at once; another process's append to the same file is seen by re-reading the head every
        POLL_SECONDS (SQLite has no notifications between processes)."""
        deadline = time.monotonic() + max(timeout, 0.0)
        poll = None if self.path == ":memory:" else POLL_SECONDS  # an in-memory database has no other writer
        with self._appended:
            while True:
                head = self._head(game_id)
                remaining = deadline - time.monotonic()
                if head > after_seq or remaining <= 0:
                    return head
                self._appended.wait(remaining if poll is None else min(remaining, poll))

    def _head(self, game_id: str) -> int:
        rows, _ = self._read("SELECT head_seq FROM games WHERE id=?", (game_id,))
        if not rows:
            raise GameNotFound(game_id, self.where)
        return int(rows[0][0])

    # --- seats' keys and signatures -------------------------------------------------------------
    def seat_keys(self, game_id: str) -> dict[str, tuple[str, int]]:
        """seat -> (public key, the last command it did not have to sign)."""
        if not self._has_table("seat_keys"):
            return {}
        rows, _ = self._read("SELECT seat, public_key, since_cmd FROM seat_keys WHERE game=? ORDER BY seat", (game_id,))
        return {seat: (key, since) for seat, key, since in rows}

    def command_signatures(self, game_id: str) -> dict[int, CommandSignature]:
        if not self._has_table("command_signatures"):
            return {}
        rows, _ = self._read("SELECT cmd, signature FROM command_signatures WHERE game=? ORDER BY cmd", (game_id,))
        return {cmd: msgspec.json.decode(text, type=CommandSignature) for cmd, text in rows}

    def _has_table(self, name: str) -> bool:
        """A database made before a table existed, opened read-only since, lacks it: it has no rows of it. A table
        found is not asked about again (issue 15: a submit asked for seat_keys every time); one missing is, since
        another process may open the database for writing and make it."""
        if name in self._tables:
            return True
        rows, _ = self._read("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,))
        if rows:
            self._tables.add(name)
        return bool(rows)

    # --- access tokens (hashes only) -------------------------------------------------------------
    def put_tokens(self, game_id: str, hashes: dict[str, str]) -> None:
        """Store the hash of each role's token for a game, replacing that role's earlier one, in one transaction."""
        with self._transaction():
            if not self.conn.execute("SELECT 1 FROM games WHERE id=?", (game_id,)).fetchone():
                raise GameNotFound(game_id, self.where)
            for role, digest in sorted(hashes.items()):
                self.conn.execute("DELETE FROM tokens WHERE game=? AND role=?", (game_id, role))
                self.conn.execute("INSERT INTO tokens VALUES (?,?,?)", (digest, game_id, role))

    def token_role(self, token_hash: str) -> tuple[str, str] | None:
        """(game, role) of a token's hash, or None."""
        if not self._has_table("tokens"):
            return None
        rows, _ = self._read("SELECT game, role FROM tokens WHERE hash=?", (token_hash,))
        return (rows[0][0], rows[0][1]) if rows else None

    def tokens(self, game_id: str) -> dict[str, str]:
        if not self._has_table("tokens"):
            return {}
        rows, _ = self._read("SELECT role, hash FROM tokens WHERE game=? ORDER BY role", (game_id,))
        return dict(rows)

    # --- seats' copies -------------------------------------------------------------------------
    def put_seat_copy(self, game_id: str, seat: str, head_seq: int, export: str) -> None:
        """Store (or replace with a longer one) a seat's copy of a game: the seat's export, whole."""
        with self._transaction():
            if self.conn.execute("SELECT 1 FROM games WHERE id=?", (game_id,)).fetchone():
                raise GameExists(game_id, hint="this database holds the game itself, not a seat's copy of it")
            self.conn.execute("INSERT OR REPLACE INTO seat_copies VALUES (?,?,?,?)", (game_id, seat, head_seq, export))

    def seat_copy(self, game_id: str) -> tuple[str, str] | None:
        """(seat, export) of a seat's copy of the game, or None."""
        if not self._has_table("seat_copies"):
            return None
        rows, _ = self._read("SELECT seat, export FROM seat_copies WHERE game=?", (game_id,))
        return (rows[0][0], rows[0][1]) if rows else None

    def seat_copies(self) -> list[tuple[str, str, str]]:
        """(game, seat, export) of every seat's copy in the database."""
        if not self._has_table("seat_copies"):
            return []
        rows, _ = self._read("SELECT game, seat, export FROM seat_copies ORDER BY game")
        return [(g, s, e) for g, s, e in rows]

    def delete_seat_copy(self, game_id: str) -> None:
        with self._transaction():
            if not self._has_table("seat_copies") or not self.conn.execute(
                    "DELETE FROM seat_copies WHERE game=?", (game_id,)).rowcount:
                raise GameNotFound(game_id, self.where)

    # --- snapshots ----------------------------------------------------------------------------
    def put_snapshot(self, game_id: str, snapshot: Snapshot) -> None:
        with self._transaction():
            self._put_snapshots(game_id, (snapshot,))

    def _put_snapshots(self, game_id: str, snapshots: Sequence[Snapshot]) -> None:
        self.conn.executemany("INSERT OR REPLACE INTO snapshots VALUES (?,?,?,?)",
                              [(game_id, s.seq, s.state, s.state_hash) for s in snapshots])

    def snapshots(self, game_id: str) -> list[Snapshot]:
        rows, _ = self._read("SELECT seq, state, state_hash FROM snapshots WHERE game=? ORDER BY seq", (game_id,))
        return [Snapshot(seq, bytes(state), digest) for seq, state, digest in rows]

    def snapshot_at_or_before(self, game_id: str, seq: int) -> Snapshot | None:
        rows, _ = self._read(
            "SELECT seq, state, state_hash FROM snapshots WHERE game=? AND seq<=? ORDER BY seq DESC LIMIT 1",
            (game_id, seq),
        )
        return Snapshot(rows[0][0], bytes(rows[0][1]), rows[0][2]) if rows else None

    # --- the server's signing key -----------------------------------------------------------------
    def signing_key(self) -> bytes | None:
        """The server's Ed25519 private key, made when the database was first opened for writing and kept in
        it (whoever can read the database can sign as this server). None only from a database made before
        keys existed and opened read-only since."""
        if self._signing_key is None:
            rows, _ = self._read("SELECT value FROM meta WHERE key='server_signing_key'")
            if not rows:
                return None
            self._signing_key = bytes.fromhex(rows[0][0])
        return self._signing_key

    # --- annotations --------------------------------------------------------------------------
    def add_annotation(self, note: Annotation) -> Annotation:
        """Number, chain and hash a note in one transaction. A note that arrives with a hash (an import) must
        hash to it once chained here, or nothing is stored."""
        with self._transaction():
            return self._chain_note(note)

    def _chain_note(self, note: Annotation) -> Annotation:
        """Number (within its chain), chain, hash and insert a note, inside the caller's transaction."""
        last = self.conn.execute("SELECT id, hash FROM annotations WHERE game=? AND chain=? ORDER BY id DESC LIMIT 1",
                                 (note.game, note.chain)).fetchone()
        event = self.conn.execute("SELECT hash FROM events WHERE game=? AND seq=?", (note.game, note.seq)).fetchone()
        chained = chain_note(note, last[0] + 1 if last else 1, event[0] if event else None, last and last[1])
        self.conn.execute(insert_note("?"), note_row(chained))
        return chained

    def annotations(self, game_id: str) -> list[Annotation]:
        """The game's notes, the public chain first, then each seat's private chain (events.rows.chain_order)."""
        columns, _ = self._read("SELECT name FROM pragma_table_info('annotations')")
        if ("chain",) not in columns:  # an older database opened read-only: numbered per chain as it is read
            chain = "at_hash, prev, hash" if ("hash",) in columns else "'', '', ''"
            rows, _ = self._read(f"SELECT game, id, seq, seat, private, text, created_at, {chain} FROM annotations "
                                 "WHERE game=? ORDER BY id", (game_id,))
            return numbered_per_chain(note_from_row(row) for row in rows)
        rows, _ = self._read(f"SELECT {NOTE_COLUMNS} FROM annotations WHERE game=? ORDER BY private, chain, id",
                             (game_id,))
        return [note_from_row(row) for row in rows]


def _translated(error: sqlite3.DatabaseError, path: str) -> StoreError:
    """The store's own error for a sqlite3 error: read-only apart, a database that cannot be read is corrupt."""
    if "readonly" in str(error) or "read-only" in str(error):
        return ReadOnlyStore(f"{path} is read-only here: commands that read it work (status, log, view, export, "
                             "verify ...); writing needs write access to the file and its directory")
    if isinstance(error, sqlite3.OperationalError) and "unable to open" in str(error):
        return NoDatabase(f"cannot open the database {path} ({error})")
    if isinstance(error, sqlite3.OperationalError) and "database is locked" in str(error):
        return StoreError(f"{path} is busy: another process held its write lock past the 5 s wait; nothing was "
                          "written, try again")
    return CorruptStore(f"{path}: not a readable arbitro database ({error})")
