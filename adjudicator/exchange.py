"""The exchange format: JSON Lines, one canonical record per line (docs/exchange-format.md).

    {"record": "game", "format": "arbitro/2", ...}          the game's metadata (never an unrevealed seed,
                                                          unless the umpire asks for it to move a game)
    {"record": "command", "cmd": 1, "hash": ..., "body": {...}}
    {"record": "event", "seq": 1, "hash": ..., "body": {...}}          full (umpire's) export
    {"record": "event", "seq": 1, "hash": ..., "served": {...}}        a seat's export: what it may see
    {"record": "annotation", ...}                                      chained notes (arbitro §L.1)

A seat's export holds only what that seat may see: its redacted events (with the chain's hashes, and the
salt only of events served whole), its own commands, and of the others' commands only their hashes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import BadFile, BadInput
from arbitro.events.codec import canonical
from arbitro.events.random import command_salt
from arbitro.events.records import FORMAT, GENESIS, CommandRecord, GameRecord, StoredEvent, seal_events
from arbitro.events.signing import CommandSignature
from arbitro.events.store import Annotation, GameExists
from arbitro.projections.base import UMPIRE
from arbitro.projections.fold import Fold


class Loaded(msgspec.Struct, kw_only=True):
    """A game's records, read from a store or an export file, not yet checked."""

    game: GameRecord
    commands: list[tuple[CommandRecord | None, str, int, int]]  # record (None: hidden), hash, first, last
    events: list[StoredEvent]  # full exports and stores
    served: list[dict[str, Any]] = []  # seat exports: events as served to that seat
    annotations: list[Annotation] = []
    redacted_for: str | None = None
    events_start_line: int = 0
    server_key: str | None = None  # the exporting server's public key (it signs the receipts it gives)
    seat_keys: dict[str, tuple[str, int]] = {}  # seat -> (its public key, the last command it did not sign)
    signatures: dict[int, CommandSignature] = {}  # command number -> its seat's signature
    source: str = "<input>"
    command_lines: list[int] = []  # the file's line of each command record, in order (errors name the line)
    event_lines: list[int] = []
    last_line: int = 0


def export_lines(app: Any, game_id: str, seat: str = UMPIRE, *, with_seed: bool = False) -> Iterator[str]:
    game = app.game(game_id)
    app.check_seat(game, seat)
    if with_seed and seat != UMPIRE:  # refused, not ignored: the caller asked for something it will not get
        raise BadInput(f"--with-seed is the umpire's (to move a whole game between servers); {seat}'s export never "
                       "holds an unrevealed seed: drop --with-seed, or export as the umpire")
    state = app.state_at(game_id)
    head = msgspec.to_builtins(game)
    revealed = state.core.seed is not None
    if not (revealed or (with_seed and seat == UMPIRE)):
        head["seed"] = None
    head.update(record="game", format=FORMAT, redacted_for=None if seat == UMPIRE else seat, server_key=app.server_key())
    keys = app.store.seat_keys(game_id)
    if keys:  # only where a seat registered one: files without keep their former shape
        head["seat_keys"] = {s: {"public_key": k, "since_cmd": since} for s, (k, since) in keys.items()}
    yield _line(head)
    signatures = app.store.command_signatures(game_id)
    for stored in app.store.commands(game_id):
        visible = seat == UMPIRE or stored.record.seat == seat
        line = {"record": "command", "cmd": stored.record.cmd, "seat": stored.record.seat, "hash": stored.hash,
                "first_seq": stored.first_seq, "last_seq": stored.last_seq,
                "body": msgspec.to_builtins(stored.record) if visible else None}
        if visible and stored.record.cmd in signatures:  # it holds the command as sent: only where the body is
            line["signature"] = msgspec.to_builtins(signatures[stored.record.cmd])
        yield _line(line)
    if seat == UMPIRE:
        for stored in app.store.events(game_id):
            yield _line({"record": "event", "seq": stored.seq, "hash": stored.hash, "body": msgspec.json.decode(stored.body)})
    else:
        for served in app.log(game_id, seat):
            yield _line({"record": "event", "seq": served["seq"], "hash": served["hash"], "served": served})
    # The full export is the database's whole record of the game: every note, private ones included.
    for note in (app.store.annotations(game_id) if seat == UMPIRE else app.annotations(game_id, seat)):
        yield _line({"record": "annotation", **msgspec.to_builtins(note)})


