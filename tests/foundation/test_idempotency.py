"""Issue 9.11 and 9.12: idempotency keys are each seat's own and bound to one command; a retried or concurrent
duplicate gets the original result; every loser of a race on one expected head is told "stale" with the head.
Races are run with threads (one connection each, as a server's workers would hold), with processes, and
through the CLI as real processes, all on one database file."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import threading
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.errors import ArbitroError, KeyReused
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.events.store import StaleSequence, StoreError

from .conftest import DUEL, REPO, Cli, arbitro_exe, db_rows

RACERS = 8
ATTACK = {"type": "attack", "aim": "high"}


def log_of(db: Path, game: str) -> list[tuple[Any, ...]]:
    return db_rows(db, "SELECT seq, hash FROM events WHERE game=? ORDER BY seq", game) + \
        db_rows(db, "SELECT cmd, seat, key FROM commands WHERE game=? ORDER BY cmd", game)


def outcome(call: Any) -> Any:
    """What a racer was told: its result, or its error's type, code and message (never another exception)."""
    try:
        return msgspec.to_builtins(call())  # the result's JSON, as a client is sent it
    except (ArbitroError, StoreError) as e:
        return {"error": type(e).__name__, "code": e.code, "message": str(e)}


def _race(db: Path, game: str, calls: list[Any]) -> list[Any]:
    """Run each `call(app)` in its own thread with its own connection, released together."""
    apps = [Arbitro(SQLiteStore(db)) for _ in calls]
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def racer(i: int) -> None:
        barrier.wait()
        results[i] = outcome(lambda: calls[i](apps[i]))

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    for app in apps:
        app.store.close()  # type: ignore[attr-defined]
    return results


def assert_one_applied_and_the_rest_got_its_result(results: list[Any]) -> None:
    applied = [r for r in results if isinstance(r, dict) and r.get("duplicate") is False]
    duplicates = [r for r in results if isinstance(r, dict) and r.get("duplicate") is True]
    assert len(applied) == 1 and len(duplicates) == len(results) - 1, [r.get("error", r) for r in results]
    original = {**applied[0], "duplicate": True}
    assert all(d == original for d in duplicates), "every duplicate is told the original result"


