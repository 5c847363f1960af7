"""The log as verification reads it (adjudicator/verify.py), without holding it (issue 15): one pass checks the chain
and keeps the few events the seed and dice checks need (`Scan`); the command and salt checks read each event's stamp
again (`Stamps`), re-adjudication decodes each event again as it reaches it (`Events`), an undo folds the log again
up to the state it returns to (`MemoryHistory`), and the anchors look up hashes (`EventHashes`). The events
themselves come from a list, a file (exchange_file.FileEvents) or a store (`StoredEvents`), read as asked. While
it runs, the collector seldom walks every object (`fewer_full_collections`)."""

from __future__ import annotations

import gc
import os
import tempfile
import threading
from abc import abstractmethod
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from itertools import count, islice
from typing import Any, TypeVar, overload

import msgspec

from arbitro.events import core
from arbitro.events.records import EventBody, StoredEvent
from arbitro.events.store import Store
from arbitro.projections.fold import Fold
from arbitro.projections.game import GameState


T = TypeVar("T")


class ReadWhenAsked(Sequence[T]):
    """A sequence whose items are read when asked, none kept: a subclass reads one (`item`) or a slice (`items`), and
    one that does not cannot be made (Sequence is an abstract base class)."""

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        return self.items(index) if isinstance(index, slice) else self.item(index)

    @abstractmethod
    def item(self, index: int) -> T: ...

    @abstractmethod
    def items(self, index: slice) -> list[T]: ...


class Decoded(ReadWhenAsked[T]):
    """Each of a log's events decoded (`decode`) each time it is read, from the log as given."""

    def __init__(self, events: Sequence[StoredEvent]) -> None:
        self.events = events

    @abstractmethod
    def decode(self, stored: StoredEvent) -> T: ...

    def __len__(self) -> int:
        return len(self.events)

    def item(self, index: int) -> T:
        return self.decode(self.events[index])

    def items(self, index: slice) -> list[T]:
        return [self.decode(e) for e in self.events[index]]

    def __iter__(self) -> Iterator[T]:  # in one read of the events, not one read per index
        for stored in self.events:
            yield self.decode(stored)


class Events(Decoded[EventBody[Any]]):
    """A log's events decoded each time they are read, none kept: re-adjudication reads each command's events once
    more after `check_chain` (and an undo the states before it) rather than verification holding every decoded
    event, which for a 100,000-event game would take about half a gigabyte. Their hashes and links were checked by
    `check_chain`; what the other checks need of each event was kept then (`Scan`)."""

    def __init__(self, fold: Fold, events: Sequence[StoredEvent]) -> None:
        super().__init__(events)
        self.fold = fold

    def decode(self, stored: StoredEvent) -> EventBody[Any]:
        return self.fold.decode_checked(stored.body)


class Stamp(msgspec.Struct, frozen=True):
    """What the command and salt checks read of an event: its number, its command and that command's hash, its salt."""

    seq: int
    cmd: int
    cmd_hash: str
    salt: str


_STAMP = msgspec.json.Decoder(Stamp)


class _StampLine(msgspec.Struct):
    body: Stamp


class _HashLine(msgspec.Struct):
    seq: int
    hash: str


_STAMP_LINE, _HASH_LINE = msgspec.json.Decoder(_StampLine), msgspec.json.Decoder(_HashLine)


class Stamps(Decoded[Stamp]):
    """Each event's stamp, read again from the log when asked (its hash and link checked by `check_chain`): the
    command and salt checks read every event, and keeping their stamps took 320 bytes an event (issue 15)."""

    def decode(self, stored: StoredEvent) -> Stamp:
        return _STAMP.decode(stored.body)

    def __iter__(self) -> Iterator[Stamp]:
        fields = getattr(self.events, "fields", None)  # a file's lines: the stamp read from the line alone
        if fields is not None:
            for line in fields(_STAMP_LINE):
                yield line.body
            return
        yield from super().__iter__()


class EventHashes(Mapping[int, str]):
    """Every event's hash by its number, read from the log when asked (the anchors: a recorded head, receipts,
    notes), not a dictionary of the whole log."""

    def __init__(self, events: Sequence[StoredEvent]) -> None:
        self.events = events

    def __len__(self) -> int:
        return len(self.events)

    def __iter__(self) -> Iterator[int]:
        for stored in self.events:
            yield stored.seq

    def __getitem__(self, seq: int) -> str:
        at = self.events[seq - 1] if 0 < seq <= len(self.events) else None
        if at is not None and at.seq == seq:
            return at.hash
        for stored in self.events:  # a log whose numbers are not its places (its chain check failed)
            if stored.seq == seq:
                return stored.hash
        raise KeyError(seq)

    def items(self) -> Iterator[tuple[int, str]]:  # type: ignore[override]  # one read of the log
        fields = getattr(self.events, "fields", None)  # a file's lines: their number and hash, no body built
        if fields is not None:
            for line in fields(_HASH_LINE):
                yield line.seq, line.hash
            return
        for stored in self.events:
            yield stored.seq, stored.hash


