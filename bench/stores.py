#!/usr/bin/env python
"""Submits per second on each store: the whole Arbitro.submit (load, decide, one durable append, snapshot,
receipt, serve) in-process, one caller back to back, on an in-memory SQLite database, a SQLite file (WAL,
synchronous=FULL) and PostgreSQL (docs/stores.md).

    .venv/bin/python bench/stores.py                       # starts a PostgreSQL from the pgserver wheel
    .venv/bin/python bench/stores.py --url postgresql://…  # an existing server (an empty database)
    .venv/bin/python bench/stores.py --quick --json        # small sizes; one JSON document on stdout

The game is bench/longduel.py's endless duel (an 80-counter state), as in bench/bench.py (c). Latency p50/p99
per submit and submits per second (count / total time) are reported; a few submits are run first, untimed.
PostgreSQL's figures include a round trip per statement over its Unix socket; its durability settings
(fsync, synchronous_commit) are printed beside them, since a test server may run without fsync.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402  (the [postgres] extra)

from bench.bench import RULESET, SCENARIO, measure_submit, progress, rate_line  # noqa: E402  (registers longduel)
from arbitro.adjudicator.service import Arbitro  # noqa: E402
from arbitro.events.postgres import PostgresStore  # noqa: E402
from arbitro.events.sqlite import SQLiteStore  # noqa: E402
from arbitro.events.store import Store  # noqa: E402

try:
    import pgserver
except ImportError:  # the [test] extra brings it; --url works without it
    pgserver = None

WARM_UP = 5


@contextmanager
def postgres(url: str | None, workdir: Path) -> Iterator[str]:
    """The given server, or one started from the pgserver wheel for the run (stopped and deleted after)."""
    if url:
        yield url
        return
    if pgserver is None:
        raise SystemExit("no --url and no pgserver: pip install -e '.[test]' or give --url postgresql://...")
    progress("starting a PostgreSQL server from the pgserver wheel")
    server = pgserver.get_server(workdir / "pg", cleanup_mode="delete")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


def measure(label: str, make: Callable[[], Store], count: int) -> dict[str, Any]:
    store = make()
    try:
        arbitro = Arbitro(store)
        game_id = arbitro.create(RULESET, SCENARIO)
        measure_submit(arbitro, game_id, WARM_UP, f"{label} (warm-up)")
        return measure_submit(arbitro, game_id, count, label)
    finally:
        store.close()  # type: ignore[attr-defined]


def postgres_settings(url: str) -> dict[str, str]:
    with psycopg.connect(url, autocommit=True) as conn:
        return {name: conn.execute(f"SHOW {name}").fetchone()[0]  # type: ignore[index]
                for name in ("server_version", "fsync", "synchronous_commit")}


def run(count: int, url: str | None, workdir: Path) -> dict[str, Any]:
    with postgres(url, workdir) as pg_url:
        return {
            "submits": count,
            "memory": measure("SQLite :memory:", lambda: SQLiteStore(":memory:"), count),
            "sqlite": measure("SQLite file (WAL, FULL)", lambda: SQLiteStore(workdir / "bench.db"), count),
            "postgresql": {**measure("PostgreSQL", lambda: PostgresStore(pg_url), count),
                           "settings": postgres_settings(pg_url)},
        }


def report(r: dict[str, Any]) -> str:
    lines = [f"Arbitro.submit, in-process, {r['submits']} submits each (one caller, back to back):"]
    for key, label in (("memory", "SQLite :memory:"), ("sqlite", "SQLite file (WAL, synchronous=FULL)"),
                       ("postgresql", "PostgreSQL")):
        lines.append(rate_line(label, r[key], 38))
    pg = r["postgresql"]["settings"]
    lines.append(f"  PostgreSQL {pg['server_version']}: fsync={pg['fsync']}, synchronous_commit={pg['synchronous_commit']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a PostgreSQL database to use (default: start one from the pgserver wheel)")
    parser.add_argument("--submits", type=int, default=200, help="timed submits per store (default 200)")
    parser.add_argument("--quick", action="store_true", help="20 submits per store (the smoke test)")
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of the report")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="arbitro-bench-stores-"))
    try:
        result = run(20 if args.quick else args.submits, args.url, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
