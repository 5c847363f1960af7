#!/usr/bin/env python
"""arbitro's foundation benchmark: what the event store, replay and adjudication cost on this machine.

    .venv/bin/python bench/bench.py            # full sizes (a 100,000-event game; about a minute)
    .venv/bin/python bench/bench.py --quick    # small sizes (the smoke test runs this)
    .venv/bin/python bench/bench.py --json     # one JSON document on stdout (progress goes to stderr)

Four measurements, each against a target:
  (a) durable appends per second: one command and its events per transaction through SQLiteStore.append
      (WAL, synchronous=FULL), interleaved in chunks with a bare sqlite3 loop that commits the same rows
      into the same schema (WAL, synchronous=FULL, writes only). Target: >= 0.7x the bare loop.
  (b) replay: events per second from the store into state, end to end (read, hash check, decode, chain
      check, fold), on the long game, without snapshots. Target: >= 100,000 events/s.
  (c) adjudication latency p50/p99: Adjudicator.decide on a loaded state, and the whole Arbitro.submit
      (load, decide, durable append, snapshot, serve), on the long game and on a short one. No target.
  (d) time to state at seeded random positions of the long game, with the engine's snapshots
      (Arbitro.state_at). Target: < 25 ms at every position tried (median and max reported).

The game is `longduel` (bench/longduel.py): the foundation's test ruleset made endless and given a
wargame-sized state. Commands are chosen among the legal ones by a seeded generator (measurement only;
the game's own dice come from its committed seed as always).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # `bench.longduel` and `tests.foundation.duel`

import msgspec  # noqa: E402

from arbitro.adjudicator import registry  # noqa: E402
from arbitro.adjudicator.engine import CHECKPOINT_EVERY, Adjudicated, Adjudicator  # noqa: E402
from arbitro.adjudicator.service import Arbitro, now  # noqa: E402
from arbitro.events.codec import sha256_hex  # noqa: E402
from arbitro.events.random import command_salt  # noqa: E402
from arbitro.events.records import GENESIS, CommandRecord, GameRecord, StoredEvent, seal_events  # noqa: E402
from arbitro.events.sqlite import SQLiteStore  # noqa: E402
from arbitro.events.store import Snapshot, Store  # noqa: E402
from arbitro.projections.fold import Replayer  # noqa: E402
from arbitro.projections.game import GameState, awaited, state_hash  # noqa: E402

RULESET, SCENARIO = "longduel", "endless"
registry.register(RULESET, "bench.longduel:LongDuelRuleset")

TARGET_APPEND_RATIO = 0.7
TARGET_REPLAY_EPS = 100_000
TARGET_STATE_AT_MS = 25.0


@dataclass(frozen=True)
class Sizes:
    log_events: int  # the long game's length
    appends: int  # durable appends timed, for each of the store and the bare loop
    chunk: int  # appends per interleaved chunk
    decides: int
    submits: int
    positions: int
    repeats: int  # replay passes (the median is reported)


FULL = Sizes(log_events=100_000, appends=1_000, chunk=25, decides=2_000, submits=100, positions=50, repeats=3)
QUICK = Sizes(log_events=3_000, appends=60, chunk=10, decides=100, submits=10, positions=8, repeats=1)


def progress(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100)."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


# --- a player that adjudicates in memory -----------------------------------------------------------
@dataclass
class Prepared:
    """One command adjudicated and sealed, ready to be appended as one transaction."""

    expected_seq: int
    record: CommandRecord
    events: list[StoredEvent]
    checkpoints: list[tuple[int, bytes]]


class Player:
    """Plays `longduel` by adjudicating each command against the state it holds (Adjudicator.decide and
    events.records.seal_events, as Arbitro.submit does) without reading the store back: the fast way to make a
    long, real log. Commands are picked among the legal ones by a seeded generator."""

    def __init__(self, arbitro: Arbitro, game_id: str, seed: int) -> None:
        self.arbitro, self.game_id = arbitro, game_id
        self.adj: Adjudicator = arbitro.adjudicator(RULESET)
        self.record: GameRecord = arbitro.game(game_id)
        self.context = arbitro.context(self.record)
        self.supply = arbitro.supply(self.record)
        self.history = Replayer(self.adj.fold, arbitro.store, game_id)  # consulted by undo only
        self.state: GameState[Any] = self.history.state_at()
        self.head_seq, self.head_hash = self.record.head_seq, self.record.head_hash
        self.cmd = max((c.record.cmd for c in arbitro.store.commands(game_id)), default=0)
        self.rng = random.Random(seed)

    def awaited_seat(self, state: GameState[Any]) -> str:
        top = awaited(state.core)  # a decision on the stack first (arbitro §S.3), then the ruleset's older pending
        if top is not None:
            return top.seats[0]
        ruleset = self.adj.ruleset
        pending = ruleset.pending(state.rules)
        return pending.seat if pending is not None else ruleset.active_seats(state.rules)[0]

    def choose(self, state: GameState[Any]) -> tuple[str, dict[str, Any]]:
        seat = self.awaited_seat(state)
        return seat, self.rng.choice(self.adj.legal(state, seat))

    def decide(self, seat: str, command: dict[str, Any]) -> Adjudicated:
        return self.adj.decide(self.state, seat, command, self.context, self.history, self.supply)

    def next(self) -> Prepared:
        seat, command = self.choose(self.state)
        done = self.decide(seat, command)
        self.cmd += 1
        key = self.record.salting_key(not self.context.salted_by_seed)
        record = CommandRecord(game=self.game_id, cmd=self.cmd, seat=seat, key=f"bench-{self.cmd}",
                               salt=command_salt(key, self.game_id, self.cmd), command=done.command, expected_seq=self.head_seq, received_at=now())
        _, events = seal_events(self.record.id, key, record, done.events, first_seq=self.head_seq + 1,
                                prev=self.head_hash)
        prepared = Prepared(self.head_seq, record, events, done.checkpoints)
        self.state = done.state
        self.head_seq, self.head_hash = events[-1].seq, events[-1].hash
        return prepared


def append_prepared(store: Store, game_id: str, p: Prepared) -> None:
    store.append(game_id, p.expected_seq, p.record, p.events)
    for seq, data in p.checkpoints:  # as Arbitro.submit does after the append
        store.put_snapshot(game_id, Snapshot(seq, data, sha256_hex(data)))


# --- (a) durable appends ---------------------------------------------------------------------------
class BareLoop:
    """The floor: the same rows committed into the same schema by plain sqlite3, with no checks."""

    def __init__(self, path: Path, schema_from: sqlite3.Connection, game_row: tuple[Any, ...]) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        for (sql,) in schema_from.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid"):
            self.conn.execute(sql)
        self.conn.execute(f"INSERT INTO games VALUES ({','.join('?' * len(game_row))})", game_row)

    @staticmethod
    def rows(game_id: str, p: Prepared) -> tuple[tuple[Any, ...], list[tuple[Any, ...]], tuple[Any, ...]]:
        """Precomputed outside the timing: the bare loop pays for nothing but SQLite."""
        body = p.record.body()
        command = (game_id, p.record.cmd, p.record.seat, p.record.key, body.decode(), sha256_hex(body),
                   p.events[0].seq, p.events[-1].seq)
        events = [(game_id, e.seq, p.record.cmd, msgspec.json.decode(e.body)["event"]["type"], e.body.decode(), e.hash)
                  for e in p.events]
        head = (p.events[-1].seq, p.events[-1].hash, game_id)
        return command, events, head

    def commit(self, rows: tuple[tuple[Any, ...], list[tuple[Any, ...]], tuple[Any, ...]]) -> None:
        command, events, head = rows
        c = self.conn
        c.execute("BEGIN IMMEDIATE")
        c.execute("INSERT INTO commands VALUES (?,?,?,?,?,?,?,?)", command)
        c.executemany("INSERT INTO events VALUES (?,?,?,?,?,?)", events)
        c.execute("UPDATE games SET head_seq=?, head_hash=? WHERE id=?", head)
        c.execute("COMMIT")


def fsync_cost(workdir: Path, count: int) -> float:
    """Median milliseconds of one small write + fsync in `workdir`: what a durable commit cannot beat."""
    path = workdir / "fsync-probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    times = []
    try:
        for _ in range(count):
            t = time.perf_counter()
            os.write(fd, b"x" * 512)
            os.fsync(fd)
            times.append(time.perf_counter() - t)
    finally:
        os.close(fd)
        path.unlink()
    return statistics.median(times) * 1e3


def measure_appends(workdir: Path, sizes: Sizes) -> dict[str, Any]:
    progress(f"(a) adjudicating {sizes.appends} commands in memory for the append test")
    source = Arbitro(SQLiteStore(":memory:"))
    game_id = source.create(RULESET, SCENARIO)
    player = Player(source, game_id, seed=1)
    prepared = [player.next() for _ in range(sizes.appends)]
    created_game = source.game(game_id)
    created_command = next(source.store.commands(game_id)).record
    created_events = list(source.store.events(game_id))

    store = SQLiteStore(workdir / "appends-store.db", durable=True)
    start = msgspec.structs.replace(created_game, head_seq=0, head_hash=GENESIS)
    store.create_game(start, created_command, created_events)
    game_row = store.conn.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
    bare = BareLoop(workdir / "appends-bare.db", store.conn, game_row)
    bare_rows = [BareLoop.rows(game_id, p) for p in prepared]
    journal = store.conn.execute("PRAGMA journal_mode").fetchone()[0]
    sync = store.conn.execute("PRAGMA synchronous").fetchone()[0]

    store_times: list[float] = []
    bare_times: list[float] = []

    def run_store(chunk: range) -> None:
        for i in chunk:
            t = time.perf_counter()
            store.append(game_id, prepared[i].expected_seq, prepared[i].record, prepared[i].events)
            store_times.append(time.perf_counter() - t)

    def run_bare(chunk: range) -> None:
        for i in chunk:
            t = time.perf_counter()
            bare.commit(bare_rows[i])
            bare_times.append(time.perf_counter() - t)

    progress(f"(a) {sizes.appends} durable appends each, store and bare loop interleaved in chunks of {sizes.chunk}")
    for n, first in enumerate(range(0, sizes.appends, sizes.chunk)):
        chunk = range(first, min(first + sizes.chunk, sizes.appends))
        order: tuple[Callable[[range], None], ...] = (run_store, run_bare) if n % 2 == 0 else (run_bare, run_store)
        for run in order:
            run(chunk)
    store.close()
    bare.conn.close()
    store_rate, bare_rate = len(store_times) / sum(store_times), len(bare_times) / sum(bare_times)
    ratio = store_rate / bare_rate
    events_per_command = sum(len(p.events) for p in prepared) / len(prepared)
    return {
        "journal_mode": journal, "synchronous": {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(sync, sync),
        "appends": sizes.appends, "events_per_append": round(events_per_command, 2),
        "store_appends_per_s": round(store_rate, 1), "bare_appends_per_s": round(bare_rate, 1),
        "ratio": round(ratio, 3), "fsync_ms": round(fsync_cost(workdir, max(20, sizes.appends // 5)), 3),
        "store_p50_ms": round(percentile(store_times, 50) * 1e3, 3),
        "bare_p50_ms": round(percentile(bare_times, 50) * 1e3, 3),
        "target": f">= {TARGET_APPEND_RATIO}x the bare loop", "met": ratio >= TARGET_APPEND_RATIO,
    }


# --- the long game -----------------------------------------------------------------------------------
def build_long_game(path: Path, sizes: Sizes) -> tuple[str, dict[str, Any]]:
    """A game of at least `log_events` events, appended command by command through SQLiteStore.append
    (with the engine's snapshots) on a store opened durable=False: setup only, nothing here is timed."""
    started = time.perf_counter()
    arbitro = Arbitro(SQLiteStore(path, durable=False))
    game_id = arbitro.create(RULESET, SCENARIO)
    player = Player(arbitro, game_id, seed=2)
    commands = 0
    step = max(1, sizes.log_events // 10)
    mark = step
    while player.head_seq < sizes.log_events:
        append_prepared(arbitro.store, game_id, player.next())
        commands += 1
        if player.head_seq >= mark:
            progress(f"setup: long game at #{player.head_seq} of {sizes.log_events}")
            mark += step
    snapshots = arbitro.store.conn.execute("SELECT COUNT(*) FROM snapshots WHERE game=?", (game_id,)).fetchone()[0]  # type: ignore[attr-defined]
    arbitro.store.close()  # type: ignore[attr-defined]
    return game_id, {
        "how": "commands adjudicated in memory (Adjudicator.decide on the held state, sealed by "
               "events.records.seal_events as Arbitro.submit seals them) and appended one transaction each "
               "through SQLiteStore.append, with the engine's snapshots, on a store opened durable=False "
               "(synchronous=NORMAL); setup only, not timed",
        "events": player.head_seq, "commands": commands, "snapshots": snapshots,
        "checkpoint_every": CHECKPOINT_EVERY, "seconds": round(time.perf_counter() - started, 2),
    }


# --- (b) replay ----------------------------------------------------------------------------------------
def measure_replay(arbitro: Arbitro, game_id: str, sizes: Sizes) -> dict[str, Any]:
    store, fold = arbitro.store, arbitro.adjudicator(RULESET).fold
    head = arbitro.game(game_id).head_seq

    def timed(label: str, run: Callable[[], object]) -> float:
        times = []
        for _ in range(sizes.repeats):
            t = time.perf_counter()
            run()
            times.append(time.perf_counter() - t)
        rate = head / statistics.median(times)
        progress(f"(b) {label}: {rate:,.0f} events/s")
        return rate

    def read() -> None:
        for _ in store.events(game_id):
            pass

    def read_hash() -> None:
        for e in store.events(game_id):
            if sha256_hex(e.body) != e.hash:
                raise AssertionError(e.seq)

    def decode_chain() -> None:
        for _ in Replayer(fold, store, game_id).bodies(1, head):
            pass

    final: list[GameState[Any]] = []

    def full() -> None:
        final.append(Replayer(fold, store, game_id).state_at(head, use_snapshots=False))

    progress(f"(b) replaying {head:,} events from the store ({sizes.repeats} pass(es) per stage)")
    stages = {
        "read": timed("read rows", read),
        "read_hash": timed("read + sha256 check", read_hash),
        "read_decode_chain": timed("read + hash + decode + chain check", decode_chain),
    }
    rate = timed("end to end (read, hash, decode, chain, fold)", full)
    expected = Replayer(fold, store, game_id).state_at(head)  # from the newest snapshot
    return {
        "events": head, "events_per_s": round(rate), "stages_events_per_s": {k: round(v) for k, v in stages.items()},
        "same_state_as_snapshot_path": state_hash(final[-1]) == state_hash(expected),
        "target": f">= {TARGET_REPLAY_EPS:,} events/s", "met": rate >= TARGET_REPLAY_EPS,
    }


# --- (c) adjudication latency ----------------------------------------------------------------------------
def latency_summary(times: list[float]) -> dict[str, float]:
    ms = [t * 1e3 for t in times]
    return {"n": len(ms), "p50_ms": round(percentile(ms, 50), 3), "p99_ms": round(percentile(ms, 99), 3),
            "max_ms": round(max(ms), 3)}


def measure_decide(arbitro: Arbitro, game_id: str, sizes: Sizes) -> dict[str, Any]:
    progress(f"(c) timing {sizes.decides} Adjudicator.decide calls at the head of the long game")
    player = Player(arbitro, game_id, seed=3)
    times = []
    for _ in range(sizes.decides):
        seat, command = player.choose(player.state)
        t = time.perf_counter()
        done = player.decide(seat, command)
        times.append(time.perf_counter() - t)
        player.state = done.state  # walk on in memory; nothing is appended
    return latency_summary(times)


def rate_line(label: str, summary: dict[str, Any], width: int) -> str:
    """One report line of a submit measurement: submits a second, p50 and p99."""
    return (f"  {label:<{width}} {summary['per_s']:>8.1f} submits/s   p50 {summary['p50_ms']:>7.2f} ms   "
            f"p99 {summary['p99_ms']:>7.2f} ms")


def measure_submit(arbitro: Arbitro, game_id: str, count: int, label: str) -> dict[str, Any]:
    progress(f"(c) timing {count} Arbitro.submit calls on {label} (durable store)")
    player = Player(arbitro, game_id, seed=4)
    times = []
    for _ in range(count):
        seat, command = player.choose(arbitro.state_at(game_id))
        t = time.perf_counter()
        arbitro.submit(game_id, seat, command)
        times.append(time.perf_counter() - t)
    summary = latency_summary(times)
    summary["per_s"] = round(count / sum(times), 1)  # one caller submitting back to back
    summary["head"] = arbitro.game(game_id).head_seq
    return summary


# --- (d) state at a position --------------------------------------------------------------------------------
def measure_state_at(arbitro: Arbitro, game_id: str, sizes: Sizes) -> dict[str, Any]:
    head = arbitro.game(game_id).head_seq
    rng = random.Random(5)
    positions = [rng.randint(1, head) for _ in range(sizes.positions)]
    progress(f"(d) state at {len(positions)} seeded random positions of {head:,} events (Arbitro.state_at)")
    arbitro.state_at(game_id, positions[0])  # warm the page cache and the decoders
    times: list[tuple[float, int]] = []
    for seq in positions:
        t = time.perf_counter()
        arbitro.state_at(game_id, seq)
        times.append((time.perf_counter() - t, seq))
    ms = [t * 1e3 for t, _ in times]
    worst_time, worst_seq = max(times)
    fold = arbitro.adjudicator(RULESET).fold
    checked = sorted(positions)[: 2]
    agree = all(
        state_hash(arbitro.state_at(game_id, seq)) == state_hash(Replayer(fold, arbitro.store, game_id).state_at(seq, use_snapshots=False))
        for seq in checked
    )
    return {
        "events": head, "positions": len(positions), "median_ms": round(statistics.median(ms), 3),
        "max_ms": round(worst_time * 1e3, 3), "max_at_seq": worst_seq,
        "same_state_as_full_replay_at": checked if agree else f"MISMATCH at one of {checked}",
        "target": f"< {TARGET_STATE_AT_MS:g} ms at every position", "met": max(ms) < TARGET_STATE_AT_MS,
    }


# --- main --------------------------------------------------------------------------------------------------
def run(sizes: Sizes, workdir: Path, quick: bool) -> dict[str, Any]:
    result: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "sqlite": sqlite3.sqlite_version,
                    "platform": platform.platform(), "cpus": os.cpu_count(), "workdir": str(workdir)},
        "sizes": "quick" if quick else "full",
    }
    result["appends"] = measure_appends(workdir, sizes)
    path = workdir / "long.db"
    progress(f"setup: building a {sizes.log_events:,}-event game")
    game_id, result["long_game"] = build_long_game(path, sizes)
    arbitro = Arbitro(SQLiteStore(path, durable=True))
    result["replay"] = measure_replay(arbitro, game_id, sizes)
    result["state_at"] = measure_state_at(arbitro, game_id, sizes)
    short = arbitro.create(RULESET, SCENARIO)
    result["adjudication"] = {
        "decide_long_game": measure_decide(arbitro, game_id, sizes),
        "submit_short_game": measure_submit(arbitro, short, sizes.submits, "a new game"),
        "submit_long_game": measure_submit(arbitro, game_id, sizes.submits, "the long game"),
    }
    arbitro.store.close()  # type: ignore[attr-defined]
    return result


