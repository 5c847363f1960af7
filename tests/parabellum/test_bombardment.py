"""The bombardment table as both books read it (parabellum/bombardment.py), run with each variant's own table:
the column by value, the range and concentration modifiers, the row kept within the table, who a result strikes
(caldiero §11.0.1, §11.4.1, §11.4.4; arrivano §11.4.1, §11.4.3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

from arbitro.adjudicator.maps.hexgrid import Grid
from arbitro.adjudicator.parabellum import bombardment
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.tables import Halving
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
    low, high = table.row(-99), table.row(99)
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


@dataclass
class Ground(Position):
    """A Position with what a fire reads of the ground and the guns: the target's terrains' bombardment modifiers,
    climbing a level, each hex's level, the guns' values, whether the weather halves them."""

    terrain_drm: tuple[int, ...] = (0,)
    climb: int = 0
    levels: dict[str, int] = field(default_factory=dict)
    bombard: dict[str, int] = field(default_factory=dict)
    halved: Halving | None = None

    def terrains(self, h: str) -> list[SimpleNamespace]:
        return [SimpleNamespace(bombard_drm=d) for d in self.terrain_drm]

    @property
    def terrain_table(self) -> SimpleNamespace:
        return SimpleNamespace(climb=SimpleNamespace(bombard_drm=self.climb))

    def elevation(self, h: str) -> int:
        return self.levels.get(h, 0)

    def strength(self, u: str) -> int:
        return 3

    def weather_box(self) -> SimpleNamespace:
        return SimpleNamespace(bombard_halved=self.halved)

    @property
    def counters(self) -> SimpleNamespace:
        return SimpleNamespace(unit=lambda g: SimpleNamespace(bombard=self.bombard[g]))


def ground(**kw: object) -> Ground:
    """French guns g1, g2 at 1612; Austrian infantry (3 SP) and their general 'kray' at 1614."""
    units = {"g1": Piece("france", "1612", arm="artillery"), "g2": Piece("france", "1612", arm="artillery"),
             "inf": Piece("austria", "1614")}
    return Ground(units, leaders={"kray": "1614"}, leader_info={"kray": ("general", "austria", "f1", 3)},
                  bombard={"g1": 3, "g2": 2}, **kw)  # type: ignore[arg-type]


def test_the_guns_values_add_and_a_weather_box_halves_them(variant: Variant) -> None:
    """§11.4.1 in both: stacked guns combine their values; caldiero §17.1.1 (with §1.4, rounded up): halved in the
    cloudburst, a box that says so (`bombard_halved`), rounded as it says (a user's box rounding down)."""
    assert bombardment.fire_value(ground(), ["g1", "g2"]) == 5
    up, down = Halving(rounding="up", rule="caldiero §1.4"), Halving(rounding="down", rule="a user's")
    assert bombardment.fire_value(ground(halved=up), ["g1", "g2"]) == 3
    assert bombardment.fire_value(ground(halved=up), ["g2"]) == 1
    assert bombardment.fire_value(ground(halved=down), ["g1", "g2"]) == 2


def test_the_fire_modifiers_each_with_its_rule(variant: Variant) -> None:
    """caldiero §11.4.4, arrivano §11.4.3: the range's always, the target's terrain as the defender picks it among
    the hex's terrains (arrivano §10), the concentration band, firing up a level by the table's climb; a modifier of
    0 is left out; each reason cites the variant's book."""
    _, table = loaded_tables(variant)
    rules = variant.rules
    flat = ground(terrain_drm=(0,))
    odds = bombardment.fire_odds(flat, table, "1612", "1614", 3)
    mods = bombardment.fire_modifiers(variant, flat, "1612", "1614", odds)
    assert mods[0].reason == f"range 2 ({rules.ARTILLERY_RANGE})" and mods[0].value == odds.range_drm
    assert [m for m in mods if "terrain" in m.reason or "uphill" in m.reason] == []
    hill = ground(terrain_drm=(0, -1), climb=-1, levels={"1614": 1})
    reasons = {m.reason: m.value for m in bombardment.fire_modifiers(variant, hill, "1612", "1614", odds)}
    assert reasons[f"terrain of 1614 ({rules.BOMBARD_TABLE})"] == -1
    assert reasons[f"firing uphill ({rules.BOMBARD_TABLE})"] == -1
    down = bombardment.fire_modifiers(variant, ground(climb=-1, levels={"1612": 1}), "1612", "1614", odds)
    assert not [m for m in down if "uphill" in m.reason]


class Firing:
    """A game a fire asks: fixed dice, the events it emitted, the commanders' dice."""

    def __init__(self, w: Ground, die: int, leader_die: int = 1) -> None:
        self.w, self.die, self.leader_roll = w, die, leader_die
        self.events: list[object] = []
        self.dice: list[tuple[str, int, tuple[str, ...]]] = []

    def world(self) -> Ground:
        return self.w

    def emit(self, event: object) -> None:
        self.events.append(event)

    def fire_die(self, guns: object, target: str, column: int, modifiers: object, defensive: bool) -> int:
        self.dice.append((target, column, tuple(m.reason for m in modifiers)))  # type: ignore[attr-defined]
        return self.die

    def leader_die(self, leader: str, cause: str) -> int:
        self.dice.append((leader, 0, (cause,)))
        return self.leader_roll

    def after_leader_lost(self, leader: str) -> None:
        """Nothing."""


def test_a_fire_records_its_table_read_and_a_six_tests_the_commanders(variant: Variant) -> None:
    """§11.4 in both: the event holds the guns in id order, the column, die, modifiers and their total, the row and
    the result, citing the variant's §11.4 (§11.4.5 / §11.4.4 when defensive); a natural 6 makes the enemy commanders
    in the target hex test (caldiero §4.4.1, arrivano §4.5.1), a defensive fire's too unless arrivano's reading
    `leader_loss_bombardment_roller` is `active_only`."""
    _, table = loaded_tables(variant)
    game = Firing(ground(), die=6)
    fired = bombardment.fire(game, variant, table, ["g2", "g1"], "1614", defensive=False)
    assert fired.artillery == ("g1", "g2") and fired.roll == 6 and fired.column == min(5, table.max_column)
    assert fired.drm == sum(m.value for m in fired.modifiers) and fired.rule == str(variant.rules.BOMBARDMENT)
    assert (fired.row, fired.result) == bombardment.fire_result(table, fired.column, 6 + fired.drm)
    assert game.events[0] is fired and [d[0] for d in game.dice] == ["1614", "kray"]
    quiet = Firing(ground(), die=5)
    bombardment.fire(quiet, variant, table, ["g1"], "1614", defensive=False)
    assert [d[0] for d in quiet.dice] == ["1614"]
    for reading, tests in (("firer", True), ("active_only", variant.book == "caldiero")):
        defensive = Firing(ground(readings={"leader_loss_bombardment_roller": reading}), die=6)
        fired = bombardment.fire(defensive, variant, table, ["g1"], "1614", defensive=True)
        assert fired.rule == str(variant.rules.DEFENSIVE_FIRE) and fired.defensive
        assert ("kray" in [d[0] for d in defensive.dice]) == tests
