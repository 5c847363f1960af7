"""Issue 9.13: every ruleset's commands fuzzed with hypothesis, from the rulesets' own pydantic models (their JSON
schema: tests/fuzz/strategies.py), through `Arbitro.submit` and through the CLI, at the start of every scenario
and mid-game: for each kind of command in a ruleset's recorded games (logs/), the state just before its first
use there (so every kind is tried where it was legal, with real unit and hex names from the state). Required:
nothing but the project's own errors, and a rejection changes nothing in the store or the state.

The examples are derandomized (the same every run, so the suite is stable and fast); set ARBITRO_FUZZ_EXAMPLES
to a larger number to search further (`ARBITRO_FUZZ_EXAMPLES=2000 pytest tests/fuzz`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import ArbitroError
from arbitro.adjudicator.service import Arbitro
from arbitro.cli import cli
from arbitro.events.sqlite import SQLiteStore
from arbitro.events.store import StoreError
from arbitro.projections.fold import Replayer
from arbitro.projections.game import state_bytes

from .strategies import commands, edge_cases, junk, mutations, vocabulary_of

REPO = Path(__file__).resolve().parents[2]
LOGS = REPO / "logs"
EXAMPLES = int(os.environ.get("ARBITRO_FUZZ_EXAMPLES", "40"))
CLI_EXAMPLES = max(EXAMPLES // 4, 6)
pytestmark = pytest.mark.xdist_group("fuzz")  # one worker builds the games once


# --- where to fuzz (found at collection, from the logs' text) ---------------------------------------------
def _points() -> list[tuple[str, str, str, int]]:
    """(ruleset, label, source, at): each scenario's start (source = scenario, at = 0), and for each kind of command
    in a ruleset's logs the end of the command before its first use (source = log file, at = that seq)."""
    points: list[tuple[str, str, str, int]] = []
    for name in sorted(registry.SHIPPED):
        for scenario in registry.get(name).scenarios():
            points.append((name, f"{name}-{scenario}-start", scenario, 0))
        seen: set[str] = set()
        for log in sorted(LOGS.glob(f"{name}-*.jsonl")):
            last = 0
            for line in log.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                if record["record"] != "command":
                    continue
                kind = (record.get("body") or {}).get("command", {}).get("type", "")
                if record["cmd"] > 0 and kind not in seen and last:
                    seen.add(kind)
                    points.append((name, f"{log.stem}-before-{kind}", log.name, last))
                last = record["last_seq"] or last
    return points


POINTS = _points()


