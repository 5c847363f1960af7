"""The stored records of a game and the hash chain that binds them.

An event's stored body is the canonical JSON of `EventBody`; its hash is SHA-256 over that body, and each
body names the previous event's hash (`prev`), so an edit, a deletion or a reordering anywhere breaks the
chain at a sequence number that verification reports. Commands are hashed too, and every event names the
hash of the command that caused it.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import msgspec

from arbitro.events.codec import canonical, sha256_hex
from arbitro.events.random import salt

E = TypeVar("E")

GENESIS = "0" * 64  # the `prev` of a game's first event
FORMAT = "arbitro/2"  # exchange format name and version


class EventBody(msgspec.Struct, Generic[E], frozen=True, kw_only=True, forbid_unknown_fields=True):
    game: str
    seq: int
    cmd: int  # the sequence number of the command that caused this event (0: game creation)
    cmd_hash: str
    seat: str  # the seat that sent that command
    salt: str  # per-event salt derived from the secret salt key (an older game's: its seed; events.random.salt)
    prev: str  # the previous event's hash
    event: E


class StoredEvent(msgspec.Struct, frozen=True):
    """An event as it sits in the store: its canonical body bytes and its hash."""

    seq: int
    body: bytes
    hash: str


class CommandRecord(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    game: str
    cmd: int
    seat: str
    key: str  # idempotency key: a retried command is not applied twice
    salt: str  # derived from the secret salt key and `cmd` (events.random.command_salt): the record's hash is not guessable
    command: dict[str, Any]
    expected_seq: int  # the head the command was sent against (the head it was judged at, or an entropy answer's
    # older head when it crossed other seats' answers to the same round, arbitro §R.2), in its sender's numbers: the
    # umpire's the log's last event, a seat's its last command (engine-rules §V.6); never read as an event number
    received_at: str  # wall-clock metadata only; nothing decides on it

    def body(self) -> bytes:
        return canonical(self)

    def digest(self) -> str:
        return sha256_hex(self.body())


class StoredCommand(msgspec.Struct, frozen=True):
    record: CommandRecord
    hash: str
    first_seq: int
    last_seq: int


class GameRecord(msgspec.Struct, kw_only=True):
    id: str
    ruleset: str
    version: str
    scenario: str
    kind: str  # "generated" | "transcribed"
    seed: str | None  # secret until revealed; never served to a seat before that
    seed_commitment: str
    seats: tuple[str, ...]
    created_at: str
    head_seq: int = 0
    head_hash: str = GENESIS
    head_cmd: int = 0  # the last command's number
    parent: str | None = None
    parent_seq: int | None = None
    parent_hash: str | None = None
    # The secret salt key (events.random), revealed at the game's end and never served before; None for a game made
    # before it (salted by its seed) or held without it (an import of an export that did not carry it).
    salt_key: str | None = None

    def salting_key(self, salted_by_key: bool, public: bool = False) -> str | None:
        """The key this game's salts derive from: its salt key where its genesis commits one (`salted_by_key`:
        GameCreated.salted_by_key), else, an older game, its seed. None: not held here, or `public` already (revealed
        in the log: projections.game.salting_key_public), so salts are drawn fresh: never a public value's."""
        if public:
            return None
        return self.salt_key if salted_by_key else self.seed


def seal(body: EventBody[Any]) -> StoredEvent:
    """Encode a body canonically and hash it."""
    data = canonical(body)
    return StoredEvent(body.seq, data, sha256_hex(data))


def seal_events(
    game_id: str, key: str | None, command: CommandRecord, events: list[Any], *, first_seq: int, prev: str
) -> tuple[list[EventBody[Any]], list[StoredEvent]]:
    """Number, salt (by `key`: GameRecord.salting_key), chain and hash a command's events, ready to append after
    `prev`."""
    bodies: list[EventBody[Any]] = []
    stored: list[StoredEvent] = []
    cmd_hash = command.digest()
    for seq, event in enumerate(events, first_seq):
        body = EventBody(game=game_id, seq=seq, cmd=command.cmd, cmd_hash=cmd_hash, seat=command.seat,
                         salt=salt(key, game_id, seq), prev=prev, event=event)
        sealed = seal(body)
        bodies.append(body)
        stored.append(sealed)
        prev = sealed.hash
    return bodies, stored
