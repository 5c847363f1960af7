"""Importing an exported game: checked first (chain, notes, command log, each command's event range), then
stored whole or not at all. The format itself (reading and writing lines) is `exchange`; the checks are
`verify`'s, shared with verification."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.creation import checked_game_id
from arbitro.adjudicator.errors import BadFile
from arbitro.adjudicator.exchange import Loaded, read_lines
from arbitro.adjudicator.verify import check_annotations, check_chain, check_commands
from arbitro.adjudicator.verify_signatures import keys_chained
from arbitro.events import core
from arbitro.events.random import command_salt
from arbitro.events.records import GENESIS, CommandRecord, GameRecord, StoredEvent, seal_events
from arbitro.events.store import GameExists, GameNotFound, Store
from arbitro.projections.fold import Fold

def read_export(lines: list[str], source: str) -> Loaded:
    """An export's records read for importing (exchange.read_lines): an error names its line, and that nothing was
    imported."""
    try:
        return read_lines(lines, source)
    except BadFile as e:
        raise BadFile(f"{e}; nothing imported") from None


def import_loaded(store: Store, loaded: Loaded, as_id: str | None = None,
                  progress: Callable[[int, int], None] | None = None,
                  refuse: Callable[[Loaded], None] = lambda _: None) -> str:
    """Store a full export as a new game, whole or not at all (one transaction), after checking its chain, its
    command log and its notes: an error names the file's first bad line. `as_id` stores a copy under another id
    (the events name their game, so the copy is re-sealed: a new chain with the same content). `progress(done,
    total)` hears of each event decoded, the bulk of the work. `refuse` raises for a game that may not enter this
    store for a reason of the application's (a seed another game still rolls from), once the file and the id hold."""
    if loaded.redacted_for is not None:
        raise BadFile(f"this is {loaded.redacted_for}'s export: it lacks what that seat may not see, so it cannot "
                      "be imported as a game; check it with `arbitro verify FILE`")
    problem = check_chain(loaded) or check_annotations(loaded.game.id, loaded.annotations,
                                                            {e.seq: e.hash for e in loaded.events})
    fold = Fold(registry.get(loaded.game.ruleset))
    bodies = [] if problem else _decoded(fold, loaded, progress)
    checks: list[Any] = []
    if problem is None and not check_commands(loaded, bodies, checks):
        problem = checks[-1]
    if problem is None:
        detail = _unreadable(fold, loaded, bodies)
    else:
        detail = problem.detail
    if detail is not None:
        raise BadFile(f"{loaded.source}, line {_line_of(loaded, detail)}: {detail}; nothing imported")
    game_id = checked_game_id(as_id, "--as-id") if as_id is not None else checked_game_id(
        loaded.game.id, f"{loaded.source}: the game id (import it under another with --as-id NEW_ID)")
    if _exists(store, game_id):
        raise GameExists(game_id, hint=f"import it under another id (--as-id NEW_ID), or delete that game first "
                                       f"(arbitro delete {game_id})")
    refuse(loaded)
    batches = [(record, [loaded.events[s - 1] for s in range(first, last + 1)] if first else [])
               for record, _digest, first, last in loaded.commands if record is not None]
    game, notes, signatures, seat_keys = loaded.game, loaded.annotations, loaded.signatures, loaded.seat_keys
    if as_id is not None and as_id != loaded.game.id:
        if keys_chained(loaded):
            raise BadFile(f"{loaded.source}: its chain registers or withdraws a seat's signing key, and its seats' "
                          f"signatures name game {loaded.game.id}: a copy under another id would keep the chained "
                          "keys without the signatures they require, and fail verify (arbitro §L.6); nothing imported. "
                          "Import it under its own id in another database, or play on in a fork")
        game, batches = _resealed(loaded, bodies, batches, as_id)
        notes = [msgspec.structs.replace(n, game=as_id, hash="") for n in notes]  # chained again, in the copy
        signatures, seat_keys = {}, {}  # a seat signed the original game's commands, not the copy's
    store.import_game(game, batches, notes, signatures, seat_keys)
    return game_id


def _decoded(fold: Fold, loaded: Loaded, progress: Callable[[int, int], None] | None) -> list[Any]:
    bodies = []
    for number, event in enumerate(loaded.events, 1):
        bodies.append(fold.decode(event, loaded.game.id, None))
        if progress is not None:
            progress(number, len(loaded.events))
    return bodies


def _unreadable(fold: Fold, loaded: Loaded, bodies: list[Any]) -> str | None:
    """Why this build cannot read the game's starting position, if it cannot: a game of a version whose state
    changed shape (docs/exchange-format.md says which) is refused before anything is stored."""
    try:
        if bodies:
            fold.initial(bodies[0].event)
    except msgspec.ValidationError as e:
        ruleset, version = loaded.game.ruleset, loaded.game.version
        return (f"event #1: the position of this {ruleset} {version} game does not read as this build's {ruleset} "
                f"{registry.get(ruleset).version} ({e}; docs/exchange-format.md says which versions changed it)")
    return None


def _exists(store: Store, game_id: str) -> bool:
    try:
        store.game(game_id)
    except GameNotFound:
        return False
    return True


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
    sealed again (with the file's salt key, an older game's seed, or fresh salts without it), chained from the
    start; the commands after the one that made that key public (the game's end, then taken back) get fresh salts,
    as the game's own did (projections.game.salting_key_public; rev-p P1)."""
    keyed = bodies[0].event.salted_by_key()
    revealing = core.SaltKeyRevealed if keyed else core.SeedRevealed
    events_of = {b.seq: b.event for b in bodies}
    prev, out, public = GENESIS, [], False
    for record, events in batches:
        key = loaded.game.salting_key(keyed, public)
        copy = msgspec.structs.replace(record, game=as_id, salt=command_salt(key, as_id, record.cmd))
        first = events[0].seq if events else 0
        made = [events_of[e.seq] for e in events]
        _, stored = seal_events(as_id, key, copy, made, first_seq=first, prev=prev)
        out.append((copy, stored))
        prev = stored[-1].hash if stored else prev
        public = public or any(isinstance(event, revealing) for event in made)
    # The record keeps the original's fields (its genesis, event #1, chains them): only the id differs.
    return msgspec.structs.replace(loaded.game, id=as_id, head_hash=prev), out
