"""The lines of a retreat (parabellum/retreat.py), run for both variants: what both readings of §12.6 share
(away from the enemy, enemy ZoC only when nothing else, going on past an overstacked end, no line when hemmed in)
and where they differ (D34: hex by hex for caldiero, by the end hex for arrivano), through the variant's hook."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arbitro.adjudicator.maps.hexgrid import Grid
from arbitro.adjudicator.parabellum import retreat, retreat_ground
from arbitro.adjudicator.parabellum.retreat import Ground
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.events.parabellum import LeaderMoved, UnitRetreated
from tests.parabellum.position import Piece, Position

GRID = Grid(orientation="flat-top", shifted="odd", first_column=10, last_column=27, first_row=1, last_row=21)
START = "1610"


def ground(enemies: tuple[str, ...] = ("1609",), ezoc: frozenset[str] = frozenset(), full: frozenset[str] = frozenset(),
           start: str = START, may_leave: bool = True) -> Ground:
    return Ground(grid=GRID, start=start, enemies=enemies, ezoc=ezoc, enterable=lambda h: h not in enemies,
                  fits=lambda h: h not in full, may_leave=may_leave)


def lines(variant: Variant, g: Ground, hexes: int, off_map: str = "only_way") -> list[retreat.Line]:
    return variant.retreat_lines(g, hexes, lambda name: off_map)


def test_a_retreat_moves_away_from_the_enemy(variant: Variant) -> None:
    """§12.6 in both: every line of one hex ends farther from the enemy than the start."""
    found = lines(variant, ground(), 1)
    assert found and all(GRID.distance(ln.to, "1609") > GRID.distance(START, "1609") for ln in found)
    assert all(ln.path == (ln.to,) and not ln.off_map and not ln.through_ezoc for ln in found)


def test_enemy_zoc_only_when_nothing_else(variant: Variant) -> None:
    """§12.6.1 in both: lines through EZoC are offered only when none avoids it, and they are marked for the extra
    disorder level."""
    away = [ln.to for ln in lines(variant, ground(), 1)]
    some = frozenset(away[:1])
    assert all(not ln.through_ezoc and ln.to not in some for ln in lines(variant, ground(ezoc=some), 1))
    every = frozenset(GRID.neighbours(START))
    hemmed = lines(variant, ground(ezoc=every), 1)
    assert hemmed and all(ln.through_ezoc for ln in hemmed)


def test_an_overstacked_end_goes_on(variant: Variant) -> None:
    """§12.6.2 in both: where no end of the retreat has room, it goes on one more hex."""
    full = frozenset(GRID.neighbours(START))
    found = lines(variant, ground(full=full), 1)
    assert found and all(len(ln.path) == 2 and ln.continued == 1 and ln.to not in full for ln in found)


def test_no_line_when_surrounded(variant: Variant) -> None:
    """§12.6.3 in both: enemy units all round leave no retreat."""
    ring = tuple(sorted(GRID.neighbours(START)))
    assert lines(variant, ground(enemies=ring), 1) == []


def test_the_two_readings_are_the_variants_hook(variant: Variant) -> None:
    """D34: caldiero lists every path built hex by hex, arrivano one line per end hex, best-ranked ends only."""
    g = ground()
    assert lines(variant, g, 2) == (retreat.hex_by_hex(g, 2) if variant.book == "caldiero"
                                    else retreat.by_end(g, 2, leaving_is_farthest=False))
    assert Variant().retreat_lines(g, 2, lambda _: "") == retreat.hex_by_hex(g, 2)  # the neutral default
    by_end = retreat.by_end(g, 2, leaving_is_farthest=False)
    assert len({ln.to for ln in by_end}) == len(by_end)
    assert len(retreat.hex_by_hex(g, 2)) > len(by_end)


@pytest.mark.parametrize("reading", ["only_way", "farthest"])
def test_leaving_the_map_by_end(reading: str) -> None:
    """arrivano §12.8.1 (reading off_map_retreat): `farthest` takes an exit whenever one exists, `only_way` only
    when no line of the full length stays on the map; a retreat that may not leave never does."""
    g = ground(enemies=("1202",), start="1101")  # by the map edge, the enemy inland
    found = retreat.by_end(g, 2, leaving_is_farthest=reading == "farthest")
    assert any(ln.off_map for ln in found) is (reading == "farthest")
    assert not any(ln.off_map for ln in retreat.by_end(ground(enemies=("1202",), start="1101", may_leave=False), 2,
                                                       leaving_is_farthest=True))


class Retreating:
    """A game a retreat moves pieces in: its World is a Position, and each event it is given moves what it names."""

    def __init__(self, units: dict[str, Piece], leaders: dict[str, str]) -> None:
        self.position = Stacks(units=dict(units), leaders=dict(leaders),
                               leader_info={x: ("general", "france", "f1", 3) for x in leaders})
        self.events: list[object] = []

    def world(self) -> Stacks:
        return self.position

    def emit(self, event: object) -> None:
        self.events.append(event)
        if isinstance(event, UnitRetreated):
            self.position.units[event.unit] = replace(self.position.units[event.unit], hex=event.path[-1])
        if isinstance(event, LeaderMoved):
            self.position.leaders[event.leader] = event.path[-1]


class Stacks(Position):
    def side_units_at(self, h: str, side: str) -> list[str]:
        return [u for u in self.units_at(h) if self.units[u].side == side]

    def leaders_at(self, h: str, side: str | None = None) -> list[str]:  # type: ignore[override]
        return sorted(x for x, at in self.leaders.items() if at == h and side in (None, self.leader_side(x)))


def test_a_retreat_records_the_hexes_entered_and_takes_the_commander_left_alone(variant: Variant) -> None:
    """§12.6 in both: each unit's `unit_retreated` path is the hexes it entered, the start excluded (one reading in
    both games since arrivano 1.14.0); a commander left alone in the start hex goes along the same hexes, citing the
    book's §12.6; one with a unit still beside him stays."""
    line = retreat.Line(path=("1611", "1612"), to="1612")
    game = Retreating({"a": Piece("france", START), "b": Piece("france", START)}, {"gen": START})
    assert retreat_ground.take(game, variant, ["a"], line, "forced") == []  # type: ignore[arg-type]  # a fake Act
    assert game.events == [UnitRetreated(unit="a", path=("1611", "1612"), rule="forced")]
    assert retreat_ground.take(game, variant, ["b"], line, "forced") == []  # type: ignore[arg-type]
    assert game.events[1:] == [UnitRetreated(unit="b", path=("1611", "1612"), rule="forced"),
                               LeaderMoved(leader="gen", path=("1611", "1612"), rule=f"{variant.book} §12.6", own=False)]
