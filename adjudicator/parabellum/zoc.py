"""Zones of control (arrivano §8, caldiero §8): the six hexes around each unit that exerts one, never into a hex
whose terrain stops them (arrivano §8: redoubt; caldiero §10.5.1: fortress). Which units exert a ZoC (good order,
arrivano §15 / caldiero §15; none in Campotenese's storm, arrivano §17.2.7) is the variant's to say: the kernel
takes it as a predicate."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from arbitro.adjudicator.maps.hexgrid import Grid, HexId


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
