"""Fixtures for the foundation's end-to-end tests: the CLI in-process (click's CliRunner) and as a real
process, the library over a file database, the duel test ruleset, and helpers that play and tamper."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from arbitro.adjudicator import registry
from arbitro.adjudicator.service import Arbitro
from arbitro.cli import cli
from arbitro.events.codec import canonical, sha256_hex
from arbitro.events.postgres import PostgresStore
from arbitro.events.sqlite import SQLiteStore

REPO = Path(__file__).resolve().parents[2]
DUEL = "tests.foundation.duel:DuelRuleset"
registry.register("duel", DUEL)

# Red holds ruby-falcon, blue jade-otter: distinct hidden cards, so a leak of red's is unambiguous.
RED_CARD, BLUE_CARD = "ruby-falcon", "jade-otter"


class Cli:
    """Runs `arbitro ...` in-process against one database; checks the exit status and that no
    exception escaped as a traceback."""

    def __init__(self, db: Path, env: dict[str, str | None] | None = None) -> None:
        self.db = db
        self.runner = CliRunner()
        self.env = env or {}

    def __call__(self, *args: str, code: int = 0) -> Result:
        # Hot-seat games (no seat entropy round) unless a test asks for one: tests/foundation/test_dice.py tests
        # the round and the CLI's default.
        env = {"ARBITRO_DB": str(self.db), "ARBITRO_STORE": None, "ARBITRO_SEAT_ENTROPY": "0", **self.env}
        result = self.runner.invoke(cli, list(args), env=env, prog_name="arbitro")
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"arbitro {' '.join(args)} raised {result.exception!r} (a traceback, not an error)") \
                from result.exception
        assert result.exit_code == code, (
            f"arbitro {' '.join(args)}: exit {result.exit_code}, wanted {code}\n"
            f"stdout: {result.stdout}\nstderr: {result.stderr}"
        )
        return result

    def json(self, *args: str, code: int = 0) -> Any:
        """The command's --json output, parsed."""
        return json.loads(self(*args, "--json", code=code).stdout)

    def submit(self, game: str, seat: str, command: dict[str, Any], *extra: str, code: int = 0) -> Any:
        return self.json("submit", game, "--as", seat, json.dumps(command), *extra, code=code)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "arbitro.db"


@pytest.fixture
def run(db: Path) -> Cli:
    return Cli(db)


@pytest.fixture
def app(db: Path) -> Iterator[Arbitro]:
    """The library over the same database file the CLI fixture uses."""
    store = SQLiteStore(db)
    yield Arbitro(store)
    store.close()


# --- a real process -------------------------------------------------------------------------------
def arbitro_exe() -> list[str]:
    script = Path(sys.executable).with_name("arbitro")
    return [str(script)] if script.exists() else [sys.executable, "-c", "from arbitro.cli import main; main()"]


def run_process(*args: str, cwd: Path, code: int = 0) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ARBITRO_RULESETS": DUEL, "PYTHONPATH": str(REPO), "ARBITRO_SEAT_ENTROPY": "0"}
    env.pop("ARBITRO_DB", None)
    env.pop("ARBITRO_STORE", None)
    done = subprocess.run([*arbitro_exe(), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == code, f"arbitro {' '.join(args)}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    assert "Traceback" not in done.stderr, done.stderr
    return done


# --- playing ----------------------------------------------------------------------------------------
def position_file(tmp_path: Path, *, red_card: str = RED_CARD, blue_card: str = BLUE_CARD, **state: Any) -> Path:
    """A duel position with chosen hidden cards (a position's game deals nothing at creation)."""
    rules: dict[str, Any] = {
        "round": 1, "rounds": 6, "active": "red", "hp": {"red": 10, "blue": 10},
        "cards": {"red": red_card, "blue": blue_card}, "played": {"red": False, "blue": False},
        "bonus": {"red": 0, "blue": 0}, "attack": None,
    }
    rules.update(state)
    path = tmp_path / f"position-{len(list(tmp_path.glob('position-*')))}.json"
    path.write_text(json.dumps({"format": "arbitro-position/1", "ruleset": "duel", "scenario": "standard",
                                "options": [], "state": rules}), encoding="utf-8")
    return path


def fixed_duel() -> Arbitro:
    """A duel "g" on a fixed seed and clock, one exchange played (red attacks high, blue guards low): two of them
    differ only in what a test does next, as a non-interference test needs."""
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-01-01T00:00:00+00:00")
    app.create("duel", "standard", game_id="g", seed="5e" * 32, salt_key="a1" * 32)
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    app.submit("g", "blue", {"type": "guard", "stance": "low"})
    return app


def exchange(run: Cli, game: str, attacker: str = "red", aim: str = "high", stance: str = "low") -> dict[str, Any]:
    """One attack and its guard; returns the guard's submit result."""
    defender = "blue" if attacker == "red" else "red"
    run.submit(game, attacker, {"type": "attack", "aim": aim})
    return run.submit(game, defender, {"type": "guard", "stance": stance})  # type: ignore[no-any-return]


def played_out(run: Cli, game: str) -> None:
    """Every turn ended until the game is over: its end reveals the seed and the salt key (arbitro §R.3), which
    alone makes a game's salts checkable (events.random)."""
    while run.json("status", game)["outcome"] is None:
        run.submit(game, run.json("status", game)["awaiting"]["seats"][0], {"type": "end_turn"})


def ended(app: Arbitro, game: str) -> None:
    """`played_out` through the library: every turn ended until the game is over (its end reveals the seed and
    the salt key, arbitro §R.3)."""
    while app.status(game).outcome is None:
        app.submit(game, app.status(game).awaiting.seats[0], {"type": "end_turn"})


def events_of(result: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e["event"] for e in result["events"] if e["type"] == kind]


def head(run: Cli, game: str) -> int:
    return run.json("status", game)["head"]  # type: ignore[no-any-return]


# --- exported files and tampering -------------------------------------------------------------------
def read_export(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def write_export(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_text("".join(canonical(r).decode() + "\n" for r in records), encoding="utf-8")


def event_records(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["record"] == "event"]


def rechain(records: list[dict[str, Any]]) -> None:
    """Recompute every event hash and link, and the game's head hash, as a careful forger would."""
    prev = "0" * 64
    for record in event_records(records):
        record["body"]["prev"] = prev
        record["hash"] = prev = sha256_hex(canonical(record["body"]))
    game = next(r for r in records if r["record"] == "game")
    game["head_hash"] = prev


def db_rows(db: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchall()


def db_execute(db: Path, sql: str, *params: Any) -> None:
    conn = sqlite3.connect(db)
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


# --- one store test on both drivers ------------------------------------------------------------------
# A test class that opens its store again in several modes (an upgrade, a store made before a column) names the
# driver by one of these first in its bases: `class TestSQLiteX(OnSQLiteFile, X)`.

class OnSQLiteFile:
    @pytest.fixture(autouse=True)
    def _path(self, tmp_path: Path) -> None:
        self.path = tmp_path / "old.db"

    def open(self, mode: str) -> Any:
        return SQLiteStore(self.path, mode=mode)  # type: ignore[arg-type]


class OnPostgres:
    mark = "%s"  # the driver's parameter mark

    @pytest.fixture(autouse=True)
    def _server(self, postgres_url: str) -> None:
        self.url = postgres_url

    def open(self, mode: str) -> Any:
        return PostgresStore(self.url, mode=mode)  # type: ignore[arg-type]
