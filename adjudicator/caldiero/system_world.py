"""Caldiero's read model: the kernel's World (adjudicator/parabellum/world.py), which answers every question of the
position, with the answers caldiero's book gives its own way (units block sight, §11.3.1; the 10xx row, §9.2.1) and what only
Caldiero's procedures read (its data files, its map rules).

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

    # --- line of sight (the rules are parabellum/sight.py) ---------------------------------------------
    def clear_line(self, a: str, b: str) -> bool:
        """caldiero §11.3.1: villages, fortresses, ground higher than both ends and hexes holding units block."""
        return sight.clear_line(CALDIERO_VARIANT, self.grid, a, b, self.elevation, self.blocks_sight,
                                lambda h: bool(self.units_at(h)))

    # --- movement and retreat --------------------------------------------------------------------------
    def closed_to(self, side: str, h: str) -> tuple[Rule, str] | None:
        """caldiero §9.2.1 (the map rules' `entry_problem`: the Austrians' 10xx row)."""
        return self.hooks.entry_problem(self, side, h) if self.hooks is not None else None  # type: ignore[no-any-return]