class SpilledEvents(ReadWhenAsked[StoredEvent]):
    """A stored game's events copied once, in the read moment its commands were read in (verify.load_stored), into an
    unnamed temporary file, and read from it as asked: workers forked to re-adjudicate (verify_replay) may read them,
    where they may not use the store's connection, and all of them read that one moment (queue 4, issue 15). Memory
    holds an offset per event, not the events; reads are positional (os.pread), so a child's never moves the offset
    the file's handle shares with its parent."""

    forkable = True  # verify_replay._forkable

    def __init__(self, rows: Iterable[StoredEvent]) -> None:
        self._file = tempfile.TemporaryFile()  # noqa: SIM115  (held open as long as the events are read)
        self._offsets = array("q", [0])
        for stored in rows:  # the rows as stored, in order: a gap stays a gap, for the chain check to find
            self._offsets.append(self._offsets[-1] + self._file.write(_SPILL.encode(stored)))
        self._file.flush()

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def item(self, index: int) -> StoredEvent:
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        index %= len(self)
        start, end = self._offsets[index], self._offsets[index + 1]
        return _SPILLED.decode(os.pread(self._file.fileno(), end - start, start))

    def items(self, index: slice) -> list[StoredEvent]:
        return [self.item(i) for i in range(*index.indices(len(self)))]

    def __iter__(self) -> Iterator[StoredEvent]:
        return (self.item(i) for i in range(len(self)))


_SPILL, _SPILLED = msgspec.msgpack.Encoder(), msgspec.msgpack.Decoder(StoredEvent)


class StoredEvents(ReadWhenAsked[StoredEvent]):
    """A stored game's events, read from its store as asked (verify.load_stored), none held: iterated a page at a
    time (a store reads a whole range at once), they are the rows as stored, so the chain check finds a gap;
    indexed, place i is event #i+1, as in an intact log. Every row is counted once at load, and no later read goes
    past the last row then: the events as loaded with the commands, as the held load's list is."""

    PAGE = 1024

    def __init__(self, store: Store, game_id: str, counted: Store | None = None) -> None:
        """`counted`: the store the rows are counted in at load, as of the moment the commands were read (a read
        transaction's); `store` by default."""
        self.store, self.game_id = counted or store, game_id
        self._last: int | None = None  # the last row at load, past which no later read goes
        rows = last = 0
        for stored in self:
            rows, last = rows + 1, stored.seq
        self._count, self._last, self.store = rows, last, store

    def __len__(self) -> int:
        return self._count

    def items(self, index: slice) -> list[StoredEvent]:
        start, stop, step = index.indices(self._count)
        if step != 1:
            return [self[i] for i in range(start, stop, step)]
        return list(self.store.events(self.game_id, start + 1, stop)) if start < stop else []

    def item(self, index: int) -> StoredEvent:
        if not -self._count <= index < self._count:
            raise IndexError(index)
        seq = index % self._count + 1
        found = next(iter(self.store.events(self.game_id, seq, seq)), None)
        if found is None:
            raise IndexError(index)
        return found

    def __iter__(self) -> Iterator[StoredEvent]:
        """Every stored row from #1, a page at a time (`stored_rows`); after the load, the rows up to the last one
        then, so that a game played on while it is verified is judged as loaded, not with events its loaded commands
        do not hold (rev-speed 2)."""
        return stored_rows(self.store, self.game_id, self._last, self.PAGE)


def stored_rows(store: Store, game_id: str, last: int | None = None, page: int = StoredEvents.PAGE,
                ) -> Iterator[StoredEvent]:
    """A stored game's rows from #1 to `last`, a page at a time; without `last`, past the first empty page (the end,
    in a sound store), whatever rows are left at once."""
    for first in count(1, page):
        if last is not None and first > last:
            return
        rows = list(store.events(game_id, first, first + page - 1 if last is None else min(first + page - 1, last)))
        if not rows and last is None:
            yield from store.events(game_id, first)
            return
        yield from rows


