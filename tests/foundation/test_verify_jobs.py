"""Re-adjudication in segments judged at once by forked workers (adjudicator/verify_replay.py, issue 15): the report
is the same, byte for byte, for any number of jobs, on every shipped log and on a forged one; a forgery in the first
segment and in the last is caught with the same check and detail as one process finds it; and a forked worker reads
a file through a handle of its own."""

from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import verify as verification
from arbitro.adjudicator import verify_replay
from arbitro.adjudicator.errors import WorkerLost
from arbitro.adjudicator.exchange import Loaded, read_lines
from arbitro.adjudicator.exchange_file import read_file
from arbitro.adjudicator.service import Arbitro
from arbitro.adjudicator.verify_replay import CHUNK_SHARE, COMMAND_WEIGHT, LEAST_CHUNK, LEAST_COMMANDS, segments
from arbitro.events.codec import canonical, sha256_hex
from arbitro.events.records import StoredEvent
from arbitro.events.sqlite import SQLiteStore

from .conftest import Cli

LOGS = Path(__file__).resolve().parents[2] / "logs"
SHIPPED = sorted(p.name for p in LOGS.glob("*.jsonl"))


def loaded_log(name: str) -> Loaded:
    return read_lines((LOGS / name).read_text(encoding="utf-8").splitlines(), name)


def caused(loaded: Loaded) -> list[int]:
    """The events each command caused, by its number, as verify's chain check counts them (Scan.caused)."""
    return [last - first + 1 if first else 0 for _record, _digest, first, last in loaded.commands]


def verify_segments(loaded: Loaded, jobs: int) -> list[range]:
    """The chunks verify judges the log in with `jobs` processes."""
    return segments(caused(loaded), jobs)


def report_bytes(loaded: Loaded, jobs: int) -> bytes:
    return msgspec.json.encode(verification.verify(loaded, jobs=jobs))


@pytest.mark.parametrize("name", SHIPPED)
def test_the_report_is_the_same_for_one_job_and_three(name: str) -> None:
    loaded = loaded_log(name)
    assert len(verify_segments(loaded, 3)) >= 3, "the log is long enough to be judged in three processes"
    one = report_bytes(loaded, 1)
    assert json.loads(one)["passed"]
    assert report_bytes(loaded_log(name), 3) == one


def forged(loaded: Loaded, seqs: list[int]) -> Loaded:
    """The log with the `rule` of each event numbered in `seqs` changed, every later event linked again and re-hashed
    and the head moved, as a forger would: the chain holds, only re-adjudication can tell."""
    prev = None
    for i, stored in enumerate(loaded.events):
        body = json.loads(stored.body)
        if stored.seq in seqs:
            body["event"]["rule"] = "forged §0"
        if prev is not None:
            body["prev"] = prev
        if stored.seq in seqs or prev is not None:
            data = canonical(body)
            loaded.events[i] = StoredEvent(stored.seq, data, sha256_hex(data))
            prev = sha256_hex(data)
    loaded.game = msgspec.structs.replace(loaded.game, head_hash=prev)
    return loaded


def ruled(loaded: Loaded, span: range) -> int:
    """The first event with a `rule` caused by a command in `span`."""
    for number in span:
        _record, _digest, first, last = loaded.commands[number]
        for stored in loaded.events[first - 1 : last] if first else []:
            if "rule" in json.loads(stored.body)["event"]:
                return stored.seq
    raise AssertionError(f"no event with a rule in commands {span}")


@pytest.fixture(scope="module")
def campotenese() -> tuple[str, list[range]]:
    name = "arrivano-campotenese.jsonl"
    return name, verify_segments(loaded_log(name), 3)


