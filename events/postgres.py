"""The PostgreSQL store (psycopg 3; `pip install 'arbitro[postgres]'`): the SQLite store's semantics on a server
that several arbitro processes share.

One transaction per append. Its guard is the expected head, checked against the game's row read FOR UPDATE, and
behind it the unique (game, seq) and (game, cmd) keys: whichever way two appends interleave, only one gets a
sequence number. A game's annotations are numbered under the same row lock, so no counter is shared between
games. Every key is led by the game id and nothing relies on a sequence, a serial column, an advisory lock or
LISTEN for correctness, so the schema runs unchanged on PostgreSQL-wire distributed databases (CockroachDB,
YugabyteDB, Citus with the game as distribution column): docs/stores.md. LISTEN/NOTIFY, where the server has
it, only makes the change feed (wait_for_append) prompt; without it the feed polls the head.

psycopg errors are translated into the store's own errors here and nowhere else.
"""

from __future__ import annotations

import copy
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import msgspec

from arbitro.events import signing
from arbitro.events.codec import sha256_hex
from arbitro.events.records import CommandRecord, GameRecord, StoredCommand, StoredEvent
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
from arbitro.events.postgres_schema import GAME_COLUMNS, NOTES_TABLE, SALT_KEY_COLUMN, SCHEMA
from arbitro.events.signing import CommandSignature
from arbitro.events.sqlite import OpenMode
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

try:  # an optional extra: the SQLite default needs none of it
    import psycopg
    import psycopg.errors
except ImportError:  # pragma: no cover - exercised only where the extra is not installed
    psycopg = None  # type: ignore[assignment]

SCHEMA_VERSION = 3  # 3: notes numbered per chain (docs/stores.md)
CHANNEL = "arbitro_appends"  # NOTIFY channel: the payload is the game id
POLL_SECONDS = 1.0  # the change feed re-reads the head at least this often (a lost or unsupported NOTIFY)
LISTEN_SECONDS = 0.5  # how often the listening thread looks whether its store was closed
RETRIES = 5  # a transaction a serializable database (CockroachDB) asks to retry is run again, this often at most

T = TypeVar("T")


def is_postgres_url(location: str) -> bool:
    return location.startswith(("postgresql://", "postgres://"))


def redacted(url: str) -> str:
    """The URL as it may be shown (messages, logs): any password replaced by ***."""
    url = re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)
    return re.sub(r"(password=)[^&\s]*", r"\1***", url)


