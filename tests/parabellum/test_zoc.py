"""Zones of control asked of a position through the kernel's World (caldiero §8, §12.2.1, §15; arrivano §8,
§12.2.1, §15, §17.2.7), run for both variants: the same answers from the same position."""

from __future__ import annotations

from arbitro.adjudicator.parabellum import zoc
from arbitro.adjudicator.parabellum.variant import Variant
from tests.parabellum.position import GRID, Piece, Position


def test_only_good_order_units_on_the_map_exert_a_zoc(variant: Variant) -> None:
    """§15 in both: disordered and routed units have no ZoC; a unit off the map none either."""
    w = Position({"a": Piece("austria", "1612", "good"), "b": Piece("austria", "1616", "disordered"),
                  "c": Piece("austria", "1620", "routed"), "d": Piece("austria", None, "good")})
    assert [u for u in sorted(w.units) if zoc.exerts_zoc(w, u)] == ["a"]
    assert zoc.enemy_zoc(w, "france") == frozenset(GRID.neighbours("1612"))
    assert zoc.enemy_zoc(w, "austria") == frozenset()
    assert w.asked == [("enemy_zoc", "france"), ("enemy_zoc", "austria")]


def test_no_zoc_into_closed_terrain_nor_while_suspended(variant: Variant) -> None:
    """caldiero §10.5.1 (fortress), arrivano §8 (redoubt): none into the hex; arrivano §17.2.7: none in the storm."""
    w = Position({"a": Piece("austria", "1612", "good")}, closed=frozenset({"1613"}))
    assert zoc.enemy_zoc(w, "france") == frozenset(GRID.neighbours("1612")) - {"1613"}
    w.in_force = False
    assert zoc.enemy_zoc(w, "france") == frozenset() and not zoc.exerts_zoc(w, "a")


def test_zoc_sources_are_the_exerting_enemy_hexes_around(variant: Variant) -> None:
    """§12.2.1 in both: the enemy hexes whose units exert a ZoC into h, in hex order; friends never count."""
    w = Position({"a": Piece("austria", "1613", "good"), "b": Piece("austria", "1712", "routed"),
                  "c": Piece("austria", "1712", "good"), "d": Piece("austria", "1611", "disordered"),
                  "f": Piece("france", "1511", "good")})
    assert zoc.zoc_sources(w, "1612", "france") == ["1613", "1712"]
    assert zoc.zoc_sources(w, "1612", "austria") == ["1511"]
    w.closed = frozenset({"1612"})
    assert zoc.zoc_sources(w, "1612", "france") == []


def test_zones_kept_across_positions_are_those_of_the_same_hexes_and_ground(variant: Variant) -> None:
    """Issue 15: the zones a set of hexes exerts are worked out once and kept across positions, never shared by a
    position whose terrain stops them elsewhere (caldiero §10.5.1, arrivano §8) or whose units stand elsewhere."""
    pieces = {"a": Piece("austria", "1612", "good"), "b": Piece("austria", "1616", "good")}
    first = zoc.enemy_zoc(Position(dict(pieces)), "france")
    assert zoc.enemy_zoc(Position(dict(pieces)), "france") is first  # another position, the same hexes: kept
    closed = zoc.enemy_zoc(Position(dict(pieces), closed=frozenset({"1613"})), "france")
    assert closed == first - {"1613"}
    moved = zoc.enemy_zoc(Position({"a": Piece("austria", "1612", "good"), "b": Piece("austria", "1620", "good")}),
                          "france")
    assert moved == frozenset(GRID.neighbours("1612")) | frozenset(GRID.neighbours("1620"))
