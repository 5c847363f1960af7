"""Who holds and who controls hexes: one combat unit per hex, zones of control counted by the units exerting them,
and reaction fire on a move from one zone of a unit straight into another of the same unit.

Generic: the ruleset says which units exert a zone and which may react (caricat §5, §6.2); ties by id, never by
set order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from arbitro.adjudicator.maps.hexgrid import Grid, HexId


class Occupancy:
    """Where each unit stands, for a game that allows one unit per hex (caricat §5)."""

    __slots__ = ("by_hex", "clashes")

    def __init__(self, positions: Iterable[tuple[str, str | None]]) -> None:
        self.by_hex: dict[str, str] = {}
        self.clashes: list[tuple[str, str, str]] = []  # (hex, unit already there, unit placed on it)
        for unit, hex_id in sorted(positions, key=lambda p: p[0]):
            if hex_id is None:
                continue
            if hex_id in self.by_hex:
                self.clashes.append((hex_id, self.by_hex[hex_id], unit))
                continue
            self.by_hex[hex_id] = unit

    def at(self, hex_id: str) -> str | None:
        return self.by_hex.get(hex_id)

    def free(self, hex_id: str) -> bool:
        return hex_id not in self.by_hex


def zones(grid: Grid, holders: Mapping[str, str]) -> dict[HexId, tuple[str, ...]]:
    """Each hex in some zone of control -> the units exerting it there (sorted). `holders`: unit -> its hex, only the
    units that exert a zone. A zone covers the six hexes around the unit (caricat §5)."""
    found: dict[HexId, list[str]] = {}
    for unit, hex_id in sorted(holders.items()):
        for n in grid.neighbours(hex_id):
            found.setdefault(n, []).append(unit)
    return {h: tuple(units) for h, units in sorted(found.items())}


@dataclass(frozen=True, slots=True)
class Reaction:
    """A unit that may fire at a mover: the step (index into the path of the hex entered) and the reacting unit."""

    step: int
    unit: str
    hex: HexId


def reactions(path: Sequence[str], zone_of: Mapping[HexId, tuple[str, ...]], may_react: Iterable[str]) -> tuple[Reaction, ...]:
    """Every step of ``path`` going from a hex in a unit's zone straight into another hex of the same unit's zone, for
    the units in ``may_react`` (each reacts once, at its first such step): caricat §6.2."""
    allowed = may_react if isinstance(may_react, (set, frozenset)) else set(may_react)
    seen: set[str] = set()
    out: list[Reaction] = []
    before = zone_of.get(path[0], ()) if path else ()  # asked of every path a listing tries (issue 15): few units each
    for i in range(1, len(path)):
        here = zone_of.get(path[i], ())
        for unit in here:
            if unit in before and unit in allowed and unit not in seen:
                seen.add(unit)
                out.append(Reaction(i, unit, HexId(path[i])))
        before = here
    return tuple(out)


def surrounded(grid: Grid, hex_id: str, covered: Iterable[str]) -> int:
    """How many of the hexes around ``hex_id`` are in ``covered`` (positional advantage, caricat §8)."""
    marked = set(covered)
    return sum(1 for n in grid.neighbours(hex_id) if n in marked)