def _line(record: dict[str, Any]) -> str:
    return canonical(record).decode()


def read_lines(lines: Iterable[str], source: str = "<input>") -> Loaded:
    """Parse an export; errors name the file, the line and what is wrong."""
    game: GameRecord | None = None
    commands: list[tuple[CommandRecord | None, str, int, int]] = []
    events: list[StoredEvent] = []
    served: list[dict[str, Any]] = []
    notes: list[Annotation] = []
    redacted_for = server_key = None
    seat_keys: dict[str, tuple[str, int]] = {}
    signatures: dict[int, CommandSignature] = {}
    command_lines: list[int] = []
    event_lines: list[int] = []
    number = 0
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        where = f"{source}, line {number}"
        try:
            record = msgspec.json.decode(text)
        except msgspec.DecodeError as e:
            raise BadFile(f"{where}: not JSON ({e}); the file may be truncated or edited") from None
        if not isinstance(record, dict) or "record" not in record:
            raise BadFile(f'{where}: each line is a JSON object with a "record" field')
        kind = record.pop("record")
        try:
            if kind == "game":
                if record.pop("format", None) != FORMAT:
                    raise BadFile(f"{where}: not an {FORMAT} export (format field)")
                redacted_for = record.pop("redacted_for", None)
                server_key = record.pop("server_key", None)
                seat_keys = {seat_: (k["public_key"], k["since_cmd"]) for seat_, k in record.pop("seat_keys", {}).items()}
                game = msgspec.convert(record, GameRecord)
            elif game is None:
                raise BadFile(f"{where}: the first record must be the game record")
            elif kind == "command":
                body = record["body"]
                commands.append((msgspec.convert(body, CommandRecord) if body is not None else None,
                                 record["hash"], record["first_seq"], record["last_seq"]))
                if "signature" in record:
                    signatures[record["cmd"]] = msgspec.convert(record["signature"], CommandSignature)
                command_lines.append(number)
            elif kind == "event" and "body" in record:
                events.append(StoredEvent(record["seq"], canonical(record["body"]), record["hash"]))
                event_lines.append(number)
            elif kind == "event":
                served.append(record["served"])
            elif kind == "annotation":
                notes.append(msgspec.convert(record, Annotation))
            else:
                raise BadFile(f"{where}: unknown record kind {kind!r}")
        except (KeyError, msgspec.ValidationError, TypeError) as e:
            raise BadFile(f"{where}: malformed {kind} record ({e})") from None
    if game is None:
        raise BadFile(f"{source}: empty file: no game record")
    return Loaded(game=game, commands=commands, events=events, served=served, annotations=notes,
                  redacted_for=redacted_for, server_key=server_key, seat_keys=seat_keys, signatures=signatures,
                  source=source, command_lines=command_lines, event_lines=event_lines, last_line=number)


