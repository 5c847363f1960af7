"""Caldiero's test harness: the hex rulesets' Table (tests/hex/harness.py: commands judged by the engine exactly as
a submit judges them, on a position with chosen dice; refusals with their citation; the agreement of legal() and
decide()) bound to Caldiero, and its position builders.

`Table(state).send(seat, command, dice=[...])` rolls the dice given (an int a die, a tuple a whole roll), then `pad`;
a refusal raises the engine's Rejected (IllegalCommand, NotYourDecision...: `.rule` is the citation). `position()`
builds a state with units where a test wants them; `activate()` a table with a formation activated.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator.caldiero import CaldieroRuleset
from arbitro.events import caldiero as ev
from arbitro.events import core
from arbitro.projections.caldiero import CaldieroState
from arbitro.projections.parabellum import Activation
from arbitro.projections.fold import Fold
from tests.hex import harness

RULESET = CaldieroRuleset()
FOLD = Fold(RULESET)


class Table(harness.Table[CaldieroState]):
    """The hex rulesets' Table (tests/hex/harness.py) bound to Caldiero: filler dice vary die by die (`cycle`) so
    that re-rolled ties end (initiative, §6), and a test that enters its dice with `pad=0` wants no roll more."""

    def __init__(self, state: CaldieroState, interpretations: dict[str, str] | None = None) -> None:
        super().__init__(RULESET, state, interpretations)

    def send(self, seat: str, command: dict[str, Any], dice: list[int | tuple[int, ...]] | None = None,
             pad: int = 3, cycle: bool = True) -> list[Any]:
        """`dice` are entered in order; then `pad` for any later roll (initiative, weather... when the flow runs on
        to the next activation or turn). pad=0: no padding, and a roll more fails the test."""
        events = super().send(seat, command, dice, pad, cycle)
        assert pad or not self.asked(), f"{command}: a roll more was asked for than the test entered ({dice})"
        return events

    @property
    def rolls(self) -> list[core.DiceRolled]:  # type: ignore[override]
        return self.of(core.DiceRolled)

    def awaited(self) -> core.Frame[Any] | None:
        """The frame on top of the engine's decision stack (a retreat, a leader's escape), if any."""
        return self.top()

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
    unknown = sorted(set(units) - set(state.units)) + sorted(set(leaders or ()) - set(state.leaders))
    assert not unknown, f"position(): no such unit or leader in scenario {scenario!r}: {unknown}"  # a typo would pass unseen
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
    state.phase, state.step, state.seat = "action", "choose_activation", "france"
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
