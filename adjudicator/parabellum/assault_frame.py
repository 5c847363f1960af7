"""The assault in progress as one frame on the engine's decision stack (arbitro §S.3): its context
events/parabellum.AssaultUnderway, kind ASSAULT, below the decisions it asks (retreats before combat, defensive
fire, a side's efficiency value), answered by nobody; its stages are parabellum/assault.run's.

The assault's decisions (`kinds`, the assault's own frame among them) wait below the game's other decisions opened
while they wait, as when they had a stack of their own (arrivano: a retreat a defensive fire caused is made before
the assault goes on): a frame of `kinds` opened while others are above the topmost of them goes in under those,
which are closed and opened again around it ("lifted"); the assault's frame is revised and closed the same way.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import msgspec

from arbitro.adjudicator.decisions import close_frame, open_frame, update_frame
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import core
from arbitro.events.parabellum import AssaultUnderway

ASSAULT = "assault"  # the kind of the assault's own frame


def assault_below(decisions: Sequence[core.Frame[Any]]) -> AssaultUnderway | None:
    """The assault in progress on the stack `decisions` whatever waits above it (the topmost: a counter-charge's
    above the charge whose efficiency choice waits, arrivano §14.2.4): the context its decisions read."""
    return next((frame.ctx for frame in reversed(decisions) if frame.kind == ASSAULT), None)


@dataclass(frozen=True)
class AssaultFrames:
    """The decision stack as a game's assault uses it. `kinds`: the assault's decisions (ASSAULT among them);
    `game_kinds`: all the game's decisions (an engine frame above them is never lifted)."""

    ctx: Decision[Any]
    kinds: Collection[str]
    game_kinds: Collection[str]

    def push(self, kind: str, seats: tuple[str, ...], rule: str, prompt: str, context: core.FrameContext) -> None:
        """Open a decision: one of the assault's below the game's other decisions above them."""
        with self.lifted(self._above() if kind in self.kinds else []):
            open_frame(self.ctx, kind, seats, rule, prompt, context)

    @contextmanager
    def lifted(self, frames: Sequence[core.Frame[Any]]) -> Iterator[None]:
        """`frames` (the frames on top, top first) closed while a frame is opened, revised or closed below them,
        then opened again in their order."""
        for frame in frames:
            close_frame(self.ctx, frame)
        yield
        for frame in reversed(frames):
            open_frame(self.ctx, frame.kind, frame.seats, frame.rule, frame.prompt, frame.ctx)

    def current(self) -> AssaultUnderway | None:
        """The assault whose stage may run: the topmost of the assault's decisions is its frame (none it asked
        waits above it; other kinds may)."""
        for frame in reversed(self.ctx.game.core.decisions):
            if frame.kind not in self.game_kinds:
                return None
            if frame.kind in self.kinds:
                return frame.ctx if frame.kind == ASSAULT else None
        return None

    def running(self) -> AssaultUnderway:
        """The assault an answer to one of its decisions goes on with (that decision closed: none waits above it)."""
        c = self.current()
        assert c is not None, "no assault in progress"
        return c

    def on_top(self) -> bool:
        """The assault's frame is the decision on top: nothing at all waits above it."""
        decisions = self.ctx.game.core.decisions
        return bool(decisions) and decisions[-1].kind == ASSAULT

    def revise(self, **fields: Any) -> None:
        """The assault's frame after a stage: `fields` changed."""
        lifted = self._above()
        frame = self._assault_frame(lifted)
        with self.lifted(lifted):
            update_frame(self.ctx, frame, msgspec.structs.replace(frame.ctx, **fields))

    def end(self) -> None:
        """The assault is over (its result is carried out next): its frame closed."""
        lifted = self._above()
        frame = self._assault_frame(lifted)
        with self.lifted(lifted):
            close_frame(self.ctx, frame)

    def _above(self) -> list[core.Frame[Any]]:
        """The game's frames of other kinds above the topmost of the assault's, top first."""
        out = []
        for frame in reversed(self.ctx.game.core.decisions):
            if frame.kind not in self.game_kinds or frame.kind in self.kinds:
                break
            out.append(frame)
        return out

    def _assault_frame(self, above: Sequence[core.Frame[Any]]) -> core.Frame[AssaultUnderway]:
        frame = self.ctx.game.core.decisions[-1 - len(above)]
        assert frame.kind == ASSAULT, "no assault in progress"
        return frame