@pytest.mark.parametrize("where", ["first", "last", "both"])
def test_a_forged_event_is_caught_in_any_segment_as_one_process_catches_it(
        campotenese: tuple[str, list[range]], where: str) -> None:
    name, spans = campotenese
    log = loaded_log(name)
    first, last = ruled(log, spans[0][10:]), ruled(log, spans[-1][-40:])
    seqs = {"first": [first], "last": [last], "both": [first, last]}[where]
    one = verification.verify(forged(loaded_log(name), seqs), jobs=1)
    three = verification.verify(forged(loaded_log(name), seqs), jobs=3)
    assert msgspec.json.encode(three) == msgspec.json.encode(one)
    assert not three.passed and three.divergence is not None
    assert three.divergence.seq == seqs[0], "the first forged event, wherever the other is"
    assert three.divergence.expected["rule"] == "forged §0"
    failed = [c for c in three.checks if c.status == "failed"]
    assert [c.name for c in failed] == ["re-adjudication"]
    assert failed[0].detail.endswith(f"gives different events from #{seqs[0]}")


def test_segments_cut_the_commands_in_order_into_chunks_each_a_share_of_the_weight_left() -> None:
    caused = [2] * 600 + [0] * 200  # 600 commands of two events each, then 200 causing none
    spans = segments(caused, 2)
    assert [n for span in spans for n in span] == list(range(len(caused)))
    assert all(len(span) >= LEAST_CHUNK for span in spans), "none shorter than LEAST_CHUNK"
    weights = [COMMAND_WEIGHT + events for events in caused]
    left = sum(weights)
    for span in spans[:-1]:
        weight = sum(weights[n] for n in span)
        share = left / (CHUNK_SHARE * 2)
        assert abs(weight - share) <= COMMAND_WEIGHT + 2 or len(span) == LEAST_CHUNK, "its share, give or take one"
        left -= weight
    assert len(spans[0]) > len(spans[-2]), "long chunks first, short ones last"
    assert segments(caused, 1) == [range(0, 800)]
    assert segments(caused[: 2 * LEAST_COMMANDS - 1], 8) == [range(0, 2 * LEAST_COMMANDS - 1)]


def test_every_chunk_is_judged_once_by_whichever_process_claims_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The processes claim chunks in log order as each finishes one (issue 15: a split fixed beforehand cannot know
    what each command costs): every chunk is judged once, by this process or a worker."""
    sent = multiprocessing.get_context("fork").SimpleQueue()
    real = verify_replay._judge

    def noted(work: Any, span: range, progress: Any = None, place: Any = None) -> Any:
        sent.put((span.start, os.getpid()))
        return real(work, span, progress, place)

    monkeypatch.setattr(verify_replay, "_judge", noted)
    loaded = loaded_log("arrivano-campotenese.jsonl")
    assert verification.verify(loaded, jobs=3).passed
    judged = []
    while not sent.empty():
        judged.append(sent.get())
    assert sorted(start for start, _pid in judged) == [span.start for span in verify_segments(loaded, 3)]


def test_the_workers_are_forked_before_the_commands_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers judge while the verifying process checks the commands, salts and build (issue 15): they are forked
    before those checks, not after them (the critical path was their sum)."""
    order: list[str] = []
    real_forked, real_check = verify_replay._forked, verification.check_commands

    def forked(*args: Any, **kwargs: Any) -> Any:
        order.append("forked")
        return real_forked(*args, **kwargs)

    def checked(*args: Any, **kwargs: Any) -> Any:
        order.append("commands checked")
        return real_check(*args, **kwargs)

    monkeypatch.setattr(verify_replay, "_forked", forked)
    monkeypatch.setattr(verification, "check_commands", checked)
    assert verification.verify(loaded_log("marengo-full.jsonl"), jobs=3).passed
    assert order == ["forked", "commands checked"]


