"""The context of one Caricat! decision: the engine's Decision, the scenario's data, and the position's World
rebuilt after every event (the rules read the position as it is now)."""

from __future__ import annotations

from typing import Any, NoReturn

from arbitro.adjudicator import decisions
from arbitro.adjudicator.caricat.loader import CaricatData, ScenarioFile
from arbitro.adjudicator.caricat.world import World
from arbitro.adjudicator.ruleset import Decision, Rule
from arbitro.events.core import FrameContext
from arbitro.projections.caricat import CaricatState
from arbitro.projections.game import awaited


class Game:
    def __init__(self, ctx: Decision[CaricatState], data: CaricatData) -> None:
        self.ctx, self.data = ctx, data
        self._readings: dict[str, str] | None = None

    @property
    def state(self) -> CaricatState:
        return self.ctx.state

    @property
    def file(self) -> ScenarioFile:
        return self.data.scenarios[self.state.scenario].file

    def world(self) -> World:
        return World(self.state, self.data, self.readings())

    def readings(self) -> dict[str, str]:
        """The interpretations in force, read once per decision (a World is made after every event; no ruleset
        event changes them): do not modify the answer."""
        if self._readings is None:
            self._readings = {name: self.ctx.interpretation(name) for name in self.ctx.ruleset.interpretations()}
        return self._readings

    def emit(self, event: Any) -> None:
        self.ctx.emit(event)

    def roll(self, count: int, purpose: Rule, what: str, detail: dict[str, str | int] | None = None,
             about: tuple[str, ...] = ()) -> tuple[int, ...]:
        return self.ctx.roll(count, 6, purpose=f"{purpose} {what}", detail=detail, about=about)

    def reject(self, rule: Rule | str, message: str) -> NoReturn:
        self.ctx.reject(rule, message)

    # --- the engine's decision stack ------------------------------------------------------------------------
    def top(self) -> Any:
        return awaited(self.ctx.game.core)

    def push(self, kind: str, seats: tuple[str, ...], rule: Rule, prompt: str, context: FrameContext) -> None:
        decisions.open_frame(self.ctx, kind, seats, str(rule), prompt, context)

    def revise(self, context: FrameContext) -> None:
        decisions.update_frame(self.ctx, self.top(), context)

    def pop(self) -> None:
        decisions.close_frame(self.ctx, self.top())
