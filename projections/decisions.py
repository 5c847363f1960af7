"""The fold of the one decision vocabulary (arbitro §S.3): decision_opened pushes a frame on
`CoreState.decisions`, decision_revised replaces the top frame's seats, prompt and context, decision_resolved
pops it. Nothing else in the fold touches the stack."""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.events import core

DECISION_EVENTS = (core.DecisionOpened, core.DecisionRevised, core.DecisionResolved)


class StackMismatch(AssertionError):
    """A decision event that does not fit the stack (an update or close of a frame that is not on top)."""


def apply_decision(stack: tuple[core.Frame[Any], ...], event: Any) -> tuple[core.Frame[Any], ...]:
    match event:
        case core.DecisionOpened(frame=frame):
            return (*stack, frame)
        case core.DecisionRevised(kind=kind, seats=seats, prompt=prompt, ctx=ctx):
            top = _top(stack, kind)
            return (*stack[:-1], msgspec.structs.replace(top, seats=seats, prompt=prompt, ctx=ctx))
        case core.DecisionResolved(kind=kind):
            _top(stack, kind)
            return stack[:-1]
    raise TypeError(f"not a decision event: {type(event).__name__}")


def _top(stack: tuple[core.Frame[Any], ...], kind: str) -> core.Frame[Any]:
    # The engine emits these events itself, so a mismatch is a defect, never a player's error.
    if not stack or stack[-1].kind != kind:
        found = stack[-1].kind if stack else "nothing"
        raise StackMismatch(f"a {kind} decision event, but the decision on top is {found}")
    return stack[-1]
