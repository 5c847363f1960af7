"""The suite's dice: every game a test creates gets a seed derived from a name, so every run plays the same games.

`Arbitro.create` and `Arbitro.fork` draw a game's secret seed from `arbitro.events.random.new_seed`, its salt key
from `new_salt_key` and its id from `fresh_game_id` (the OS entropy source, as a real game must; the id matters too: self-play derives the seats'
entropy from it, and the entropy is mixed into the dice). Under pytest (tests/conftest.py installs this) and in the
log generators (`tests/*/full_game.py`), all three are replaced by `seed_for`: sha256 of the run's base, a key and a
counter. The key is the test's node id (or, for a game created while a wider-scoped fixture is set up, that
fixture's node and name; or a name given to `named`); the counter counts the values given out under the key.

`$ARBITRO_TEST_SEED` chooses the base (docs/testing.md, "Deterministic dice"):
- unset or empty: the fixed base `suite`; every run plays the same games;
- `fresh`: a fresh random base for the run (exploration); the header and every failure print it;
- anything else: that base, to replay a failure printed under `fresh`.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from arbitro.adjudicator import service
from arbitro.events import random as rnd

ENV = "ARBITRO_TEST_SEED"
FIXED = "suite"
FRESH = "fresh"
DERIVATION = "arbitro-test-seed/1"  # not the game's derivation: a test seed is not a game's random source


def base() -> str:
    """The run's base: `$ARBITRO_TEST_SEED`, or `suite`. Under `fresh`, `choose_base` has replaced it already."""
    return os.environ.get(ENV) or FIXED


def choose_base() -> str:
    """Fix the run's base once, in the process that starts the run; pytest-xdist's workers inherit it through the
    environment, so every worker derives from one base and one printed value replays any of them."""
    if os.environ.get(ENV) == FRESH:
        os.environ[ENV] = f"{FRESH}-{secrets.token_hex(8)}"
    return base()


def seed_for(key: str, n: int, run_base: str | None = None) -> str:
    """The `n`th seed (from 0) under `key`: 32 bytes as hex, the form `new_seed` gives."""
    text = f"{DERIVATION}|{run_base if run_base is not None else base()}|{key}|{n}"
    return hashlib.sha256(text.encode()).hexdigest()


class Seeds:
    """Replaces `new_seed`, `new_salt_key` and `fresh_game_id` while installed; a stack of keys, each with its counts; the seeds
    given out since `reset`."""

    def __init__(self) -> None:
        self._stack: list[tuple[str, dict[str, int]]] = []  # (key, values given under it, by kind)
        self.given: list[tuple[str, int, str]] = []
        self._originals: tuple[object, object, object] | None = None

    def install(self) -> None:
        if self._originals is None:
            self._originals = (rnd.new_seed, rnd.new_salt_key, service.fresh_game_id)
            rnd.new_seed, rnd.new_salt_key, service.fresh_game_id = self.new_seed, self.salt_key, self.game_id

    def uninstall(self) -> None:
        if self._originals is not None:
            rnd.new_seed, rnd.new_salt_key, service.fresh_game_id = self._originals  # type: ignore[assignment]
            self._originals = None

    @property
    def installed(self) -> bool:
        return self._originals is not None

    def reset(self, key: str) -> None:
        """A new test: its key alone on the stack, nothing given yet."""
        self._stack = [(key, {})]
        self.given = []

    @contextmanager
    def keyed(self, key: str) -> Iterator[None]:
        """Values under `key`, counted from 0 each time it is entered: the same name gives the same games."""
        self._stack.append((key, {}))
        try:
            yield
        finally:
            self._stack.pop()

    def _next(self, kind: str) -> tuple[str, int]:
        if not self._stack:
            self._stack.append(("outside-any-test", {}))
        key, counts = self._stack[-1]
        n = counts.get(kind, 0)
        counts[kind] = n + 1
        return key, n

    def new_seed(self) -> str:
        key, n = self._next("seed")
        seed = seed_for(key, n)
        self.given.append((key, n, seed))
        return seed

    def salt_key(self) -> str:
        key, n = self._next("salt key")
        return seed_for(f"{key}|salt key", n)

    def game_id(self, ruleset: str) -> str:
        key, n = self._next("game id")
        return f"{ruleset}-{seed_for(f'{key}|game id', n)[:8]}"

    def report(self) -> str:
        """What replays a failure: the base, and each seed given out with its key."""
        lines = [f"{ENV}={base()}"]
        lines += [f"  seed {key} #{n}: {seed}" for key, n, seed in self.given]
        return "\n".join(lines)


SEEDS = Seeds()


@contextmanager
def named(name: str) -> Iterator[None]:
    """Games created inside get seeds from `name` (a log's name, a shared game's identity) rather than from whichever
    test asked first; outside pytest (the log generators), `new_seed` is replaced only inside."""
    installed = SEEDS.installed
    SEEDS.install()
    try:
        with SEEDS.keyed(name):
            yield
    finally:
        if not installed:
            SEEDS.uninstall()


def same_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game made from now on in the test gets one seed and one salt key: two games (two stores, two servers)
    that differ only in a hidden fact are then alike in everything else, their served bytes included (the
    non-interference tests, docs/engine-rules.md §V)."""
    monkeypatch.setattr(rnd, "new_seed", lambda: "5e" * 32)
    monkeypatch.setattr(rnd, "new_salt_key", lambda: "a1" * 32)
