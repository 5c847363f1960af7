"""Area maps: zones joined by approaches, and roads running through zones (Marengo's map; Monferrato's next).

No game rule lives here. A ruleset's data file lists its zones, the approaches of each zone (one record per
side of a border: approach ``"a/b"`` is zone ``a``'s side facing zone ``b``, and its opposite is ``"b/a"``)
and its roads as sequences of zones; the ruleset's records carry whatever else its rules need (widths,
penalties, stars...). :class:`AreaGraph` holds the look-ups, :func:`graph_problems` the cross-checks every
area map needs, each reported with its JSON path so that a data author sees them all at once.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar


class ZoneLike(Protocol):
    @property
    def id(self) -> str: ...


class ApproachLike(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def zone(self) -> str: ...
    @property
    def toward(self) -> str: ...
    @property
    def impassable(self) -> bool: ...


class RoadLike(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def zones(self) -> tuple[str, ...]: ...


Z = TypeVar("Z", bound=ZoneLike)
A = TypeVar("A", bound=ApproachLike)
R = TypeVar("R", bound=RoadLike)
Report = Callable[[str, str], None]
"""Called with (JSON path, problem) for each problem found."""


@dataclass(kw_only=True)
class AreaGraph(Generic[Z, A, R]):
    """Zones, approaches and roads by id, with the look-ups an area game's rules need. Fill with :meth:`index`."""

    zones: dict[str, Z] = field(default_factory=dict)
    approaches: dict[str, A] = field(default_factory=dict)
    approaches_of: dict[str, tuple[str, ...]] = field(default_factory=dict)  # zone -> its approach ids, sorted
    roads: dict[str, R] = field(default_factory=dict)
    neighbours_of: dict[str, tuple[str, ...]] = field(default_factory=dict)  # zone -> the zones its approaches face

    def index(self, zones: Sequence[Z], approaches: Sequence[A], roads: Sequence[R]) -> None:
        self.zones = {z.id: z for z in zones}
        self.approaches = {ap.id: ap for ap in approaches}
        self.approaches_of = {z.id: tuple(sorted(ap.id for ap in approaches if ap.zone == z.id)) for z in zones}
        self.roads = {r.id: r for r in roads}
        self.neighbours_of = {z: tuple(self.approaches[a].toward for a in ids) for z, ids in self.approaches_of.items()}

    def approach(self, zone: str, toward: str) -> A:
        return self.approaches[f"{zone}/{toward}"]

    def opposite(self, approach_id: str) -> A:
        a = self.approaches[approach_id]
        return self.approaches[f"{a.toward}/{a.zone}"]

    def is_passable(self, zone: str, toward: str) -> bool:
        """An impassable symbol on either side closes the pair in both directions (marengo §5)."""
        key = f"{zone}/{toward}"
        if key not in self.approaches:
            return False
        return not (self.approaches[key].impassable or self.opposite(key).impassable)

    def neighbours(self, zone: str) -> tuple[str, ...]:
        """Read once per map (index): every line and move traced asks it of each zone it reaches (issue 15)."""
        return self.neighbours_of[zone]

    def trace(self, origin: str, step: Callable[[str, str], int | None], *, limit: int | None = None,
              through: Callable[[str], bool] | None = None) -> dict[str, int]:
        """The least cost of a line from ``origin`` to every zone it reaches (``origin`` itself at 0): the line
        crosses from ``a`` into a neighbour ``b`` at ``step(a, b)`` (None: it may not cross there), goes on only
        from zones ``through`` accepts (it may end in any), and never beyond ``limit``. A movement allowance, a
        command radius and a supply line are each such a line with their own step and ``through``."""
        return trace(origin, self.neighbours, step, limit=limit, through=through)

    def road_index(self, road: str, zone: str) -> int:
        zs = self.roads[road].zones
        return zs.index(zone) if zone in zs else -1

    def roads_through(self, zone: str) -> tuple[str, ...]:
        return tuple(r for r in sorted(self.roads) if zone in self.roads[r].zones)

    def road_crosses(self, road: str, approach_id: str) -> bool:
        a = self.approaches[approach_id]
        i, j = self.road_index(road, a.zone), self.road_index(road, a.toward)
        return i >= 0 and j >= 0 and abs(i - j) == 1


