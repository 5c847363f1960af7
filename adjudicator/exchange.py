"""The exchange format: JSON Lines, one canonical record per line (docs/exchange-format.md).

    {"record": "game", "format": "arbitro/2", ...}          the game's metadata (never an unrevealed seed or
                                                          salt key, unless the umpire asks for them to move a game)
    {"record": "command", "cmd": 1, "hash": ..., "body": {...}}
    {"record": "event", "seq": 1, "hash": ..., "body": {...}}          full (umpire's) export
    {"record": "event", "seq": 1, "hash": ..., "served": {...}}        a seat's export: what it may see
    {"record": "annotation", ...}                                      chained notes (arbitro §L.1)
    {"record": "seat_view", "seq": N, "patch": "[...]"}   a seat's export: what it was shown after event N (its
                                 view, who was awaited), as the patch from what it was shown after N-1 (from {}
                                 for #1), in JSON text (keys in the order served), so its copy holds its history
    {"record": "seat_view", ..., "digest": ...}   each view's link in the chain of views (signing.view_link)
    {"record": "seat_state", "seq": N, "status": ..., "legal": [...]}   a seat's export: what that seat is served
                                 at the head, so it can play from its own copy offline
    {"record": "seat_seal", ...}   a seat's export, last: the server's signature on every record before it
                                 (signing.RecordsDigest), naming the chain's head, the views and the seat state it
                                 served that seat (signing.SeatSeal)

A seat's export (`arbitro-seat/3`, SEAT_FORMAT) holds only what that seat may see, in its own numbers (engine-rules
§V.6): its own commands (those the umpire entered on its behalf included) and of the others' commands only their
hashes, with no event range; one `item` per command (seat_numbers.per_command: the events it may see, linked by the
command's first `prev` and last `hash`); its notes numbered by command, their digests withheld (seat_numbers.noted);
its view after each command; its seat state at the head command; the seal. An `arbitro/2` seat export (one line
per event, numbered as the log) is still read and verified; a new export is always /3.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

import msgspec

from arbitro.adjudicator.errors import BadFile, BadInput, too_deep
from arbitro.events.codec import FloatInGameData, canonical
from arbitro.events.records import FORMAT, CommandRecord, GameRecord, StoredEvent
from arbitro.events.rows import numbered_per_chain
from arbitro.events.signing import CommandSignature, RecordsDigest
from arbitro.events.store import Annotation, Store
from arbitro.projections.base import UMPIRE

SEAT_FORMAT = "arbitro-seat/3"  # a seat's export in its own numbers; arbitro/2 (FORMAT) numbered it as the log
T_contra = TypeVar("T_contra", contravariant=True)
Command = tuple[CommandRecord | None, str, int, int]  # a command line read: its record (None: hidden), hash, range


class Loaded(msgspec.Struct, kw_only=True):
    """A game's records, read from a store or an export file, not yet checked."""

    game: GameRecord
    commands: Sequence[Command]  # full exports and stores (an export's read from its file as asked: exchange_file)
    events: Sequence[StoredEvent]  # full exports and stores (read from them as asked: exchange_file, verify.load_stored)
    command_seats: list[str] = []  # an export's: the seat each command line names
    served: list[dict[str, Any]] = []  # arbitro/2 seat exports: events as served to that seat, one by one
    items: list[dict[str, Any]] | None = None  # arbitro-seat/3 exports: one item per command (seat_numbers.per_command)
    annotations: list[Annotation] = []
    redacted_for: str | None = None
    events_start_line: int = 0
    server_key: str | None = None  # the exporting server's public key (it signs the receipts it gives)
    seat_keys: dict[str, tuple[str, int]] = {}  # seat -> (its public key, the last command it did not sign)
    signatures: dict[int, CommandSignature] = {}  # command number -> its seat's signature
    seat_views: list[dict[str, Any]] = []  # a seat's export: {"seq", "patch" (decoded), "digest"}, shown after each
    # event (arbitro/2) or command (arbitro-seat/3: "seq" is the command's number, as its `cmd` field says)
    seat_state: dict[str, Any] | None = None  # a seat's export: its status and legal commands at the head
    seat_seal: dict[str, Any] | None = None  # a seat's export: the server's signature on what it served that seat
    records_digest: str | None = None  # a seat's export: the digest of its records before the seal (RecordsDigest)
    source: str = "<input>"
    command_lines: Sequence[int] = []  # the file's line of each command record, in order (errors name the line)
    event_lines: Sequence[int] = []  # the file's line of each full event
    last_line: int = 0


