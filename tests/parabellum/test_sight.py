"""Line of sight beyond the clear line, run for both variants (parabellum/sight.py): what a piece sees, the hexes
a side looks from, and what a side may examine (caldiero §11.3, §20.4.1; arrivano §11.3, §11.3.2)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from arbitro.adjudicator.maps.hexgrid import Grid
from arbitro.adjudicator.parabellum import sight, world
from arbitro.adjudicator.parabellum.variant import Variant

T = TypeVar("T")
GRID = Grid(orientation="flat-top", shifted="odd", first_column=10, last_column=27, first_row=1, last_row=21)


@dataclass
class Flat:
    """A flat map whose only blocking terrain is `woods`; units block as the variant says (D18)."""

    variant: Variant
    pieces: dict[str, set[str]]
    woods: set[str] = field(default_factory=set)
    occupied: set[str] = field(default_factory=set)
    reach: int = 3
    tag: object | None = None

    @property
    def grid(self) -> Grid:
        return GRID

    def clear_line(self, a: str, b: str) -> bool:
        return world.units_clear(self.variant, world.line_cells(GRID, a, b, lambda h: 0, lambda h: h in self.woods),
                                 lambda h: h in self.occupied)

    def sight_range(self) -> int:
        return self.reach

    def piece_hexes(self, side: str) -> set[str]:
        return set(self.pieces.get(side, set()))

    def lines_key(self) -> object | None:
        """Lines here depend on the woods, and on the units where they block: never kept across positions, unless
        a test names the lines (`tag`)."""
        return self.tag

    def cached(self, key: tuple[str, ...], work: Callable[[], T]) -> T:  # a World of one question: nothing kept
        return work()


def test_a_piece_sees_within_range_along_a_clear_line(variant: Variant) -> None:
    """§11.3 in both: its own hex always, nothing beyond the range, a blocked line never."""
    w = Flat(variant, {}, woods={"1613"})
    assert sight.sees(w, "1612", "1612", reach=0)
    assert sight.sees(w, "1612", "1812")  # 2 hexes, nothing between
    assert not sight.sees(w, "1612", "1614")  # the woods between block
    assert not sight.sees(w, "1612", "2012")  # 4 hexes: beyond the range of 3
    assert sight.sees(w, "1612", "2012", reach=4)


def test_observers_are_the_hexes_of_units_and_leaders_once_each(variant: Variant) -> None:
    w = Flat(variant, {"france": {"1612", "1410", "1612"}, "austria": {"2020"}})
    assert sight.observers(w, "france") == ["1410", "1612"]


def test_adjacent_stacks_may_always_be_examined(variant: Variant) -> None:
    """caldiero §20.4.1: adjacent hexes even when weather takes the range to nothing; a blocked line hides the rest
    (arrivano §11.3.2 reads the same within its range of at least 1)."""
    w = Flat(variant, {"france": {"1612"}}, woods={"1613"})
    assert sight.in_view(w, ["1612"], "1613", 0)
    assert not sight.in_view(w, ["1612"], "1812", 0)
    assert sight.in_view(w, ["1612"], "1812", 2)
    assert not sight.in_view(w, ["1612"], "1614", 3)


def test_visible_hexes_are_those_in_view_of_some_piece(variant: Variant) -> None:
    """The hexes a side may examine: every hex within range of one of its pieces along a clear line, its own
    included; a unit in between hides what lies behind only where units block sight (D18)."""
    w = Flat(variant, {"france": {"1612"}}, occupied={"1613"}, reach=2)
    seen = sight.visible_hexes(w, "france")
    assert seen == {h for h in GRID.within("1612", 2) if sight.in_view(w, ["1612"], h, 2)}
    assert {"1612", "1613"} <= seen
    assert ("1614" in seen) is (not variant.units_block_sight)
    assert sight.visible_hexes(w, "austria") == frozenset()
    assert sight.visible_hexes(w, "france", reach=0) == frozenset(GRID.within("1612", 1))


def test_what_a_hex_sees_is_kept_only_under_the_lines_it_was_seen_by(variant: Variant) -> None:
    """Where a World's lines of sight do not depend on the position (`lines_key`, arrivano §11.3.1: units never
    block) what one hex sees is kept for every position with the same lines, and only for those: other lines
    (another map, another reading) are worked out afresh."""
    open_ground = Flat(variant, {"france": {"1612"}}, reach=2, tag=("open", variant.__class__.__name__))
    assert sight.visible_hexes(open_ground, "france") == frozenset(GRID.within("1612", 2))
    wooded = Flat(variant, {"france": {"1612"}}, woods={"1613"}, reach=2, tag=("wooded", variant.__class__.__name__))
    hidden = sight.visible_hexes(wooded, "france")
    assert "1614" not in hidden and "1613" in hidden  # not the open ground's view, kept under another key
    assert hidden == {h for h in GRID.within("1612", 2) if sight.in_view(wooded, ["1612"], h, 2)}


def test_what_a_side_sees_is_kept_under_the_hexes_its_pieces_stand_in(variant: Variant) -> None:
    """Under lines that do not depend on the position, what a side may examine is kept across positions by where
    its pieces stand (issue 15): a piece that moves, or one more piece, is a new answer; the same hexes, the same."""
    tag = ("kept", variant.__class__.__name__)
    one = sight.visible_hexes(Flat(variant, {"france": {"1612"}}, reach=1, tag=tag), "france")
    assert one == frozenset(GRID.within("1612", 1))
    moved = sight.visible_hexes(Flat(variant, {"france": {"2020"}}, reach=1, tag=tag), "france")
    assert moved == frozenset(GRID.within("2020", 1))
    both = sight.visible_hexes(Flat(variant, {"france": {"1612", "2020"}}, reach=1, tag=tag), "france")
    assert both == one | moved
    assert sight.visible_hexes(Flat(variant, {"austria": {"1612"}}, reach=1, tag=tag), "austria") == one
    assert sight.visible_hexes(Flat(variant, {"france": {"1612"}}, reach=2, tag=tag), "france") == frozenset(GRID.within("1612", 2))


def test_sighted_are_the_unknown_pieces_in_view_asked_either_way(variant: Variant) -> None:
    """The pieces a side has never examined that it may examine now (caldiero §20.4.1, arrivano §11.3.2): the same
    answer hex by hex (lines that change with the position) and from the kept visible hexes (lines that do not)."""
    unknown = {"near": "1712", "behind-woods": "1614", "far": "2012", "beside": "1613"}
    for tag in (None, ("sighted", variant.__class__.__name__)):
        w = Flat(variant, {"france": {"1612"}}, woods={"1613"}, reach=2, tag=tag)
        assert sight.sighted(w, "france", unknown) == ["beside", "near"]
        assert sight.sighted(w, "france", unknown, reach=4) == ["beside", "far", "near"], "2012: 4 off, nothing between"
        assert sight.sighted(w, "france", {**unknown, "far": "1812"}, reach=0) == ["beside", "near"]


class Blind(Flat):
    def sight_range(self) -> int:
        raise AssertionError("nothing is worked out for no unknown piece")


def test_nothing_is_worked_out_while_no_piece_is_unknown(variant: Variant) -> None:
    assert sight.sighted(Blind(variant, {"france": {"1612"}}), "france", {}) == []


def test_a_line_is_clear_both_ways(variant: Variant) -> None:
    """`sighted` looks from the unknown pieces' hexes where lines do not change with the position (issue 15): that
    is the same answer only because the map kit traces a line exactly, so it is clear from a to b if and only if
    from b to a, along hexsides too (a line of 1612 to 1812 runs along the 1712 hexsides)."""
    woods = {"1613", "1712", "1813", "1914", "2012", "1611"}
    w = Flat(variant, {}, woods=woods)
    pairs = [(a, b) for a in GRID.within("1712", 2) for b in GRID.within(a, 4) if a < b]
    assert any(not w.clear_line(a, b) for a, b in pairs) and any(w.clear_line(a, b) for a, b in pairs)
    assert [(a, b) for a, b in pairs if w.clear_line(a, b) != w.clear_line(b, a)] == []
