"""The append-only store interface and its errors. `events.sqlite` and `events.postgres` implement it with the
same semantics (one transaction per append, expected head, idempotency key per seat; a used key is reported
before a stale head, so a retry is recognised as such). docs/stores.md says how to choose one.

Access tokens (the HTTP server's seats, issue 12): `put_tokens` stores, for one game, the SHA-256 of each
bearer token with the role it grants (a seat of the game, or the umpire), and `token_role` finds the game and
role of a token's hash. Only hashes are stored: a token is shown once, when it is made, and cannot be read
back from the database. A hash names one (game, role); a game's tokens go with the game (`delete_game`), and a
role may be given a new token (`put_tokens` again replaces that role's hash: the old token stops working)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import NamedTuple, Protocol

import msgspec

from arbitro.events.codec import canonical, sha256_hex
from arbitro.events.records import CommandRecord, GameRecord, StoredCommand, StoredEvent
from arbitro.events.signing import CommandSignature, fingerprint


class StoreError(Exception):
    """Base of the store's errors; `code` is stable and machine-readable."""

    code = "store/error"


class KeyChange(NamedTuple):
    """The registration a command makes (`registered`: a seat's `register_key`) or ends (the umpire's `withdraw_key`)
    (arbitro §L.6): written or dropped in the append's transaction, so that the store's registration is always the
    one the chain's last `key_registered` or `key_withdrawn` event of the seat says."""

    seat: str
    public_key: str
    registered: bool


def key_refused(game_id: str, change: KeyChange, held: str | None) -> None:
    """Refuse a key change the store's registration contradicts (`held`: the seat's key registered, if any): a second
    registration, or a withdrawal of a key no longer registered (another command won a race to it). The append's
    transaction then records nothing, so that no chained event names a key that was not, or was already, in force."""
    if change.registered and held is not None:
        raise StoreError(f"game {game_id}: {change.seat} already registered the key {fingerprint(held)}...; a seat "
                         "has one key per game at a time (the umpire's withdraw_key ends it, arbitro §L.6): nothing "
                         "appended")
    if not change.registered and held != change.public_key:
        raise StoreError(f"game {game_id}: {change.seat}'s key {fingerprint(change.public_key)} is not registered "
                         "(withdrawn meanwhile?): nothing appended")


class GameNotFound(StoreError):
    code = "store/game-not-found"

    def __init__(self, game_id: str, where: str = "") -> None:
        listing = f"`arbitro games --db {where}`" if where else "`arbitro games`"
        super().__init__(f"no game {game_id!r} in {where or 'this database'} (try {listing})")
        self.game_id = game_id


class NoDatabase(StoreError):
    """The database file (or its directory) does not exist; only the commands that make games create one."""

    code = "store/no-database"


class ReadOnlyStore(StoreError):
    """The database can be read here but not written (file or directory permissions, a read-only mount)."""

    code = "store/read-only"


class GameExists(StoreError):
    code = "store/game-exists"

    def __init__(self, game_id: str, hint: str = "") -> None:
        super().__init__(f"a game {game_id!r} already exists in this database{': ' + hint if hint else ''}")
        self.game_id = game_id


class StaleSequence(StoreError):
    """Optimistic concurrency: the log moved on since the caller read it."""

    code = "store/stale-sequence"

    def __init__(self, game_id: str, expected: int, head: int, *, commands: bool = False) -> None:
        # `commands`: the numbers are a seat's, its commands' (engine-rules §V.6), not the log's events'
        super().__init__(
            f"game {game_id}: expected the game at command #{expected} but its head is command #{head}; "
            f"read the new commands and resubmit against #{head}" if commands else
            f"game {game_id}: expected the log at #{expected} but its head is #{head}; "
            f"read the new events and resubmit against #{head}"
        )
        self.expected, self.head = expected, head


class DuplicateKey(StoreError):
    """The seat already used this idempotency key (keys are per game and seat)."""

    code = "store/duplicate-key"

    def __init__(self, game_id: str, key: str, cmd: int, seat: str = "") -> None:
        super().__init__(f"game {game_id}: idempotency key {key!r} was already used by {seat or 'this seat'} for "
                         f"command {cmd}")
        self.key, self.cmd, self.seat = key, cmd, seat


class CorruptStore(StoreError):
    code = "store/corrupt"


class BrokenChain(CorruptStore):
    """The stored chain is broken where an append would extend it: nothing is appended."""

    code = "store/broken-chain"

    def __init__(self, game_id: str, seq: int, problem: str) -> None:
        super().__init__(f"game {game_id}, event #{seq}: {problem}; nothing was appended. The database was "
                         f"altered outside arbitro: run `arbitro check {game_id}` to locate every problem")
        self.game_id, self.seq = game_id, seq


