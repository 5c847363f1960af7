"""The bombardment table as both books read it (parabellum/bombardment.py), run with each variant's own table:
the column by value, the range and concentration modifiers, the row kept within the table, who a result strikes
(caldiero §11.0.1, §11.4.1, §11.4.4; arrivano §11.4.1, §11.4.3)."""

from __future__ import annotations

from dataclasses import dataclass

from arbitro.adjudicator.maps.hexgrid import Grid
from arbitro.adjudicator.parabellum import bombardment
from arbitro.adjudicator.parabellum.variant import Variant
from tests.parabellum.position import Piece, Position
from tests.parabellum.test_data import loaded_tables

GRID = Grid(orientation="flat-top", shifted="odd", first_column=10, last_column=27, first_row=1, last_row=21)


@dataclass
class Target:
    """A target hex holding `units` (id -> (strength, artillery?))."""

    units: dict[str, tuple[int, bool]]
    at: str = "1614"

    @property
    def grid(self) -> Grid:
        return GRID

    def units_at(self, h: str) -> list[str]:
        return sorted(self.units) if h == self.at else []

    def strength(self, u: str) -> int:
        return self.units[u][0]

    def is_artillery(self, u: str) -> bool:
        return self.units[u][1]


def test_column_is_the_combined_value_within_the_table(variant: Variant) -> None:
    """§11.4.1 in both: stacked batteries add their values; the table has no column beyond its last, none below 1."""
    _, table = loaded_tables(variant)
    w = Target({"a": (4, False)})
    assert bombardment.fire_odds(w, table, "1612", "1614", 3).column == 3
    assert bombardment.fire_odds(w, table, "1612", "1614", table.max_column + 4).column == table.max_column
    assert bombardment.fire_odds(w, table, "1612", "1614", 0).column == 1


def test_range_and_concentration_modifiers_come_from_the_table(variant: Variant) -> None:
    """The range modifier by distance; the concentration band by the SP of the non-artillery units only
    (caldiero §11.0.1: artillery never counts toward concentration; arrivano §11.4.3 the same)."""
    _, table = loaded_tables(variant)
    big = max(b.min_sp for b in table.concentration_drm)
    w = Target({"inf": (big, False), "guns": (9, True)})
    odds = bombardment.fire_odds(w, table, "1612", "1614", 2)
    assert odds.distance == 2 and odds.range_drm == table.range_drm["2"]
    assert odds.target_sp == big and odds.band == next(b for b in table.concentration_drm if b.min_sp == big)
    assert odds.drm == odds.range_drm + odds.band.drm
    alone = bombardment.fire_odds(Target({"guns": (9, True)}), table, "1612", "1614", 2)
    assert alone.target_sp == 0 and (alone.band is None or alone.band.min_sp == 0)
    near = bombardment.fire_odds(w, table, "1613", "1614", 2)
    assert near.distance == 1 and near.range_drm == table.range_drm["1"]


def test_the_modified_die_is_kept_within_the_rows(variant: Variant) -> None:
    _, table = loaded_tables(variant)
    low, high = table.roll_range()
    assert bombardment.fire_result(table, 1, low - 5) == (low, table.rows[str(low)]["1"])
    assert bombardment.fire_result(table, table.max_column, high + 5) == (high, table.rows[str(high)][str(table.max_column)])
    assert bombardment.fire_result(table, 2, low + 1)[1] in ("-", "D", "R")


def test_a_result_strikes_the_units_but_not_the_guns(variant: Variant) -> None:
    """'D' and 'R' (§11.4 in both): every non-artillery unit in the hex; the guns stay out of it (caldiero §11.1,
    arrivano §11.1 decide what they do)."""
    w = Target({"b-inf": (3, False), "a-guns": (2, True), "c-cav": (2, False)})
    assert bombardment.hit(w, "1614") == ["b-inf", "c-cav"]
    assert bombardment.hit(w, "1612") == []


def _guns_at_1612(**kwargs: object) -> Position:
    units = {"guns": Piece("france", "1612", arm="artillery"), "inf": Piece("austria", "1613"),
             "lone": Piece("austria", "1614", arm="artillery"), "cav": Piece("austria", "1712", arm="cavalry"),
             "cav-guns": Piece("austria", "1712", arm="artillery"), "far": Piece("austria", "1616"),
             "friend": Piece("france", "1611")}
    return Position(units=units, **kwargs)  # type: ignore[arg-type]


def test_bombardment_targets(variant: Variant) -> None:
    """caldiero §11.4 / arrivano §11.4.3: enemy hexes in range and sight; a hex of artillery alone only where the
    variant allows it (D15b); never the firer's own hex nor a friendly one; closed terrain (caldiero §10.2 marsh)
    never; none out of sight (§11.3 in both)."""
    w = _guns_at_1612(unseen=frozenset({"1712"}))
    assert bombardment.targets(variant, w, ["guns"]) == (["1613", "1614"] if variant.bombard_artillery_alone
                                                          else ["1613"])
    assert variant.bombard_artillery_alone is (variant.book == "caldiero")
    w = _guns_at_1612(no_fire=frozenset({"1613"}))
    assert bombardment.targets(variant, w, ["guns"]) == (["1614", "1712"] if variant.bombard_artillery_alone
                                                          else ["1712"])


def test_range_is_the_guns_within_sight_and_the_weathers_limit(variant: Variant) -> None:
    """§11.2 the counter's range, §11.3 never beyond sight (both books); the weather shortens every range (caldiero
    §17.1.1: 1; arrivano §17.2.7: the box's) or silences the guns (caldiero §17.1.2-§17.1.3, arrivano §17.2.7)."""
    assert bombardment.fire_range(_guns_at_1612(gun_ranges={"guns": 6}), "guns") == 4
    assert bombardment.fire_range(_guns_at_1612(gun_ranges={"guns": 3}, weather_cap=1), "guns") == 1
    assert bombardment.targets(variant, _guns_at_1612(weather_cap=1), ["guns"]) == ["1613", "1712"]
    assert bombardment.targets(variant, _guns_at_1612(guns_fire=False), ["guns"]) == []
    far = _guns_at_1612(gun_ranges={"guns": 4})
    assert "1616" in bombardment.targets(variant, far, ["guns"])
    assert "1616" not in bombardment.targets(variant, _guns_at_1612(gun_ranges={"guns": 4}, sight=3), ["guns"])
