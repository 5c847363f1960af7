"""Command (caldiero §4.3, arrivano §4.4): what the two books share beyond the range itself (traced by the map
kit's `maps.command.command_distances`, each variant giving what a line may cross): units adjacent to an in-command
unit of their formation are in command too, transitively (line of battle, caldiero §4.3.2; contiguity, arrivano
§4.4.2). Who else anchors the chain (arrivano's officers, D3/D4) is the variant's to add."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from arbitro.adjudicator.maps.hexgrid import Grid


def contiguous(grid: Grid, hex_of: Mapping[str, str], inside: Iterable[str],
               anchors: Iterable[str] = ()) -> set[str]:
    """The units of `hex_of` (a formation's units on the map and their hexes) in command: `inside` (in range) and,
    transitively, every unit in or adjacent to the hex of one in command or of an extra anchor (caldiero §4.3.2,
    arrivano §4.4.2). The closure is the least fixed point, so it does not depend on the order units are met."""
    result = set(inside)
    reached = {hex_of[u] for u in result} | set(anchors)
    frontier = sorted(reached)
    while frontier:
        grown = {n for h in frontier for n in grid.neighbours(h)} | set(frontier)
        added = sorted(u for u, h in hex_of.items() if u not in result and h in grown)
        result.update(added)
        frontier = sorted({hex_of[u] for u in added} - reached)
        reached.update(frontier)
    return result