class PostgresStore:
    """`mode` as for SQLiteStore: "create" makes the schema when the database has none (and says so in
    `created`), "write" needs an arbitro schema there already, "read" also opens every transaction read-only.

    One connection per store object, used by one thread at a time (the lock), as SQLite's is: a server process
    shares one store between its threads, and several processes share the database."""

    def __init__(self, url: str, *, mode: OpenMode = "create") -> None:
        if psycopg is None:
            raise NoDatabase("a postgresql:// store needs psycopg: pip install 'arbitro[postgres]'")
        self.url, self.where = url, redacted(url)
        self._lock = threading.RLock()
        self._signing_key: bytes | None = None
        self._appended = threading.Condition()  # notified on an append seen by this process (its own or a NOTIFY)
        self._appends = 0  # counts those notifications, so a waiter misses none between its read and its wait
        self._listener: threading.Thread | None = None
        self._listening = threading.Event()  # set once the listener's LISTEN is in force
        self._closed = threading.Event()
        self._read_only = mode == "read"
        self._reading = False  # a read transaction's store (read_transaction): one snapshot, no writes
        self.conn = self._connect(read_only=self._read_only)
        self.created = False
        with self._lock:
            if mode == "read" or not self._create_schema(mode):
                self._check_schema()
            if mode != "read":
                self._write(self._number_notes_per_chain)
                if "salt_key" not in self._columns("games"):  # a database made before the salt key
                    self._write(lambda cur: cur.execute(SALT_KEY_COLUMN))
            # an older database read as it is: its games hold no salt key (GameRecord.salt_key None)
            self._game_columns = tuple(c for c in GAME_COLUMNS if c in self._columns("games"))
            self._notes_per_game = "chain" not in self._note_columns()  # an older database read as it is
        self._notify = self._probe_notify()

    def _connect(self, *, read_only: bool = False, autocommit: bool = True) -> "psycopg.Connection[Any]":
        options = "-c default_transaction_read_only=on" if read_only else ""
        try:
            return psycopg.connect(self.url, autocommit=autocommit, options=options or None)
        except psycopg.Error as e:
            raise NoDatabase(f"cannot connect to the database {self.where}: {_first_line(e)}") from e

    def _check_schema(self) -> None:
        tables = {row[0] for row in self.conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
        if not {"games", "commands", "events"} <= tables:
            raise NoDatabase(f"{self.where} has no arbitro tables: `arbitro new`, `arbitro import`, `arbitro demo` "
                             "or `arbitro migrate` create them")

    def _create_schema(self, mode: OpenMode) -> bool:
        """Make the tables where they are missing ("create") and the server's signing key; False when the
        schema must exist already ("write"). Two processes may open a new database at once: one wins."""
        if mode != "create":
            return False
        existed = bool(self.conn.execute("SELECT 1 FROM information_schema.tables WHERE table_schema = "
                                         "current_schema() AND table_name = 'events'").fetchone())

        def make(cur: "psycopg.Cursor[Any]") -> None:
            for statement in SCHEMA:
                cur.execute(statement)
            cur.execute("INSERT INTO meta VALUES ('schema_version', %s) ON CONFLICT (key) DO UPDATE SET "
                        "value = EXCLUDED.value", (str(SCHEMA_VERSION),))
            cur.execute("INSERT INTO meta VALUES ('server_signing_key', %s) ON CONFLICT (key) DO NOTHING",
                        (signing.new_private_key().hex(),))

        try:
            self._write(make)
        except StoreError:  # a concurrent creator won the race for a table: the schema is there now
            self._write(make)
        self.created = not existed
        return True

    def _note_columns(self, cur: "psycopg.Cursor[Any] | None" = None) -> set[str]:
        return self._columns("annotations", cur)

    def _columns(self, table: str, cur: "psycopg.Cursor[Any] | None" = None) -> set[str]:
        return {row[0] for row in (cur or self.conn).execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = %s", (table,))}

    def _number_notes_per_chain(self, cur: "psycopg.Cursor[Any]") -> None:
        """Schema 3 (events.rows.renumber_notes_table), in one transaction; the schema version's row, locked first,
        queues two processes opening an older database at once."""
        cur.execute("SELECT value FROM meta WHERE key = 'schema_version' FOR UPDATE")
        if "chain" not in self._note_columns(cur):
            renumber_notes_table(cur, "%s", NOTES_TABLE)
            cur.execute("UPDATE meta SET value = %s WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))

    def _probe_notify(self) -> bool:
        """Whether the server has NOTIFY (PostgreSQL, YugabyteDB); CockroachDB lacks it: the feed then polls."""
        try:
            with self._lock:
                self.conn.execute("SELECT pg_notify(%s, '')", (CHANNEL + "_probe",))  # wakes no waiter
            return True
        except psycopg.Error:
            return False

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            self.conn.close()
        # the listener, if any, notices within LISTEN_SECONDS and closes its own connection

    # --- transactions -------------------------------------------------------------------------
    def _write(self, work: Callable[["psycopg.Cursor[Any]"], T]) -> T:
        """Run `work` in one transaction on this store's connection, again if the database asks for a retry
        (a serialization failure); its errors become the store's own."""
        if self._reading:
            raise ReadOnlyStore("a read transaction (read_transaction) writes nothing: write through the store itself")
        with self._lock:
            self._reconnect_if_broken()
            for attempt in range(RETRIES):
                try:
                    with self.conn.transaction(), self.conn.cursor() as cur:
                        return work(cur)
                except psycopg.errors.SerializationFailure as e:
                    if attempt == RETRIES - 1:
                        raise StoreError(f"the database refused the transaction {RETRIES} times ({_first_line(e)})") \
                            from e
                except psycopg.errors.UniqueViolation as e:
                    raise StoreError(f"the write conflicts with stored data ({_first_line(e)})") from e
                except psycopg.errors.ReadOnlySqlTransaction as e:
                    raise ReadOnlyStore(f"{self.where} is open read-only here: commands that read it work") from e
                except psycopg.OperationalError as e:
                    raise StoreError(f"{self.where}: the connection failed ({_first_line(e)}); nothing was "
                                     "written unless the commit had gone through (a retry with the same key "
                                     "says which); the next call opens a new connection") from e
                except psycopg.Error as e:
                    raise StoreError(f"{self.where}: {_first_line(e)}") from e
        raise AssertionError("unreachable")  # pragma: no cover

    def _reconnect_if_broken(self) -> None:
        """A connection lost (a server restart, a network cut) failed the call that met it; the next call opens
        a new one. A write cut off at its commit is safe to send again: its idempotency key or the moved head
        answers the retry (DuplicateKey, StaleSequence)."""
        if self.conn.broken and self._reading:  # a new connection would read another moment
            raise StoreError(f"{self.where}: the connection of a read transaction was lost; read again")
        if self.conn.broken:
            self.conn = self._connect(read_only=self._read_only)

    @contextmanager
    def read_transaction(self) -> Iterator[PostgresStore]:
        """Reads as of one moment (events.store.Store.read_transaction): a connection of its own in one REPEATABLE
        READ, READ ONLY transaction, whose snapshot is taken by its first read, here; it blocks no writer."""
        if self._reading:
            yield self
            return
        reader = copy.copy(self)
        reader.conn, reader._lock, reader._reading = self._connect(read_only=True, autocommit=False), threading.RLock(), True
        try:
            reader.conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            reader._read("SELECT 1")
            yield reader
        finally:
            reader.conn.close()

    def _read(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            self._reconnect_if_broken()
            try:
                return self.conn.execute(sql, params).fetchall()
            except psycopg.OperationalError as e:
                raise StoreError(f"{self.where}: the connection failed ({_first_line(e)}); the next call "
                                 "opens a new one") from e
            except psycopg.Error as e:
                raise CorruptStore(f"{self.where}: cannot read ({_first_line(e)})") from e

    # --- games --------------------------------------------------------------------------------
    def create_game(self, game: GameRecord, command: CommandRecord, events: list[StoredEvent]) -> None:
        def work(cur: "psycopg.Cursor[Any]") -> None:
            self._insert_game(cur, game)
            self._insert(cur, game.id, command, events)

        self._write(work)
        self._announce(game.id)

    def import_game(
        self, game: GameRecord, commands: list[tuple[CommandRecord, list[StoredEvent]]], notes: list[Annotation],
        signatures: dict[int, CommandSignature] | None = None, seat_keys: dict[str, tuple[str, int]] | None = None,
    ) -> None:
        """A whole game (its creation first) with its notes, seats' keys and signatures, in one transaction: all
        of it is stored, or nothing."""
        def work(cur: "psycopg.Cursor[Any]") -> None:
            self._insert_game(cur, game)
            for command, events in commands:
                self._insert(cur, game.id, command, events)
            cur.executemany("INSERT INTO seat_keys VALUES (%s, %s, %s, %s)",
                            [(game.id, seat, key, since) for seat, (key, since) in sorted((seat_keys or {}).items())])
            cur.executemany("INSERT INTO command_signatures VALUES (%s, %s, %s)",
                            [(game.id, cmd, msgspec.json.encode(sig).decode())
                             for cmd, sig in sorted((signatures or {}).items())])
            for note in notes:
                self._chain_note(cur, note)

        self._write(work)
        self._announce(game.id)

    def delete_game(self, game_id: str) -> None:
        """Remove a game and everything stored of it, in one transaction (its forks keep their own logs)."""
        def work(cur: "psycopg.Cursor[Any]") -> None:
            if not cur.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (game_id,)).fetchone():
                raise GameNotFound(game_id, self.where)
            for table in GAME_TABLES:
                cur.execute(f"DELETE FROM {table} WHERE game = %s", (game_id,))
            cur.execute("DELETE FROM games WHERE id = %s", (game_id,))

        self._write(work)

    def _insert_game(self, cur: "psycopg.Cursor[Any]", game: GameRecord) -> None:
        if cur.execute("SELECT 1 FROM games WHERE id = %s", (game.id,)).fetchone():
            raise GameExists(game.id)
        row = game_row(game)
        cur.execute(f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) VALUES ({', '.join(['%s'] * len(GAME_COLUMNS))})",
                    tuple(row[c] for c in GAME_COLUMNS))
        cur.executemany("INSERT INTO seats VALUES (%s, %s, %s)",
                        [(game.id, s, s == "umpire") for s in (*game.seats, "umpire")])

    def game(self, game_id: str) -> GameRecord:
        rows = self._read(f"SELECT {', '.join(self._game_columns)} FROM games WHERE id = %s", (game_id,))
        if not rows:
            raise GameNotFound(game_id, self.where)
        return game_from_row(dict(zip(self._game_columns, rows[0], strict=True)))

    def games(self) -> list[GameRecord]:
        rows = self._read(f"SELECT {', '.join(self._game_columns)} FROM games ORDER BY created_at, id")
        return [game_from_row(dict(zip(self._game_columns, row, strict=True))) for row in rows]

    # --- the append ---------------------------------------------------------------------------
    def append(
        self, game_id: str, expected_seq: int, command: CommandRecord, events: list[StoredEvent],
        signature: CommandSignature | None = None, snapshots: Sequence[Snapshot] = (),
        key_change: KeyChange | None = None,
    ) -> None:
        def work(cur: "psycopg.Cursor[Any]") -> None:
            # The game's row is locked for the transaction: a second append to this game waits here, then reads
            # the head the first one left (other games are not held up).
            head = cur.execute("SELECT head_seq, head_hash FROM games WHERE id = %s FOR UPDATE", (game_id,)).fetchone()
            if head is None:
                raise GameNotFound(game_id, self.where)
            self._refuse_used_key_or_stale(cur, game_id, expected_seq, command, head[0])
            rows = cur.execute("SELECT seq, body, hash FROM events WHERE game = %s AND seq BETWEEN %s AND %s "
                               "ORDER BY seq", (game_id, head[0] - 1, head[0])).fetchall()
            check_head_link(game_id, head[0], head[1], rows, events)
            self._insert(cur, game_id, command, events)
            record_authority(cur, "%s", command, signature, key_change)
            self._put_snapshots(cur, game_id, snapshots)
            if self._notify:
                cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, game_id))  # delivered at commit

        try:
            self._write(work)
        except StoreError as e:
            if isinstance(e.__cause__, psycopg.errors.UniqueViolation):
                self._explain_conflict(game_id, expected_seq, command)  # a racer won by the unique keys
            raise
        self._announce(game_id)

    @staticmethod
    def _refuse_used_key_or_stale(cur: "psycopg.Cursor[Any]", game_id: str, expected_seq: int,
                                  command: CommandRecord, head_seq: int) -> None:
        # The key first: a retry that lost the race to its own first attempt is that attempt, not stale.
        used = cur.execute("SELECT cmd FROM commands WHERE game = %s AND seat = %s AND key = %s",
                           (game_id, command.seat, command.key)).fetchone()
        if used:
            raise DuplicateKey(game_id, command.key, used[0], command.seat)
        if head_seq != expected_seq:
            raise StaleSequence(game_id, expected_seq, head_seq)

    def _explain_conflict(self, game_id: str, expected_seq: int, command: CommandRecord) -> None:
        """An append refused by a unique key (possible only where the row lock did not order the racers): the
        key used or the head moved, said as the store's own refusal; otherwise the caller's conflict stands."""
        def work(cur: "psycopg.Cursor[Any]") -> None:
            head = cur.execute("SELECT head_seq FROM games WHERE id = %s", (game_id,)).fetchone()
            if head is not None:
                self._refuse_used_key_or_stale(cur, game_id, expected_seq, command, head[0])

        self._write(work)

    @staticmethod
    def _insert(cur: "psycopg.Cursor[Any]", game_id: str, command: CommandRecord, events: list[StoredEvent]) -> None:
        body = command.body()
        first, last = (events[0].seq, events[-1].seq) if events else (0, 0)
        cur.execute("INSERT INTO commands VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                    (game_id, command.cmd, command.seat, command.key, body, sha256_hex(body), first, last))
        cur.executemany("INSERT INTO events VALUES (%s, %s, %s, %s, %s, %s)",
                        [(game_id, e.seq, command.cmd, event_type(e.body), e.body, e.hash) for e in events])
        if events:
            cur.execute("UPDATE games SET head_cmd = %s, head_seq = %s, head_hash = %s WHERE id = %s",
                        (command.cmd, events[-1].seq, events[-1].hash, game_id))
        else:
            cur.execute("UPDATE games SET head_cmd = %s WHERE id = %s", (command.cmd, game_id))

    # --- reads --------------------------------------------------------------------------------
    def command_by_key(self, game_id: str, seat: str, key: str) -> StoredCommand | None:
        rows = self._read("SELECT body, hash, first_seq, last_seq FROM commands WHERE game = %s AND seat = %s "
                          "AND key = %s", (game_id, seat, key))
        return command_from_row(rows[0]) if rows else None

    def command(self, game_id: str, cmd: int) -> StoredCommand | None:
        rows = self._read("SELECT body, hash, first_seq, last_seq FROM commands WHERE game = %s AND cmd = %s",
                          (game_id, cmd))
        return command_from_row(rows[0]) if rows else None

    def commands(self, game_id: str) -> Iterator[StoredCommand]:
        rows = self._read("SELECT body, hash, first_seq, last_seq FROM commands WHERE game = %s ORDER BY cmd",
                          (game_id,))
        return (command_from_row(row) for row in rows)

    def events(self, game_id: str, first: int = 1, last: int | None = None) -> Iterator[StoredEvent]:
        rows = self._read("SELECT seq, body, hash FROM events WHERE game = %s AND seq >= %s AND seq <= %s ORDER BY seq",
                          (game_id, first, last if last is not None else 1 << 62))
        return (event_from_row(row) for row in rows)

    # --- the change feed ------------------------------------------------------------------------
    def wait_for_append(self, game_id: str, after_seq: int, timeout: float) -> int:
        """The head once it is past `after_seq`, or at the timeout. Any process's append to the database wakes the
        waiters of every process at once through NOTIFY (a listening connection per store object, opened on the
        first wait); the head is re-read at least every POLL_SECONDS all the same, so a lost notification, or a
        database without NOTIFY, only delays the feed."""
        deadline = time.monotonic() + max(timeout, 0.0)
        self._listen()
        while True:
            with self._appended:
                seen = self._appends
            head = self._head(game_id)
            remaining = deadline - time.monotonic()
            if head > after_seq or remaining <= 0:
                return head
            with self._appended:
                if self._appends == seen:
                    self._appended.wait(min(remaining, POLL_SECONDS))

    def _head(self, game_id: str) -> int:
        rows = self._read("SELECT head_seq FROM games WHERE id = %s", (game_id,))
        if not rows:
            raise GameNotFound(game_id, self.where)
        return int(rows[0][0])

    def _announce(self, game_id: str) -> None:
        """Wake this process's waiters (the NOTIFY reaches other processes, and this one a little later)."""
        with self._appended:
            self._appends += 1
            self._appended.notify_all()

    def _listen(self) -> None:
        """Start the listening thread on the first wait, and let it LISTEN before the waiter reads the head: an
        append committed after that read wakes the waiter."""
        with self._lock:
            if self._listener is not None or not self._notify:
                return
            self._listener = threading.Thread(target=self._listen_loop, name="arbitro-pg-listen", daemon=True)
            self._listener.start()
        self._listening.wait(POLL_SECONDS)  # a server slow to answer: the waiter polls meanwhile

    def _listen_loop(self) -> None:
        """LISTEN on a connection of its own until the store closes; a lost connection is opened again."""
        while not self._closed.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    self._announce("")  # appends made while it was not listening: the waiters read the head again
                    while not self._closed.is_set():
                        for _ in conn.notifies(timeout=LISTEN_SECONDS, stop_after=1):
                            self._announce("")
            except psycopg.Error:
                self._closed.wait(POLL_SECONDS)  # the waiters poll meanwhile

    # --- seats' keys and signatures -------------------------------------------------------------
    def seat_keys(self, game_id: str) -> dict[str, tuple[str, int]]:
        """seat -> (public key, the last command it did not have to sign)."""
        rows = self._read("SELECT seat, public_key, since_cmd FROM seat_keys WHERE game = %s ORDER BY seat", (game_id,))
        return {seat: (key, since) for seat, key, since in rows}

    def command_signatures(self, game_id: str) -> dict[int, CommandSignature]:
        rows = self._read("SELECT cmd, signature FROM command_signatures WHERE game = %s ORDER BY cmd", (game_id,))
        return {cmd: msgspec.json.decode(text, type=CommandSignature) for cmd, text in rows}

    # --- access tokens (hashes only) -------------------------------------------------------------
    def put_tokens(self, game_id: str, hashes: dict[str, str]) -> None:
        """Store the hash of each role's token for a game, replacing that role's earlier one, in one transaction."""
        def work(cur: "psycopg.Cursor[Any]") -> None:
            if not cur.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (game_id,)).fetchone():
                raise GameNotFound(game_id, self.where)
            cur.executemany("INSERT INTO tokens VALUES (%s, %s, %s) ON CONFLICT (game, role) DO UPDATE SET "
                            "hash = EXCLUDED.hash", [(game_id, role, digest) for role, digest in sorted(hashes.items())])

        self._write(work)

    def token_role(self, token_hash: str) -> tuple[str, str] | None:
        """(game, role) of a token's hash, or None."""
        rows = self._read("SELECT game, role FROM tokens WHERE hash = %s", (token_hash,))
        return (rows[0][0], rows[0][1]) if rows else None

    def tokens(self, game_id: str) -> dict[str, str]:
        return dict(self._read("SELECT role, hash FROM tokens WHERE game = %s ORDER BY role", (game_id,)))

    # --- seats' copies -------------------------------------------------------------------------
    def put_seat_copy(self, game_id: str, seat: str, head_seq: int, export: str) -> None:
        """Store (or replace with a longer one) a seat's copy of a game: the seat's export, whole."""
        def work(cur: "psycopg.Cursor[Any]") -> None:
            if cur.execute("SELECT 1 FROM games WHERE id = %s", (game_id,)).fetchone():
                raise GameExists(game_id, hint="this database holds the game itself, not a seat's copy of it")
            cur.execute("INSERT INTO seat_copies VALUES (%s, %s, %s, %s) ON CONFLICT (game) DO UPDATE SET "
                        "seat = EXCLUDED.seat, head_seq = EXCLUDED.head_seq, export = EXCLUDED.export",
                        (game_id, seat, head_seq, export))

        self._write(work)

    def seat_copy(self, game_id: str) -> tuple[str, str] | None:
        """(seat, export) of a seat's copy of the game, or None."""
        rows = self._read("SELECT seat, export FROM seat_copies WHERE game = %s", (game_id,))
        return (rows[0][0], rows[0][1]) if rows else None

    def seat_copies(self) -> list[tuple[str, str, str]]:
        """(game, seat, export) of every seat's copy in the database."""
        return [(g, s, e) for g, s, e in self._read("SELECT game, seat, export FROM seat_copies ORDER BY game")]

    def delete_seat_copy(self, game_id: str) -> None:
        def work(cur: "psycopg.Cursor[Any]") -> None:
            if not cur.execute("DELETE FROM seat_copies WHERE game = %s", (game_id,)).rowcount:
                raise GameNotFound(game_id, self.where)

        self._write(work)

    # --- snapshots ----------------------------------------------------------------------------
    def put_snapshot(self, game_id: str, snapshot: Snapshot) -> None:
        self._write(lambda cur: self._put_snapshots(cur, game_id, (snapshot,)))

    @staticmethod
    def _put_snapshots(cur: "psycopg.Cursor[Any]", game_id: str, snapshots: Sequence[Snapshot]) -> None:
        if snapshots:
            cur.executemany("INSERT INTO snapshots VALUES (%s, %s, %s, %s) ON CONFLICT (game, seq) DO UPDATE SET "
                            "state = EXCLUDED.state, state_hash = EXCLUDED.state_hash",
                            [(game_id, s.seq, s.state, s.state_hash) for s in snapshots])

    def snapshots(self, game_id: str) -> list[Snapshot]:
        rows = self._read("SELECT seq, state, state_hash FROM snapshots WHERE game = %s ORDER BY seq", (game_id,))
        return [Snapshot(seq, bytes(state), digest) for seq, state, digest in rows]

    def snapshot_at_or_before(self, game_id: str, seq: int) -> Snapshot | None:
        rows = self._read("SELECT seq, state, state_hash FROM snapshots WHERE game = %s AND seq <= %s "
                          "ORDER BY seq DESC LIMIT 1", (game_id, seq))
        return Snapshot(rows[0][0], bytes(rows[0][1]), rows[0][2]) if rows else None

    # --- the server's signing key -----------------------------------------------------------------
    def signing_key(self) -> bytes | None:
        """The server's Ed25519 private key, made with the schema and kept in the database (whoever can read
        the database can sign as this server)."""
        if self._signing_key is None:
            rows = self._read("SELECT value FROM meta WHERE key = 'server_signing_key'")
            if not rows:
                return None
            self._signing_key = bytes.fromhex(rows[0][0])
        return self._signing_key

    # --- annotations --------------------------------------------------------------------------
    def add_annotation(self, note: Annotation) -> Annotation:
        """Number, chain and hash a note in one transaction (events.rows.chain_note)."""
        return self._write(lambda cur: self._chain_note(cur, note))

    def _chain_note(self, cur: "psycopg.Cursor[Any]", note: Annotation) -> Annotation:
        # The game's row lock orders the notes of one game: their numbers, each chain's own, need no shared counter.
        if cur.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (note.game,)).fetchone() is None:
            raise GameNotFound(note.game, self.where)
        last = cur.execute("SELECT id, hash FROM annotations WHERE game = %s AND chain = %s ORDER BY id DESC LIMIT 1",
                           (note.game, note.chain)).fetchone()
        event = cur.execute("SELECT hash FROM events WHERE game = %s AND seq = %s", (note.game, note.seq)).fetchone()
        chained = chain_note(note, int(last[0]) + 1 if last else 1, event[0] if event else None, last and last[1])
        cur.execute(insert_note("%s"), note_row(chained))
        return chained

    def annotations(self, game_id: str) -> list[Annotation]:
        """The game's notes, the public chain first, then each seat's private chain (events.rows.chain_order)."""
        if self._notes_per_game:  # an older database opened read-only: numbered per chain as it is read
            rows = self._read(f"SELECT {NOTE_COLUMNS} FROM annotations WHERE game = %s ORDER BY id", (game_id,))
            return numbered_per_chain(note_from_row(row) for row in rows)
        rows = self._read(f"SELECT {NOTE_COLUMNS} FROM annotations WHERE game = %s ORDER BY private, chain, id",
                          (game_id,))
        return [note_from_row(row) for row in rows]


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
