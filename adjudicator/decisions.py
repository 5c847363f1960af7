"""The one decision mechanism's deciding half (arbitro §S.3): a `Step` answers one kind of frame on the
decision stack (`CoreState.decisions`, events.core.Frame), as a Rally the Troops state keeps its prompt and
its actions together: `options` lists the answers the prompt offers, `answer` handles one.

The engine owns the stack. When a frame is on top, the engine checks that the sender is one of the frame's
seats and (for a step whose options are the complete list of answers) that the command is one of them, then
calls the step's `answer`; `legal()` for a pending decision is the step's `options`. A step opens, updates
and closes frames by emitting DecisionOpened / DecisionRevised / DecisionResolved (see `open_frame`...).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from arbitro.events import core
from arbitro.projections.game import GameState

C = TypeVar("C", bound=core.FrameContext)


class Decision(Protocol):
    """What a step answers in: adjudicator.ruleset.Decision (which imports this module, hence the protocol)."""

    seat: str
    game: GameState[Any]

    def emit(self, event: Any) -> None: ...


class Step(Generic[C]):
    """One kind of pending decision. Subclass per kind; a ruleset returns its steps from `Ruleset.steps()`."""

    kind: ClassVar[str]
    # True: `options` is the complete list of answers and the engine refuses anything else before `answer`
    # sees it. False: `options` are templates (a value to fill in) and `answer` checks the command itself.
    complete: ClassVar[bool] = True
    # Answer types the kind takes though its options may list none of them now (a decline an obligation forbids): one
    # of them from the frame's seat is refused with `refusal`'s reason, not as a command of another decision.
    takes: frozenset[str] = frozenset()

    def options(self, state: GameState[Any], frame: core.Frame[C], seat: str) -> list[dict[str, Any]]:
        """The answers the prompt lists to `seat` (the commands `legal()` returns while this frame is on top)."""
        return []

    def answer(self, ctx: Decision, frame: core.Frame[C], command: Any) -> Decision | None:
        """Handle one answer from ctx.seat: emit its events (closing, updating or opening frames), or reject.
        Return a different Decision only when the answer replaces the context (the engine's random entry)."""
        raise NotImplementedError

    def refusal(self, state: GameState[Any], frame: core.Frame[C], command: dict[str, Any],
                options: list[dict[str, Any]]) -> tuple[str, str] | None:
        """Why `command` (stored form), an answer of a kind `options` lists but not one of them, is refused: the rule
        and what is permitted instead. None: the engine lets `answer` judge it on a scratch copy (a step whose answer
        trusts the options it listed gives its reasons here, and its answer never sees an unlisted command)."""
        return None


class OnData(Step[Any]):
    """`step` answered, and its options listed, inside the context `bind(rules)` opens on the game's ruleset state:
    a ruleset whose games may carry their own data (a user's data folder) binds those data around every call."""

    def __init__(self, step: Step[Any], bind: Callable[[Any], AbstractContextManager[object]]) -> None:
        self.step, self.bind, self.kind, self.complete = step, bind, step.kind, step.complete  # type: ignore[misc]
        self.takes = step.takes

    def options(self, state: GameState[Any], frame: core.Frame[Any], seat: str) -> list[dict[str, Any]]:
        with self.bind(state.rules):
            return self.step.options(state, frame, seat)

    def answer(self, ctx: Decision, frame: core.Frame[Any], command: Any) -> Decision | None:
        with self.bind(ctx.state):
            return self.step.answer(ctx, frame, command)

    def refusal(self, state: GameState[Any], frame: core.Frame[Any], command: dict[str, Any],
                options: list[dict[str, Any]]) -> tuple[str, str] | None:
        with self.bind(state.rules):
            return self.step.refusal(state, frame, command, options)


def open_frame(ctx: Decision, kind: str, seats: tuple[str, ...], rule: str, prompt: str, context: C) -> None:
    ctx.emit(core.DecisionOpened(frame=core.Frame(kind=kind, seats=seats, rule=rule, prompt=prompt, ctx=context)))


def update_frame(ctx: Decision, frame: core.Frame[C], context: C, *, seats: tuple[str, ...] | None = None,
                 prompt: str | None = None) -> None:
    ctx.emit(core.DecisionRevised(kind=frame.kind, seats=frame.seats if seats is None else seats,
                                  prompt=frame.prompt if prompt is None else prompt, ctx=context))


def close_frame(ctx: Decision, frame: core.Frame[Any]) -> None:
    ctx.emit(core.DecisionResolved(kind=frame.kind, rule=frame.rule))


def waiting(frame: core.Frame[Any]) -> str:
    """What a refusal says while `frame` is awaited: who, and for what (arbitro §S.3)."""
    return f"waiting for {', '.join(frame.seats) or 'nobody'} to {frame.prompt}"