def export_lines(
    store: Store, game: GameRecord, seat: str, *, revealed: bool, key_revealed: bool, server_key: str | None,
    served: Iterable[dict[str, Any]], notes: Iterable[Annotation], with_seed: bool = False,
    seat_state: dict[str, Any] | None = None, views: Iterable[dict[str, Any]] = (),
    seal: Callable[[str], dict[str, Any] | None] | None = None,
) -> Iterator[str]:
    """`game` as `seat` may have it, one JSON line a record: the umpire's export is the stored log whole; a seat's
    (SEAT_FORMAT, in its own numbers) holds the commands it sent, one item per command as it was `served` them
    (seat_numbers.per_command), the `notes` it may read (numbered by command, digests withheld), its view after each
    command (`views`, as patches) and, last, its `seat_state` at the head (what it is served there: status, legal
    commands), then the server's seal on all that: `seal` makes it from the digest of every record before it
    (signing.RecordsDigest). The seed only once `revealed`, the salt key once `key_revealed` (at the game's end),
    or both to the umpire on request (`with_seed`)."""
    digest = RecordsDigest()
    secrets = (revealed or (with_seed and seat == UMPIRE), key_revealed or (with_seed and seat == UMPIRE))
    for line in _records(store, game, seat, secrets=secrets, server_key=server_key, served=served, notes=notes,
                         with_seed=with_seed, seat_state=seat_state, views=views):
        digest.add(line.encode())
        yield line
    sealed = seal(digest.hexdigest()) if seal is not None and seat != UMPIRE else None
    if sealed is not None:
        yield _line({"record": "seat_seal", **sealed})


def _records(
    store: Store, game: GameRecord, seat: str, *, secrets: tuple[bool, bool], server_key: str | None,
    served: Iterable[dict[str, Any]], notes: Iterable[Annotation], with_seed: bool,
    seat_state: dict[str, Any] | None, views: Iterable[dict[str, Any]],
) -> Iterator[str]:
    """An export's records before the seal (export_lines); `secrets`: whether it holds the seed, the salt key."""
    game_id = game.id
    if with_seed and seat != UMPIRE:  # refused, not ignored: the caller asked for something it will not get
        raise BadInput(f"--with-seed is the umpire's (to move a whole game between servers); {seat}'s export never "
                       "holds an unrevealed seed: drop --with-seed, or export as the umpire")
    head = msgspec.to_builtins(game)
    if not secrets[0]:
        head["seed"] = None
    if not secrets[1] or head["salt_key"] is None:  # none held (an older game): the head as it was before the key
        del head["salt_key"]
    head.update(record="game", format=FORMAT if seat == UMPIRE else SEAT_FORMAT,
                redacted_for=None if seat == UMPIRE else seat, server_key=server_key)
    if seat != UMPIRE:  # the log's numbers (its head, a fork's point in its parent): the seat's are its commands'
        del head["head_seq"], head["parent_seq"]
    keys = store.seat_keys(game_id)
    if keys:  # only where a seat registered one: files without keep their former shape
        head["seat_keys"] = {s: {"public_key": k, "since_cmd": since} for s, (k, since) in keys.items()}
    yield _line(head)
    signatures = store.command_signatures(game_id)
    for stored in store.commands(game_id):
        visible = seat == UMPIRE or stored.record.seat == seat or entered_for(stored.record.command) == seat
        line = {"record": "command", "cmd": stored.record.cmd, "seat": stored.record.seat, "hash": stored.hash,
                "body": msgspec.to_builtins(stored.record) if visible else None}
        if seat == UMPIRE:  # a command's range of events: how many it made, which a seat may not be told (§V.6)
            line.update(first_seq=stored.first_seq, last_seq=stored.last_seq)
        if visible and stored.record.cmd in signatures:  # it holds the command as sent: only where the body is
            line["signature"] = msgspec.to_builtins(signatures[stored.record.cmd])
        yield _line(line)
    if seat == UMPIRE:
        for stored in store.events(game_id):
            yield _line({"record": "event", "seq": stored.seq, "hash": stored.hash, "body": msgspec.json.decode(stored.body)})
    else:
        for item in served:
            yield _line({"record": "item", **item})
    for note in notes:
        yield _line({"record": "annotation", **msgspec.to_builtins(note)})
    if seat != UMPIRE:
        for view in views:
            yield _line({"record": "seat_view", **view})
    if seat_state is not None and seat != UMPIRE:
        yield _line({"record": "seat_state", **seat_state})


def entered_for(command: Any) -> str | None:
    """The seat a command was entered for by the umpire (arbitro §S.5): its own move, so its body is the seat's
    to hold, as the seat's own commands are."""
    return command.get("seat") if isinstance(command, dict) and command.get("type") == "on_behalf" else None


