"""Where `decide` gets its dice and draws: generated from the committed seed, entered by the transcribing
seat (a game played on a table), or read back from a recorded log (verification before the seed is out)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal, Protocol

from arbitro.events import random as derivation
from arbitro.projections.game import CoreState

Source = Literal["seed", "entered"]


class NeedRandom(Exception):
    """A transcribed game needs a roll or draw that has not been entered yet."""

    def __init__(self, kind: Literal["roll", "draw"], count: int, sides: int, population: tuple[str, ...], purpose: str) -> None:
        super().__init__(f"{kind} needed: {purpose}")
        self.kind, self.count, self.sides, self.population, self.purpose = kind, count, sides, population, purpose


class BadEntry(ValueError):
    """Entered values that cannot be the roll or draw asked for."""


class DiceUnavailable(Exception):
    """No fair roll can be made here: the seed is public, or this database does not hold it."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


def _refuse_public_seed(core: CoreState) -> None:
    if core.seed is not None:  # arbitro §R.3: anyone could predict every later roll
        raise DiceUnavailable(
            "the dice seed was revealed, so further rolls would be predictable: continue in a fork "
            f"(arbitro fork GAME --at {core.seq}), which draws a new seed", "arbitro §R.3")


class Supply(Protocol):
    def roll(self, core: CoreState, index: int, count: int, sides: int, purpose: str) -> tuple[tuple[int, ...], Source]: ...
    def draw(self, core: CoreState, index: int, population: tuple[str, ...], k: int, purpose: str) -> tuple[tuple[str, ...], Source]: ...


class SeededSupply:
    def __init__(self, seed: str) -> None:
        self.seed = seed

    def roll(self, core: CoreState, index: int, count: int, sides: int, purpose: str) -> tuple[tuple[int, ...], Source]:
        _refuse_public_seed(core)
        return derivation.roll(self.seed, core.mix, index, count, sides), "seed"

    def draw(self, core: CoreState, index: int, population: tuple[str, ...], k: int, purpose: str) -> tuple[tuple[str, ...], Source]:
        _refuse_public_seed(core)
        return derivation.draw(self.seed, core.mix, index, population, k), "seed"


class NoSeedSupply:
    """A game imported without its seed: everything that rolls nothing can still be adjudicated."""

    def __init__(self, game_id: str) -> None:
        self.message = (f"game {game_id} was imported without its seed, so this database cannot roll its dice; "
                        "adjudicate it where it was created, or import an export made with --with-seed")

    def roll(self, core: CoreState, index: int, count: int, sides: int, purpose: str) -> tuple[tuple[int, ...], Source]:
        raise DiceUnavailable(self.message, "arbitro §R.1")

    def draw(self, core: CoreState, index: int, population: tuple[str, ...], k: int, purpose: str) -> tuple[tuple[str, ...], Source]:
        raise DiceUnavailable(self.message, "arbitro §R.1")


class EnteredSupply:
    """Values typed in by the transcribing seat, consumed in order; asks for more when they run out."""

    def __init__(self, entries: tuple[tuple[str, ...], ...]) -> None:
        self.entries = list(entries)
        self.used = 0

    def _next(self) -> tuple[str, ...] | None:
        if self.used >= len(self.entries):
            return None
        self.used += 1
        return self.entries[self.used - 1]

    def roll(self, core: CoreState, index: int, count: int, sides: int, purpose: str) -> tuple[tuple[int, ...], Source]:
        entry = self._next()
        if entry is None:
            raise NeedRandom("roll", count, sides, (), purpose)
        if len(entry) != count or not all(v.isdigit() and 1 <= int(v) <= sides for v in entry):
            raise BadEntry(f"{purpose}: enter {count} value(s) from 1 to {sides}, got {list(entry)}")
        return tuple(int(v) for v in entry), "entered"

    def draw(self, core: CoreState, index: int, population: tuple[str, ...], k: int, purpose: str) -> tuple[tuple[str, ...], Source]:
        entry = self._next()
        if entry is None:
            raise NeedRandom("draw", k, 0, population, purpose)
        if len(entry) != k or len(set(entry)) != k or not set(entry) <= set(population):
            raise BadEntry(f"{purpose}: enter {k} distinct item(s) from {list(population)}, got {list(entry)}")
        return tuple(entry), "entered"


class RecordedSupply:
    """Replays the values a log recorded, in order (verification while the seed is still secret)."""

    def __init__(self, recorded: Iterator[tuple[Any, ...]]) -> None:
        self._recorded = recorded

    def _next(self, purpose: str) -> tuple[Any, ...]:
        value = next(self._recorded, None)
        if value is None:
            raise NeedRandom("roll", 0, 0, (), f"a roll the log does not record ({purpose})")
        return value

    def roll(self, core: CoreState, index: int, count: int, sides: int, purpose: str) -> tuple[tuple[int, ...], Source]:
        return tuple(int(v) for v in self._next(purpose)), "seed"

    def draw(self, core: CoreState, index: int, population: tuple[str, ...], k: int, purpose: str) -> tuple[tuple[str, ...], Source]:
        return tuple(str(v) for v in self._next(purpose)), "seed"
