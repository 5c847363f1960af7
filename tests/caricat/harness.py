"""Test harness: run Caricat! commands on a position with chosen dice, outside any store.

`Table(state).send(seat, command, dice=[...])` runs the ruleset's decide (or the awaited step's answer) with the dice
entered in order, one die a value (`pad` for any later die); a rejection raises IllegalCommand (`.rule` is the
citation). `position(...)` builds a state with only the listed pieces on the map.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator.caricat import CaricatRuleset
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.randomness import EnteredSupply
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import core
from arbitro.projections.caricat import CaricatState
from arbitro.projections.fold import Fold
from arbitro.projections.game import CoreState, GameState, awaited

RULESET = CaricatRuleset()
FOLD = Fold(RULESET)
STEPS = RULESET.steps()


class Dice(EnteredSupply):
    """Dice given one value at a time (a roll of n dice takes the next n values), then `pad`."""

    def __init__(self, values: list[int], pad: int) -> None:
        super().__init__(())
        self.values, self.pad = list(values), pad

    def roll(self, core_state: Any, index: int, count: int, sides: int, purpose: str) -> Any:
        taken = [self.values.pop(0) if self.values else self.pad for _ in range(count)]
        return tuple(taken), "entered"


class Table:
    def __init__(self, state: CaricatState, interpretations: dict[str, str] | None = None) -> None:
        chosen = dict(interpretations or {})
        self.game = GameState(core=CoreState(interpretations=chosen), rules=RULESET.note_interpretations(state, chosen))
        self.events: list[Any] = []

    @property
    def state(self) -> CaricatState:
        return self.game.rules

    def send(self, seat: str, command: dict[str, Any], dice: list[int] | None = None, pad: int = 3) -> list[Any]:
        parsed = RULESET.parse_command(command)
        ctx = Decision(RULESET, FOLD, FOLD.copy(self.game), seat, self.game.core.seq + 1, Dice(dice or [], pad),
                       tuple(self.state.options))
        top = awaited(self.game.core)
        if top is not None:
            if seat not in top.seats:
                raise IllegalCommand("another decision is pending", rule=top.rule)
            options = STEPS[top.kind].options(self.game, top, seat)
            if command not in options:
                raise IllegalCommand(f"not among {options}", rule=top.rule)
            STEPS[top.kind].answer(ctx, top, parsed)
        else:
            RULESET.decide(ctx, parsed)
        self.game = ctx.game
        self.events += ctx.events
        return ctx.events

    def start(self, dice: list[int] | None = None) -> list[Any]:
        ctx = Decision(RULESET, FOLD, FOLD.copy(self.game), "umpire", self.game.core.seq + 1, Dice(dice or [], 3), ())
        RULESET.start(ctx)
        self.game = ctx.game
        self.events += ctx.events
        return ctx.events

    def top(self) -> Any:
        return awaited(self.game.core)

    def legal(self, seat: str) -> list[dict[str, Any]]:
        top = awaited(self.game.core)
        if top is not None:
            return STEPS[top.kind].options(self.game, top, seat) if seat in top.seats else []
        return RULESET.legal(self.state, seat)

    def rolls(self) -> list[core.DiceRolled]:
        return [e for e in self.events if isinstance(e, core.DiceRolled)]

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


def position(scenario: str = "pastrengo", *, units: dict[str, str | None] | None = None,
             levels: dict[str, str] | None = None, hits: dict[str, int] | None = None, phase: str = "activation",
             seat: str = "italian", options: tuple[str, ...] = (), turn: int = 1) -> CaricatState:
    """A position of the scenario with only the listed units on the map (unit -> hex; None: off the map), leaders
    at the given levels, units with the given hits."""
    state = RULESET.new_state(scenario, options)
    state = msgspec.convert(msgspec.to_builtins(state), CaricatState)
    for k, u in state.units.items():
        if units is not None:
            u.hex = units.get(k)
            u.where = "map" if u.hex else "gone" if k not in units else "off"
    for k, level in (levels or {}).items():
        state.leaders[k].level = level
    for k, n in (hits or {}).items():
        state.units[k].hits = n
    for k, le in state.leaders.items():  # a leader stands with one of his units on the map, if any
        mine = [x for x, u in sorted(state.units.items()) if u.leader == k and u.where == "map"]
        if le.unit not in mine and mine:
            le.unit = mine[0]
    state.phase, state.seat, state.turn = phase, seat, turn
    return state


def activated(state: CaricatState, who: str, kind: str = "leader") -> CaricatState:
    """The position with `who`'s activation under way."""
    state.activation, state.activation_kind = who, kind
    state.activation_level = state.leaders[who].level if kind == "leader" else "advance"
    state.serial += 1
    if kind == "leader":
        state.leaders[who].activated = True
    else:
        state.units[who].activated = True
    return state