def _line(record: dict[str, Any]) -> str:
    return canonical(record).decode()


class UnreadableView(BadFile):
    """A seat_view record that cannot be read (`arbitro check` reports it among a copy's views' problems)."""


def _seat_view(record: dict[str, Any], where: str) -> dict[str, Any]:
    """A seat_view record read: its point (an arbitro/2 export's event `seq`, an arbitro-seat/3 export's command
    `cmd`, read as "seq"), its patch decoded from the JSON text that keeps the view's key order, and its link in the
    chain of views (None in an export made before views were sealed)."""
    seq, patch, digest = record.get("cmd", record.get("seq")), record["patch"], record.get("digest")
    if not isinstance(seq, int) or not isinstance(patch, str) or not isinstance(digest, str | None):
        raise UnreadableView(f"{where}: malformed seat_view record (its point, `cmd` or an arbitro/2 export's `seq`, "
                             "must be a number, patch the JSON text of a list of operations, digest a hash); the file "
                             "may be edited")
    try:
        return {"seq": seq, "patch": msgspec.json.decode(patch), "digest": digest}
    except msgspec.DecodeError as e:
        raise UnreadableView(f"{where}: its patch is not JSON text ({e}); the file may be truncated or "
                             "edited") from None


class Sink(Protocol[T_contra]):
    def append(self, item: T_contra, /) -> None: ...


# The fields the checks read of each line of these kinds, and the JSON type the engine writes each in (a number: a
# whole one from 0, as a sequence or command number is): a line edited into another shape is a BadFile naming it as
# the line is read, never a TypeError or KeyError deep in a check (rev-r: `arbitro verify FILE` and `import` printed
# a traceback, HTTP POST /verify and /import answered 500).
LINE_FIELDS: dict[str, tuple[tuple[str, type | tuple[type, ...], bool], ...]] = {  # kind: (field, type, required)
    "game": (("redacted_for", (str, type(None)), False), ("server_key", (str, type(None)), False)),
    "command": (("cmd", int, True), ("hash", str, True), ("first_seq", int, False), ("last_seq", int, False)),
    "event": (("seq", int, True), ("hash", str, True), ("body", dict, True)),
    "item": (("cmd", int, True), ("seq", int, True), ("hash", str, True), ("events", list, True),
             ("prev", str, False), ("cmd_hash", str, False)),
}
NUMBERS = range(2**63)  # what the checks' arrays of numbers hold


def shape_problem(kind: str, record: dict[str, Any]) -> str | None:
    """What is wrong with the shape of a line of KIND (`LINE_FIELDS`), if anything."""
    for name, expected, required in LINE_FIELDS.get(kind, ()):
        if name not in record:
            if required:
                return f"it has no {name!r}"
            continue
        value = record[name]
        if expected is int and not (type(value) is int and value in NUMBERS):
            return f"{name!r} is {msgspec.json.encode(value)[:40].decode(errors='replace')}, not a whole number from 0"
        if expected is not int and not isinstance(value, expected):
            return f"{name!r} is not a JSON {'object' if expected is dict else 'array' if expected is list else 'string'}"
        if expected == (str, type(None)) and value is not None and not value:
            return f"{name!r} is empty"
    if kind == "item" and not all(isinstance(e, dict) for e in record["events"]):
        return "its 'events' are not each a JSON object"
    return None


def command_entry(record: dict[str, Any]) -> Command:
    """A command line read; a seat's export in its numbers (arbitro-seat/3) gives no range: (0, 0)."""
    body = record["body"]
    return (msgspec.convert(body, CommandRecord) if body is not None else None, record["hash"],
            record.get("first_seq", 0), record.get("last_seq", 0))


def event_entry(record: dict[str, Any]) -> StoredEvent:
    return StoredEvent(record["seq"], canonical(record["body"]), record["hash"])