# --- keys are per seat and bound to their command ----------------------------------------------
def test_another_seats_key_is_not_theirs_to_retry_nor_a_leak(run: Cli, db: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    red = run.submit("g", "red", ATTACK, "--key", "turn-1")
    blue = run.submit("g", "blue", {"type": "guard", "stance": "low"}, "--key", "turn-1")
    assert red["duplicate"] is False and blue["duplicate"] is False  # blue's own command, applied
    assert blue["cmd"] == red["cmd"] + 1 and any(e["type"] == "guard_chosen" for e in blue["events"])
    assert db_rows(db, "SELECT seat FROM commands WHERE game='g' AND key='turn-1' ORDER BY cmd") == [("red",), ("blue",)]


def test_a_different_command_under_a_used_key_is_refused_with_its_own_code(run: Cli, db: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    run.submit("g", "red", ATTACK, "--key", "k")
    before = log_of(db, "g")
    refused = run.submit("g", "red", {"type": "attack", "aim": "low"}, "--key", "k", code=2)
    assert refused["error"] == "input/key-reused"
    assert "already used idempotency key 'k' for command 1" in refused["message"] and '"aim": "high"' in refused["message"]
    text = run("submit", "g", "--as", "red", '{"type": "end_turn"}', "--key", "k", code=2).stderr
    assert "error (input/key-reused)" in text and "a different command needs a new key" in text
    garbage = run.submit("g", "red", {"type": "attack", "aim": 7}, "--key", "k", code=2)  # not even a command
    assert garbage["error"] == "input/key-reused"
    assert log_of(db, "g") == before


def test_a_retry_gets_the_original_result_even_after_the_game_moved_on(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    first = run.submit("g", "red", ATTACK, "--key", "a1", "--expect", "0")
    run.submit("g", "blue", {"type": "guard", "stance": "low"})
    again = run.submit("g", "red", {"aim": "high", "type": "attack"}, "--key", "a1", "--expect", "0")
    assert again == {**first, "duplicate": True}  # same events, head and awaited seat as first answered
    assert run.json("status", "g")["head"] > again["head"]


# --- concurrent duplicates ------------------------------------------------------------------------
def test_concurrent_duplicates_in_threads_all_get_the_original_result(db: Path) -> None:
    for round_ in range(4):  # the window is narrow: several rounds, each a fresh race
        game = f"g{round_}"
        Arbitro(SQLiteStore(db)).create("duel", "standard", game_id=game)
        results = _race(db, game, [lambda app, g=game: app.submit(g, "red", ATTACK, key="once")] * RACERS)
        assert_one_applied_and_the_rest_got_its_result(results)
        assert db_rows(db, "SELECT COUNT(*) FROM commands WHERE game=?", game) == [(2,)]


def _process_racer(db: str, game: str, barrier: Any, queue: Any) -> None:
    app = Arbitro(SQLiteStore(db))
    barrier.wait()
    queue.put(outcome(lambda: app.submit(game, "red", ATTACK, key="once", expected_seq=0)))


def test_concurrent_duplicates_in_processes_all_get_the_original_result(db: Path) -> None:
    context = multiprocessing.get_context("fork")
    for round_ in range(2):
        game = f"p{round_}"
        Arbitro(SQLiteStore(db)).create("duel", "standard", game_id=game)
        barrier, queue = context.Barrier(RACERS), context.Queue()
        workers = [context.Process(target=_process_racer, args=(str(db), game, barrier, queue)) for _ in range(RACERS)]
        for w in workers:
            w.start()
        results = [queue.get(timeout=60) for _ in workers]
        for w in workers:
            w.join(30)
        assert_one_applied_and_the_rest_got_its_result(results)


def test_concurrent_duplicates_through_the_cli_as_processes(tmp_path: Path) -> None:
    exe = arbitro_exe()
    env = {"ARBITRO_RULESETS": DUEL, "PYTHONPATH": str(REPO), "ARBITRO_DB": str(tmp_path / "club.db"),
           "PATH": "/usr/bin:/bin"}
    subprocess.run([*exe, "new", "duel", "standard", "--id", "g", "--no-seat-entropy"], env=env, check=True, capture_output=True, timeout=60)
    command = [*exe, "submit", "g", "--as", "red", json.dumps(ATTACK), "--key", "click", "--expect", "0", "--json"]
    procs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(RACERS)]
    done = [(p.communicate(timeout=120), p.returncode) for p in procs]
    assert all(code == 0 and "Traceback" not in err for (_, err), code in done), done
    assert_one_applied_and_the_rest_got_its_result([json.loads(out) for (out, _), _ in done])


# --- racing on one expected head --------------------------------------------------------------------
COMMANDS = [ATTACK, {"type": "attack", "aim": "low"}, {"type": "end_turn"}, {"type": "play_card"}]


def test_every_loser_of_a_race_on_one_expected_head_is_told_stale_with_the_head(db: Path) -> None:
    for round_ in range(4):
        game = f"r{round_}"
        Arbitro(SQLiteStore(db)).create("duel", "standard", game_id=game)
        calls = [lambda app, g=game, c=COMMANDS[i % len(COMMANDS)]: app.submit(g, "red", c, expected_seq=0)
                 for i in range(RACERS)]
        results = _race(db, game, calls)
        won = [r for r in results if "error" not in r]
        lost = [r for r in results if "error" in r]
        assert len(won) == 1, results
        assert {(r["error"], r["code"]) for r in lost} == {("StaleSequence", "store/stale-sequence")}, lost
        assert all("expected the game at command #0 but its head is command #1" in r["message"] for r in lost)


def test_a_stale_head_is_refused_before_the_command_is_judged(app: Arbitro) -> None:
    """A command that is illegal now but was legal at the head it names is refused as stale, not illegal."""
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", ATTACK)  # now blue must guard: red's end_turn is illegal
    with pytest.raises(StaleSequence) as stale:
        app.submit("g", "red", {"type": "end_turn"}, expected_seq=0)
    assert stale.value.head == 1  # red's numbers: command #1 (engine-rules §V.6)


def test_a_key_reused_error_is_the_library_type(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", ATTACK, key="x")
    with pytest.raises(KeyReused):
        app.submit("g", "red", {"type": "end_turn"}, key="x")


# --- the same races, interleaved deterministically ---------------------------------------------------
class Interleaved(SQLiteStore):
    """A store that lets another writer commit right after this one's first call to `method` returns: the
    worst moment, which the threads above hit only by chance."""

    def __init__(self, path: Path, method: str, other_writer: Any) -> None:
        super().__init__(path)
        self._armed = True
        original = getattr(self, method)

        def hooked(*args: Any, **kwargs: Any) -> Any:
            answer = original(*args, **kwargs)
            if self._armed:
                self._armed = False
                other_writer()
            return answer

        setattr(self, method, hooked)


def test_a_loser_that_read_the_head_just_before_the_winner_committed_is_told_stale(db: Path) -> None:
    winner = Arbitro(SQLiteStore(db))
    winner.create("duel", "standard", game_id="g")
    loser = Arbitro(Interleaved(db, "game", lambda: winner.submit("g", "red", ATTACK, expected_seq=0)))
    with pytest.raises(StaleSequence) as stale:  # not NotYourDecision from judging it after the winner's attack
        loser.submit("g", "red", {"type": "end_turn"}, expected_seq=0)
    assert stale.value.head == 1 and db_rows(db, "SELECT COUNT(*) FROM commands WHERE game='g'") == [(2,)]


@pytest.mark.parametrize("expect", [None, 0])
def test_a_duplicate_whose_key_lookup_just_missed_the_first_gets_its_result(db: Path, expect: int | None) -> None:
    first = Arbitro(SQLiteStore(db))
    first.create("duel", "standard", game_id="g")
    answers: list[Any] = []
    retry = Arbitro(Interleaved(db, "command_by_key",
                                lambda: answers.append(first.submit("g", "red", ATTACK, key="k", expected_seq=expect))))
    again = retry.submit("g", "red", ATTACK, key="k", expected_seq=expect)
    assert again == msgspec.structs.replace(answers[0], duplicate=True)
    assert db_rows(db, "SELECT COUNT(*) FROM commands WHERE game='g'") == [(2,)]
