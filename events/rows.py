"""What the SQL stores (events.sqlite, events.postgres) share: how a row becomes a record, the check that an
append extends an unbroken chain, and how a note is chained. The stores only fetch the rows; the decisions are
made here, once."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from arbitro.events.codec import sha256_hex
from arbitro.events.records import GENESIS, CommandRecord, GameRecord, StoredCommand, StoredEvent
from arbitro.events.signing import CommandSignature
from arbitro.events.store import Annotation, BrokenChain, KeyChange, StoreError, key_refused

# The tables every SQL store keeps per game (each keyed by the game first), children before the games table.
GAME_TABLES = ("events", "commands", "snapshots", "annotations", "seats", "seat_keys", "command_signatures",
               "tokens")


def game_row(game: GameRecord) -> dict[str, Any]:
    """The games table's row of a record (the seats joined by commas)."""
    row = msgspec.to_builtins(game)
    row["seats"] = ",".join(game.seats)
    return row


def game_from_row(row: Mapping[str, object]) -> GameRecord:
    fields = dict(row)
    fields["seats"] = tuple(str(fields["seats"]).split(",")) if fields["seats"] else ()
    return msgspec.convert(fields, GameRecord)


def as_bytes(body: str | bytes | memoryview) -> bytes:
    return body.encode() if isinstance(body, str) else bytes(body)


def command_from_row(row: tuple[Any, str, int, int]) -> StoredCommand:
    body, digest, first, last = row
    return StoredCommand(msgspec.json.decode(as_bytes(body), type=CommandRecord), digest, first, last)


def event_from_row(row: tuple[int, Any, str]) -> StoredEvent:
    seq, body, digest = row
    return StoredEvent(seq, as_bytes(body), digest)


def check_head_link(game_id: str, head_seq: int, recorded: str, rows: Iterable[tuple[int, Any, str]],
                    events: list[StoredEvent]) -> None:
    """Refuse to append onto a broken chain (arbitro §L.7): the head event's stored body (among `rows`, the
    events at head_seq - 1 and head_seq) must still hash to the head recorded for the game, it must link to the
    event before it, and the new events must link to it. `arbitro check` examines the rest of the log."""
    by_seq = {seq: (as_bytes(body), digest) for seq, body, digest in rows}
    if head_seq > 0:
        head = by_seq.get(head_seq)
        if head is None:
            raise BrokenChain(game_id, head_seq, "the head event is missing")
        if sha256_hex(head[0]) != head[1] or head[1] != recorded:
            raise BrokenChain(game_id, head_seq, "the head event does not match its hash (edited in the database)")
        if head_seq > 1 and head_seq - 1 not in by_seq:
            raise BrokenChain(game_id, head_seq - 1, "the event before the head is missing")
        before = by_seq[head_seq - 1][1] if head_seq > 1 else GENESIS
        if prev_of(head[0]) != before:
            raise BrokenChain(game_id, head_seq, "the head event does not follow the event before it")
    if events and prev_of(events[0].body) != recorded:
        raise BrokenChain(game_id, events[0].seq, "the new events do not follow the head")


def chain_note(note: Annotation, next_id: int, at_hash: str | None, last_hash: str | None) -> Annotation:
    """Number, chain and hash a note: `next_id` is the next number in the note's own chain (public, or its seat's
    private chain: never a count of other chains, arbitro §L.1), `at_hash` the annotated event's hash (None: no
    such event), `last_hash` the hash of the last note in its chain (None: it is the first). A note that arrives
    numbered and hashed (an import) must be the next of its chain and hash to it once chained, or it is refused."""
    if at_hash is None:
        raise StoreError(f"game {note.game} has no event #{note.seq} to annotate")
    if note.id and note.id != next_id:
        raise StoreError(f"game {note.game}: note {note.id} of the {note.chain} chain is not the next of its chain "
                         f"(#{next_id}): notes are numbered 1, 2, 3 ... within each chain")
    chained = msgspec.structs.replace(note, id=next_id, at_hash=at_hash, prev=last_hash or GENESIS, hash="")
    chained = msgspec.structs.replace(chained, hash=chained.digest())
    if note.hash and note.hash != chained.hash:
        raise StoreError(f"game {note.game}: note {chained.id} does not hash to {note.hash[:12]} once chained "
                         "here (edited, or a note before it in its chain is missing)")
    return chained


def chain_order(note: Annotation) -> tuple[bool, str, int]:
    """The order notes are listed and exported in: the public chain first, then each seat's private chain, each in
    its own numbers (so an import chains them as they were chained)."""
    return note.private, note.seat if note.private else "", note.id


