"""The log as verification reads it (adjudicator/verify.py): in one pass that checks the chain, what the other
checks need of every event (`Scan`); afterwards the events decoded again as re-adjudication reaches them (`Events`),
and the states an undo returns to (`MemoryHistory`). No decoded log is held (issue 15). While it runs, the collector
seldom walks every object (`fewer_full_collections`)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple, overload

from arbitro.events import core
from arbitro.events.records import EventBody, StoredEvent
from arbitro.projections.fold import Fold
from arbitro.projections.game import GameState


class Events(Sequence[EventBody[Any]]):
    """A log's events decoded each time they are read, none kept: re-adjudication reads each command's events once
    more after `check_chain` (and an undo the states before it) rather than verification holding every decoded
    event, which for a 100,000-event game would take about half a gigabyte. Their hashes and links were checked by
    `check_chain`; what the other checks need of each event was kept then (`Scan`)."""

    def __init__(self, fold: Fold, events: list[StoredEvent]) -> None:
        self.fold, self.events = fold, events

    def __len__(self) -> int:
        return len(self.events)

    @overload
    def __getitem__(self, index: int) -> EventBody[Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[EventBody[Any]]: ...

    def __getitem__(self, index: int | slice) -> EventBody[Any] | list[EventBody[Any]]:
        if isinstance(index, slice):
            return [self.fold.decode_checked(e.body) for e in self.events[index]]
        return self.fold.decode_checked(self.events[index].body)


class Stamp(NamedTuple):
    """What the command and salt checks read of an event: its number, its command and that command's hash, its salt."""

    seq: int
    cmd: int
    cmd_hash: str
    salt: str


class Scan:
    """What verification needs of the whole log besides re-adjudication, gathered while `check_chain` reads it once
    (issue 15): each event's stamp, the genesis, the rolls and the seed's reveal, and the few events the dice audit
    reads (randomness.audit_dice: entropy rounds, waivers, undos)."""

    def __init__(self) -> None:
        self.stamps: list[Stamp] = []
        self.dice: list[EventBody[Any]] = []
        self.created: Any = None
        self.rolls = 0
        self.revealed: core.SeedRevealed | None = None

    def see(self, body: EventBody[Any]) -> None:
        self.stamps.append(Stamp(body.seq, body.cmd, body.cmd_hash, body.salt))
        event = body.event
        if isinstance(event, (core.DiceRolled, core.ItemsDrawn)):
            self.rolls += 1
        elif self.revealed is None and isinstance(event, core.SeedRevealed):
            self.revealed = event
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
        for body in self.all[:seq]:
            state = self.fold.apply(state, body, self.state_at)
        assert state is not None
        return state


_FULL_EVERY = 1_000  # middle-generation collections between two full ones while a log is verified (CPython's default: 10)
_pausing = threading.Lock()
_paused = [0, 10, _FULL_EVERY]  # verifications under way; the full threshold found when the first began; the one it set


@contextmanager
def fewer_full_collections() -> Iterator[None]:
    """Re-adjudication makes and drops a state per command, and a full collection walks everything alive besides:
    the ruleset's data and kept searches. Those walks were 10-15 % of a verify's CPU time (issue 15); with this, cyclic
    garbage is still collected by the young generations, and the oldest is collected every 1,000 middle-generation
    collections instead of every 10 (a long verify still collects it now and then: its memory stays bounded).
    Nested and concurrent verifications share one pause; the last to end restores the threshold it found, unless
    someone set another meanwhile (theirs is kept)."""
    with _pausing:
        if _paused[0] == 0:
            young, middle, full = gc.get_threshold()
            _paused[1], _paused[2] = full, max(full, _FULL_EVERY)
            gc.set_threshold(young, middle, _paused[2])
        _paused[0] += 1
    try:
        yield
    finally:
        with _pausing:
            _paused[0] -= 1
            young, middle, full = gc.get_threshold()
            if _paused[0] == 0 and full == _paused[2]:
                gc.set_threshold(young, middle, _paused[1])
