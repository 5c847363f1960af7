"""Caldiero's read model: the kernel's World (adjudicator/parabellum/world.py) with the answers caldiero's book
gives its own way, and what only Caldiero's procedures ask (the counters, the optional rules).

Every `system_*` function takes a World; nothing here mutates the state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.caldiero.loader import CaldieroData
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import sight, world
from arbitro.adjudicator.ruleset import Rule
from arbitro.projections.caldiero import CaldieroState


class World(world.World):
    state: CaldieroState

    def __init__(self, state: CaldieroState, data: CaldieroData, hexmap: HexMap, reading: Callable[[str], str],
                 hooks: Any = None, position: Callable[[], int] | None = None) -> None:
        super().__init__(state, data, data.scenario, hexmap, data.terrain, data.orders, reading, position, data.weather)
        self.data = data
        self.hooks = hooks  # the ruleset's map rules (caldiero: map_rules.HOOKS); None: no extra restriction

    # --- static values -------------------------------------------------------------------------
    def formation_arrival(self, formation: str) -> int:
        """The turn a formation arrives, as its order of battle prints it (caldiero §21.3); 1 for one the order of
        battle has not (Bonaparte's, caldiero §20.1: present from the first turn)."""
        printed = next((f for f in self.data.oob.formations if f.id == formation), None)
        return printed.arrival_turn if printed is not None else 1

    def option(self, name: str) -> bool:
        return name in self.state.options

    def formation_of(self, u: str) -> str:
        """The unit's formation for command and stacking: a reserve unit's joined formation (§15.4.3)."""
        unit = self.state.units[u]
        return unit.attached or unit.formation

    # --- line of sight (the rules are parabellum/sight.py) ---------------------------------------------
    def clear_line(self, a: str, b: str) -> bool:
        """caldiero §11.3.1: villages, fortresses, ground higher than both ends and hexes holding units block."""
        return sight.clear_line(CALDIERO_VARIANT, self.grid, a, b, self.elevation, self.blocks_sight,
                                lambda h: bool(self.units_at(h)))

    # --- the assault -----------------------------------------------------------------------------------
    def attacked_hexes(self) -> list[str]:
        act = self.state.activation
        return act.attacked_hexes if act is not None else []

    def charging(self, u: str) -> bool:
        return self.state.units[u].charging  # caldiero §20.2: the charged hex is the one its attack names

    # --- movement and retreat --------------------------------------------------------------------------
    def closed_to(self, side: str, h: str) -> tuple[Rule, str] | None:
        """caldiero §9.2.1 (the map rules' `entry_problem`: the Austrians' 10xx row)."""
        return self.hooks.entry_problem(self, side, h) if self.hooks is not None else None  # type: ignore[no-any-return]

    # --- command ---------------------------------------------------------------------------------------
    def out_of_command(self, u: str) -> bool:
        """caldiero §5.3: out of command when its formation was activated (FormationActivated's list)."""
        act = self.state.activation
        return act is not None and u in act.out_of_command