def import_loaded(app: Any, loaded: Loaded, as_id: str | None = None) -> str:
    """Store a full export as a new game, whole or not at all (one transaction), after checking its chain, its
    command log and its notes: an error names the file's first bad line. `as_id` stores a copy under another id
    (the events name their game, so the copy is re-sealed: a new chain with the same content)."""
    from arbitro.adjudicator.verify import check_annotations, check_chain, check_commands

    if loaded.redacted_for is not None:
        raise BadFile(f"this is {loaded.redacted_for}'s export: it lacks what that seat may not see, so it cannot "
                      "be imported as a game; check it with `arbitro verify FILE`")
    problem = check_chain(app, loaded) or check_annotations(loaded.game.id, loaded.annotations,
                                                            {e.seq: e.hash for e in loaded.events})
    fold = Fold(registry.get(loaded.game.ruleset))
    bodies = [] if problem else [fold.decode(e, loaded.game.id, None) for e in loaded.events]
    checks: list[Any] = []
    if problem is None and not check_commands(loaded, bodies, checks):
        problem = checks[-1]
    detail = problem.detail if problem is not None else _range_problem(loaded, bodies)
    if detail is not None:
        raise BadFile(f"{loaded.source}, line {_line_of(loaded, detail)}: {detail}; nothing imported")
    game_id = as_id or loaded.game.id
    if app._exists(game_id):
        raise GameExists(game_id, hint=f"import it under another id (--as-id NEW_ID), or delete that game first "
                                       f"(arbitro delete {game_id})")
    batches = [(record, [loaded.events[s - 1] for s in range(first, last + 1)] if first else [])
               for record, _digest, first, last in loaded.commands if record is not None]
    game, notes, signatures, seat_keys = loaded.game, loaded.annotations, loaded.signatures, loaded.seat_keys
    if as_id is not None and as_id != loaded.game.id:
        game, batches = _resealed(loaded, bodies, batches, as_id)
        notes = [msgspec.structs.replace(n, game=as_id, hash="") for n in notes]  # chained again, in the copy
        signatures, seat_keys = {}, {}  # a seat signed the original game's commands, not the copy's
    app.store.import_game(game, batches, notes, signatures, seat_keys)
    app.rebuild_snapshots(game_id)
    return game_id


def _range_problem(loaded: Loaded, bodies: list[Any]) -> str | None:
    """A command record whose event range is not the events that name it (edited first_seq/last_seq)."""
    by_cmd: dict[int, list[int]] = {}
    for body in bodies:
        by_cmd.setdefault(body.cmd, []).append(body.seq)
    for record, _digest, first, last in loaded.commands:
        assert record is not None
        seqs = by_cmd.get(record.cmd, [])
        if (first, last) != ((seqs[0], seqs[-1]) if seqs else (0, 0)):
            return f"command {record.cmd} claims events #{first}-#{last}, but its events are " + (
                f"#{seqs[0]}-#{seqs[-1]}" if seqs else "none")
    return None


def _line_of(loaded: Loaded, detail: str) -> int:
    """The file line a check's detail points at: the event (#seq) or the command it names, else the last line."""
    event = re.search(r"event #(\d+)", detail)
    if event and 0 < int(event.group(1)) <= len(loaded.event_lines) and "log ends" not in detail:
        return loaded.event_lines[int(event.group(1)) - 1]
    command = re.search(r"command (\d+)", detail)
    if command and int(command.group(1)) < len(loaded.command_lines):
        return loaded.command_lines[int(command.group(1))]
    return loaded.last_line


def _resealed(
    loaded: Loaded, bodies: list[Any], batches: list[tuple[CommandRecord, list[StoredEvent]]], as_id: str
) -> tuple[GameRecord, list[tuple[CommandRecord, list[StoredEvent]]]]:
    """The same commands and events under another game id: each record names its game, so each is salted and
    sealed again (with the file's seed, or fresh salts without it), chained from the start."""
    seed = loaded.game.seed
    events_of = {b.seq: b.event for b in bodies}
    prev, out = GENESIS, []
    for record, events in batches:
        copy = msgspec.structs.replace(record, game=as_id, salt=command_salt(seed, as_id, record.cmd))
        first = events[0].seq if events else 0
        _, stored = seal_events(as_id, seed, copy, [events_of[e.seq] for e in events], first_seq=first, prev=prev)
        out.append((copy, stored))
        prev = stored[-1].hash if stored else prev
    # The record keeps the original's fields (its genesis, event #1, chains them): only the id differs.
    return msgspec.structs.replace(loaded.game, id=as_id, head_hash=prev), out
