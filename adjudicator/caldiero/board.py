"""The map as the rules of this system see it: geometry (adjudicator/maps/hexgrid.py), the terrain of each hex
and hexside, roads, and the terrain effects table applied to them.

The map file follows docs/hexmap-format.md and is loaded by the shared `adjudicator/maps/hexmap.py`; the Board
keeps plain look-up tables built from it (terrain, elevation, hexside features, roads, places).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbitro.adjudicator.parabellum.data import TerrainTable
from arbitro.adjudicator.datafiles import DataError, DataProblem
from arbitro.adjudicator.maps.hexgrid import Grid
from arbitro.adjudicator.maps.hexmap import load_map, parse_map

MAP_PATH = Path(__file__).parent / "data" / "map.json"


@dataclass(frozen=True)
class MapData:
    grid: Grid
    default_terrain: str
    default_elevation: int
    terrain: dict[str, str]
    elevation: dict[str, int]
    features: dict[str, frozenset[str]]
    hexsides: dict[frozenset[str], frozenset[str]]
    roads: dict[frozenset[str], str]  # hexside -> best road kind crossing it
    road_lines: tuple[tuple[str, str, tuple[str, ...]], ...]  # (kind, name, hexes)
    places: dict[str, tuple[str, ...]]
    provisional: bool
    notes: str = ""
    hexmap: Any = None  # the shared engine's map (hexmap.HexMap), for its path finding (system_movement)


def read_map(raw: dict[str, Any], name: str = "map.json") -> MapData:
    """A map dict in the documented format, validated by the shared loader (adjudicator/maps/hexmap.py)."""
    return from_hexmap(parse_map(raw, source=name))


def from_hexmap(hm: Any) -> MapData:
    """The questions this ruleset asks, answered from the shared HexMap (precomputed into plain dicts)."""
    terrain: dict[str, str] = {}
    elevation: dict[str, int] = {}
    features: dict[str, frozenset[str]] = {}
    hexsides: dict[frozenset[str], frozenset[str]] = {}
    roads: dict[frozenset[str], str] = {}
    for h in hm.hexes():
        info = hm.hex(h)
        terrain[h], elevation[h] = info.terrain, info.elevation
        if info.features:
            features[h] = frozenset(info.features)
        for n in hm.grid.neighbours(h):
            key = frozenset((h, n))
            if key in hexsides:
                continue
            hexsides[key] = frozenset(hm.hexside_features(h, n))
            kinds = hm.roads_between(h, n)
            if kinds:
                roads[key] = "strada" if "strada" in kinds else kinds[0]
    lines = tuple((r.kind, r.name or "", tuple(r.hexes)) for r in hm.roads)
    meta = hm.meta
    return MapData(grid=hm.grid, default_terrain=meta.default_terrain, default_elevation=meta.default_elevation,
                   terrain=terrain, elevation=elevation, features=features, hexsides=hexsides, roads=roads,
                   road_lines=lines, places={k: tuple(v) for k, v in hm.places.items()}, provisional=hm.provisional,
                   notes=meta.notes or "", hexmap=hm)


def load_map_file(path: Path = MAP_PATH) -> MapData:
    """Load through the shared loader (adjudicator/maps/hexmap.py: validation with precise errors)."""
    if not path.exists():
        raise DataError([DataProblem(path.name, "$", f"the Caldiero map file is missing ({path})")])
    return from_hexmap(load_map(path, source=path.name))


@dataclass
class Board:
    """Map + terrain effects table: the questions the rules ask about the ground."""

    map: MapData
    table: TerrainTable
    _cache: dict[str, Any] = field(default_factory=dict)

    @property
    def grid(self) -> Grid:
        return self.map.grid

    def on_map(self, h: str) -> bool:
        return self.grid.contains(h)

    def neighbours(self, h: str) -> tuple[str, ...]:
        return tuple(self.grid.neighbours(h))

    def distance(self, a: str, b: str) -> int:
        return self.grid.distance(a, b)

    def is_edge(self, h: str) -> bool:
        """A hex on the edge of the map, caldiero §20.5.2."""
        return self.grid.is_edge(h)

    def terrain(self, h: str) -> str:
        return self.map.terrain.get(h, self.map.default_terrain)

    def elevation(self, h: str) -> int:
        return self.map.elevation.get(h, self.map.default_elevation)

    def hexside(self, a: str, b: str) -> frozenset[str]:
        return self.map.hexsides.get(frozenset((a, b)), frozenset())

    def road(self, a: str, b: str) -> str | None:
        return self.map.roads.get(frozenset((a, b)))

    def is_road_hex(self, h: str) -> bool:
        key = ("road_hexes",)
        if key not in self._cache:
            self._cache[key] = frozenset(x for side in self.map.roads for x in side)  # type: ignore[index]
        return h in self._cache[key]  # type: ignore[index]

    def effect(self, h: str) -> Any:
        return self.table.terrain[self.terrain(h)]

    def is_fortress(self, h: str) -> bool:
        return bool(self.effect(h).fortress)

    def is_marsh(self, h: str) -> bool:
        return bool(self.effect(h).halves_strength)

    def is_plain(self, h: str) -> bool:
        """The plain of caldiero §14.0 and §20.2.1: a terrain the table calls plain, at the lowest level (the table's
        "Pianura / Collina" row: a level up is the hill)."""
        return self.effect(h).plain and self.elevation(h) == 0

    def crossing_prohibited(self, a: str, b: str) -> bool:
        """A river hexside: no movement, no assault across it (terrain table)."""
        return any(self.table.hexsides[f].prohibited for f in self.hexside(a, b) if f in self.table.hexsides)

    def canal_without_bridge(self, a: str, b: str) -> bool:
        """A hexside artillery may not cross (caldiero §10.3 "solo se è presente un ponte"): a feature that needs a
        bridge, with no bridge (a feature cancelling the canal's cost, §10.4.1) and no road over it (§10.4: a bridge
        stands where a road crosses a canal)."""
        effects = [self.table.hexsides[f] for f in self.hexside(a, b) if f in self.table.hexsides]
        return (any(e.artillery_needs_bridge for e in effects) and not any(e.cancels_canal_cost for e in effects)
                and self.road(a, b) is None)

    def canal_for_combat(self, a: str, b: str) -> bool:
        """A hexside that fights with the table's assault modifier: the canal (caldiero §10.3.1), or a feature the
        table says fights as one (`combat_as`: §10.4.2 "Trattate il ponte come se fosse un canale")."""
        hexsides = self.table.hexsides
        effects = [hexsides[f] for f in self.hexside(a, b) if f in hexsides]
        return any((hexsides[e.combat_as] if e.combat_as else e).assault_drm for e in effects)

    def climbs(self, a: str, b: str) -> bool:
        """Moving, firing or attacking from a lower hex to a higher one (terrain table: climbing a level)."""
        return self.elevation(b) > self.elevation(a)

    def place_hexes(self, name: str) -> tuple[str, ...]:
        return self.map.places.get(name, ())

    def hexes(self) -> Iterable[str]:
        return self.grid.hexes()
