"""Retreats (caldiero §12.6, §15.2.1): the ground a retreating unit stands on, handed to the kernel's reading of
§12.6 (parabellum/retreat.py `hex_by_hex`, Caldiero's `retreat_lines`, D34): each hex farther from every enemy and
outside enemy ZoC if possible; an EZoC hex only when nothing else is possible (one more disorder level, §12.6.1);
a retreat ending overstacked goes on one more hex (§12.6.2). No path at all: the unit is eliminated (§12.6.3,
§12.8.1).
"""

from __future__ import annotations

from arbitro.adjudicator.caldiero.system_world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum.retreat import Ground, Line
from arbitro.adjudicator.parabellum.stacking import stack_problem
from arbitro.adjudicator.parabellum.zoc import enemy_zoc
from arbitro.projections.caldiero import enemy_of


def retreat_paths(world: World, u: str, hexes: int) -> list[Line]:
    """Every legal retreat path of `hexes` hexes (longer where overstacking forces it), sorted by path."""
    unit = world.state.units[u]
    side = unit.side
    if not unit.hex:
        return []
    hooks = world.hooks

    def fits(h: str) -> bool:
        return stack_problem(CALDIERO_VARIANT, world, [x for x in world.side_units_at(h, side) if x != u] + [u]) is None

    ground = Ground(grid=world.board.grid, start=unit.hex, enemies=tuple(sorted(world.occupied_by(enemy_of(side)))),
                    ezoc=frozenset() if unit.status == "routed" else enemy_zoc(world, side),  # caldiero §8.1.1
                    enterable=lambda h: hooks is None or not hooks.entry_problem(world, side, h), fits=fits,
                    crossable=lambda a, b: not world.board.crossing_prohibited(a, b))
    return CALDIERO_VARIANT.retreat_lines(ground, hexes, world.reading)