def numbered_per_chain(notes: Iterable[Annotation]) -> list[Annotation]:
    """Notes numbered as arbitro numbers them since store schema 3: 1, 2, 3 ... within each chain. Before it a
    game's notes shared one count, so the gaps in the public numbers a seat was served told it that, and between
    which of its notes, other seats wrote private ones (docs/stores.md). `notes` are in their old order (the
    game's count). A chain numbered so already is kept as it is; a chain numbered with gaps whose links and hashes
    hold under its old numbers is renumbered and hashed again, link by link; a chain that does not hold is kept
    exactly as it was, old numbers and hashes (they stay unique within it), so that `arbitro check` and `verify`
    name the note that was damaged: a number is in each note's digest, so renumbering it would make every intact
    note after a gap fail its hash instead (an upgrade never makes a damaged note whole, nor blames another)."""
    chains: dict[str, list[Annotation]] = {}
    for note in sorted(notes, key=lambda n: n.id):
        chains.setdefault(note.chain, []).append(note)
    out: list[Annotation] = []
    for chain in chains.values():
        if [n.id for n in chain] == list(range(1, len(chain) + 1)) or not _holds(chain):
            out += chain
        else:
            last = GENESIS
            for number, note in enumerate(chain, 1):
                renumbered = msgspec.structs.replace(note, id=number, prev=last, hash="")
                out.append(msgspec.structs.replace(renumbered, hash=renumbered.digest()))
                last = out[-1].hash
    return sorted(out, key=chain_order)


def renumber_notes_table(db: Any, mark: str, create_table: str, chained: bool = True) -> None:
    """A store's upgrade to schema 3, inside its transaction (`db`: a DB-API connection or cursor, `mark` its
    parameter mark): the annotations table made again keyed by chain, every game's notes numbered per chain.
    Schema 1's unchained notes (`chained` False) stay unchained, for `arbitro check` to report."""
    chain = "at_hash, prev, hash" if chained else "'', '', ''"
    rows = db.execute(f"SELECT game, id, seq, seat, private, text, created_at, {chain} FROM annotations "
                      "ORDER BY game, id").fetchall()
    games: dict[str, list[Annotation]] = {}
    for row in rows:
        games.setdefault(row[0], []).append(note_from_row(row))
    db.execute("DROP TABLE annotations")
    db.execute(create_table)
    db.executemany(insert_note(mark), [note_row(n) for notes in games.values() for n in numbered_per_chain(notes)])


def record_authority(db: Any, mark: str, command: CommandRecord, signature: CommandSignature | None,
                     change: KeyChange | None) -> None:
    """What an append records of who may command, inside its transaction (`db`: a DB-API connection or cursor, `mark`
    its parameter mark): the seat's signature on `command`, and the registration the command makes or ends (arbitro
    §L.6: `change`), refused when the store's registration contradicts it (store.key_refused). A registration is a
    command of its own, so it moves the head: a command judged before it is stale, never appended after it."""
    game_id = command.game
    if signature is not None:
        db.execute(f"INSERT INTO command_signatures VALUES ({mark}, {mark}, {mark})",
                   (game_id, command.cmd, msgspec.json.encode(signature).decode()))
    if change is None:
        return
    held = db.execute(f"SELECT public_key FROM seat_keys WHERE game = {mark} AND seat = {mark}",
                      (game_id, change.seat)).fetchone()
    key_refused(game_id, change, held[0] if held is not None else None)
    if change.registered:
        db.execute(f"INSERT INTO seat_keys VALUES ({mark}, {mark}, {mark}, {mark})",
                   (game_id, change.seat, change.public_key, command.cmd))
    else:
        db.execute(f"DELETE FROM seat_keys WHERE game = {mark} AND seat = {mark}", (game_id, change.seat))


def _holds(chain: list[Annotation]) -> bool:
    last = GENESIS
    for note in chain:
        if not note.hash or note.prev != last or note.digest() != note.hash:
            return False
        last = note.hash
    return True


NOTE_COLUMNS = "game, id, seq, seat, private, text, created_at, at_hash, prev, hash"  # as note_from_row reads them


def insert_note(mark: str) -> str:
    """The statement that stores a note's row (note_row), with the driver's parameter mark."""
    return ("INSERT INTO annotations (game, chain, id, seq, seat, private, text, created_at, at_hash, prev, hash) "
            f"VALUES ({', '.join([mark] * 11)})")


def note_row(note: Annotation) -> tuple[Any, ...]:
    """A note's values in INSERT_NOTE's order."""
    return (note.game, note.chain, note.id, note.seq, note.seat, note.private, note.text, note.created_at,
            note.at_hash, note.prev, note.hash)


def note_from_row(row: tuple[Any, ...]) -> Annotation:
    g, i, s, st, p, t, c, a, pv, h = row
    return Annotation(game=g, id=i, seq=s, seat=st, private=bool(p), text=t, created_at=c, at_hash=a or "",
                      prev=pv or "", hash=h or "")


class _PrevOnly(msgspec.Struct):
    prev: str


_prev_decoder = msgspec.json.Decoder(_PrevOnly)


def prev_of(body: bytes) -> str:
    try:
        return _prev_decoder.decode(body).prev
    except msgspec.DecodeError:
        return ""  # an unreadable body links to nothing: the caller reports the broken link


class _TypeOnly(msgspec.Struct):
    type: str


class _BodyType(msgspec.Struct):
    event: _TypeOnly


_type_decoder = msgspec.json.Decoder(_BodyType)


def event_type(body: bytes) -> str:
    # The type tag also has its own column, for SQL queries (sqlite-utils, datasette, psql); the body rules.
    return _type_decoder.decode(body).event.type
