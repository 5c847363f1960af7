"""The state of a game: the engine's core bookkeeping and the ruleset's own state, with their hash."""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

import msgspec

from arbitro.events.codec import canonical, sha256_hex

S = TypeVar("S")


class EnginePending(msgspec.Struct, kw_only=True):
    """A decision the engine itself awaits (it takes precedence over the ruleset's)."""

    kind: Literal["consent", "random", "entropy"]
    seats: tuple[str, ...]  # who must answer
    rule: str
    prompt: str
    undo_to: int = 0
    requested_by: str = ""
    answers: dict[str, bool] = {}
    # kind "random": the RandomRequested event (as builtins); kind "entropy": the commit-reveal round so far
    # (phase, required seats, commitments, entropies, whether the opening waits, the decision it suspended)
    request: dict[str, Any] = {}


class CoreState(msgspec.Struct, kw_only=True):
    seq: int = 0  # the last event folded
    rolls: int = 0  # the next random index
    mix: str = ""  # the seats' entropy mixed so far
    seed: str | None = None  # revealed seed
    interpretations: dict[str, str] = {}  # umpire rulings overriding a ruleset's default reading
    pending: EnginePending | None = None
    last_checkpoint: int = 0


class GameState(msgspec.Struct, Generic[S], kw_only=True):
    core: CoreState
    rules: S


def state_bytes(state: GameState[Any]) -> bytes:
    return canonical(state)


def state_hash(state: GameState[Any]) -> str:
    return sha256_hex(state_bytes(state))


def copy_state(state: GameState[S], state_type: Any) -> GameState[S]:
    """A deep, private copy (the fold may mutate what it is given)."""
    return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=GameState[state_type])  # type: ignore[no-any-return]
