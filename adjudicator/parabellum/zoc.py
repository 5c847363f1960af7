"""Zones of control (arrivano §8, caldiero §8): the six hexes around each unit that exerts one (good order, arrivano
§15 / caldiero §15; none while the weather suspends them, arrivano §17.2.7 storm), never into a hex whose terrain
stops them (arrivano §8: redoubt; caldiero §10.5.1: fortress); friendly units in an enemy ZoC do not cancel it."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from arbitro.adjudicator.maps.hexgrid import Grid, HexId
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum.world import World


def zoc_hexes(grid: Grid, sources: Iterable[str], no_zoc_into: Callable[[HexId], bool]) -> frozenset[HexId]:
    """Every hex in the ZoC of units standing in `sources` (the hexes of the units that exert one)."""
    out: set[HexId] = set()
    for h in set(sources):
        out.update(n for n in grid.neighbours(h) if not no_zoc_into(n))
    return frozenset(out)


def projecting_into(grid: Grid, h: str, no_zoc_into: Callable[[HexId], bool],
                    exerts_from: Callable[[HexId], bool]) -> list[HexId]:
    """The enemy hexes whose units project a ZoC into `h`, in hex order (caldiero §12.2.1, arrivano §12.2.1: an
    attacker must attack each of them). `exerts_from(n)`: an enemy unit in n exerts a ZoC. None into a hex no
    ZoC enters (caldiero §10.5.1 fortress, arrivano §8 redoubt)."""
    if no_zoc_into(HexId(h)):
        return []
    return sorted(n for n in grid.neighbours(h) if exerts_from(n))


def exerts_zoc(world: World, u: str) -> bool:
    """An on-map unit in good order exerts a ZoC (caldiero §15, arrivano §8, §15), unless the weather suspends
    every ZoC (arrivano §17.2.7 storm)."""
    return world.hex_of(u) is not None and world.zocs_in_force() and world.status(u) == "good"


_ZONES = Memo(256)
"""The zones of control of a set of hexes, kept across positions (issue 15): a move or a retreat changes one or two
of the hexes the enemy exerts them from, and most positions of an activation ask the same enemy's zones again."""


def enemy_zoc(world: World, side: str) -> frozenset[HexId]:
    """The hexes in the ZoC of `side`'s enemies (caldiero §8, arrivano §8), worked out once per World and once per
    set of hexes they exert them from (`_ZONES`)."""
    def work() -> frozenset[HexId]:  # `exerts_zoc` of each unit on the map, the weather asked once
        on = world.zocs_in_force()
        sources = frozenset(h for u in world.units_of(world.enemy(side))
                            if on and (h := world.hex_of(u)) is not None and world.status(u) == "good")
        blocked = world.no_zoc_hexes()
        key = tuple(sorted(sources))  # not the frozenset: a kept one is walked by every full collection (issue 15)
        return _ZONES.get((world.grid, blocked), key, lambda: zoc_hexes(world.grid, sources, blocked.__contains__))

    return world.cached(("enemy_zoc", side), work)


def zoc_sources(world: World, h: str, side: str) -> list[HexId]:
    """The enemy hexes projecting a ZoC into `h` for a unit of `side` (caldiero §12.2.1, arrivano §12.2.1)."""
    return projecting_into(world.grid, h, world.no_zoc_into, lambda n: any(
        exerts_zoc(world, e) for e in world.units_at(n) if world.side_of(e) != side))