def trace(origin: str, neighbours: Callable[[str], Iterable[str]], step: Callable[[str, str], int | None], *,
          limit: int | None = None, through: Callable[[str], bool] | None = None) -> dict[str, int]:
    """Least-cost search over zones (Dijkstra), expanded in (cost, zone id) order so the result never depends on
    the order of a set or a dict. See :meth:`AreaGraph.trace`."""
    best = {origin: 0}
    queue = [(0, origin)]
    while queue:
        cost, zone = heapq.heappop(queue)
        if cost > best.get(zone, cost) or (zone != origin and through is not None and not through(zone)):
            continue
        for nxt in sorted(neighbours(zone)):
            price = step(zone, nxt)
            if price is None:
                continue
            total = cost + price
            if (limit is None or total <= limit) and total < best.get(nxt, total + 1):
                best[nxt] = total
                heapq.heappush(queue, (total, nxt))
    return best


def graph_problems(zones: Sequence[ZoneLike], approaches: Sequence[ApproachLike], roads: Sequence[RoadLike],
                   report: Report) -> None:
    """Cross-references of an area map: unique ids, approaches named ``zone/toward`` between known zones with
    their opposites, roads through known zones along approach pairs, never across an impassable one, never
    twice through a zone. Reports each problem with its JSON path (``$.zones``, ``$.approaches``, ``$.roads``)."""
    zone_ids = [z.id for z in zones]
    for i, zid in enumerate(zone_ids):
        if zone_ids.index(zid) != i:
            report(f"$.zones[{i}].id", f"duplicate zone {zid!r}")
    known = set(zone_ids)
    ids: dict[str, int] = {}
    for i, a in enumerate(approaches):
        if a.id in ids:
            report(f"$.approaches[{i}].id", f"duplicate approach {a.id!r}")
        ids.setdefault(a.id, i)
        if a.id != f"{a.zone}/{a.toward}":
            report(f"$.approaches[{i}].id", f"must be 'zone/toward' = {a.zone}/{a.toward!r}")
        for fld in ("zone", "toward"):
            if getattr(a, fld) not in known:
                report(f"$.approaches[{i}].{fld}", f"unknown zone {getattr(a, fld)!r}")
        if a.zone == a.toward:
            report(f"$.approaches[{i}]", "an approach cannot face its own zone")
    for i, a in enumerate(approaches):
        if f"{a.toward}/{a.zone}" not in ids:
            report(f"$.approaches[{i}]", f"approach {a.id!r} has no opposite approach {a.toward}/{a.zone!r}")
    for i, r in enumerate(roads):
        _road_problems(approaches, i, r, known, ids, report)


def _road_problems(approaches: Sequence[ApproachLike], i: int, r: RoadLike, zones: set[str], ids: dict[str, int],
                   report: Report) -> None:
    """A road runs through known zones along approach pairs, never across an impassable one, never twice."""
    for j, z in enumerate(r.zones):
        if z not in zones:
            report(f"$.roads[{i}].zones[{j}]", f"unknown zone {z!r}")
    for j in range(1, len(r.zones)):
        key, back = f"{r.zones[j - 1]}/{r.zones[j]}", f"{r.zones[j]}/{r.zones[j - 1]}"
        if key not in ids or back not in ids:
            report(f"$.roads[{i}].zones[{j}]", f"road {r.id!r} joins {key!r}, which is not an approach pair")
        elif approaches[ids[key]].impassable or approaches[ids[back]].impassable:
            report(f"$.roads[{i}].zones[{j}]", f"road {r.id!r} crosses impassable {key!r}")
    if len(set(r.zones)) != len(r.zones):
        report(f"$.roads[{i}].zones", f"road {r.id!r} visits a zone twice")
