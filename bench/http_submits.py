#!/usr/bin/env python
"""Submits per second over HTTP against the in-process figure: the same game and commands, once through
Arbitro.submit in-process and once through `POST /games/{id}/commands` of the HTTP server (uvicorn started in
this process on a loopback port, an httpx client holding the seat's token, one caller back to back), on the same
store. The difference is what the HTTP layer costs a submit: parsing, authorisation, JSON, the loopback.

    .venv/bin/python bench/http_submits.py                              # a SQLite file (WAL, synchronous=FULL)
    .venv/bin/python bench/http_submits.py --store postgresql://...     # an existing, empty PostgreSQL database
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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import uvicorn  # noqa: E402

from bench.bench import RULESET, SCENARIO, Player, latency_summary, measure_submit, progress  # noqa: E402
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


def measure_http(arbitro: Arbitro, url: str, count: int) -> dict[str, Any]:
    host = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {HOST_TOKEN}"})
    made = host.post("/games", json={"ruleset": RULESET, "scenario": SCENARIO, "seat_entropy": False}).json()
    game_id, tokens = made["game"], made["tokens"]
    clients = {seat: httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"})
               for seat, token in tokens.items()}
    player = Player(arbitro, game_id, seed=4)
    times = []
    progress(f"timing {count} submits over HTTP (after {WARM_UP} untimed)")
    for n in range(WARM_UP + count):
        seat, command = player.choose(arbitro.state_at(game_id))
        t = time.perf_counter()
        response = clients[seat].post(f"/games/{game_id}/commands", json={"command": command})
        elapsed = time.perf_counter() - t
        if response.status_code != 200:
            raise SystemExit(f"the server refused a legal command: {response.status_code} {response.text}")
        if n >= WARM_UP:
            times.append(elapsed)
    summary = latency_summary(times)
    summary["per_s"] = round(count / sum(times), 1)
    return summary


def measure_in_process(arbitro: Arbitro, count: int) -> dict[str, Any]:
    game_id = arbitro.create(RULESET, SCENARIO)
    measure_submit(arbitro, game_id, WARM_UP, "in-process (warm-up)")
    return measure_submit(arbitro, game_id, count, "in-process")


def run(count: int, location: str) -> dict[str, Any]:
    store = open_store(location, "create")
    arbitro = Arbitro(store)
    server, thread, url = serving(arbitro)
    try:
        return {"store": location if location.startswith("postgresql") else "sqlite", "submits": count,
                "in_process": measure_in_process(arbitro, count), "http": measure_http(arbitro, url, count)}
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def report(r: dict[str, Any]) -> str:
    lines = [f"submits on {r['store']}, {r['submits']} each (one caller, back to back):"]
    for key, label in (("in_process", "Arbitro.submit in-process"), ("http", "POST /games/{id}/commands")):
        s = r[key]
        lines.append(f"  {label:<28} {s['per_s']:>8.1f} submits/s   p50 {s['p50_ms']:>7.2f} ms   "
                     f"p99 {s['p99_ms']:>7.2f} ms")
    lines.append(f"  HTTP / in-process: {r['http']['per_s'] / r['in_process']['per_s']:.2f}x the submits a second")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", help="a postgresql:// URL (default: a SQLite file in a temporary directory)")
    parser.add_argument("--submits", type=int, default=200, help="timed submits each way (default 200)")
    parser.add_argument("--quick", action="store_true", help="20 submits each way (the smoke test)")
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of the report")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="arbitro-bench-http-"))
    try:
        result = run(20 if args.quick else args.submits, args.store or str(workdir / "bench.db"))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
