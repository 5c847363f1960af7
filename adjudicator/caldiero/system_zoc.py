"""Zones of control (caldiero §8, arrivano §8): the six hexes around a combat unit in good order.

Disordered and routed units have none (caldiero §15); a ZoC never extends into a fortress hex
(caldiero §8, §10.5.1); friendly units in an EZoC do not cancel it.
"""

from __future__ import annotations

from arbitro.adjudicator.caldiero.system_world import World
from arbitro.adjudicator.parabellum import zoc
from arbitro.projections.caldiero import enemy_of


def exerts_zoc(world: World, u: str) -> bool:
    unit = world.state.units[u]
    return unit.where == "map" and unit.hex is not None and unit.status == "good"  # caldiero §15


def controlled_by(world: World, side: str) -> frozenset[str]:
    """Every hex in the ZoC of `side`'s units (computed once per World, which lives after the last event), by
    the kernel's `parabellum.zoc.zoc_hexes`: units in good order (§15), never into a fortress (§10.5.1)."""
    if side not in world._zoc:
        sources = [world.state.units[u].hex or "" for u in world.on_map_units()
                   if world.state.units[u].side == side and exerts_zoc(world, u)]
        world._zoc[side] = zoc.zoc_hexes(world.board.grid, sources, world.board.is_fortress)  # type: ignore[assignment]
    return world._zoc[side]


def enemy_zoc(world: World, side: str) -> frozenset[str]:
    """The EZoC hexes for `side`: the ZoC of the enemy."""
    return controlled_by(world, enemy_of(side))


def projecting_into(world: World, h: str, side: str) -> list[str]:
    """Enemy hexes whose units project a ZoC into h (for §12.2.1): the kernel's rule with Caldiero's
    predicates (good order, §15; no ZoC into a fortress, §10.5.1)."""
    return zoc.projecting_into(world.board.grid, h, world.board.is_fortress,
                               lambda n: any(exerts_zoc(world, e) for e in world.enemy_units_at(n, side)))
