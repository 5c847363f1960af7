"""A game in a database verified in parallel (queue 4, issue 15; ctx, nineteenth session). A forked worker may not use
its parent's database connection, so a stored game was judged in one process whatever `--jobs` said. Now its events
are copied, in the one read moment its commands are read in, to an unnamed temporary file (`SpilledEvents`), which
the workers read positionally: the report is the same bytes for any number of jobs, nothing played after that moment
is judged, and memory holds an offset per event, not the events."""

from __future__ import annotations

import json
import multiprocessing
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import verify as verification
from arbitro.adjudicator import verify_replay
from arbitro.adjudicator.service import Arbitro
from arbitro.adjudicator.verify_reads import SpilledEvents
from arbitro.events.records import StoredEvent
from arbitro.events.sqlite import SQLiteStore

from .conftest import Cli

LOGS = Path(__file__).resolve().parents[2] / "logs"


@pytest.fixture
def stored(tmp_path: Path) -> Iterator[tuple[Arbitro, str]]:
    store = SQLiteStore(tmp_path / "arbitro.db")
    app = Arbitro(store)
    yield app, app.import_lines((LOGS / "marengo-full.jsonl").read_text(encoding="utf-8").splitlines(), seat="umpire")
    store.close()


@pytest.fixture
def judged_in(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many processes each re-adjudication was judged by (one: this process alone)."""
    counts: list[int] = []
    real = verify_replay.segments

    def counted(caused: Any, jobs: int) -> list[range]:
        spans = real(caused, jobs)
        counts.append(min(jobs, len(spans)))
        return spans

    monkeypatch.setattr(verify_replay, "segments", counted)
    return counts


def test_a_stored_game_is_judged_by_three_workers_with_the_report_one_gives(
        stored: tuple[Arbitro, str], judged_in: list[int]) -> None:
    app, game = stored
    one = msgspec.json.encode(app.verify(game, jobs=1))
    three = msgspec.json.encode(app.verify(game, jobs=3))
    assert judged_in == [1, 3] and three == one and json.loads(one)["passed"]


def test_what_is_played_after_the_moment_is_not_judged(stored: tuple[Arbitro, str]) -> None:
    """The events are the moment's: a command appended after the load is in none of them (nor in the commands)."""
    app, game = stored
    loaded = verification.load_stored(app.store, game, streamed=True, spilled=True)
    events = len(loaded.events)
    app.annotate(game, "umpire", 1, "a note after the moment")  # a write after the load (the game itself is over)
    assert len(loaded.events) == events == app.game(game).head_seq
    assert verification.verify(loaded, jobs=3).passed


def test_spilled_rows_are_read_as_stored_and_a_childs_reads_leave_the_parents_offset() -> None:
    rows = [StoredEvent(seq, f'{{"seq":{seq}}}'.encode(), f"{seq:064x}") for seq in (1, 2, 4)]  # a gap kept
    spilled = SpilledEvents(rows)
    assert list(spilled) == rows and len(spilled) == 3 and spilled[-1] == rows[2] and spilled[1:] == rows[1:]
    with pytest.raises(IndexError):
        spilled[3]
    fd = spilled._file.fileno()
    os.lseek(fd, 0, os.SEEK_SET)
    child = multiprocessing.get_context("fork").Process(target=_read_last, args=(spilled, rows[-1]))
    child.start()
    child.join()
    assert child.exitcode == 0 and os.lseek(fd, 0, os.SEEK_CUR) == 0


def _read_last(spilled: SpilledEvents, last: StoredEvent) -> None:
    assert spilled[-1] == last


def test_the_command_line_verifies_a_stored_game_in_the_jobs_asked(run: Cli, judged_in: list[int]) -> None:
    game = run.json("import", str(LOGS / "marengo-full.jsonl"))["game"]
    one, three = run.json("verify", game, "--jobs", "1"), run.json("verify", game, "--jobs", "3")
    assert judged_in == [1, 3] and one == three and one["passed"]


def test_the_spill_reads_each_stored_row_once(stored: tuple[Arbitro, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The copy for the workers is the one read of the events from the store (reread-a): it was preceded by a whole
    second read, counting the rows for a StoredEvents that was then only iterated."""
    app, game = stored
    read: list[int] = []
    real = SQLiteStore.events

    def counted(self: SQLiteStore, *args: Any) -> Iterator[StoredEvent]:
        for row in real(self, *args):
            read.append(row.seq)
            yield row

    monkeypatch.setattr(SQLiteStore, "events", counted)
    loaded = verification.load_stored(app.store, game, spilled=True)
    assert sorted(read) == list(range(1, len(loaded.events) + 1)) and len(loaded.events) == app.game(game).head_seq