def report(r: dict[str, Any]) -> str:
    a, lg, rp, st, adj = r["appends"], r["long_game"], r["replay"], r["state_at"], r["adjudication"]
    ok = {True: "MET", False: "MISSED"}
    m = r["machine"]
    lines = [
        f"arbitro benchmark ({r['sizes']} sizes) on {m['platform']}, {m['cpus']} CPUs, Python {m['python']}, "
        f"SQLite {m['sqlite']}; files in {m['workdir']}",
        "",
        f"(a) durable appends ({a['journal_mode']}, synchronous={a['synchronous']}; {a['appends']} appends each, "
        f"{a['events_per_append']} events per append, interleaved):",
        f"    store  {a['store_appends_per_s']:>10,.1f} appends/s  (p50 {a['store_p50_ms']} ms)",
        f"    bare   {a['bare_appends_per_s']:>10,.1f} appends/s  (p50 {a['bare_p50_ms']} ms)",
        f"    ratio  {a['ratio']:.3f}  target {a['target']}: {ok[a['met']]}",
        f"    (one 512-byte write + fsync on this filesystem: {a['fsync_ms']} ms median; the slower the disk, "
        "the closer the ratio gets to 1)",
        "",
        f"setup: long game of {lg['events']:,} events, {lg['commands']:,} commands, {lg['snapshots']} snapshots "
        f"(checkpoint every {lg['checkpoint_every']} events), built in {lg['seconds']} s: {lg['how']}",
        "",
        f"(b) replay of {rp['events']:,} events, end to end: {rp['events_per_s']:,} events/s  "
        f"target {rp['target']}: {ok[rp['met']]}",
        "    stages: " + ", ".join(f"{k} {v:,}/s" for k, v in rp["stages_events_per_s"].items()),
        f"    final state equals the snapshot path's: {rp['same_state_as_snapshot_path']}",
        "",
        "(c) adjudication latency:",
    ]
    for key, label in (("decide_long_game", "Adjudicator.decide, long game"),
                       ("submit_short_game", "Arbitro.submit, new game"),
                       ("submit_long_game", "Arbitro.submit, long game")):
        s = adj[key]
        head = f" (head #{s['head']:,})" if "head" in s else ""
        lines.append(f"    {label:<32} p50 {s['p50_ms']:>8.3f} ms  p99 {s['p99_ms']:>8.3f} ms  "
                     f"max {s['max_ms']:>8.3f} ms  n={s['n']}{head}")
    lines += [
        "",
        f"(d) state at {st['positions']} seeded random positions of {st['events']:,} events: median "
        f"{st['median_ms']} ms, max {st['max_ms']} ms (at #{st['max_at_seq']:,})  target {st['target']}: {ok[st['met']]}",
        f"    snapshot path equals full replay at: {st['same_state_as_full_replay_at']}",
        "",
        "targets: " + ", ".join(f"{name} {ok[met]}" for name, met in
                                (("appends", a["met"]), ("replay", rp["met"]), ("state_at", st["met"]))),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (seconds, for the smoke test)")
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of the report")
    parser.add_argument("--dir", type=Path, default=None, help="where to put the databases (default: a temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the databases afterwards")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    workdir = Path(tempfile.mkdtemp(prefix="arbitro-bench-", dir=args.dir))
    try:
        result = run(sizes, workdir, args.quick)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
