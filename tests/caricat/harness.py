"""Caricat!'s test harness: the hex rulesets' Table (tests/hex/harness.py: commands judged by the engine on a
position with chosen dice, refusals with their citation, the agreement of legal() and decide()) bound to Caricat,
and its position builders.

`Table(state).send(seat, command, dice=[...])` rolls the dice given one value a die (`pad` for any later die); a
refusal raises the engine's Rejected (`.rule` is the citation). `position(...)` builds a state with only the listed
pieces on the map; `activated(...)` puts an activation under way.
"""

from __future__ import annotations

import msgspec

from arbitro.adjudicator.caricat import CaricatRuleset
from arbitro.projections.caricat import CaricatState
from tests.hex import harness

RULESET = CaricatRuleset()
STEPS = RULESET.steps()


class Table(harness.Table[CaricatState]):
    def __init__(self, state: CaricatState, interpretations: dict[str, str] | None = None) -> None:
        super().__init__(RULESET, state, interpretations)


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
