"""A process killed (SIGKILL) in the middle of a stream of appends loses nothing it acknowledged.

A child process plays duels into a file database, one `Arbitro.submit` per command, and prints each
acknowledged command (and each created game) on stdout only after the call returned. The parent kills it
with SIGKILL after N acknowledgements, at varying moments of the next append, then checks that the database
opens, that every game's chain replays from #1 to its head without a break, and that every acknowledged
command is there with its events.

This is a process crash: the operating system's page cache survives it. Surviving power loss is what
synchronous=FULL is for (see test_store_contract: the store opens WAL + FULL by default); a test cannot
pull the plug.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.fold import Replayer

ROOT = Path(__file__).resolve().parents[2]
DUEL = "tests.foundation.duel:DuelRuleset"

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")


def child_main(path: str) -> None:
    """The appending process: plays duel after duel until killed."""
    registry.register("duel", DUEL)
    arbitro = Arbitro(SQLiteStore(path))
    number = 0
    game = arbitro.create("duel", "long")
    print(f"game {game}", flush=True)
    while True:
        awaiting = arbitro.awaiting(game)
        if not awaiting.seats:  # game over: start another
            game = arbitro.create("duel", "long")
            print(f"game {game}", flush=True)
            continue
        seat = awaiting.seats[0]
        options = arbitro.legal(game, seat)
        number += 1
        key = f"ack-{number}"
        result = arbitro.submit(game, seat, options[number % len(options)], key=key)
        print(f"ack {number} {game} {seat}/{key} {result.head}", flush=True)  # keys are per seat


def run_and_kill(path: Path, acks_before_kill: int, delay_s: float) -> tuple[list[str], list[tuple[str, str, int]]]:
    """Start the child, SIGKILL it after `acks_before_kill` acknowledgements (+ `delay_s`); return the
    games and the (game, key, head) acknowledgements it printed, including any still in the pipe."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    code = f"from tests.foundation.test_durability import child_main; child_main({str(path)!r})"
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=ROOT, env=env)
    games: list[str] = []
    acks: list[tuple[str, str, int]] = []

    def take(line: str) -> None:
        parts = line.split()
        if parts[:1] == ["game"]:
            games.append(parts[1])
        elif parts[:1] == ["ack"]:
            acks.append((parts[2], parts[3], int(parts[4])))

    try:
        assert child.stdout is not None
        deadline = time.monotonic() + 120  # a hang guard, not a speed test
        while len(acks) < acks_before_kill:
            line = child.stdout.readline()
            if not line:
                _, err = child.communicate(timeout=5)
                pytest.fail(f"the appending process stopped by itself:\n{err}")
            take(line)
            assert time.monotonic() < deadline, "the appending process is too slow"
        if delay_s:
            time.sleep(delay_s)
        child.send_signal(signal.SIGKILL)
        rest = child.stdout.read()  # through the same buffer readline used (communicate() would skip it)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    for line in rest.splitlines():
        take(line)
    assert child.returncode == -signal.SIGKILL
    return games, acks


# (acknowledgements before the kill, extra delay): right after an ack, and a little into the next append.
KILL_POINTS = [(1, 0.0), (9, 0.0005), (30, 0.0), (57, 0.001), (120, 0.0003), (200, 0.002)]


@pytest.mark.parametrize(("acks_before_kill", "delay_s"), KILL_POINTS)
def test_sigkill_mid_stream_keeps_every_acknowledged_append(tmp_path: Path, acks_before_kill: int, delay_s: float) -> None:
    path = tmp_path / "killed.db"
    games, acks = run_and_kill(path, acks_before_kill, delay_s)
    assert len(acks) >= acks_before_kill and games

    registry.register("duel", DUEL)
    store = SQLiteStore(path)  # opens (WAL recovery) after the kill
    try:
        assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        arbitro = Arbitro(store)
        fold = arbitro.adjudicator("duel").fold
        stored_games = {g.id: g for g in store.games()}
        assert set(games) <= set(stored_games), "an acknowledged game creation is missing"

        for game_id, game in stored_games.items():
            # The chain verifies from #1 to the head, with no snapshot to lean on.
            state = Replayer(fold, store, game_id).state_at(use_snapshots=False)
            assert state.core.seq == game.head_seq
            events = list(store.events(game_id))
            assert [e.seq for e in events] == list(range(1, game.head_seq + 1))
            assert events[-1].hash == game.head_hash
            commands = list(store.commands(game_id))
            assert [c.record.cmd for c in commands] == list(range(len(commands)))
            assert commands[-1].last_seq == game.head_seq  # no command without its events, nor the reverse

        # At most the one append in flight at the kill may have committed without being acknowledged.
        stored_commands = sum(len(list(store.commands(g))) - 1 for g in stored_games)  # less the creations
        assert len(acks) <= stored_commands <= len(acks) + 1
        assert len(games) <= len(stored_games) <= len(games) + 1

        for game_id, seat_key, head in acks:
            seat, key = seat_key.split("/")
            command = store.command_by_key(game_id, seat, key)
            assert command is not None, f"acknowledged command {key} of {game_id} is missing"
            assert command.record.cmd == head  # a seat is acknowledged its command's number (engine-rules §V.6)

        # Still a working database: the last game goes on (or a new one starts).
        last = games[-1]
        awaiting = arbitro.awaiting(last)
        if awaiting.seats:
            seat = awaiting.seats[0]
            before = store.game(last).head_seq
            arbitro.submit(last, seat, arbitro.legal(last, seat)[0])
            assert store.game(last).head_seq > before
        else:
            arbitro.create("duel", "standard")
    finally:
        store.close()

