#!/usr/bin/env python
"""Submits per second over HTTP against the in-process figure: the same game and commands, once through
Arbitro.submit in-process and once through `POST /games/{id}/commands` of the HTTP server (uvicorn started in
this process on a loopback port, an httpx client holding the seat's token, one caller), on the same store, a
submit of each in turn. The difference is what the HTTP layer costs a submit: parsing, authorisation, JSON, the loopback.

    .venv/bin/python bench/http_submits.py                              # a SQLite file (WAL, synchronous=FULL)
    .venv/bin/python bench/http_submits.py --store postgresql://...     # an existing, empty PostgreSQL database
    .venv/bin/python bench/http_submits.py --postgres                   # a PostgreSQL started from the pgserver wheel
    .venv/bin/python bench/http_submits.py --quick --json               # small sizes; one JSON document

The game is bench/longduel.py's endless duel, as in bench/bench.py (c) and bench/stores.py; commands are chosen
by bench.bench.Player from the state the server's library holds (not timed). Latency p50/p99 per submit and
submits per second (count / total time) are reported; a few submits are run first, untimed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import uvicorn  # noqa: E402

from bench.bench import RULESET, SCENARIO, Player, latency_summary, progress, rate_line  # noqa: E402
from bench.stores import postgres  # noqa: E402
from arbitro.adjudicator.http_access import Limits  # noqa: E402
from arbitro.adjudicator.server import create_app  # noqa: E402
from arbitro.adjudicator.service import Arbitro  # noqa: E402
from arbitro.events.stores import open_store  # noqa: E402

WARM_UP = 5
HOST_TOKEN = "bench"


def serving(arbitro: Arbitro) -> tuple[uvicorn.Server, threading.Thread, str]:
    api = create_app(arbitro, HOST_TOKEN, limits=Limits(commands_per_second=1e6, games_per_token=1_000_000))
    server = uvicorn.Server(uvicorn.Config(api, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    return server, thread, f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"


def measure(arbitro: Arbitro, url: str, count: int) -> dict[str, Any]:
    """Two games of the endless duel, one played in-process and one over HTTP, a submit of each in turn (so a
    machine's load, which drifts, weighs on both alike)."""
    host = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {HOST_TOKEN}"})
    made = host.post("/games", json={"ruleset": RULESET, "scenario": SCENARIO, "seat_entropy": False}).json()
    remote, tokens = made["game"], made["tokens"]
    clients = {seat: httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"})
               for seat, token in tokens.items()}
    local = arbitro.create(RULESET, SCENARIO, seat_entropy=False)
    players = {local: Player(arbitro, local, seed=4), remote: Player(arbitro, remote, seed=4)}

    def in_process() -> float:
        seat, command = players[local].choose(arbitro.state_at(local))
        t = time.perf_counter()
        arbitro.submit(local, seat, command)
        return time.perf_counter() - t

    def over_http() -> float:
        seat, command = players[remote].choose(arbitro.state_at(remote))
        t = time.perf_counter()
        response = clients[seat].post(f"/games/{remote}/commands", json={"command": command})
        elapsed = time.perf_counter() - t
        if response.status_code != 200:
            raise SystemExit(f"the server refused a legal command: {response.status_code} {response.text}")
        return elapsed

    progress(f"timing {count} submits in-process and {count} over HTTP, in turn (after {WARM_UP} untimed each)")
    times: dict[str, list[float]] = {"in_process": [], "http": []}
    for n in range(WARM_UP + count):
        for way, submit in (("in_process", in_process), ("http", over_http)):
            elapsed = submit()
            if n >= WARM_UP:
                times[way].append(elapsed)
    return {way: {**latency_summary(ts), "per_s": round(count / sum(ts), 1)} for way, ts in times.items()}


def run(count: int, location: str) -> dict[str, Any]:
    store = open_store(location, "create")
    arbitro = Arbitro(store)
    server, thread, url = serving(arbitro)
    try:
        return {"store": "postgresql" if location.startswith("postgresql") else "sqlite", "submits": count,
                **measure(arbitro, url, count)}
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def report(r: dict[str, Any]) -> str:
    lines = [f"submits on {r['store']}, {r['submits']} each (one caller, back to back):"]
    for key, label in (("in_process", "Arbitro.submit in-process"), ("http", "POST /games/{id}/commands")):
        lines.append(rate_line(label, r[key], 28))
    lines.append(f"  HTTP / in-process: {r['http']['per_s'] / r['in_process']['per_s']:.2f}x the submits a second")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", help="a postgresql:// URL (default: a SQLite file in a temporary directory)")
    parser.add_argument("--postgres", action="store_true",
                        help="start a PostgreSQL server from the pgserver wheel for the run, as bench/stores.py does")
    parser.add_argument("--submits", type=int, default=200, help="timed submits each way (default 200)")
    parser.add_argument("--quick", action="store_true", help="20 submits each way (the smoke test)")
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of the report")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="arbitro-bench-http-"))
    try:
        with ExitStack() as stack:
            location = args.store or (stack.enter_context(postgres(None, workdir)) if args.postgres
                                      else str(workdir / "bench.db"))
            result = run(20 if args.quick else args.submits, location)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
