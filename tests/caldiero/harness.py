"""Test harness: run Caldiero commands on a position with chosen dice, outside any store.

`Table` holds a GameState; `send(seat, command, dice=[...])` runs the ruleset's decide with the dice
entered in order (the foundation's EnteredSupply), folds the events and returns them; a rejection raises
IllegalCommand (its `.rule` is the citation). `position()` builds a state with units where a test wants them.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator.caldiero import CaldieroRuleset
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.randomness import EnteredSupply, NeedRandom
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import caldiero as ev
from arbitro.events import core
from arbitro.projections.caldiero import Activation, CaldieroState
from arbitro.projections.fold import Fold
from arbitro.projections.game import CoreState, GameState, awaited

RULESET = CaldieroRuleset()
FOLD = Fold(RULESET)
STEPS = RULESET.steps()


class PaddedSupply(EnteredSupply):
    """Entered dice in order; once they run out, filler dice cycling from `pad` (0: ask, i.e. raise
    NeedRandom). The filler varies so that re-rolled ties (initiative, §6) end."""

    def __init__(self, entries: tuple[tuple[str, ...], ...], pad: int) -> None:
        super().__init__(entries)
        self.pad = pad
        self.filler = 0

    def roll(self, core: Any, index: int, count: int, sides: int, purpose: str) -> Any:
        if self.used >= len(self.entries) and self.pad:
            values = []
            for _ in range(count):
                values.append((self.pad - 1 + self.filler * 5) % sides + 1)
                self.filler += 1
            return tuple(values), "entered"
        return super().roll(core, index, count, sides, purpose)


class Table:
    def __init__(self, state: CaldieroState, interpretations: dict[str, str] | None = None) -> None:
        chosen = dict(interpretations or {})
        self.game = GameState(core=CoreState(interpretations=chosen), rules=RULESET.note_interpretations(state, chosen))
        self.events: list[Any] = []
        self.rolls: list[core.DiceRolled] = []

    @property
    def state(self) -> CaldieroState:
        return self.game.rules

    def send(self, seat: str, command: dict[str, Any], dice: list[int | tuple[int, ...]] | None = None,
             pad: int = 3) -> list[Any]:
        """`dice` are entered in order; then `pad` is entered for any later roll (initiative, weather...
        when the flow runs on to the next activation or turn). pad=0: no padding."""
        entries = tuple(tuple(str(v) for v in (d if isinstance(d, tuple) else (d,))) for d in (dice or []))
        parsed = RULESET.parse_command(command)
        ctx = Decision(RULESET, FOLD, FOLD.copy(self.game), seat, self.game.core.seq + 1, PaddedSupply(entries, pad),
                       tuple(self.state.options))
        top = awaited(self.game.core)
        if top is not None:  # a frame on the engine's stack: its step answers, as the engine would call it
            if seat not in top.seats:
                raise IllegalCommand(f"waiting for {', '.join(top.seats)}", rule=top.rule)
            options = [RULESET.dump_command(RULESET.parse_command(o)) for o in STEPS[top.kind].options(self.game, top, seat)]
            if RULESET.dump_command(parsed) not in options:  # the engine's check (arbitro §S.3)
                raise IllegalCommand(f"first {top.prompt}", rule=top.rule)
            STEPS[top.kind].answer(ctx, top, parsed)
        else:
            RULESET.decide(ctx, parsed)
        self.game = ctx.game
        self.events += ctx.events
        self.rolls += [e for e in ctx.events if isinstance(e, core.DiceRolled)]
        return ctx.events

    def needs_roll(self, seat: str, command: dict[str, Any], dice: list[Any] | None = None) -> bool:
        try:
            self.send(seat, command, dice)
        except NeedRandom:
            return True
        return False

    def awaited(self) -> core.Frame[Any] | None:
        """The frame on top of the engine's decision stack (a retreat, a leader's escape), if any."""
        return awaited(self.game.core)

    def legal(self, seat: str) -> list[dict[str, Any]]:
        top = awaited(self.game.core)
        if top is not None:  # legal() for a pending decision is its step's options (arbitro §S.3)
            return STEPS[top.kind].options(self.game, top, seat) if seat in top.seats else []
        return RULESET.legal(self.state, seat)

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    def unit(self, u: str) -> Any:
        return self.state.units[u]


def fresh(scenario: str = "historical", options: tuple[str, ...] = ()) -> CaldieroState:
    return RULESET.new_state(scenario, options)


def position(
    units: dict[str, str], *, leaders: dict[str, str] | None = None, scenario: str = "historical",
    options: tuple[str, ...] = (), orders: dict[str, str] | None = None, weather: int = 0, turn: int = 2,
) -> CaldieroState:
    """Only the listed units/leaders are on the map (others off it, as if not yet arrived or dead)."""
    state = fresh(scenario, options)
    for u, s in state.units.items():
        if u in units:
            s.hex, s.where = units[u], "map"
        else:
            s.hex, s.where = "", "eliminated"
    for leader, s in state.leaders.items():
        if leaders and leader in leaders:
            s.hex, s.where = leaders[leader], "map"
        else:
            s.hex, s.where = "", "eliminated"
    for f, order in (orders or {}).items():
        state.formations[f].order = order
    for f in state.formations.values():
        if f.order is None:
            f.order = "defence"
    state.weather, state.turn, state.first_turn = weather, turn, False
    state.phase, state.step, state.seat = "action", "choose_formation", "france"
    state.seen = {}
    if "fog_of_war" in options:
        RULESET._update_seen(state)  # what each seat has examined in this position
    return state


def activate(state: CaldieroState, formation: str, *, step: str = "movement", interpretations: dict[str, str] | None = None,
             dice: list[Any] | None = None) -> Table:
    """A table whose `formation` is activated and standing at `step` (movement, leaders, bombardment, combat)."""
    side = state.formations[formation].side
    state.seat = side
    t = Table(state, interpretations)
    t.send(side, {"type": "activate", "formation": formation}, dice, pad=0)
    assert t.state.activation is not None and t.state.activation.formation == formation
    if t.state.step != step:
        t.state.step, t.state.seat = step, side  # position set-up: jump to the sub-phase under test
    return t


def encode(state: CaldieroState) -> dict[str, Any]:
    return msgspec.to_builtins(state)  # type: ignore[no-any-return]


__all__ = ["RULESET", "Table", "activate", "encode", "ev", "fresh", "position", "Activation"]
