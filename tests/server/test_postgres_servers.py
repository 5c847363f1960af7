"""Two servers on one PostgreSQL database, as two stateless processes behind a load balancer would be: a game made
through one is played through the other with the same tokens, and a seat's live stream on one server receives the
events appended through the other at once, woken by the store's change feed (LISTEN/NOTIFY): the stream's own
poll is pushed out of reach, so nothing else could deliver them in time. And two `arbitro serve` processes on one
database, a client on each submitting to one game against the head it read, leave no duplicate and no gap."""

from __future__ import annotations

import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as Hung
from pathlib import Path
from typing import Any

import httpx

from arbitro.adjudicator.service import Arbitro
from arbitro.events.postgres import PostgresStore
from tests.foundation.conftest import DUEL

from .conftest import FAST, HOST_TOKEN, Server, sse_messages
from .test_serve_command import first_answer, serving, stopped

REPO = Path(__file__).resolve().parents[2]
RACERS, SUBMITS_EACH = 2, 10  # a duel lasts 24 commands unless a knock-out ends it sooner (racers then stop)
RACE_SECONDS = 120  # a racer still short of its submits by then fails, saying how far it got


def test_a_stream_on_one_server_follows_appends_made_through_another(postgres_url: str) -> None:
    first = Server(Arbitro(PostgresStore(postgres_url, mode="create")), FAST, poll=300.0)
    second = Server(Arbitro(PostgresStore(postgres_url)), FAST, poll=300.0)
    try:
        game = first.new()
        second.tokens = first.tokens  # the tokens live in the database: either server knows them
        blue = httpx.Client(base_url=first.url, timeout=60,
                            headers={"Authorization": f"Bearer {first.tokens[game]['blue']}"})
        with blue.stream("GET", f"/games/{game}/stream") as response:
            messages = sse_messages(response.iter_lines())
            assert next(messages)["id"] == "0"  # the creation: a seat's stream is numbered by command (§V.6)
            sent = second.client("red", game).post(f"/games/{game}/commands", json={"command": {"type": "end_turn"}})
            assert sent.status_code == 200, sent.text
            seen = []
            while not seen or seen[-1]["event"] != "awaiting":
                seen.append(next(messages))
            assert [int(m["id"]) for m in seen if m["event"] == "event"] == [sent.json()["cmd"]]
            assert seen[-1]["data"]["seats"] == ["blue"]
        blue.close()
    finally:
        first.stop()
        second.stop()


def test_two_serve_processes_racing_submits_to_one_game_leave_no_duplicate_and_no_gap(postgres_url: str) -> None:
    """Two `arbitro serve --store postgresql://...` processes, a client on each: both submit to one game, each
    command against the head the client read (expected_seq); a loser gets 409, reads again and resubmits."""
    store = PostgresStore(postgres_url, mode="create")  # the schema first: the servers then only open it
    env = {"ARBITRO_RULESETS": DUEL, "PYTHONPATH": str(REPO), "ARBITRO_HOST_TOKEN": HOST_TOKEN}
    servers = [serving(postgres_url, "--commands-per-second", "10000", **env) for _ in range(RACERS)]
    try:
        made = first_answer(servers[0][0], lambda: httpx.post(
            f"{servers[0][1]}/games", json={"ruleset": "duel", "scenario": "standard", "seat_entropy": False},
            headers={"Authorization": f"Bearer {HOST_TOKEN}"}, timeout=30))
        assert made.status_code == 201, made.text
        game, tokens = made.json()["game"], made.json()["tokens"]
        first_answer(servers[1][0], lambda: httpx.get(f"{servers[1][1]}/rulesets", timeout=30))
        barrier, deadline = threading.Barrier(RACERS, timeout=60), time.monotonic() + RACE_SECONDS
        with ThreadPoolExecutor(RACERS) as pool:
            racing = [pool.submit(_racer, url, tokens, game, i, barrier, deadline)
                      for i, (_, url) in enumerate(servers)]
            try:
                outcomes = [r.result(timeout=RACE_SECONDS + 60) for r in racing]
            except Hung:
                raise AssertionError(f"a racer hung past {RACE_SECONDS + 60} s (every request has a timeout)")
    finally:
        errors = [_stopped_or_killed(process) for process, _ in servers]
    assert all(error is None for error in errors), errors
    played = sum(o["won"] for o in outcomes)
    over = any(o["over"] for o in outcomes)  # a knock-out ends a duel before the racers' 20 submits (duel §end)
    assert played == RACERS * SUBMITS_EACH or over, outcomes

    commands = list(store.commands(game))
    events = list(store.events(game))
    head = store.game(game)
    assert [c.record.cmd for c in commands] == list(range(played + 1))  # every win appended once: no duplicate, no gap
    assert [e.seq for e in events] == list(range(1, head.head_seq + 1))
    ranges = [(c.first_seq, c.last_seq) for c in commands if c.first_seq]
    assert ranges[0][0] == 1 and all(b[0] == a[1] + 1 for a, b in zip(ranges, ranges[1:])), ranges
    keys = [c.record.key for c in commands[1:]]
    assert sorted(keys) == sorted(k for o in outcomes for k in o["keys"]) and len(set(keys)) == len(keys)
    assert head.head_hash == events[-1].hash
    assert Arbitro(store).verify(game).passed
    store.close()


def _racer(url: str, tokens: dict[str, str], game: str, i: int, barrier: threading.Barrier,
           deadline: float) -> dict[str, Any]:
    """Submits SUBMITS_EACH commands through one server for whichever seat is awaited, each against the head it
    read; a 409 (another client's append came first) or an empty legal list (read across the other's append) is
    counted as stale and read again; a game over ends the race (the dice may knock a seat out early). Only 200 and
    409 are answers a racer expects."""
    clients = {seat: httpx.Client(base_url=url, timeout=20, headers={"Authorization": f"Bearer {token}"})
               for seat, token in tokens.items()}
    won, stale, keys, over = 0, 0, [], False
    try:
        barrier.wait()
        while won < SUBMITS_EACH:
            assert time.monotonic() < deadline, f"racer {i} ran out of time: {won} won, {stale} stale"
            status = clients["umpire"].get(f"/games/{game}").json()
            if status["awaiting"]["kind"] == "game_over":  # its dice may end the duel early: nothing left to race for
                over = True
                break
            seats = status["awaiting"]["seats"]  # the head, read as the seat: its last command's (engine-rules §V.6)
            head = clients[seats[0]].get(f"/games/{game}").json()["head"] if seats else None
            legal = clients[seats[0]].get(f"/games/{game}/legal").json() if seats else []
            key = f"racer{i}-{won}-{stale}"
            if legal:
                sent = clients[seats[0]].post(f"/games/{game}/commands",
                                              json={"command": legal[0], "expected_seq": head, "key": key})
                if sent.status_code == 200:
                    won, keys = won + 1, [*keys, key]
                    continue
                assert sent.status_code == 409, f"racer {i}: {sent.status_code} {sent.text}"
            stale += 1
    finally:
        for client in clients.values():
            client.close()
        barrier.abort()  # a racer that failed before the barrier releases the other at once
    return {"won": won, "stale": stale, "keys": keys, "over": over}


def _stopped_or_killed(process: subprocess.Popen[str]) -> str | None:
    """None if the server shut down gracefully on SIGTERM, else why not (it is killed)."""
    try:
        stopped(process)
    except AssertionError as e:
        return str(e)
    return None