def read_lines(lines: Iterable[str], source: str = "<input>", commands: Sink[Command] | None = None,
               events: Sink[StoredEvent] | None = None) -> Loaded:
    """Parse an export; errors name the file, the line and what is wrong. `commands`, `events`: where its commands
    and full events go, which become `Loaded.commands` and `.events` (lists unless given; exchange_file's keep where
    each line is instead)."""
    game: GameRecord | None = None
    commands = [] if commands is None else commands
    command_seats: list[str] = []
    events = [] if events is None else events
    served: list[dict[str, Any]] = []
    items: list[dict[str, Any]] | None = None
    notes: list[Annotation] = []
    redacted_for = server_key = None
    seat_state: dict[str, Any] | None = None
    seat_seal: dict[str, Any] | None = None
    digest, records_digest = RecordsDigest(), None
    seat_views: list[dict[str, Any]] = []
    seat_keys: dict[str, tuple[str, int]] = {}
    signatures: dict[int, CommandSignature] = {}
    command_lines, event_lines = array("q"), array("q")
    number = 0
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        where = f"{source}, line {number}"
        try:
            record = msgspec.json.decode(text)
        except msgspec.DecodeError as e:
            raise BadFile(f"{where}: not JSON ({e}); the file may be truncated or edited") from None
        except RecursionError:
            raise too_deep(where) from None
        if not isinstance(record, dict) or "record" not in record:
            raise BadFile(f'{where}: each line is a JSON object with a "record" field')
        if seat_seal is not None:
            raise BadFile(f"{where}: a record after the seat_seal record, which ends a seat's export: added after the "
                          "server sealed it")
        kind = record.pop("record")
        if not isinstance(kind, str):
            raise BadFile(f'{where}: the "record" field names a record kind (a string)')
        problem = shape_problem(kind, record) if kind != "event" or "body" in record else None
        if problem is not None:
            raise BadFile(f"{where}: malformed {kind} record ({problem})")
        try:
            if kind != "seat_seal" and (redacted_for is not None or (kind == "game" and record.get("redacted_for"))):
                digest.add(canonical({"record": kind, **record}))
            if kind == "game":
                items = _format(record.pop("format", None), record.get("redacted_for"), where)
                redacted_for = record.pop("redacted_for", None)
                server_key = record.pop("server_key", None)
                seat_keys = {seat_: (k["public_key"], k["since_cmd"]) for seat_, k in record.pop("seat_keys", {}).items()}
                game = msgspec.convert(record, GameRecord)
            elif game is None:
                raise BadFile(f"{where}: the first record must be the game record")
            elif kind == "command":
                commands.append(command_entry(record))
                if not isinstance(record.get("seat"), str):  # every export names it; the seat checks rest on it
                    raise BadFile(f"{where}: command {record.get('cmd')} names no seat (its \"seat\" field): every "
                                  "command line names the seat in whose name it was entered; the file was edited")
                command_seats.append(sys.intern(record["seat"]))  # one string a seat, not one a command
                if "signature" in record:
                    signatures[record["cmd"]] = msgspec.convert(record["signature"], CommandSignature)
                command_lines.append(number)
            elif kind == "event" and "body" in record:
                events.append(event_entry(record))
                event_lines.append(number)
            elif kind == "event" and items is None:
                served.append(record["served"])
            elif kind == "item" and items is not None:
                items.append(record)
            elif kind == "annotation":
                notes.append(msgspec.convert(record, Annotation))
            elif kind == "seat_view" and redacted_for is not None:
                point = record.get("cmd", record.get("seq"))  # a command (arbitro-seat/3), an event (arbitro/2)
                seat_views.append(_seat_view(record, f"{where}: {redacted_for}'s view after #{point}"))
            elif kind == "seat_state" and redacted_for is not None:
                seat_state = record
            elif kind == "seat_seal" and redacted_for is not None:
                seat_seal, records_digest = record, digest.hexdigest()
            else:
                raise BadFile(f"{where}: unknown record kind {kind!r}")
        except (KeyError, msgspec.ValidationError, TypeError, FloatInGameData) as e:
            raise BadFile(f"{where}: malformed {kind} record ({e})") from None
    if game is None:
        raise BadFile(f"{source}: empty file: no game record")
    # A file exported before notes were numbered per chain reads numbered so (events.rows.numbered_per_chain).
    return Loaded(game=game, commands=commands, command_seats=command_seats, events=events, served=served, items=items,
                  annotations=notes if items is not None else numbered_per_chain(notes),
                  redacted_for=redacted_for, server_key=server_key, seat_keys=seat_keys, signatures=signatures,
                  seat_state=seat_state, seat_seal=seat_seal, records_digest=records_digest, seat_views=seat_views, source=source, command_lines=command_lines, event_lines=event_lines, last_line=number)


def _format(format: Any, redacted_for: Any, where: str) -> list[dict[str, Any]] | None:
    """The items' list an export of this format fills: [] for a seat's export in its numbers (arbitro-seat/3), None
    for an arbitro/2 export (the umpire's full log, or a seat's numbered as the log, still read); others refused."""
    if format == SEAT_FORMAT and redacted_for:
        return []
    if format == FORMAT:
        return None
    raise BadFile(f"{where}: not an {FORMAT} export nor a seat's {SEAT_FORMAT} export (format field {format!r})")