class Annotation(msgspec.Struct, frozen=True, kw_only=True):
    """A note on an event. Notes are chained like events (arbitro §L.1), one chain for the public notes and
    one per seat for its private notes, so that every reader holds whole chains: `prev` is the hash of the
    note before it in its chain, `at_hash` the hash of the event it is about, and `hash` covers the rest."""

    game: str
    id: int
    seq: int
    seat: str
    private: bool
    text: str
    created_at: str
    at_hash: str = ""
    prev: str = ""
    hash: str = ""

    @property
    def chain(self) -> str:
        return f"private:{self.seat}" if self.private else "public"

    def digest(self) -> str:
        return sha256_hex(canonical({k: v for k, v in msgspec.structs.asdict(self).items() if k != "hash"}))


class Snapshot(msgspec.Struct, frozen=True):
    seq: int  # the state after event `seq`
    state: bytes
    state_hash: str


class Store(Protocol):
    def create_game(self, game: GameRecord, command: CommandRecord, events: list[StoredEvent]) -> None: ...
    def import_game(
        self, game: GameRecord, commands: list[tuple[CommandRecord, list[StoredEvent]]], notes: list[Annotation],
        signatures: dict[int, CommandSignature] | None = None, seat_keys: dict[str, tuple[str, int]] | None = None,
    ) -> None: ...
    def delete_game(self, game_id: str) -> None: ...
    def game(self, game_id: str) -> GameRecord: ...
    def games(self) -> list[GameRecord]: ...
    def append(
        self, game_id: str, expected_seq: int, command: CommandRecord, events: list[StoredEvent],
        signature: CommandSignature | None = None, snapshots: Sequence[Snapshot] = (),
        key_change: KeyChange | None = None,
    ) -> None:
        """Append one command and its events, whole or not at all: refused (StaleSequence) unless the head is still
        `expected_seq`, (DuplicateKey) when the seat used the key already. `snapshots`: states its events pass
        (before each checkpoint), written in the same transaction: one commit per submit (issue 15), and a snapshot
        is never stored for events that are not. `key_change`: the registration the command makes or ends
        (arbitro §L.6: its `key_registered` or `key_withdrawn` event), written or dropped in the same transaction, or
        nothing appended (`key_refused`)."""
        ...
    def seat_keys(self, game_id: str) -> dict[str, tuple[str, int]]: ...
    def command_signatures(self, game_id: str) -> dict[int, CommandSignature]: ...
    def command_by_key(self, game_id: str, seat: str, key: str) -> StoredCommand | None: ...
    def command(self, game_id: str, cmd: int) -> StoredCommand | None: ...
    def commands(self, game_id: str) -> Iterator[StoredCommand]: ...
    def events(self, game_id: str, first: int = 1, last: int | None = None) -> Iterator[StoredEvent]: ...
    def put_snapshot(self, game_id: str, snapshot: Snapshot) -> None: ...
    def snapshot_at_or_before(self, game_id: str, seq: int) -> Snapshot | None: ...
    def snapshots(self, game_id: str) -> list[Snapshot]: ...
    def signing_key(self) -> bytes | None: ...
    def add_annotation(self, note: Annotation) -> Annotation: ...
    def annotations(self, game_id: str) -> list[Annotation]: ...
    def wait_for_append(self, game_id: str, after_seq: int, timeout: float) -> int:
        """The change feed: block until the game's head is past `after_seq` (an append by this store object or by
        any other process on the same database), or until `timeout` seconds have passed; returns the head then
        (still `after_seq` or less on a timeout). A live stream reads the events after `after_seq` next."""
        ...
    def put_tokens(self, game_id: str, hashes: dict[str, str]) -> None: ...
    def token_role(self, token_hash: str) -> tuple[str, str] | None: ...
    def put_seat_copy(self, game_id: str, seat: str, head_seq: int, export: str) -> None:
        """A seat's own copy of a game played by e-mail (adjudicator/seatcopy.py): the export the umpire sent
        it, kept whole and replaced by each longer one; never beside the game itself (GameExists)."""
        ...
    def seat_copy(self, game_id: str) -> tuple[str, str] | None: ...
    def seat_copies(self) -> list[tuple[str, str, str]]: ...
    def delete_seat_copy(self, game_id: str) -> None:
        """Remove a seat's copy of a game (GameNotFound when there is none)."""
        ...
    def read_transaction(self) -> AbstractContextManager[Store]:
        """A store whose reads all see the database as of one moment, the moment this is entered: what is committed
        after it (by this store object, another thread or another process) is not seen, so a reader that takes several
        queries (verify, export, check, migrate) finds a game as it was between two appends, never half of one. It
        writes nothing (ReadOnlyStore); inside it, `read_transaction()` again is the same moment."""
        ...
    def tokens(self, game_id: str) -> dict[str, str]:
        """role -> its token's hash, for one game (what `arbitro migrate` moves with the game)."""
        ...
