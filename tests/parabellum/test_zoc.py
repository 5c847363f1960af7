"""Zones of control asked of a position through the kernel's World (caldiero §8, §12.2.1, §15; arrivano §8,
§12.2.1, §15, §17.2.7), run for both variants: the same answers from the same position."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from arbitro.adjudicator.maps.hexgrid import Grid, HexId
from arbitro.adjudicator.parabellum import zoc
from arbitro.adjudicator.parabellum.variant import Variant

T = TypeVar("T")
GRID = Grid(orientation="flat-top", shifted="odd", first_column=10, last_column=27, first_row=1, last_row=21)


@dataclass
class Position:
    """A minimal World: units as (side, hex or None, status); `closed` hexes no ZoC enters."""

    units: dict[str, tuple[str, str | None, str]]
    closed: frozenset[str] = frozenset()
    in_force: bool = True
    asked: list[tuple[str, ...]] = field(default_factory=list)

    @property
    def grid(self) -> Grid:
        return GRID

    def enemy(self, side: str) -> str:
        return "austria" if side == "france" else "france"

    def units_of(self, side: str) -> list[str]:
        return sorted(u for u, (s, h, _) in self.units.items() if s == side and h is not None)

    def units_at(self, h: str) -> list[str]:
        return sorted(u for u, (_, where, _) in self.units.items() if where == h)

    def hex_of(self, u: str) -> str | None:
        return self.units[u][1]

    def side_of(self, u: str) -> str:
        return self.units[u][0]

    def status(self, u: str) -> str:
        return self.units[u][2]

    def zocs_in_force(self) -> bool:
        return self.in_force

    def no_zoc_into(self, h: HexId) -> bool:
        return h in self.closed

    def cached(self, key: tuple[str, ...], work: Callable[[], T]) -> T:
        self.asked.append(key)
        return work()


def test_only_good_order_units_on_the_map_exert_a_zoc(variant: Variant) -> None:
    """§15 in both: disordered and routed units have no ZoC; a unit off the map none either."""
    w = Position({"a": ("austria", "1612", "good"), "b": ("austria", "1616", "disordered"),
                  "c": ("austria", "1620", "routed"), "d": ("austria", None, "good")})
    assert [u for u in sorted(w.units) if zoc.exerts_zoc(w, u)] == ["a"]
    assert zoc.enemy_zoc(w, "france") == frozenset(GRID.neighbours("1612"))
    assert zoc.enemy_zoc(w, "austria") == frozenset()
    assert w.asked == [("enemy_zoc", "france"), ("enemy_zoc", "austria")]


def test_no_zoc_into_closed_terrain_nor_while_suspended(variant: Variant) -> None:
    """caldiero §10.5.1 (fortress), arrivano §8 (redoubt): none into the hex; arrivano §17.2.7: none in the storm."""
    w = Position({"a": ("austria", "1612", "good")}, closed=frozenset({"1613"}))
    assert zoc.enemy_zoc(w, "france") == frozenset(GRID.neighbours("1612")) - {"1613"}
    w.in_force = False
    assert zoc.enemy_zoc(w, "france") == frozenset() and not zoc.exerts_zoc(w, "a")


def test_zoc_sources_are_the_exerting_enemy_hexes_around(variant: Variant) -> None:
    """§12.2.1 in both: the enemy hexes whose units exert a ZoC into h, in hex order; friends never count."""
    w = Position({"a": ("austria", "1613", "good"), "b": ("austria", "1712", "routed"),
                  "c": ("austria", "1712", "good"), "d": ("austria", "1611", "disordered"),
                  "f": ("france", "1511", "good")})
    assert zoc.zoc_sources(w, "1612", "france") == ["1613", "1712"]
    assert zoc.zoc_sources(w, "1612", "austria") == ["1511"]
    w.closed = frozenset({"1612"})
    assert zoc.zoc_sources(w, "1612", "france") == []
