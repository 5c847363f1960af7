"""Test harness: run Arrivano commands on a position with chosen dice, outside any store.

`Table(state).send(seat, command, dice=[...])` runs the ruleset's decide with the dice entered in order (then
`pad` for any later roll), folds the events and returns them; a rejection raises IllegalCommand (`.rule` is the
citation). `position()` builds a state with only the listed pieces on the map; `open_ground()` finds a patch of
clear terrain so geometry tests do not depend on the (provisional) map.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator.arrivano import ArrivanoRuleset
from arbitro.adjudicator.arrivano.flow import as_frame, prompt
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.randomness import EnteredSupply
from arbitro.adjudicator.ruleset import Decision, Pending
from arbitro.events import arrivano as ev
from arbitro.events import core
from arbitro.projections.arrivano import Activation, ArrivanoState
from arbitro.projections.fold import Fold
from arbitro.projections.game import CoreState, GameState, awaited

RULESET = ArrivanoRuleset()
FOLD = Fold(RULESET)
STEPS = RULESET.steps()


class PaddedSupply(EnteredSupply):
    def __init__(self, entries: tuple[tuple[str, ...], ...], pad: int) -> None:
        super().__init__(entries)
        self.pad = pad

    def roll(self, core: Any, index: int, count: int, sides: int, purpose: str) -> Any:
        if self.used >= len(self.entries) and self.pad:
            return tuple(self.pad for _ in range(count)), "entered"
        return super().roll(core, index, count, sides, purpose)


class Table:
    def __init__(self, state: ArrivanoState, interpretations: dict[str, str] | None = None) -> None:
        chosen = dict(interpretations or {})
        self.game = GameState(core=CoreState(interpretations=chosen), rules=RULESET.note_interpretations(state, chosen))
        self.events: list[Any] = []
        self.rolls: list[core.DiceRolled] = []

    @property
    def state(self) -> ArrivanoState:
        return self.game.rules

    def send(self, seat: str, command: dict[str, Any], dice: list[int] | None = None, pad: int = 3) -> list[Any]:
        entries = tuple((str(d),) for d in (dice or []))
        parsed = RULESET.parse_command(command)
        ctx = Decision(RULESET, FOLD, FOLD.copy(self.game), seat, self.game.core.seq + 1, PaddedSupply(entries, pad),
                       tuple(self.state.options))
        top = awaited(self.game.core)
        if top is not None:  # a frame on the engine's stack: its step answers (the engine would check the seat)
            if seat not in top.seats:
                raise IllegalCommand("another decision is pending", rule=top.rule)
            STEPS[top.kind].answer(ctx, top, parsed)
        else:
            RULESET.decide(ctx, parsed)
        self.game = ctx.game
        self.events += ctx.events
        self.rolls += [e for e in ctx.events if isinstance(e, core.DiceRolled)]
        return ctx.events

    def start(self, dice: list[int]) -> list[Any]:
        entries = tuple((str(d),) for d in dice)
        ctx = Decision(RULESET, FOLD, FOLD.copy(self.game), "umpire", self.game.core.seq + 1, PaddedSupply(entries, 3), ())
        RULESET.start(ctx)
        self.game = ctx.game
        self.events += ctx.events
        return ctx.events

    def new_turn(self, turn: int, dice: list[int] | None = None) -> list[Any]:
        """Start turn `turn` (its Command phase, arrivano §3.1 A) as the end phase does, then settle the frames."""
        from arbitro.adjudicator.arrivano.turn import start_turn
        from arbitro.adjudicator.arrivano.steps import settle
        entries = tuple((str(d),) for d in (dice or []))
        ctx = Decision(RULESET, FOLD, FOLD.copy(self.game), "umpire", self.game.core.seq + 1, PaddedSupply(entries, 3), ())
        g = RULESET.game(ctx)
        start_turn(g, turn)
        settle(g)
        self.game = ctx.game
        self.events += ctx.events
        return ctx.events

    def rule(self, interpretations: dict[str, str]) -> None:
        """An umpire's ruling switching readings now (as the fold applies core.RulingMade)."""
        chosen = dict(sorted({**self.game.core.interpretations, **interpretations}.items()))
        self.game.core.interpretations = chosen
        self.game.rules = RULESET.note_interpretations(self.game.rules, chosen)

    def awaited(self) -> Any:
        """The decision awaited: the top frame of the engine's stack, as the procedures read it."""
        top = awaited(self.game.core)
        return as_frame(top) if top is not None else None

    def pending(self) -> Pending | None:
        """The decision awaited, as the engine serves it: the frame on top of its stack (who, what, its options)."""
        top = awaited(self.game.core)
        if top is None:
            return None
        seat = top.seats[0] if top.seats else ""
        return Pending(seat=seat, kind=top.kind, rule=top.rule, prompt=top.prompt, options=self.legal(seat))

    def with_frame(self, kind: str, seat: str, rule: str, data: dict[str, Any]) -> "Table":
        """Put a decision of `kind` on the engine's stack, as the rules open it (Game.push)."""
        context = msgspec.convert(data, ev.ARRIVANO_CONTEXTS[kind])
        frame = core.Frame(kind=kind, seats=(seat,) if seat else (), rule=rule, prompt=prompt(kind, rule), ctx=context)
        self.game.core.decisions = (*self.game.core.decisions, frame)
        return self

    def legal(self, seat: str) -> list[dict[str, Any]]:
        top = awaited(self.game.core)
        if top is not None:  # legal() for a pending decision is its step's options (arbitro §S.3)
            return STEPS[top.kind].options(self.game, top, seat) if seat in top.seats else []
        return RULESET.legal(self.state, seat)

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