class Scan:
    """What verification needs of the whole log besides re-adjudication, gathered while `check_chain` reads it once
    (issue 15): the genesis, the rolls, the seed's and the salt key's reveals, and the few events the dice audit reads
    (randomness.audit_dice: entropy rounds, waivers, undos), and how many events each of the log's `commands` caused
    (`caused`). Nothing else per event: `Stamps` reads those again."""

    def __init__(self, commands: int) -> None:
        self.dice: list[EventBody[Any]] = []
        self.created: Any = None
        self.rolls = 0
        self.revealed: core.SeedRevealed | None = None
        self.salt_key: core.SaltKeyRevealed | None = None  # the game's end reveals it (never before, arbitro §R.3)
        self.made_public: dict[type, int] = {}  # the command that revealed the seed, the salt key: salts after it are
        # drawn at random (projections.game.salting_key_public)
        self.caused = array("l", [0]) * commands  # the events each of the log's `commands` caused, by its number:
        # re-adjudication's segments are weighed by them (verify_replay.segments) before the commands are read; an
        # event naming a command the log lacks counts for none (the command check fails it)

    def see(self, body: EventBody[Any]) -> None:
        if 0 <= body.cmd < len(self.caused):
            self.caused[body.cmd] += 1
        event = body.event
        if isinstance(event, (core.DiceRolled, core.ItemsDrawn)):
            self.rolls += 1
        elif self.revealed is None and isinstance(event, core.SeedRevealed):
            self.revealed, self.made_public[core.SeedRevealed] = event, body.cmd
        elif self.salt_key is None and isinstance(event, core.SaltKeyRevealed):
            self.salt_key, self.made_public[core.SaltKeyRevealed] = event, body.cmd
        elif isinstance(event, _AUDITED):
            self.dice.append(body)
            if self.created is None and isinstance(event, core.GameCreated):
                self.created = event


_AUDITED = (core.GameCreated, core.EntropyMixed, core.EntropyWaived, core.Undone)


class MemoryHistory:
    """The log so far, in memory, as the undo rules and `Undone` need it."""

    def __init__(self, fold: Fold, bodies: Sequence[EventBody[Any]]) -> None:
        self.fold, self.all = fold, bodies
        self.upto = 0

    def bodies(self, first: int = 1, last: int | None = None) -> list[EventBody[Any]]:
        last = self.upto if last is None else min(last, self.upto)
        return self.all[first - 1 : last]

    def state_at(self, seq: int) -> GameState[Any]:
        state: GameState[Any] | None = None
        for body in islice(self.all, seq):  # read as folded, not decoded whole first
            state = self.fold.apply(state, body, self.state_at)
        assert state is not None
        return state


_FULL_EVERY = 1_000  # middle-generation collections between two full ones while a log is verified (CPython's default: 10)
_YOUNG_EVERY = 10_000  # allocations between two young collections while a log is verified (CPython's default: 700):
# a verify's young collections found little garbage each and cost ~3 % of it (issue 15: arrivano-montebello 142 of
# them, ~0.02 s; 9 with this)
_pausing = threading.Lock()


class _Pause:
    """The pause the verifications under way share (`fewer_full_collections`, read and changed under `_pausing`): how
    many are under way, the (young, full) thresholds found when the first began, and the ones it set instead."""

    __slots__ = ("under_way", "found", "set_to")

    def __init__(self) -> None:
        self.under_way = 0
        self.found: tuple[int, int] = (700, 10)  # CPython's defaults; overwritten before they are read
        self.set_to: tuple[int, int] = (_YOUNG_EVERY, _FULL_EVERY)


_paused = _Pause()


@contextmanager
def fewer_full_collections() -> Iterator[None]:
    """Re-adjudication makes and drops a state per command, and a full collection walks everything alive besides:
    the ruleset's data and kept searches. Those walks were 10-15 % of a verify's CPU time (issue 15); with this, cyclic
    garbage is still collected by the young generations, and the oldest is collected every 1,000 middle-generation
    collections instead of every 10 (a long verify still collects it now and then: its memory stays bounded); the
    young every 10,000 allocations instead of 700 (`_YOUNG_EVERY`). Nested and concurrent verifications share one
    pause; the last to end restores each threshold it found, unless someone set another meanwhile (theirs is kept)."""
    with _pausing:
        if _paused.under_way == 0:
            young, middle, full = gc.get_threshold()
            # a young threshold of 0 is automatic collection switched off (CPython's gc.set_threshold): kept off
            _paused.found, _paused.set_to = (young, full), (max(young, _YOUNG_EVERY) if young else 0,
                                                            max(full, _FULL_EVERY))
            gc.set_threshold(_paused.set_to[0], middle, _paused.set_to[1])
        _paused.under_way += 1
    try:
        yield
    finally:
        with _pausing:
            _paused.under_way -= 1
            if _paused.under_way == 0:  # each threshold back as found, unless someone set another meanwhile
                young, middle, full = gc.get_threshold()
                (found_young, found_full), (set_young, set_full) = _paused.found, _paused.set_to
                gc.set_threshold(found_young if young == set_young else young, middle,
                                 found_full if full == set_full else full)
