"""The map as the rules of this system see it: geometry (adjudicator/hexgrid.py), the terrain of each hex
and hexside, roads, and the terrain effects table applied to them.

The map file follows docs/hexmap-format.md. Until the shared loader `adjudicator/hexmap.py` is available
this module reads the documented keys itself (a small local reader, `read_map`); the Board only needs
terrain, elevation, hexside features, roads and places, so switching to the shared loader is local.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbitro.adjudicator.caldiero.loader import TerrainTable
from arbitro.adjudicator.hexgrid import Grid

MAP_PATH = Path(__file__).parent / "data" / "map.json"


class MapDataError(ValueError):
    pass


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


def read_map(raw: dict[str, Any], name: str = "map.json") -> MapData:
    """Read a map dict in the documented format (local reader; see module docstring)."""
    try:
        meta, g = raw["meta"], raw["grid"]
        shifted = g.get("shifted_columns") if g["orientation"] == "flat-top" else g.get("shifted_rows")
        grid = Grid(orientation=g["orientation"], shifted=shifted, first_column=g["first_column"],
                    last_column=g["last_column"], first_row=g["first_row"], last_row=g["last_row"],
                    missing=g.get("missing_hexes", ()))
        terrain: dict[str, str] = {}
        elevation: dict[str, int] = {}
        features: dict[str, frozenset[str]] = {}
        for h, spec in raw.get("hexes", {}).items():
            if "terrain" in spec:
                terrain[h] = spec["terrain"]
            if "elevation" in spec:
                elevation[h] = int(spec["elevation"])
            if spec.get("features"):
                features[h] = frozenset(spec["features"])
        hexsides = {frozenset(s["hexes"]): frozenset(s.get("features", ())) for s in raw.get("hexsides", [])}
        roads: dict[frozenset[str], str] = {}
        lines = []
        for road in raw.get("roads", []):
            hexes = tuple(road["hexes"])
            lines.append((road["kind"], road.get("name", ""), hexes))
            for a, b in zip(hexes, hexes[1:]):
                key = frozenset((a, b))
                if roads.get(key) != "strada":
                    roads[key] = road["kind"]
        places = {k: tuple(v) for k, v in raw.get("places", {}).items()}
        return MapData(grid=grid, default_terrain=meta["default_terrain"],
                       default_elevation=int(meta.get("default_elevation", 0)), terrain=terrain,
                       elevation=elevation, features=features, hexsides=hexsides, roads=roads,
                       road_lines=tuple(lines), places=places, provisional=bool(meta.get("provisional", True)),
                       notes=meta.get("notes", ""))
    except (KeyError, TypeError, ValueError) as e:
        raise MapDataError(f"{name}: cannot read the map: {e!r}") from None


def load_map_file(path: Path = MAP_PATH) -> MapData:
    """Validate with the shared loader (adjudicator/hexmap.py: precise errors), then read the keys used here."""
    if not path.exists():
        raise MapDataError(f"{path.name}: the Caldiero map file is missing ({path})")
    from arbitro.adjudicator.hexmap import load_map

    load_map(path)
    return read_map(json.loads(path.read_text(encoding="utf-8")), path.name)


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
        """A hex on the edge of the map (fewer than six neighbours on the map), caldiero §20.5.2."""
        return len(self.grid.neighbours(h)) < 6

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

    def is_village(self, h: str) -> bool:
        return self.terrain(h) == "villaggio"

    def is_fortress(self, h: str) -> bool:
        return bool(self.effect(h).fortress)

    def is_marsh(self, h: str) -> bool:
        return bool(self.effect(h).halves_strength)

    def may_stay(self, h: str) -> bool:
        """Village or fortress: units there may stay put whatever their order (caldiero §10.1, §10.5.2)."""
        return bool(self.effect(h).may_stay)

    def is_plain(self, h: str) -> bool:
        return self.terrain(h) == "pianura" and self.elevation(h) == 0

    def crossing_prohibited(self, a: str, b: str) -> bool:
        """A river hexside: no movement, no assault across it (terrain table)."""
        return any(self.table.hexsides[f].prohibited for f in self.hexside(a, b) if f in self.table.hexsides)

    def canal_without_bridge(self, a: str, b: str) -> bool:
        side = self.hexside(a, b)
        return "canale" in side and "ponte" not in side and self.road(a, b) is None

    def canal_for_combat(self, a: str, b: str) -> bool:
        """Canal or bridge hexside: both count as a canal in combat (caldiero §10.3.1, §10.4.2)."""
        side = self.hexside(a, b)
        return "canale" in side or "ponte" in side

    def climbs(self, a: str, b: str) -> bool:
        """Moving, firing or attacking from a lower hex to a higher one (terrain table: climbing a level)."""
        return self.elevation(b) > self.elevation(a)

    def blocks_sight(self, h: str) -> bool:
        return bool(self.effect(h).blocks_los)

    def place_hexes(self, name: str) -> tuple[str, ...]:
        return self.map.places.get(name, ())

    def hexes(self) -> Iterable[str]:
        return self.grid.hexes()
