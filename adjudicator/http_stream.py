"""A seat's live stream (Server-Sent Events): each new event as that seat may see it, as it is appended, and an
"awaiting" notice when the game waits for that seat.

Streams wake on the store's change feed (`Store.wait_for_append`): one watcher thread per game that has a stream
open, whatever the number of streams, waits on it and wakes that game's streams; an append made through this
process also wakes them at once (`notify`). A stream that hears nothing re-reads the head every `poll` seconds
anyway, so a store whose feed misses an append delays an event by at most that. An append never waits for a
stream: it only sets an event; a slow or gone client holds up nothing but its own stream.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import msgspec
from anyio import to_thread

from arbitro.adjudicator.errors import REPORTED, error_payload
from arbitro.adjudicator.results import Awaiting
from arbitro.adjudicator.service import Arbitro
from arbitro.events.store import GameNotFound, StoreError
from arbitro.projections.base import UMPIRE

FEED_TIMEOUT = 10.0  # seconds a watcher thread waits on the store's feed before it checks it is still wanted


class AppendWatcher:
    """Wakes the live streams of a game when its log grows."""

    def __init__(self, app: Arbitro) -> None:
        self.app = app
        self.loop: asyncio.AbstractEventLoop | None = None
        self._wakers: dict[str, asyncio.Event] = {}
        self._watched: dict[str, int] = {}  # game -> open streams
        self._feeding: set[str] = set()  # games whose watcher thread runs
        self._lock = threading.Lock()

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def waker(self, game_id: str) -> asyncio.Event:
        """The event the next append to `game_id` sets (taken before the head is read, so no append is missed)."""
        return self._wakers.setdefault(game_id, asyncio.Event())

    def notify(self, game_id: str) -> None:
        """An append to `game_id` was made (from any thread): wake its streams."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._wake, game_id)

    def _wake(self, game_id: str) -> None:
        waker = self._wakers.pop(game_id, None)
        if waker is not None:
            waker.set()

    def watch(self, game_id: str, head: int) -> None:
        """A stream of `game_id` opened: start the game's watcher unless one is running."""
        with self._lock:
            self._watched[game_id] = self._watched.get(game_id, 0) + 1
            if game_id in self._feeding:
                return
            self._feeding.add(game_id)
        threading.Thread(target=self._feed, args=(game_id, head), name=f"feed:{game_id}", daemon=True).start()

    def unwatch(self, game_id: str) -> None:
        with self._lock:
            self._watched[game_id] -= 1

    def _feed(self, game_id: str, head: int) -> None:
        """One game's watcher: follows the store's change feed while any stream of the game is open. A store that
        fails (closed, its database server gone) ends the watcher quietly: the streams read the head every `poll`
        seconds anyway and report the store's error on their own read; the next stream opened starts a watcher."""
        while True:
            with self._lock:
                if self._watched.get(game_id, 0) <= 0:
                    self._watched.pop(game_id, None)
                    self._feeding.discard(game_id)
                    return
            try:
                now = self.app.store.wait_for_append(game_id, head, FEED_TIMEOUT)
            except GameNotFound:  # deleted: its streams end on their next read
                now = head + 1
            except StoreError:
                with self._lock:
                    self._feeding.discard(game_id)
                self.notify(game_id)  # the streams read now, and meet the error themselves
                return
            if now > head:
                head = now
                self.notify(game_id)


def sse(event: str, data: Any, event_id: int) -> dict[str, str]:
    return {"event": event, "id": str(event_id), "data": json.dumps(data, ensure_ascii=False, sort_keys=True,
                                                                         separators=(",", ":"))}


async def live(app: Arbitro, watcher: AppendWatcher, game_id: str, seat: str, after: int, *, follow: bool,
               poll: float, authorised: Callable[[], object] = lambda: None) -> AsyncIterator[dict[str, str]]:
    """`seat`'s stream of game `game_id` from the event after `after`: each event (id: its sequence number, so
    Last-Event-ID resumes after it; a seat's: each item after command `after`, id its command's number, as all its
    numbers are, engine-rules §V.6), then an "awaiting" notice when the game waits for `seat` (the umpire's
    stream: for anyone) or is over; with `follow` it goes on as events are appended, else it ends at the head.
    `authorised` is asked again before each read and raises once the stream's token no longer grants it (replaced
    by a new invitation: a leaked token's open stream must end with it, rev-p P2). An error (the game deleted
    meanwhile, the token replaced) ends the stream with an "error" message saying why."""
    if follow:
        watcher.watch(game_id, watched_head(app, game_id, seat, after))
    try:
        async for message in _messages(app, watcher, game_id, seat, after, follow=follow, poll=poll,
                                       authorised=authorised):
            yield message
    except REPORTED as error:
        yield {"event": "error", "data": json.dumps(error_payload(error), ensure_ascii=False)}
    finally:
        if follow:
            watcher.unwatch(game_id)


def watched_head(app: Arbitro, game_id: str, seat: str, after: int) -> int:
    """The log's number of the last event a stream starting after `after` (the seat's number) has been sent: what the
    game's watcher waits past. A seat's `after` is a command's (-1: none yet), its last event the log's number."""
    if seat == UMPIRE:
        return after
    return app.numbers(app.game(game_id)).events(0, after)[1]


def _awaiting_at(app: Arbitro, game_id: str, seq: int, seat: str) -> Awaiting:
    """Who the game waited for right after `seq` (a seat's: command `seq`): the notice follows the events the stream
    has sent, never a head read later (an append landing between the two would announce the game's end before its
    last events)."""
    return app.awaiting_at(game_id, seq, seat)


def seat_head(app: Arbitro, game_id: str, seat: str) -> int:
    """The game's head in `seat`'s numbers: the log's last event to the umpire, its last command to a seat."""
    game = app.game(game_id)
    return game.head_seq if seat == UMPIRE else app.numbers(game).head


async def _messages(app: Arbitro, watcher: AppendWatcher, game_id: str, seat: str, last: int, *, follow: bool,
                    poll: float, authorised: Callable[[], object]) -> AsyncIterator[dict[str, str]]:
    told = None
    while True:
        waker = watcher.waker(game_id)
        await to_thread.run_sync(authorised)
        head = await to_thread.run_sync(seat_head, app, game_id, seat)
        if head > last:
            for event in await to_thread.run_sync(app.log, game_id, seat, last + 1, head):
                yield sse("event", event, event["seq"])
            last = head
        awaiting = await to_thread.run_sync(_awaiting_at, app, game_id, min(last, head), seat)
        notice = (last, awaiting.kind, tuple(awaiting.seats))
        if (seat in awaiting.seats or seat == UMPIRE or awaiting.kind == "game_over") and notice != told:
            told = notice
            yield sse("awaiting", {"seq": last, **msgspec.to_builtins(awaiting)}, last)
        if not follow:
            return
        try:
            await asyncio.wait_for(waker.wait(), poll)
        except asyncio.TimeoutError:
            pass
