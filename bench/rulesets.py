#!/usr/bin/env python
"""What the real rulesets cost where clients wait (issue 15): every shipped log in logs/, re-submitted.

    .venv/bin/python bench/rulesets.py                      # every log in logs/
    .venv/bin/python bench/rulesets.py logs/caldiero-*.jsonl
    .venv/bin/python bench/rulesets.py --json               # one JSON document on stdout
    .venv/bin/python bench/rulesets.py --quick logs/arrivano-*.jsonl   # verify and serve only (no re-submission)
    .venv/bin/python bench/rulesets.py --by-piece logs/caldiero-*.jsonl  # legal() as a lazy client asks it
    .venv/bin/python bench/rulesets.py --quick --jobs 2 logs/*.jsonl     # verify in 2 processes (critical path)
    .venv/bin/python bench/rulesets.py --quick --from-file logs/*.jsonl  # verify the file as `arbitro verify FILE` reads it

For each log, four measurements against the issue's targets:
  legal()/submit()  the log's game created again from its recorded seed on a SQLite file store (WAL,
                    synchronous=FULL), then each logged command re-submitted through the Python API as a client
                    does: `legal()` of the seat first (the logged command must be in it), then `submit()`.
                    p50/p99/max of `legal()` and of `legal()` + `submit()`, after one warm-up legal() of
                    the same opening in another game (a process reads a ruleset's data once). Targets: legal p99 <= 10 ms and
                    max <= 25 ms; legal + submit p99 <= 10 ms. With --by-piece, `legal(seat, piece=...)` of the
                    first piece the logged command names (the lazy listing a client asks of the unit it moves,
                    python-chess's model; the whole listing where it names none): its `legal` hash is of those
                    listings, comparable only with another --by-piece run.
  verify            `verify` of the log file as exported (chain, commands, salts, dice, re-adjudication), in
                    seconds per 10,000 events, and its peak Python memory (tracemalloc, a second run). Run in a
                    fresh process, as `arbitro verify` is: what the re-submission worked out (a ruleset's kept
                    searches and lines of sight) does not help it, after the ruleset's shipped data are read
                    (once per process whatever the log's length: `data_load_s`, shown beside the figure; until
                    2026-11-30 it fell inside it, 3-5 % of a Para Bellum verify). Target: <= 1 s per 10,000 events.
                    With --jobs N (N > 1), re-adjudication is split among N forked workers (verify --jobs N): the
                    figure is then the CRITICAL PATH, the parent's CPU time, or its CPU time when it forked the
                    workers plus the longest worker's, whichever is longer (on idle cores, what a user waits with N
                    cores; under load the processes claim chunks as the cores let them and it reads high), shown
                    with `idle_s_per_10k` (the chunks' measured CPU seconds scheduled as N idle cores would run
                    them: Segments.idle_schedule, an estimate), the jobs, the machine's cores, the wall-clock time
                    and the load (another user's work slows it), and the CPU time of every process
                    (`cpu_s_per_10k`: the work, more than one process's for the workers' folds and cold caches).
  serve             each event as every playing seat is served it (its redaction, from the state right after it)
                    and each seat's view after every event, in ms per event for all seats, with a SHA-256 of every
                    served byte: the cost of fog of war where a seat reads its game (arrivano §11.3.2, caldiero
                    §20.4), shown to serve the same bytes when the code gets faster.
  replay            the re-submitted game's state at its head from the store without snapshots (Replayer), in
                    events/s, against a framework-free loop over the same rows in the same run: sqlite3 rows,
                    hashlib, the same msgspec decoder, the link check and the same fold. Target: >= 0.8x.
  sameness          the SHA-256 of every legal() answer (in order) and of the re-submitted game's events: equal
                    to the log's events means the same game was played; the legal fingerprint must not change
                    when the code gets faster (compare with an earlier run's).

Times are the process's CPU time (time.process_time): the machine is shared, and other processes' work
should not count. A durable append's fsync wait is therefore not in the submit figures. Measurement only:
never a timed test.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gc
import hashlib
import json
import multiprocessing
import os
import platform
import resource
import sqlite3
import subprocess
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from collections.abc import Iterator
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from arbitro.adjudicator import registry  # noqa: E402
from arbitro.adjudicator import verify as verification  # noqa: E402
from arbitro.adjudicator import verify_replay  # noqa: E402
from arbitro.adjudicator.exchange import read_lines  # noqa: E402
from arbitro.adjudicator.exchange_file import read_file  # noqa: E402
from arbitro.adjudicator.ruleset import pieces_named  # noqa: E402
from arbitro.adjudicator.preload import settle_data  # noqa: E402
from arbitro.adjudicator.service import Arbitro  # noqa: E402
from arbitro.events import core  # noqa: E402
from arbitro.events.codec import canonical, to_builtins  # noqa: E402
from arbitro.events.records import GENESIS  # noqa: E402
from arbitro.events.sqlite import SQLiteStore  # noqa: E402
from arbitro.projections.fold import Fold, Replayer  # noqa: E402
from arbitro.projections.game import state_hash  # noqa: E402
from arbitro.projections.views import redact_event, seat_view  # noqa: E402

LOGS = ROOT / "logs"
TARGET_LEGAL_P99_MS, TARGET_LEGAL_MAX_MS, TARGET_STEP_P99_MS = 10.0, 25.0, 10.0
TARGET_VERIFY_S_PER_10K, TARGET_REPLAY_RATIO = 1.0, 0.8
VERIFY_FAILED = 3  # --verify-only's exit status for a log that does not verify: no time is reported for it


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def summary(times: list[float]) -> dict[str, float]:
    ms = [t * 1e3 for t in times]
    return {"n": len(ms), "p50_ms": round(percentile(ms, 50), 2), "p99_ms": round(percentile(ms, 99), 2),
            "max_ms": round(max(ms), 2)}


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def events_digest(bodies: list[Any]) -> str:
    """The events themselves (not their hashes, which bind each command's arrival time): the game played."""
    return hashlib.sha256(b"\n".join(canonical(b) for b in bodies)).hexdigest()


# --- legal() and submit(), the log re-submitted --------------------------------------------------------------
def logged_commands(path: Path) -> tuple[dict[str, Any], core.GameCreated, list[bytes]]:
    """The log's game record, its creation, and each command record's body as its JSON bytes (decoded one at a
    time by `resubmit`, outside the timed calls). The parsed log is not held while the game is re-submitted: its
    ~30,000 dicts and lists were walked by every full collection of the measured process, most of Arrivano's
    legal() maximum (issue 15), and a server holds no client's log."""
    game: dict[str, Any] = {}
    created: core.GameCreated | None = None
    commands: list[bytes] = []
    for text in path.read_text(encoding="utf-8").splitlines():
        if not text.strip():
            continue
        r = json.loads(text)
        if r["record"] == "game":
            game = r
        elif r["record"] == "event" and r["body"]["seq"] == 1:
            created = msgspec.convert(r["body"]["event"], core.GameCreated)
        elif r["record"] == "command" and r["cmd"] > 0:
            commands.append(msgspec.json.encode(r["body"]))
    assert created is not None, f"{path}: no game_created event"
    return game, created, commands


def resubmit(path: Path, workdir: Path, by_piece: bool = False) -> tuple[dict[str, Any], Arbitro, str]:
    game, created, encoded = logged_commands(path)
    ruleset = registry.get(game["ruleset"])
    first = json.loads(encoded[0])
    settle_data({game["ruleset"]: ruleset})  # its data loaded and frozen, as the server does at its start
    warm = Arbitro(SQLiteStore(":memory:"))  # once per process: the ruleset's data read, its tables built
    warm.legal(warm.start_recorded(created, game["seed"], game["id"], salt_key=game.get("salt_key")), first["seat"])
    app = Arbitro(SQLiteStore(workdir / f"{path.stem}.db"))
    gid = app.start_recorded(created, game["seed"], game["id"], salt_key=game.get("salt_key"))  # as relog does
    legal_times: list[float] = []
    step_times: list[float] = []
    digest = hashlib.sha256()
    outside = 0
    for text in encoded:
        body = json.loads(text)
        piece = next(iter(pieces_named(body["command"])), None) if by_piece else None
        t0 = time.process_time()
        listed = app.legal(gid, body["seat"], piece)
        t1 = time.process_time()
        app.submit(gid, body["seat"], body["command"], key=body["key"])
        t2 = time.process_time()
        legal_times.append(t1 - t0)
        step_times.append(t2 - t0)
        digest.update(canonical(listed))
        outside += not listed_among(app, game["ruleset"], body["command"], listed)
    logged = [r["body"]["event"] for r in records(path) if r["record"] == "event"]
    replayed = [to_builtins(b.event) for b in app.replayer(gid).bodies(1)]
    return {
        "commands": len(encoded), "legal": summary(legal_times), "legal_submit": summary(step_times),
        "commands_outside_legal": outside, "legal_sha256": digest.hexdigest(),
        "events_sha256": events_digest(replayed), "same_events_as_log": events_digest(logged) == events_digest(replayed),
    }, app, gid


def listed_among(app: Arbitro, ruleset: str, command: dict[str, Any], listed: list[dict[str, Any]]) -> bool:
    """Is the logged command one of those `legal()` listed, both normalised by the ruleset's parser (a log may
    hold an older spelling the parser still reads, e.g. Arrivano's bombard `units` for `artillery`)?"""
    adj = app.adjudicator(ruleset)
    wanted = canonical(adj.parse(command)[1])
    return any(canonical(adj.parse(c)[1]) == wanted for c in listed if c.get("type") == command.get("type"))


# --- verify ----------------------------------------------------------------------------------------------------
def cpu_seconds() -> float:
    """CPU seconds of this process and of its children that have ended (the verify's workers)."""
    own, ended = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + ended.ru_utime + ended.ru_stime


@dataclasses.dataclass
class Segments:
    """A verify's chunks as judged: each chunk's process id, first command and CPU seconds, in the order their times
    came back; this process's id, and its CPU seconds when it forked the workers and when it began claiming chunks
    itself (None: it forked none)."""

    parent: int
    chunks: list[tuple[int, int, float]] = dataclasses.field(default_factory=list)
    forked_at: float | None = None
    claiming_at: float | None = None

    def judging(self) -> dict[int, float]:
        """The CPU seconds each process spent judging (its chunks' sum), by process id, in the order first heard."""
        out: dict[int, float] = {}
        for pid, _start, cost in self.chunks:
            out[pid] = out.get(pid, 0.0) + cost
        return out

    def here(self) -> float:
        return self.judging().get(self.parent, 0.0)

    def workers(self) -> list[float]:
        return [t for pid, t in self.judging().items() if pid != self.parent]

    def idle_schedule(self, jobs: int) -> float | None:
        """The CPU seconds from the fork to the last chunk's end were each chunk to cost what it cost here and every
        process to have a core of its own: the workers claiming from the fork, this process once its own checks are
        done, each the next chunk as it is free (verify_replay._Claims). Under load, who claims what follows who got
        the cores: this figure does not."""
        if self.forked_at is None or self.claiming_at is None:
            return None
        free = [self.claiming_at - self.forked_at] + [0.0] * (jobs - 1)
        for _start, cost in sorted((start, cost) for _pid, start, cost in self.chunks):
            first = min(range(jobs), key=lambda n: (free[n], n))
            free[first] += cost
        return max(free)


@contextlib.contextmanager
def workers_cpu() -> Iterator[Segments]:
    """What a verify's chunks cost (Segments): verify_replay._judge wrapped before the workers are forked, each
    chunk's time sent back through a pipe, and verify_replay._forked and _judge_claimed to note when the workers were
    forked and when this process began claiming; given once the verify is over."""
    sent = multiprocessing.get_context("fork").SimpleQueue()
    real, real_forked, real_claimed = verify_replay._judge, verify_replay._forked, verify_replay._judge_claimed
    times = Segments(os.getpid())

    def timed(*args: Any, **kwargs: Any) -> Any:
        t0 = time.process_time()
        try:
            return real(*args, **kwargs)
        finally:
            sent.put((os.getpid(), args[1].start, time.process_time() - t0))

    def forked(*args: Any, **kwargs: Any) -> Any:
        if args[3]:  # any worker to fork
            times.forked_at = time.process_time()
        return real_forked(*args, **kwargs)

    def claimed(*args: Any, **kwargs: Any) -> Any:
        times.claiming_at = time.process_time()
        return real_claimed(*args, **kwargs)

    verify_replay._judge, verify_replay._forked, verify_replay._judge_claimed = timed, forked, claimed  # type: ignore[assignment]
    try:
        yield times
    finally:
        verify_replay._judge, verify_replay._forked, verify_replay._judge_claimed = real, real_forked, real_claimed  # type: ignore[assignment]
        while not sent.empty():
            times.chunks.append(sent.get())


def measure_verify(path: Path, jobs: int = 1, from_file: bool = False) -> dict[str, Any]:
    """`verify` of the log held whole (`read_lines`), or, `from_file`, of the file read as `arbitro verify FILE` reads
    it (`exchange_file.read_file`: its records read again from the file as the checks reach them)."""
    lines = [] if from_file else path.read_text(encoding="utf-8").splitlines()  # held whole: read before the clock
    load = (lambda: read_file(path)) if from_file else (lambda: read_lines(lines, str(path)))
    with workers_cpu() as segments:
        t0, cpu0, wall0 = time.process_time(), cpu_seconds(), time.perf_counter()
        loaded = load()
        report = verification.verify(loaded, jobs=jobs)
        seconds, wall, cpu = time.process_time() - t0, time.perf_counter() - wall0, cpu_seconds() - cpu0
    events = len(loaded.events)  # the chained events alone: before 2026-11-28 21:00 the commands were counted too
    if not report.passed:  # a verify that stopped early is not a time for this log (a base tree off the logs' commit)
        failed = [f"{c.name}: {c.detail}" for c in report.checks if c.status == "failed"]
        return {"events": events, "passed": False, "failed": failed or [f"diverged at #{getattr(report.divergence, 'seq', '?')}"]}
    gc.collect()
    tracemalloc.start()
    verification.verify(load())
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # in one process its CPU time, as before; in several, the critical path: the parent's CPU, or its CPU when it
    # forked the workers and the longest worker's judging since, whichever is longer (the workers judge while the
    # parent checks the commands and salts, then all claim chunks; before 2026-11-30 15:00 the workers were forked
    # after those checks, each judged one fixed segment, and the figure was the parent's CPU but its own segment's,
    # and the longest segment's). segments_cpu_s: the parent's judging first, then each worker's
    waited = seconds
    if segments.forked_at is not None and segments.workers():
        waited = max(seconds, segments.forked_at - t0 + max(segments.workers()))
    scheduled = segments.idle_schedule(jobs)
    idle = None if scheduled is None or segments.forked_at is None or segments.claiming_at is None else (
        segments.forked_at - t0 + scheduled + max(0.0, seconds - segments.claiming_at + t0 - segments.here()))
    return {"events": events, "passed": report.passed, "seconds": round(waited, 3),
            "s_per_10k_events": round(waited * 10_000 / max(events, 1), 3), "peak_mb": round(peak / 2**20, 1),
            "jobs": jobs, "segments_cpu_s": [round(t, 3) for t in (segments.here(), *segments.workers())],
            "idle_s_per_10k": None if idle is None else round(idle * 10_000 / max(events, 1), 3), "cores": os.cpu_count(),
            "load_1min": round(os.getloadavg()[0], 1),
            "wall_s_per_10k": round(wall * 10_000 / max(events, 1), 3),
            "cpu_s_per_10k": round(cpu * 10_000 / max(events, 1), 3)}


def load_data(ruleset: Any, scenario: str) -> float:
    """The CPU seconds of reading and checking the ruleset's shipped data (every scenario's files, the first time a
    process asks one: `new_state` of the log's scenario): once per process whatever the log's length, so kept out of
    the per-event verify figure and reported beside it (`data_load_s`). `arbitro verify` pays it too, once."""
    t0 = time.process_time()
    with contextlib.suppress(Exception):  # a scenario that cannot start: the verify says why
        ruleset.new_state(scenario, ())
    return round(time.process_time() - t0, 3)


def verify_in_fresh_process(path: Path, jobs: int = 1, from_file: bool = False) -> dict[str, Any]:
    """measure_verify in a new interpreter that has imported the log's ruleset and nothing else (exit status 3 and
    no time when the verify failed)."""
    reading = ["--from-file"] if from_file else []
    done = subprocess.run([sys.executable, __file__, "--verify-only", "--jobs", str(jobs), *reading, str(path)],
                          capture_output=True, text=True)
    if done.returncode not in (0, VERIFY_FAILED):
        raise RuntimeError(f"--verify-only {path} exited {done.returncode}: {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def verify_text(v: dict[str, Any]) -> str:
    """A verify's figures, or why there are none: a failed verify has no time to report."""
    if not v["passed"]:
        return f"verify FAILED ({'; '.join(v['failed'])[:120]})"
    loading = f", data {v['data_load_s']:.2f} s" if "data_load_s" in v else ""
    if v.get("jobs", 1) > 1:
        return (f"verify {v['s_per_10k_events']:5.2f} s/10k critical path ({v['jobs']} jobs; wall "
                f"{v['wall_s_per_10k']:.2f} on {v['cores']} cores at load {v['load_1min']}; CPU {v['cpu_s_per_10k']:.2f} "
                f"s/10k, {v['peak_mb']:.0f} MB{loading})")
    return f"verify {v['s_per_10k_events']:5.2f} s/10k ({v['peak_mb']:.0f} MB{loading})"


# --- serving each seat -------------------------------------------------------------------------------------------
def measure_serve(path: Path) -> dict[str, Any]:
    loaded = read_lines(path.read_text(encoding="utf-8").splitlines(), str(path))
    ruleset = registry.get(loaded.game.ruleset)
    fold = Fold(ruleset)
    bodies = [fold.decode_checked(e.body) for e in loaded.events]
    seats = list(loaded.game.seats)
    digest = hashlib.sha256()
    state = None
    t0 = time.process_time()
    for body in bodies:
        state = fold.apply(state, body, lambda seq: fold.fold(bodies[:seq]))
        for seat in seats:
            digest.update(canonical(redact_event(ruleset, body.event, seat, state)))
            digest.update(canonical(seat_view(ruleset, state, seat)))
    seconds = time.process_time() - t0
    return {"events": len(bodies), "seats": len(seats), "ms_per_event": round(seconds * 1e3 / max(len(bodies), 1), 3),
            "served_sha256": digest.hexdigest()}


# --- replay against a framework-free loop --------------------------------------------------------------------
def measure_replay(app: Arbitro, gid: str, db: Path, repeats: int = 3) -> dict[str, Any]:
    game = app.game(gid)
    fold = app.adjudicator(game.ruleset).fold
    decoder = msgspec.json.Decoder(fold.body_type)
    head = game.head_seq
    has_undo = False

    def framework() -> Any:
        return Replayer(fold, app.store, gid).state_at(head, use_snapshots=False)

    def bare() -> Any:
        nonlocal has_undo
        conn = sqlite3.connect(db)
        prev, state = GENESIS, None
        for seq, text, digest in conn.execute("SELECT seq, body, hash FROM events WHERE game=? ORDER BY seq", (gid,)):
            body = text.encode() if isinstance(text, str) else text
            if hashlib.sha256(body).hexdigest() != digest:
                raise AssertionError(seq)
            decoded = decoder.decode(body)
            if decoded.prev != prev or decoded.seq != seq:
                raise AssertionError(seq)
            has_undo = has_undo or isinstance(decoded.event, core.Undone)
            state = fold.apply_event(state, seq, decoded.event, None)
            prev = digest
        conn.close()
        return state

    def timed(run: Any) -> tuple[float, Any]:
        times, out = [], None
        for _ in range(repeats):
            t0 = time.process_time()
            out = run()
            times.append(time.process_time() - t0)
        return statistics.median(times), out

    bare_s, bare_state = timed(bare)
    framework_s, state = timed(framework)
    if has_undo:
        return {"events": head, "skipped": "the log undoes: the bare loop has no history"}
    return {"events": head, "events_per_s": round(head / framework_s), "bare_events_per_s": round(head / bare_s),
            "ratio": round(bare_s / framework_s, 2), "same_state": state_hash(state) == state_hash(bare_state)}


# --- the report --------------------------------------------------------------------------------------------------
def measure(path: Path, workdir: Path, by_piece: bool = False, jobs: int = 1, from_file: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"log": path.name, "legal_by_piece": by_piece}
    played, app, gid = resubmit(path, workdir, by_piece)
    out.update(played)
    out["replay"] = measure_replay(app, gid, workdir / f"{path.stem}.db")
    app.store.close() if hasattr(app.store, "close") else None
    out["verify"] = verify_in_fresh_process(path, jobs, from_file)
    out["serve"] = measure_serve(path)
    out["met"] = {
        "legal": out["legal"]["p99_ms"] <= TARGET_LEGAL_P99_MS and out["legal"]["max_ms"] <= TARGET_LEGAL_MAX_MS,
        "legal_submit": out["legal_submit"]["p99_ms"] <= TARGET_STEP_P99_MS,
        "verify": verify_met(out["verify"]),
        "replay": out["replay"].get("ratio", TARGET_REPLAY_RATIO) >= TARGET_REPLAY_RATIO,
        "same_game": out["same_events_as_log"] and not out["commands_outside_legal"],
    }
    return out


def machine() -> dict[str, Any]:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else platform.processor()
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "load_1min": round(os.getloadavg()[0], 1), "sqlite": sqlite3.sqlite_version}


def quick(path: Path, jobs: int = 1, from_file: bool = False) -> dict[str, Any]:
    """Verify and serve only: no re-submission, no replay."""
    out: dict[str, Any] = {"log": path.name, "verify": verify_in_fresh_process(path, jobs, from_file), "serve": measure_serve(path)}
    out["met"] = {"verify": verify_met(out["verify"])}
    return out


def verify_met(v: dict[str, Any]) -> bool:
    return bool(v["passed"]) and v["s_per_10k_events"] <= TARGET_VERIFY_S_PER_10K


def quick_line(r: dict[str, Any]) -> str:
    v, sv = r["verify"], r["serve"]
    return (f"{r['log']:34} {verify_text(v)}  serve "
            f"{sv['ms_per_event']:6.3f} ms/event to {sv['seats']} seats  served {sv['served_sha256'][:12]}"
            f"{'' if r['met']['verify'] else '  MISSED: verify'}")


def line(r: dict[str, Any]) -> str:
    lg, st, v, rp = r["legal"], r["legal_submit"], r["verify"], r["replay"]
    replay = (f"replay {rp['events_per_s'] / 1000:5.0f}k ev/s {rp['ratio']:.2f}x bare" if "ratio" in rp
              else f"replay ({rp['skipped']})")
    flags = " ".join(k for k, ok in r["met"].items() if not ok)
    return (f"{r['log']:34} legal{'(piece)' if r.get('legal_by_piece') else ''} p50/p99/max {lg['p50_ms']:5.2f}/{lg['p99_ms']:6.2f}/{lg['max_ms']:6.2f} ms  "
            f"+submit p99 {st['p99_ms']:6.2f} ms  {verify_text(v)}  "
            f"serve {r['serve']['ms_per_event']:.3f} ms/ev  {replay}  legal {r['legal_sha256'][:12]}  events {r['events_sha256'][:12]}"
            f"{'  MISSED: ' + flags if flags else ''}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="*", type=Path, help="exported logs (default: every logs/*.jsonl)")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    parser.add_argument("--quick", action="store_true", help="verify and serve only (no re-submission, no replay)")
    parser.add_argument("--by-piece", action="store_true",
                        help="legal() of the piece each logged command names (the lazy listing), not the whole")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="verify with N forked workers (verify --jobs N): the figure is then the critical path")
    parser.add_argument("--from-file", action="store_true",
                        help="verify the file as `arbitro verify FILE` reads it (read again as asked), not held whole")
    parser.add_argument("--verify-only", action="store_true", help=argparse.SUPPRESS)  # verify_in_fresh_process
    args = parser.parse_args()
    paths = args.logs or sorted(LOGS.glob("*.jsonl"))
    if args.verify_only:
        head = json.loads(paths[0].read_text(encoding="utf-8").splitlines()[0])
        loading = load_data(registry.get(head["ruleset"]), head["scenario"])  # neither the import nor the data's load
        verified = {**measure_verify(paths[0], args.jobs, args.from_file), "data_load_s": loading,
                    "from_file": args.from_file}
        print(json.dumps(verified))
        return 0 if verified["passed"] else VERIFY_FAILED
    results = []
    with tempfile.TemporaryDirectory(prefix="arbitro-rulesets-") as tmp:
        if not args.json:
            print(f"machine: {machine()}  (CPU time; targets: legal p99 <= {TARGET_LEGAL_P99_MS} ms, max <= "
                  f"{TARGET_LEGAL_MAX_MS} ms; legal+submit p99 <= {TARGET_STEP_P99_MS} ms; verify <= "
                  f"{TARGET_VERIFY_S_PER_10K} s/10k events; replay >= {TARGET_REPLAY_RATIO}x bare)\n", flush=True)
        for path in paths:
            result = (quick(path, args.jobs, args.from_file) if args.quick else
                      measure(path, Path(tmp), args.by_piece, args.jobs, args.from_file))
            results.append(result)
            if not args.json:
                print((quick_line if args.quick else line)(result), flush=True)
    if args.json:
        print(json.dumps({"machine": machine(), "logs": results}, indent=2))
    return 0 if all(all(r["met"].values()) for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
