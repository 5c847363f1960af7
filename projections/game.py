"""The state of a game: the engine's core bookkeeping and the ruleset's own state, with their hash."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import msgspec

from arbitro.events.codec import canonical, sha256_hex
from arbitro.events.core import Frame, GameCreated

S = TypeVar("S")
C = TypeVar("C")


class CoreState(msgspec.Struct, Generic[C], kw_only=True):
    seq: int = 0  # the last event folded
    rolls: int = 0  # the next random index
    mix: str = ""  # the seats' entropy mixed so far
    seed: str | None = None  # revealed seed
    interpretations: dict[str, str] = {}  # umpire rulings overriding a ruleset's default reading
    # The pending decisions, innermost last (arbitro §S.3): the engine's and the ruleset's, one stack.
    decisions: tuple[Frame[C], ...] = ()
    last_checkpoint: int = 0
    # The salt key, once revealed at the game's end (core.SaltKeyRevealed). UNSET is never encoded: the states, and
    # so the checkpoints' hashes, of games that reveal none are what they were.
    salt_key: str | msgspec.UnsetType = msgspec.UNSET


def awaited(core: CoreState[Any]) -> Frame[Any] | None:
    """The decision the game waits for now: the top frame, or None."""
    return core.decisions[-1] if core.decisions else None


class GameState(msgspec.Struct, Generic[S], kw_only=True):
    core: CoreState[Any]
    rules: S


@functools.lru_cache(maxsize=None)
def state_type(rules: Any, contexts: Any) -> Any:
    """The concrete GameState a ruleset's states decode to: its rules state, and frames whose context is one
    of `contexts` (the engine's and the ruleset's, a tagged union), so a decoded frame is typed, never a dict."""
    return msgspec.defstruct("GameState", [("core", CoreState[contexts]), ("rules", rules)], bases=(GameState,),
                             kw_only=True, module=__name__)


def state_bytes(state: GameState[Any]) -> bytes:
    return canonical(state)


def state_hash(state: GameState[Any]) -> str:
    return sha256_hex(state_bytes(state))


def copy_state(state: GameState[S], concrete: Any) -> GameState[S]:
    """A deep, private copy (the fold may mutate what it is given); `concrete` is the `state_type`."""
    return kept_state(state, concrete)()


def kept_state(state: GameState[S], concrete: Any) -> Callable[[], GameState[S]]:
    """`state` as it is now, kept while the original goes on changing: a function that gives a private copy of
    it each time it is called. Keeping costs the encoding alone, a third of a copy; the copy is made if asked for."""
    data = msgspec.msgpack.encode(state)
    return lambda: msgspec.msgpack.decode(data, type=concrete)  # type: ignore[no-any-return]


def salting_key_public(created: GameCreated, core: CoreState[Any]) -> bool:
    """Whether the key this game's salts derive from is public already: its salt key, revealed at its end, or (a
    game made before the salt key) its seed, revealed at all. Play taken back past the end (an undo, a dispute's
    ruling) must not salt new events with it, or they are hashes a seat can test guesses against (arbitro §V.3;
    rev-p P1): they get fresh random salts (GameRecord.salting_key), which verify does not judge."""
    return core.salt_key is not msgspec.UNSET if created.salted_by_key() else core.seed is not None


def dice_public(created: GameCreated) -> bool:
    """Whether this game replays dice anyone can predict from its genesis on: a fork that kept the dice of a parent
    whose seed was already revealed (arbitro §R.3)."""
    return bool(created.origin.get("keep_dice", False) and created.origin.get("seed_public", False))


def may_reveal(created: GameCreated) -> bool:
    """Whether the game's seed may ever be revealed, from its genesis alone. A fork that kept its parent's dice
    shares the parent's seed. Forks made since arbitro §R.3 required the parent's reveal first hold a seed that is
    already public; an older one (made before its parent's reveal) never reveals it, since that would make the
    parent's later rolls predictable."""
    return not created.origin.get("keep_dice", False) or bool(created.origin.get("seed_public", False))
