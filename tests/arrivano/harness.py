"""Arrivano's test harness: the hex rulesets' Table (tests/hex/harness.py: commands judged by the engine exactly as a
submit judges them, on a position with chosen dice; refusals with their citation; the agreement of legal() and
decide()) bound to Arrivano, and its position builders.

`Table(state).send(seat, command, dice=[...])` rolls the dice given (then `pad` for any later die); a refusal
raises the engine's Rejected (IllegalCommand, NotYourDecision...: `.rule` is the citation). `position()` builds a state with only the listed pieces on the map; `open_ground()` finds a patch of
clear terrain so geometry tests do not depend on the (provisional) map.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator.arrivano import ArrivanoRuleset
from arbitro.adjudicator.arrivano.flow import prompt
from arbitro.adjudicator.arrivano.turn import end_phase, start_turn
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.parabellum.act import settle
from arbitro.adjudicator.ruleset import Pending
from arbitro.events import arrivano as ev
from arbitro.events import core
from arbitro.events.codec import canonical
from arbitro.projections.arrivano import ArrivanoState
from arbitro.projections.parabellum import Activation
from arbitro.projections.fold import Fold
from tests.hex import harness

RULESET = ArrivanoRuleset()
FOLD = Fold(RULESET)


class Table(harness.Table[ArrivanoState]):
    """The hex rulesets' Table (tests/hex/harness.py) bound to Arrivano, with what its tests add: a new turn's
    opening, a frame put on the stack by hand, the awaited decision as the procedures and as the engine read it."""

    def __init__(self, state: ArrivanoState, interpretations: dict[str, str] | None = None) -> None:
        super().__init__(RULESET, state, interpretations)

    @property
    def rolls(self) -> list[core.DiceRolled]:  # type: ignore[override]
        return self.of(core.DiceRolled)

    def new_turn(self, turn: int, dice: list[int | tuple[int, ...]] | None = None) -> list[Any]:
        """Start turn `turn` (its Command phase, arrivano §3.1 A) as the end phase does, then settle the frames."""
        ctx = self.decision("umpire", dice)
        g = RULESET.game(ctx)
        start_turn(g, turn)
        settle(g)
        self.game = ctx.game
        self.events += ctx.events
        return list(ctx.events)

    def awaited(self) -> Any:
        """The decision awaited: the top frame of the engine's stack, as the procedures read it."""
        return self.top()

    def pending(self) -> Pending | None:
        """The decision awaited, as the engine serves it: the frame on top of its stack (who, what, its options)."""
        top = self.top()
        if top is None:
            return None
        seat = top.seats[0] if top.seats else ""
        return Pending(seat=seat, kind=top.kind, rule=top.rule, prompt=top.prompt, options=self.legal(seat))

    def with_frame(self, kind: str, seat: str, rule: str, data: dict[str, Any]) -> "Table":
        """Put a decision of `kind` on the engine's stack, as the rules open it (flow.push)."""
        context = msgspec.convert(data, ev.ARRIVANO_CONTEXTS[kind])
        frame = core.Frame(kind=kind, seats=(seat,) if seat else (), rule=rule, prompt=prompt(kind, rule), ctx=context)
        self.game.core.decisions = (*self.game.core.decisions, frame)
        return self


def end_phase_made(state: ArrivanoState) -> tuple[Any, list[tuple[str, list[Any]]], ArrivanoState]:
    """The end phase (arrivano §3.1 C) run on `state` as one command's events, for the fog's non-interference tests
    (bench/served.served): the game before, the command, the state after."""
    t = Table(state)
    before = FOLD.copy(t.game)
    ctx = t.decision()
    g = RULESET.game(ctx)
    end_phase(g)
    settle(g)
    return before, [("france", list(ctx.events))], ctx.state


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
    state.formations[formation].activated = True  # as formation_activated folds it (projections/parabellum)
    state.phase, state.step, state.seat = "action", step, side
    return Table(state)


def declaration_served(t: Table, seat: str, attackers: list[str], target: str) -> tuple[bytes, bytes, str]:
    """What `seat` is served at the combat step (for non-interference tests of the fog, arrivano §11.3.2): its view,
    the assaults legal() lists, and its declaration's answer ("declared" or the refusal's words)."""
    view = canonical(RULESET.view(t.state, seat))
    legal = canonical([c for c in t.legal(seat) if c["type"] == "assault"])
    try:
        t.send(seat, {"type": "assault", "attackers": attackers, "targets": [target]})
    except IllegalCommand as e:
        return view, legal, str(e)
    return view, legal, "declared"


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


__all__ = ["RULESET", "Table", "at_step", "declaration_served", "end_phase_made", "ev", "fresh", "line", "open_ground", "position", "village_attack_hexes", "world"]