class Games:
    """The fuzzed games, in one database file the library and the CLI share. A point's game is a fork of its
    log's game (or a new game); a command the rules accept moves it on, so the next example gets a fresh one."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.app = Arbitro(SQLiteStore(db, durable=False))
        self.imported: dict[str, str] = {}
        self.current: dict[str, str] = {}

    def game(self, point: tuple[str, str, str, int]) -> str:
        label = point[1]
        if label not in self.current:
            self.current[label] = self._fresh(point)
        return self.current[label]

    def moved_on(self, point: tuple[str, str, str, int]) -> None:
        self.current.pop(point[1], None)

    def _fresh(self, point: tuple[str, str, str, int]) -> str:
        ruleset, _, source, at = point
        if at == 0:
            return self.app.create(ruleset, source)
        if source not in self.imported:
            self.imported[source] = self.app.import_lines((LOGS / source).read_text(encoding="utf-8").splitlines(), source,
                                                         seat="umpire")
        return self.app.fork(self.imported[source], at)

    def fingerprint(self, game_id: str) -> tuple[Any, ...]:
        """Everything a rejection must leave as it was: the head, the commands, the events, the state (folded
        afresh, not from any cache)."""
        record = self.app.game(game_id)
        fold = self.app.adjudicator(record.ruleset).fold
        state = Replayer(fold, self.app.store, game_id).state_at(record.head_seq)
        return (record.head_seq, record.head_hash, record.head_cmd, len(list(self.app.store.commands(game_id))),
                state_bytes(state))

    def strategy(self, game_id: str) -> st.SearchStrategy[tuple[str, Any]]:
        """(seat, command): mostly the awaited seat, and commands from the schema, mutated legal ones and junk."""
        record = self.app.game(game_id)
        ruleset = registry.get(record.ruleset)
        schema = ruleset._commands.json_schema()
        seats = [*record.seats, "umpire"]
        legal = [c for s in seats for c in self.app.legal(game_id, s)]
        vocabulary = vocabulary_of(msgspec.to_builtins(self.app.state_at(game_id).rules), legal)
        awaited = self.app.awaiting(game_id).seats or seats
        seat = st.one_of(st.sampled_from(awaited), st.sampled_from(seats), st.text(max_size=6))
        command = st.one_of(commands(schema, vocabulary), mutations(legal, schema, vocabulary), junk())
        return st.tuples(seat, command)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Games]:
    games = Games(tmp_path_factory.mktemp("fuzz") / "fuzz.db")
    yield games
    games.app.store.close()  # type: ignore[attr-defined]


def _fuzz(games: Games, point: tuple[str, str, str, int], examples: int, submit: Any) -> None:
    """Run `submit(game, seat, command) -> accepted?` on `examples` drawn commands; check each rejection."""
    game = games.game(point)

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(games.strategy(game))
    def one(drawn: tuple[str, Any]) -> None:
        seat, command = drawn
        current = games.game(point)
        before = games.fingerprint(current)
        if submit(current, seat, command):
            games.moved_on(point)
        else:
            assert games.fingerprint(current) == before, f"a rejected command changed the game: {seat} {command}"

    one()


@pytest.mark.parametrize("point", POINTS, ids=[p[1] for p in POINTS])
def test_fuzzed_commands_through_the_library(games: Games, point: tuple[str, str, str, int]) -> None:
    def submit(game: str, seat: str, command: Any) -> bool:
        try:
            games.app.submit(game, seat, command)
        except (ArbitroError, StoreError):
            return False  # the project's own errors only: anything else fails the test, with the command
        except Exception as e:
            raise AssertionError(f"{seat} {json.dumps(command)} raised {e!r}") from e
        return True

    # First the sweep: one legal command of each kind each seat has, each field emptied, nulled, mistyped, dropped.
    game = games.game(point)
    schema = registry.get(games.app.game(game).ruleset)._commands.json_schema()
    for seat in (*games.app.game(game).seats, "umpire"):
        for command in {c["type"]: c for c in reversed(games.app.legal(game, seat))}.values():
            for case in edge_cases(command, schema):
                current = games.game(point)
                before = games.fingerprint(current)
                if submit(current, seat, case):
                    games.moved_on(point)
                else:
                    assert games.fingerprint(current) == before, f"a rejected command changed the game: {seat} {case}"
    _fuzz(games, point, EXAMPLES, submit)


CLI_POINTS = [p for p in POINTS if p[3] == 0] + [p for p in POINTS if p[3]][::6]


@pytest.mark.parametrize("point", CLI_POINTS, ids=[p[1] for p in CLI_POINTS])
def test_fuzzed_commands_through_the_cli(games: Games, point: tuple[str, str, str, int]) -> None:
    runner = CliRunner()

    def submit(game: str, seat: str, command: Any) -> bool:
        args = ["submit", game, "--as", seat, json.dumps(command), "--db", str(games.db)]
        result = runner.invoke(cli, args, prog_name="arbitro")
        assert result.exception is None or isinstance(result.exception, SystemExit), \
            f"arbitro {' '.join(args)} raised {result.exception!r}"
        assert result.exit_code in (0, 1, 2, 3), result.output
        if result.exit_code:
            assert result.stderr.startswith("error ("), result.stderr  # the project's message, not a traceback
        return result.exit_code == 0

    _fuzz(games, point, CLI_EXAMPLES, submit)


def test_the_fuzz_reaches_every_ruleset_mid_game() -> None:
    for name in registry.SHIPPED:
        assert any(p[0] == name and p[3] for p in POINTS), f"no mid-game point for {name}: its logs are missing"
        assert sum(p[0] == name for p in POINTS) >= 5, name