def test_a_failed_command_check_ends_the_workers_already_judging(monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers begin before the command check: where it fails, its report is the one process's and the workers
    are ended, their verdicts never read."""
    loaded = loaded_log("marengo-full.jsonl")
    record, _digest, first, last = loaded.commands[5]
    loaded.commands[5] = (record, "0" * 64, first, last)  # type: ignore[index]
    workers: list[Any] = []
    real_forked = verify_replay._forked

    def forked(*args: Any, **kwargs: Any) -> Any:
        workers.extend(real_forked(*args, **kwargs))
        return workers

    monkeypatch.setattr(verify_replay, "_forked", forked)
    one = msgspec.json.encode(verification.verify(loaded_log_edited(5), jobs=1))
    assert msgspec.json.encode(verification.verify(loaded, jobs=3)) == one
    assert len(workers) == 2 and all(not worker.is_alive() for _reading, worker in workers)
    assert b"was edited" in one


def loaded_log_edited(number: int) -> Loaded:
    loaded = loaded_log("marengo-full.jsonl")
    record, _digest, first, last = loaded.commands[number]
    loaded.commands[number] = (record, "0" * 64, first, last)  # type: ignore[index]
    return loaded


def test_a_file_is_verified_in_segments_each_worker_reading_it_through_its_own_handle(tmp_path: Path) -> None:
    name = "marengo-full.jsonl"
    one = report_bytes(read_file(LOGS / name), 1)
    assert report_bytes(read_file(LOGS / name), 3) == one
    loaded = read_file(LOGS / name)
    fd = loaded.events._lines.handle.fileno()  # type: ignore[attr-defined]
    os.lseek(fd, 0, os.SEEK_SET)
    child = multiprocessing.get_context("fork").Process(target=_read_last, args=(loaded,))
    child.start()
    child.join()
    assert child.exitcode == 0
    assert os.lseek(fd, 0, os.SEEK_CUR) == 0, "the child's reads moved its parent's offset"


def _read_last(loaded: Loaded) -> None:
    assert loaded.events[-1].seq == len(loaded.events)


def test_a_worker_killed_before_its_verdict_is_said_not_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that dies (the kernel's out-of-memory killer) sends nothing: verify says so and ends the others, where a
    pool of processes would wait for the lost segment for ever."""
    real, parent = verify_replay._judge, os.getpid()

    def killed(work: Any, span: range, progress: Any = None, place: Any = None) -> Any:
        if os.getpid() != parent:
            os._exit(9)
        return real(work, span, progress, place)

    monkeypatch.setattr(verify_replay, "_judge", killed)
    with pytest.raises(WorkerLost, match=r"commands \d+-\d+ ended without its verdict \(exit status 9"):
        verification.verify(loaded_log("marengo-full.jsonl"), jobs=3)


def test_a_bug_in_a_worker_is_raised_with_its_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    real, parent = verify_replay._judge, os.getpid()

    def broken(work: Any, span: range, progress: Any = None, place: Any = None) -> Any:
        return 1 / 0 if os.getpid() != parent else real(work, span, progress, place)  # a worker's bug

    monkeypatch.setattr(verify_replay, "_judge", broken)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        verification.verify(loaded_log("marengo-full.jsonl"), jobs=3)


def test_a_game_read_from_a_database_is_judged_in_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A forked child must not use its parent's database connection: a stored game's events (`StoredEvents`) are
    judged here whatever the jobs asked, with the same report."""
    store = SQLiteStore(tmp_path / "stored.db")
    try:
        app = Arbitro(store)
        gid = app.import_lines((LOGS / "marengo-full.jsonl").read_text(encoding="utf-8").splitlines(), seat="umpire")
        one = msgspec.json.encode(verification.verify(verification.load_stored(store, gid, streamed=True), jobs=1))
        monkeypatch.setattr(multiprocessing.get_context("fork"), "Process", None)  # any fork fails
        loaded = verification.load_stored(store, gid, streamed=True)
        assert len(verify_segments(loaded, 3)) >= 3
        assert msgspec.json.encode(verification.verify(loaded, jobs=3)) == one and json.loads(one)["passed"]
    finally:
        store.close()


def test_the_command_line_verifies_in_as_many_jobs_as_asked_and_refuses_none(run: Cli) -> None:
    path = str(LOGS / "marengo-full.jsonl")
    one = run("verify", path, "--json", "--jobs", "1").output
    assert run("verify", path, "--json", "--jobs", "3").output == one and json.loads(one)["passed"]
    assert "--jobs" in run("verify", path, "--jobs", "0", code=2).output