def fresh(scenario: str = "montebello") -> ArrivanoState:
    return RULESET.new_state(scenario, ())


def world(state: ArrivanoState) -> Any:
    return RULESET.world(state)


def position(units: dict[str, str], *, leaders: dict[str, str] | None = None, scenario: str = "montebello",
             orders: dict[str, str] | None = None, turn: int = 2, weather: int | None = None) -> ArrivanoState:
    """Only the listed pieces are on the map; every reinforcement group counts as entered."""
    state = fresh(scenario)
    for uid, unit in state.units.items():
        unit.hex, unit.where = (units[uid], "map") if uid in units else ("", "eliminated")
    for lid, leader in state.leaders.items():
        leader.hex, leader.where = (leaders[lid], "map") if leaders and lid in leaders else ("", "offmap")
    for f, order in (orders or {}).items():
        state.formations[f].order = order
    state.entered_groups = [g.id for g in RULESET.data.scenarios[scenario].oob.reinforcements]
    state.march_orders = {m: False for m in state.march_orders}
    state.turn, state.first_turn = turn, False
    state.phase, state.step, state.seat = "action", "choose_activation", "france"
    if weather is not None:
        state.weather = weather
    return state


def at_step(state: ArrivanoState, formation: str, step: str) -> Table:
    """A table with `formation` activated and standing at `step` (bombardment, movement, combat)."""
    side = state.formations[formation].side
    state.activation = Activation(formation=formation)
    state.phase, state.step, state.seat = "action", step, side
    return Table(state)


def open_ground(scenario: str = "montebello", radius: int = 2) -> str:
    """A hex whose surroundings within `radius` are all clear, roadless, level ground."""
    s = RULESET.data.scenarios[scenario]
    grid = s.map.grid
    for h in s.map.hexes():
        area = grid.within(h, radius)
        if len(area) != 1 + 3 * radius * (radius + 1):
            continue
        if all(s.map.hex(x).terrains == ("pianura",) and not s.map.roads_at(x) and s.map.elevation(x) == s.map.elevation(h)
               for x in area):
            return h
    raise AssertionError("no open ground on the map")


def line(centre: str, scenario: str = "montebello", n: int = 4) -> list[str]:
    """`n` hexes in a straight line from `centre` (same direction)."""
    grid = RULESET.data.scenarios[scenario].map.grid
    out = [centre]
    while len(out) < n:
        nxt = grid.neighbour(out[-1], 1)
        assert nxt is not None
        out.append(nxt)
    return out


def village_attack_hexes(scenario: str = "montebello") -> tuple[str, str, str]:
    """A village with clear ground beside it: (the village, a clear hex adjacent to it for the attackers, a hex behind
    the attackers not adjacent to the village)."""
    s = RULESET.data.scenarios[scenario]
    grid = s.map.grid
    village = next(h for h in s.map.hexes() if s.map.hex(h).terrains == ("villaggio",)
                   and any(s.map.hex(n).terrains == ("pianura",) for n in grid.neighbours(h)))
    att = next(n for n in sorted(grid.neighbours(village)) if s.map.hex(n).terrains == ("pianura",))
    back = next(n for n in sorted(grid.neighbours(att)) if n != village and not grid.is_adjacent(n, village))
    return village, att, back


__all__ = ["RULESET", "Table", "at_step", "ev", "fresh", "line", "open_ground", "position", "village_attack_hexes", "world"]
