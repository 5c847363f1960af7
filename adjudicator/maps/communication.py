"""Lines of communication traced on a hex map: from a unit, a few hexes to a road, then along the road to one of
its side's destination hexes (a map edge, a town), never through a hex the ruleset blocks (caricat §11).

Generic: the ruleset gives the destinations, the blocked hexes and how far off the road a line may run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from arbitro.adjudicator.maps.hexgrid import HexId
from arbitro.adjudicator.maps.hexmap import HexMap


def road_network(hexmap: HexMap, destinations: Iterable[str], blocked: Callable[[HexId], bool]) -> frozenset[HexId]:
    """The road hexes joined to a destination along roads without crossing a blocked hex (the destinations
    themselves included when not blocked)."""
    start = sorted(HexId(h) for h in destinations if not blocked(HexId(h)))
    reached = set(start)
    frontier = list(start)
    while frontier:
        nxt: list[HexId] = []
        for h in frontier:
            for n in hexmap.grid.neighbours(h):
                if n not in reached and not blocked(n) and hexmap.roads_between(h, n):
                    reached.add(n)
                    nxt.append(n)
        frontier = sorted(nxt)
    return frozenset(reached)


def distance_to_network(hexmap: HexMap, start: str, network: frozenset[HexId], limit: int,
                        blocked: Callable[[HexId], bool]) -> int | None:
    """Hexes from ``start`` to the nearest hex of ``network`` through unblocked hexes, or None beyond ``limit``."""
    origin = hexmap.grid.require(start)
    if origin in network:
        return 0
    reached = {origin}
    frontier = [origin]
    for distance in range(1, limit + 1):
        nxt: list[HexId] = []
        for h in frontier:
            for n in hexmap.grid.neighbours(h):
                if n in reached or blocked(n):
                    continue
                if n in network:
                    return distance
                reached.add(n)
                nxt.append(n)
        frontier = sorted(nxt)
    return None


def has_line(hexmap: HexMap, start: str, destinations: Iterable[str], limit: int,
             blocked: Callable[[HexId], bool]) -> bool:
    """Whether a line of communication runs from ``start``: at most ``limit`` hexes to a road leading to a
    destination, no hex of it blocked (the unit's own hex is not checked)."""
    network = road_network(hexmap, destinations, blocked)
    return distance_to_network(hexmap, start, network, limit, blocked) is not None
