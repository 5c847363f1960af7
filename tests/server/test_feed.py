"""The live streams' watcher thread (adjudicator/http_stream.py) when its store goes away: a PostgreSQL server that
shuts down, or cuts the store's connections, ends the watcher quietly (no exception escaping a thread: pytest
reported one as PytestUnhandledThreadExceptionWarning when the suite's server stopped), and the next stream opened
starts a watcher again."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

from arbitro.adjudicator import http_stream
from arbitro.adjudicator.http_stream import AppendWatcher
from arbitro.adjudicator.service import Arbitro
from arbitro.events.postgres import PostgresStore


def _feeds(game: str) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == f"feed:{game}"]


def _ended(thread: threading.Thread, seconds: float = 20.0) -> bool:
    thread.join(seconds)
    return not thread.is_alive()


def test_a_watcher_whose_database_goes_away_ends_quietly_and_a_new_stream_starts_another(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    escaped: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: escaped.append(args.exc_value))
    monkeypatch.setattr(http_stream, "FEED_TIMEOUT", 0.5)  # a watcher no longer wanted ends within this
    store = PostgresStore(postgres_url, mode="create")
    app = Arbitro(store)
    game = app.create("duel", "standard")
    watcher = AppendWatcher(app)

    watcher.watch(game, app.game(game).head_seq)  # a stream opens: its watcher waits on the store's feed
    [feed] = _feeds(game)
    time.sleep(0.3)
    with psycopg.connect(postgres_url, autocommit=True) as admin:  # what a server shutting down does to a client
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
                      "AND datname = current_database()")
    assert _ended(feed), "the watcher went on after its store's database went away"
    assert escaped == [], f"the watcher's thread ended with an exception: {escaped!r}"

    watcher.watch(game, app.game(game).head_seq)  # the stream still open, another opens: the store reconnects
    [again] = _feeds(game)
    assert again is not feed, "no watcher follows the feed after the first one ended"
    watcher.unwatch(game)
    watcher.unwatch(game)
    assert _ended(again), "a watcher no longer wanted went on"
    assert escaped == []
    store.close()
