"""Rout (parabellum/rout.py), run for both variants: which routed units an arriving enemy makes test, and what the
test does (caldiero §15.2, arrivano §15.2; D19: a failed test is a surrender for good only in arrivano)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from arbitro.adjudicator.maps.hexgrid import Grid
from arbitro.adjudicator.parabellum import rout
from arbitro.adjudicator.parabellum.variant import Variant
from tests.parabellum import position

GRID = Grid(orientation="flat-top", shifted="odd", first_column=10, last_column=27, first_row=1, last_row=21)


@dataclass
class Position:
    """Units by id: (hex, side, status)."""

    units: dict[str, tuple[str, str, str]]

    @property
    def grid(self) -> Grid:
        return GRID

    def units_at(self, h: str) -> list[str]:
        return sorted(u for u, (at, _, _) in self.units.items() if at == h)

    def side_of(self, u: str) -> str:
        return self.units[u][1]

    def status(self, u: str) -> str:
        return self.units[u][2]


def test_only_routed_enemies_next_to_the_arrival_test(variant: Variant) -> None:
    """§15.2 in both: routed units of the other side in the six hexes around; not disordered ones, not friends,
    not farther away; the hexes in the grid's direction order, the units in id order."""
    w = Position({"b": ("1613", "austria", "routed"), "a": ("1613", "austria", "routed"),
                  "c": ("1712", "austria", "disordered"), "d": ("1611", "france", "routed"),
                  "e": ("1614", "austria", "routed"), "f": ("1511", "austria", "routed")})
    found = rout.routed_near(w, "1612", "france")
    assert sorted(found) == [("1511", ["f"]), ("1613", ["a", "b"])]
    order = [n for n in GRID.neighbours("1612") if n in {"1613", "1511"}]
    assert [n for n, _ in found] == order
    assert rout.routed_near(w, "1612", "austria") == [("1611", ["d"])]


def test_passing_retreats_two_hexes_failing_is_eliminated(variant: Variant) -> None:
    """§15.2 in both: pass, retreat two hexes; fail, eliminated - for good where a failure is a surrender (D19)."""
    result = rout.outcome(variant, ["a", "b", "c"], {"a": True, "b": False, "c": True})
    assert result.retreating == ["a", "c"] and result.eliminated == ["b"] and rout.RETREAT_HEXES == 2
    assert result.permanent is variant.rout_failure_permanent
    assert result.permanent is (variant.book == "arrivano")


def test_a_second_disorder_level_routs_and_says_so(variant: Variant) -> None:
    """§15.1 in both (caldiero §15.1, arrivano §15.1.1): good -> disordered -> routed; routed stays routed; `routed`
    only for the level that routs (a unit routed by combat retreats at once, §15.2.1)."""
    assert rout.worsened("good") == rout.Worsened("disordered", False)
    assert rout.worsened("disordered") == rout.Worsened("routed", True)
    assert rout.worsened("good", 2) == rout.Worsened("routed", True)
    assert rout.worsened("routed") == rout.Worsened("routed", False)
    assert rout.RETREAT_HEXES == 2


def test_the_guns_stacked_with_units_forced_back_by_an_assault(variant: Variant) -> None:
    """§11.1 in both: the artillery stacked with the units (their side's, in their hexes), not the others."""
    piece = position.Piece
    w = position.Position(units={"inf": piece("france", "1612"), "guns": piece("france", "1612", arm="artillery"),
                                 "far-guns": piece("france", "1613", arm="artillery"), "foe": piece("austria", "1614"),
                                 "foe-guns": piece("austria", "1614", arm="artillery")})
    assert rout.guns_with(w, ["inf"]) == ["guns"]
    assert rout.guns_with(w, ["inf", "foe"]) == ["guns", "foe-guns"]
    assert rout.guns_with(w, ["guns"]) == []


@dataclass
class RoutTable:
    """A game for rout.checks: fixed test results, and a record of what the check asked."""

    position: Position
    passed: dict[str, bool]
    asked: list[tuple[str, ...]]

    def world(self) -> Position:
        return self.position

    def rout_test(self, h: str, units: list[str]) -> dict[str, bool]:
        self.asked.append(("test", h, *units))
        return {u: self.passed[u] for u in units}

    def rout_retreat(self, units: list[str]) -> None:
        self.asked.append(("retreat", *units))


def test_the_rout_check_tests_each_stack_then_eliminates_or_retreats(variant: Variant,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """§15.2 in both, written once (rout.checks): a unit arrives in 1612; each routed enemy stack next to it tests on
    one die, in the grid's direction order (caldiero) or hex order (arrivano, as its games recorded); failing units
    are eliminated (for good in arrivano, D19), the others retreat; nothing happens where nobody arrived."""
    w = Position({"a": ("1613", "austria", "routed"), "b": ("1613", "austria", "routed"),
                  "f": ("1511", "austria", "routed"), "me": ("1612", "france", "good")})
    table = RoutTable(w, {"a": True, "b": False, "f": True}, [])

    def eliminate(game: RoutTable, v: Variant, unit: str, rule: object, permanent: bool) -> None:  # the kernel's
        assert rule == v.rules.ROUT, "a failed rout test's elimination cites §15.2"
        game.asked.append(("eliminated", unit, str(permanent)))

    monkeypatch.setattr(rout, "eliminate", eliminate)
    rout.checks(table, variant, "1612")  # type: ignore[arg-type]
    stacks = [n for n in GRID.neighbours("1612") if n in {"1613", "1511"}]
    if variant.rout_tests_in_hex_order:
        stacks = sorted(stacks)
    expected = {"1613": [("test", "1613", "a", "b"), ("eliminated", "b", str(variant.rout_failure_permanent)),
                         ("retreat", "a")], "1511": [("test", "1511", "f"), ("retreat", "f")]}
    assert table.asked == [step for n in stacks for step in expected[n]]
    rout.checks(empty := RoutTable(w, {}, []), variant, "1712")  # type: ignore[arg-type]
    assert empty.asked == []


@dataclass
class StatusTable:
    """A game for rout.disorder: units' statuses, and the events it records."""

    statuses: dict[str, str]
    events: list[object]

    def world(self) -> "StatusTable":
        return self

    def status(self, u: str) -> str:
        return self.statuses[u]

    def emit(self, event: object) -> None:
        self.events.append(event)


def test_a_unit_routed_by_a_combat_result_retreats_two_hexes_at_once(variant: Variant) -> None:
    """§15.2.1 in both ("si deve immediatamente ritirare di 2 esagoni"): the level a combat result adds - an assault's,
    a bombardment's, a retreat's into enemy ZoC (§12.6.1) - says it routed the unit (`disorder` True), which each game
    sends two hexes back at once; a unit it only disorders, or one already routed, does not retreat for it. The level
    that routs cites the book's second disorder (caldiero §15.1, arrivano §15.1.1), the others the result."""
    game = StatusTable({"good": "good", "disordered": "disordered", "routed": "routed", "twice": "good"}, [])
    routed = {u: rout.disorder(game, variant, u, "the result", 2 if u == "twice" else 1) for u in game.statuses}
    assert routed == {"good": False, "disordered": True, "routed": False, "twice": True} and rout.RETREAT_HEXES == 2
    assert [(e.unit, e.status, e.rule) for e in game.events] == [  # type: ignore[attr-defined]
        ("good", "disordered", "the result"), ("disordered", "routed", str(variant.rules.SECOND_DISORDER)),
        ("twice", "routed", str(variant.rules.SECOND_DISORDER))]
