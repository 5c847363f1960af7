"""Hex grid geometry for printed ``XXYY`` maps: coordinates, adjacency, distance, hexsides (lines of sight: sight.py).

Pure geometry, no game rule. A :class:`Grid` is built from a map file's ``grid`` block (see
``docs/hexmap-format.md``): which digit pair forms straight lines of hexes (``flat-top``: columns,
``pointy-top``: rows) and which parity of those lines is shifted half a hex toward higher numbers.

Internally every hex is an axial/cube coordinate ``(q, r, s)`` with ``q + r + s == 0``; the cube plane is
a similarity image of the printed map whatever its orientation, so distances, directions and lines of
sight (sight.py) are computed there, with integers only.

Direction order (``DIRECTIONS`` of the grid), clockwise, as printed with row numbers growing downward:
flat-top ``N, NE, SE, S, SW, NW`` (``N``: lower row, same column); pointy-top ``NE, E, SE, SW, W, NW``
(``E``: higher column, same row). These are grid directions, not compass points.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal, NamedTuple, NewType

HexId = NewType("HexId", str)
"""A printed 4-digit hex number, ``XXYY`` (column, row), e.g. ``HexId("1712")``."""

HexsideId = NewType("HexsideId", str)
"""An edge between two adjacent hexes: their ids in ascending order joined by ``-``: ``"1712-1713"``."""

Orientation = Literal["flat-top", "pointy-top"]
Parity = Literal["odd", "even"]

_HEX_ID = re.compile(r"[0-9]{4}")  # whole: fullmatch, since "$" also matches before a final newline

# Axial (dq, dr) unit vectors in each orientation's documented clockwise order.
_FLAT_DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
_FLAT_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
_POINTY_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
_POINTY_NAMES = ("NE", "E", "SE", "SW", "W", "NW")


class HexError(ValueError):
    """A hex id that cannot be parsed, is off the grid, or a pair of hexes that is not adjacent."""


class Cube(NamedTuple):
    """Cube coordinates; ``q + r + s == 0``."""

    q: int
    r: int
    s: int

    def __add__(self, other: object) -> Cube:
        if not isinstance(other, Cube):
            return NotImplemented
        return Cube(self.q + other.q, self.r + other.r, self.s + other.s)

    def __sub__(self, other: Cube) -> Cube:
        return Cube(self.q - other.q, self.r - other.r, self.s - other.s)


def cube_distance(a: Cube, b: Cube) -> int:
    return max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s))


def parse_hex(hex_id: str) -> tuple[int, int]:
    """``"1712"`` -> ``(17, 12)`` (column, row). Raises :class:`HexError` on anything but 4 digits."""
    if not isinstance(hex_id, str) or not _HEX_ID.fullmatch(hex_id):
        raise HexError(f"{hex_id!r} is not a hex id: expected 4 digits XXYY (column, row)")
    return int(hex_id[:2]), int(hex_id[2:])


def format_hex(column: int, row: int) -> HexId:
    """``(17, 12)`` -> ``"1712"``. Raises :class:`HexError` outside 0..99."""
    if not (0 <= column <= 99 and 0 <= row <= 99):
        raise HexError(f"column {column}, row {row} cannot be written as XXYY (each must be 0..99)")
    return HexId(f"{column:02d}{row:02d}")


def _line_shift(line: int, parity: Parity) -> int:
    # How far (in whole hexes) a straight line of hexes is displaced along itself relative to line 0;
    # grows by one each time a shifted line is followed by an unshifted one.
    return line // 2 if parity == "odd" else (line + 1) // 2


class Grid:
    """The hexes of one map and their geometry. Immutable; build once per map."""

    __slots__ = (
        "orientation", "shifted", "first_column", "last_column", "first_row", "last_row",
        "missing", "direction_names", "_directions", "_hexes", "_on_map", "_cube_of", "_id_of", "_neighbours",
        "_adjacent", "_distances",
        "_within", "_near", "_hexsides",
    )

    orientation: Orientation
    shifted: Parity
    first_column: int
    last_column: int
    first_row: int
    last_row: int
    missing: frozenset[HexId]
    direction_names: tuple[str, ...]
    _directions: tuple[Cube, ...]
    _hexes: tuple[HexId, ...]
    _on_map: frozenset[HexId]
    _cube_of: dict[HexId, Cube]
    _id_of: dict[Cube, HexId]  # the inverse, for on-map hexes only: lines of sight ask it per cell (issue 15)
    _neighbours: dict[HexId, tuple[HexId | None, ...]]
    _adjacent: dict[HexId, tuple[HexId, ...]]  # the on-map neighbours alone: path searches ask for them per hex
    _distances: dict[tuple[str, str], int]  # a cache: the geometry itself never changes
    _within: dict[tuple[str, int], tuple[HexId, ...]]  # likewise
    _near: dict[tuple[str, int], frozenset[HexId]]  # likewise: `within` as a set
    _hexsides: dict[tuple[str, str], HexsideId]  # likewise: a move's cost asks for the hexside of every step

    def __init__(
        self,
        *,
        orientation: Orientation,
        shifted: Parity,
        first_column: int,
        last_column: int,
        first_row: int,
        last_row: int,
        missing: Iterable[str] = (),
    ) -> None:
        if orientation not in ("flat-top", "pointy-top"):
            raise HexError(f"orientation must be 'flat-top' or 'pointy-top', not {orientation!r}")
        if shifted not in ("odd", "even"):
            raise HexError(f"shifted parity must be 'odd' or 'even', not {shifted!r}")
        if not (0 <= first_column <= last_column <= 99 and 0 <= first_row <= last_row <= 99):
            raise HexError(
                f"grid range columns {first_column}..{last_column}, rows {first_row}..{last_row} "
                "must be ascending within 0..99"
            )
        object.__setattr__(self, "orientation", orientation)
        object.__setattr__(self, "shifted", shifted)
        object.__setattr__(self, "first_column", first_column)
        object.__setattr__(self, "last_column", last_column)
        object.__setattr__(self, "first_row", first_row)
        object.__setattr__(self, "last_row", last_row)
        flat = orientation == "flat-top"
        object.__setattr__(self, "_directions", tuple(
            Cube(dq, dr, -dq - dr) for dq, dr in (_FLAT_DIRECTIONS if flat else _POINTY_DIRECTIONS)
        ))
        object.__setattr__(self, "direction_names", _FLAT_NAMES if flat else _POINTY_NAMES)
        missing_ids = frozenset(HexId(h) for h in missing)
        for h in sorted(missing_ids):
            parse_hex(h)
        object.__setattr__(self, "missing", missing_ids)
        # Every loader of a map builds its grid, and a fresh process (`arbitro verify`) pays for it in its first
        # command (issue 15): the ids and cubes are worked out from the column and row numbers (to_cube without
        # parsing each id), the neighbours by plain tuple sums (a Cube is a tuple: the same keys).
        cube_of: dict[HexId, Cube] = {}
        for c in range(first_column, last_column + 1):
            for r in range(first_row, last_row + 1):
                h = HexId(f"{c:02d}{r:02d}")
                if h not in missing_ids:
                    q, r_ = (c, r - _line_shift(c, shifted)) if flat else (c - _line_shift(r, shifted), r)
                    cube_of[h] = Cube(q, r_, -q - r_)
        hexes = tuple(cube_of)
        object.__setattr__(self, "_hexes", hexes)
        object.__setattr__(self, "_on_map", frozenset(hexes))
        object.__setattr__(self, "_cube_of", cube_of)
        object.__setattr__(self, "_distances", {})
        object.__setattr__(self, "_within", {})
        object.__setattr__(self, "_near", {})
        object.__setattr__(self, "_hexsides", {})
        by_cube = {c: h for h, c in cube_of.items()}
        object.__setattr__(self, "_id_of", by_cube)
        steps = [(d.q, d.r, d.s) for d in self._directions]
        object.__setattr__(self, "_neighbours", {
            h: tuple([by_cube.get((q + dq, r + dr, s + ds)) for dq, dr, ds in steps])  # type: ignore[call-overload]
            for h, (q, r, s) in cube_of.items()
        })
        object.__setattr__(self, "_adjacent", {
            h: tuple(n for n in slots if n is not None) for h, slots in self._neighbours.items()
        })

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Grid is immutable")

    def __repr__(self) -> str:
        return (
            f"Grid(orientation={self.orientation!r}, shifted={self.shifted!r}, "
            f"first_column={self.first_column}, last_column={self.last_column}, "
            f"first_row={self.first_row}, last_row={self.last_row}, missing={sorted(self.missing)!r})"
        )

    # -- membership and conversion ---------------------------------------------------------------

    def hexes(self) -> tuple[HexId, ...]:
        """Every hex on the map, in ascending id order."""
        return self._hexes

    def contains(self, hex_id: str) -> bool:
        return hex_id in self._on_map

    def require(self, hex_id: str) -> HexId:
        """The id as a :data:`HexId` if it is on the map; otherwise a :class:`HexError` saying why."""
        if hex_id in self._on_map:
            return HexId(hex_id)
        raise self._not_on_map(hex_id)

    def _not_on_map(self, hex_id: str) -> HexError:
        column, row = parse_hex(hex_id)
        if hex_id in self.missing:
            return HexError(f"hex {hex_id} is not on the map (listed in missing_hexes)")
        return HexError(
            f"hex {hex_id} (column {column}, row {row}) is off the grid: columns "
            f"{self.first_column}..{self.last_column}, rows {self.first_row}..{self.last_row}"
        )

    def to_cube(self, hex_id: str) -> Cube:
        """Cube coordinates of any well-formed id (on the map or not)."""
        column, row = parse_hex(hex_id)
        if self.orientation == "flat-top":
            q, r = column, row - _line_shift(column, self.shifted)
        else:
            q, r = column - _line_shift(row, self.shifted), row
        return Cube(q, r, -q - r)

    def from_cube(self, cube: Cube) -> HexId:
        """The printed id of a cube position (which may be off the map); :class:`HexError` if unprintable."""
        if cube.q + cube.r + cube.s != 0:
            raise HexError(f"{cube!r} is not a cube coordinate (q + r + s must be 0)")
        if self.orientation == "flat-top":
            column, row = cube.q, cube.r + _line_shift(cube.q, self.shifted)
        else:
            row = cube.r
            column = cube.q + _line_shift(row, self.shifted)
        return format_hex(column, row)

    def cube(self, hex_id: str) -> Cube:
        """:meth:`to_cube`, memoised for on-map hexes."""
        cached = self._cube_of.get(HexId(hex_id))
        return cached if cached is not None else self.to_cube(hex_id)

    def on_map_id(self, cube: Cube) -> HexId | None:
        """The id of the on-map hex at a cube position; None off the map."""
        return self._id_of.get(cube)

    # -- adjacency -------------------------------------------------------------------------------

    def is_edge(self, hex_id: str) -> bool:
        """A hex on the edge of the map: fewer than six neighbours on it (retreats off the map, entry hexes)."""
        return len(self.neighbours(hex_id)) < 6

    def neighbours(self, hex_id: str) -> tuple[HexId, ...]:
        """The on-map neighbours of an on-map hex, in direction order."""
        found = self._adjacent.get(hex_id)  # type: ignore[call-overload]
        if found is None:
            raise self._not_on_map(hex_id)
        return found

    def neighbour(self, hex_id: str, direction: int) -> HexId | None:
        """The neighbour in direction ``direction`` (0..5), or None if it is off the map."""
        if not 0 <= direction <= 5:
            raise HexError(f"direction must be 0..5, not {direction}")
        return self._neighbour_slots(hex_id)[direction]

    def _neighbour_slots(self, hex_id: str) -> tuple[HexId | None, ...]:
        slots = self._neighbours.get(HexId(hex_id))
        if slots is None:
            raise self._not_on_map(hex_id)
        return slots

    def is_adjacent(self, a: str, b: str) -> bool:
        return self.distance(a, b) == 1

    def distance(self, a: str, b: str) -> int:
        """Hex steps between two well-formed ids, ignoring terrain and the map's edges. Memoised: rulesets ask
        it millions of times in a game (ranges, ZoC, retreats), and a Grid never changes."""
        key = (a, b)
        found = self._distances.get(key)
        if found is None:
            found = self._distances[key] = cube_distance(self.cube(a), self.cube(b))
        return found

    def direction(self, a: str, b: str) -> int:
        """Index (into :attr:`direction_names`) of the direction from ``a`` to the adjacent ``b``."""
        delta = self.cube(b) - self.cube(a)
        try:
            return self._directions.index(delta)
        except ValueError:
            raise HexError(f"hexes {a} and {b} are not adjacent") from None

    def direction_name(self, a: str, b: str) -> str:
        return self.direction_names[self.direction(a, b)]

    def hexside(self, a: str, b: str) -> HexsideId:
        """Canonical id of the edge between two adjacent hexes; the same whichever order they come in. Memoised
        (issue 15: 7 % of an Arrivano verify went to spelling them out for the step costs)."""
        found = self._hexsides.get((a, b))
        if found is None:
            if not self.is_adjacent(a, b):
                raise HexError(f"hexes {a} and {b} are not adjacent, so they share no hexside")
            low, high = sorted((a, b))
            found = self._hexsides[(a, b)] = HexsideId(f"{low}-{high}")
        return found

    def within(self, hex_id: str, radius: int) -> tuple[HexId, ...]:
        """On-map hexes at distance 0..radius, ordered by (distance, id). Memoised: sight and command ranges ask
        it for every piece at every step of play."""
        key = (hex_id, radius)
        found = self._within.get(key)
        if found is None:
            found = self._within[key] = self._compute_within(hex_id, radius)
        return found

    def near(self, hex_id: str, radius: int) -> frozenset[HexId]:
        """`within` as a set, memoised: whether any of a few hexes (a side's pieces) lies within reach of a hex is
        one `isdisjoint`, which walks the smaller set (issue 15: the fog asks it of every unknown piece's hex after
        every command)."""
        key = (hex_id, radius)
        found = self._near.get(key)
        if found is None:
            found = self._near[key] = frozenset(self.within(hex_id, radius))
        return found

    def _compute_within(self, hex_id: str, radius: int) -> tuple[HexId, ...]:
        # Plain tuple sums (a Cube is a tuple: equal, same hash), each hex's distance its offset's: the fog asks a
        # disc of every piece's hex, and building Cubes was a tenth of an Arrivano verify (issue 15).
        q, r, s = self.cube(hex_id)
        id_of = self._id_of.get
        found: list[tuple[int, HexId]] = []
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                h = id_of((q + dq, r + dr, s - dq - dr))  # type: ignore[call-overload]
                if h is not None:
                    found.append((max(abs(dq), abs(dr), abs(dq + dr)), h))
        return tuple(h for _, h in sorted(found))
