"""Map loading and validation, terrain look-ups, step costs, path finding, retreats, command range."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.maps.command import command_distances, in_command_range
from arbitro.adjudicator.maps.costs import MovementTable, load_movement_table, parse_movement_table, step_cost
from arbitro.adjudicator.maps.hexgrid import HexError, HexId
from arbitro.adjudicator.maps.hexmap import HexMap, load_map, parse_map
from arbitro.adjudicator.maps.movement import MoveBlock, MoveRules, StopReason, ZocRules, check_path, reachable
from arbitro.adjudicator.maps.retreat import RetreatOption, best_retreats, ranked, retreat_options

# A 6 x 6 flat-top map with odd columns shifted toward higher rows: 0101 touches 0102, 0201 and 0202.
BASE: dict[str, Any] = {
    "meta": {"title": "test", "provisional": True, "default_terrain": "clear"},
    "grid": {"orientation": "flat-top", "first_column": 1, "last_column": 6, "first_row": 1, "last_row": 6,
             "shifted_columns": "odd"},
    "terrain_types": ["clear", "marsh", "hill", "village", "woods"],
    "hex_features": ["trees"],
    "hexside_features": ["river", "canal", "bridge"],
    "road_kinds": ["road", "track"],
}

TABLE: dict[str, Any] = {
    "title": "test movement",
    "provisional": True,
    "unit_classes": ["inf", "cav", "art"],
    "terrain": {
        "clear": {"cost": {"default": 2}},
        "marsh": {"cost": {"default": 4, "art": "prohibited"}},
        "hill": {"cost": {"default": 2, "cav": "all"}, "on_road": {"default": 2}},
        "village": {"cost": {"default": 2}},
        "woods": {"cost": {"default": 3, "art": {"cost": 2, "stop": True}}},
    },
    "climb": {"default": 2, "cav": 0},
    "hexside": {
        "river": {"cost": {"default": "prohibited"}},
        "canal": {"cost": {"default": 2, "art": "prohibited"}, "cancelled_by": ["bridge"]},
        "bridge": {"cost": {"default": 0}},
    },
    "roads": {
        "road": {"in_column": {"cost": 1}},
        "track": {"in_column": {"reduce_by": 2, "minimum": 2}},
    },
}


def make_map(**sections: Any) -> HexMap:
    data = copy.deepcopy(BASE)
    data.update(sections)
    return parse_map(data, source="test-map")


def make_table(hexmap: HexMap | None = None, **changes: Any) -> MovementTable:
    data = copy.deepcopy(TABLE)
    data.update(changes)
    return parse_movement_table(data, hexmap=hexmap, source="test-table")


def problems_of(data: dict[str, Any]) -> list[str]:
    with pytest.raises(DataError) as info:
        parse_map(data, source="test-map")
    assert str(info.value).startswith("test-map: ")
    assert {p.file for p in info.value.problems} == {"test-map"}
    return [f"{p.path}: {p.problem}" for p in info.value.problems]


def with_changes(**sections: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data.update(sections)
    return data


# -- loading and validation ------------------------------------------------------------------------


def test_defaults_fill_unlisted_hexes() -> None:
    m = make_map(hexes={"0303": {"terrain": "hill", "elevation": 1, "name": "Monte", "provisional": False}})
    assert len(m.hexes()) == 36
    assert m.hex("0303").terrain == "hill" and m.elevation("0303") == 1 and m.hex("0303").name == "Monte"
    assert not m.hex("0303").provisional
    assert m.terrain("0101") == "clear" and m.elevation("0101") == 0 and m.hex("0101").provisional
    with pytest.raises(HexError, match="off the grid"):
        m.hex("0707")


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"hexes": {"0707": {}}}, "$.hexes.0707: hex 0707 (column 7, row 7) is off the grid: columns 1..6, rows 1..6"),
        ({"hexes": {"77": {}}}, "$.hexes.77: '77' is not a hex id: expected 4 digits XXYY (column, row)"),
        ({"hexes": {"0101": {"terrain": "swamp"}}},
         "$.hexes.0101.terrain: unknown terrain 'swamp' (declared: clear, marsh, hill, village, woods)"),
        ({"hexes": {"0101": {"features": ["hut"]}}}, "$.hexes.0101.features[0]: unknown hex feature 'hut' (declared: trees)"),
        ({"hexes": {"0101": {"elevation": "1"}}}, "$.hexes.0101.elevation: Input should be a valid integer"),
        ({"hexes": {"0101": {"height": 1}}}, "$.hexes.0101.height: Extra inputs are not permitted"),
        ({"roads": [{"kind": "road", "hexes": ["0101", "0102", "0104"]}]},
         "$.roads[0].hexes[2]: 0104 is not adjacent to the previous hex 0102"),
        ({"roads": [{"kind": "motorway", "hexes": ["0101", "0102"]}]},
         "$.roads[0].kind: unknown road kind 'motorway' (declared: road, track)"),
        ({"roads": [{"kind": "road", "hexes": ["0101", "0100"]}]},
         "$.roads[0].hexes[1]: hex 0100 (column 1, row 0) is off the grid: columns 1..6, rows 1..6"),
        ({"roads": [{"kind": "road", "hexes": ["0101"]}]}, "$.roads[0].hexes: Tuple should have at least 2 items"),
        ({"hexsides": [{"hexes": ["0101", "0103"], "features": ["river"]}]}, "$.hexsides[0].hexes: 0101 and 0103 are not adjacent"),
        ({"hexsides": [{"hexes": ["0101", "0102"], "features": ["river"]},
                       {"hexes": ["0102", "0101"], "features": ["canal"]}]},
         "$.hexsides[1].hexes: hexside 0101-0102 already listed at $.hexsides[0]"),
        ({"hexsides": [{"hexes": ["0101", "0102"], "features": ["wall"]}]},
         "$.hexsides[0].features[0]: unknown hexside feature 'wall' (declared: river, canal, bridge)"),
        ({"places": {"Town": ["0101", "9999"]}}, "$.places.Town[1]: hex 9999 (column 99, row 99) is off the grid"),
        ({"terrain_types": ["clear", "clear"]}, "$.terrain_types[1]: 'clear' is declared twice"),
        ({"meta": {"title": "t", "provisional": False, "default_terrain": "clear"}},
         "$.meta.provisional: must be true: meta.default_provisional is true"),
        ({"meta": {"title": "t", "provisional": True, "default_terrain": "grass"}},
         "$.meta.default_terrain: unknown terrain 'grass'"),
        ({"grid": {**BASE["grid"], "shifted_columns": None, "shifted_rows": "odd"}},
         "$.grid.shifted_columns: required for a flat-top grid"),
        ({"grid": {**BASE["grid"], "orientation": "square"}}, "$.grid.orientation: Input should be 'flat-top' or 'pointy-top'"),
        ({"grid": {**BASE["grid"], "missing_hexes": ["0101"]}, "hexes": {"0101": {}}},
         "$.hexes.0101: hex 0101 is not on the map (listed in missing_hexes)"),
        ({"legend": {}}, "$.legend: Extra inputs are not permitted"),
    ],
)
def test_invalid_map_reports_path_and_reason(changes: dict[str, Any], expected: str) -> None:
    problems = problems_of(with_changes(**changes))
    assert any(p.startswith(expected) for p in problems), problems


def test_all_semantic_problems_are_reported_together() -> None:
    problems = problems_of(with_changes(
        hexes={"0909": {}, "0101": {"terrain": "swamp"}},
        roads=[{"kind": "road", "hexes": ["0101", "0103"]}],
    ))
    assert len(problems) == 3


def test_provisional_items_require_provisional_meta() -> None:
    meta = {"title": "t", "provisional": False, "default_terrain": "clear", "default_provisional": False}
    assert not parse_map(with_changes(meta=meta)).provisional
    problems = problems_of(with_changes(meta=meta, roads=[{"kind": "road", "hexes": ["0101", "0102"], "provisional": True}]))
    assert problems == ["$.meta.provisional: must be true: $.roads[0] is provisional"]


def test_load_map_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "map.json"
    bad.write_text('{"meta": ', encoding="utf-8")
    with pytest.raises(DataError, match=r"map\.json: line 1 column \d+: not valid JSON"):
        load_map(bad)
    with pytest.raises(DataError, match=r"absent\.json: \$: file not found"):
        load_map(tmp_path / "absent.json")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(BASE), encoding="utf-8")
    assert load_map(good, source="game/data/map.json").source == "game/data/map.json"


def test_hexside_and_road_lookups_are_order_independent() -> None:
    m = make_map(
        hexsides=[{"hexes": ["0202", "0201"], "features": ["canal", "bridge"]}],
        roads=[{"kind": "road", "hexes": ["0101", "0201", "0202"]}, {"kind": "track", "hexes": ["0202", "0201"]}],
        places={"Ford": ["0201", "0202"]},
    )
    assert m.hexside_features("0201", "0202") == m.hexside_features("0202", "0201") == ("bridge", "canal")
    assert m.hexside_features("0101", "0102") == ()
    assert m.roads_between("0202", "0201") == ("road", "track")
    assert m.roads_between("0101", "0102") == ()
    assert m.roads_at("0101") == ("road",) and m.roads_at("0303") == ()
    assert m.place("Ford") == ("0201", "0202")
    with pytest.raises(KeyError, match="no place named 'Fjord'"):
        m.place("Fjord")
    with pytest.raises(HexError, match="not adjacent"):
        m.hexside_features("0101", "0103")


# -- movement tables -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"terrain": {**TABLE["terrain"], "clear": {"cost": {"default": -1}}}},
         "$.terrain.clear.cost.default: -1 is not a cost"),
        ({"terrain": {**TABLE["terrain"], "clear": {"cost": {"default": 2, "tank": 1}}}},
         "$.terrain.clear.cost.tank: unknown unit class"),
        ({"terrain": {**TABLE["terrain"], "clear": {"cost": {"inf": 2}}}},
         "$.terrain.clear.cost: no 'default' and no cost for: cav, art"),
        ({"terrain": {**TABLE["terrain"], "clear": {"cost": {"default": {"cost": 2, "stop": False}}}}},
         "$.terrain.clear.cost.default: {'cost': 2, 'stop': False} is not a cost"),
        ({"hexside": {**TABLE["hexside"], "canal": {"cost": {"default": 2}, "cancelled_by": ["ferry"]}}},
         "$.hexside.canal.cancelled_by[0]: no hexside rule for 'ferry'"),
        ({"roads": {"road": {"in_column": {"cost": 1, "reduce_by": 1}}, "track": {}}},
         "$.roads.road.in_column: give exactly one of 'cost' and 'reduce_by'"),
        ({"unit_classes": ["inf", "default"]}, "$.unit_classes[1]: 'default' is a reserved key"),
        ({"terrain": {**TABLE["terrain"], "clear": {"cost": {"default": 2, "cav": 0}}}},
         "$.terrain.clear.cost.cav: 0 is not a cost here: a step costs at least 1 half-point"),
        ({"terrain": {**TABLE["terrain"], "woods": {"cost": {"default": {"cost": 0, "stop": True}}}}},
         "$.terrain.woods.cost.default: 0 is not a cost here"),
        ({"terrain": {**TABLE["terrain"], "hill": {"cost": {"default": 2}, "on_road": {"default": 0}}}},
         "$.terrain.hill.on_road.default: 0 is not a cost here"),
        ({"roads": {"road": {"in_column": {"cost": 0}}, "track": {}}}, "$.roads.road.in_column.cost: 0 is not a cost"),
        ({"roads": {"road": {"always": {"reduce_by": 2}}, "track": {}}},
         "$.roads.road.always.minimum: must be at least 1 where reduce_by takes off 2"),
        ({"all_points": "sometimes"}, "$.all_points: Input should be 'first_step_only' or 'any_step_then_stop'"),
    ],
)
def test_invalid_movement_table_reports_path_and_reason(changes: dict[str, Any], expected: str) -> None:
    data = copy.deepcopy(TABLE)
    data.update(changes)
    with pytest.raises(DataError) as info:
        parse_movement_table(data, source="test-table")
    assert any(str(p).startswith(f"test-table: {expected}") for p in info.value.problems), info.value.problems


def test_movement_table_must_price_every_name_of_the_map(tmp_path: Path) -> None:
    m = make_map()
    data = copy.deepcopy(TABLE)
    del data["terrain"]["woods"]
    del data["roads"]["track"]
    path = tmp_path / "movement.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_movement_table(path, hexmap=m)
    assert {p.file for p in info.value.problems} == {str(path)}
    assert [f"{p.path}: {p.problem}" for p in info.value.problems] == [
        "$.terrain.woods: missing: test-map uses terrain 'woods'",
        "$.roads.track: missing: test-map uses road kind 'track'",
    ]


# -- step costs ------------------------------------------------------------------------------------


def test_terrain_cost_per_class() -> None:
    m = make_map(hexes={"0102": {"terrain": "marsh"}})
    t = make_table(m)
    assert step_cost(m, t, "0101", "0102", "inf").half_points == 4
    art = step_cost(m, t, "0101", "0102", "art")
    assert art.prohibited and art.blocked_by == "terrain:marsh"
    with pytest.raises(ValueError, match="unknown unit class 'tank'"):
        step_cost(m, t, "0101", "0102", "tank")


def test_climbing_costs_per_level_gained_only() -> None:
    m = make_map(hexes={"0102": {"terrain": "hill", "elevation": 2}})
    t = make_table(m)
    assert step_cost(m, t, "0101", "0102", "inf").half_points == 2 + 2 * 2
    assert step_cost(m, t, "0102", "0101", "inf").half_points == 2
    assert step_cost(m, t, "0101", "0102", "cav").all_points


def test_hexside_costs_and_cancellation_by_a_bridge() -> None:
    m = make_map(hexsides=[
        {"hexes": ["0101", "0102"], "features": ["canal"]},
        {"hexes": ["0201", "0202"], "features": ["canal", "bridge"]},
        {"hexes": ["0301", "0302"], "features": ["river"]},
    ])
    t = make_table(m)
    assert step_cost(m, t, "0101", "0102", "inf").half_points == 4
    assert step_cost(m, t, "0101", "0102", "art").blocked_by == "hexside:canal"
    assert step_cost(m, t, "0201", "0202", "inf").half_points == 2
    assert not step_cost(m, t, "0201", "0202", "art").prohibited
    assert step_cost(m, t, "0302", "0301", "cav").blocked_by == "hexside:river"


def test_road_in_march_column_costs_half_a_point_per_contiguous_hex() -> None:
    m = make_map(hexes={"0102": {"terrain": "marsh"}}, roads=[{"kind": "road", "hexes": ["0101", "0102", "0103"]}])
    t = make_table(m)
    column = step_cost(m, t, "0101", "0102", "inf", march_column=True)
    assert column.half_points == 1 and column.road == "road"
    assert step_cost(m, t, "0101", "0102", "inf").half_points == 4   # not in column: the terrain counts
    # Entering a road hex from off the road is not a road step.
    assert step_cost(m, t, "0202", "0102", "inf", march_column=True).half_points == 4


def test_minor_road_reduces_by_one_point_but_not_below_one() -> None:
    m = make_map(hexes={"0102": {"terrain": "marsh"}}, roads=[{"kind": "track", "hexes": ["0101", "0102", "0103"]}])
    t = make_table(m)
    assert step_cost(m, t, "0101", "0102", "inf", march_column=True).half_points == 2   # 4 - 2
    assert step_cost(m, t, "0102", "0103", "inf", march_column=True).half_points == 2   # 2 - 2, minimum 2


def test_on_road_terrain_cost() -> None:
    m = make_map(hexes={"0102": {"terrain": "hill"}}, roads=[{"kind": "road", "hexes": ["0101", "0102"]}])
    t = make_table(m)
    assert step_cost(m, t, "0101", "0102", "cav").half_points == 2
    assert step_cost(m, t, "0202", "0102", "cav").all_points


def test_several_terrains_in_a_hex_use_the_cheapest() -> None:
    m = make_map(hexes={"0102": {"terrain": "marsh", "other_terrain": ["village"]}})
    t = make_table(m)
    assert step_cost(m, t, "0101", "0102", "inf").half_points == 2
    assert step_cost(m, t, "0101", "0102", "art").half_points == 2


def test_weather_multiplier_spares_road_costs() -> None:
    m = make_map(roads=[{"kind": "road", "hexes": ["0101", "0102"]}])
    t = make_table(m)
    assert step_cost(m, t, "0101", "0201", "inf", terrain_multiplier=2).half_points == 4
    assert step_cost(m, t, "0101", "0102", "inf", march_column=True, terrain_multiplier=2).half_points == 1


# -- movement --------------------------------------------------------------------------------------


def test_reachable_respects_the_budget_and_reports_paths() -> None:
    m = make_map()
    t = make_table(m)
    reach = reachable(m, t, "0303", MoveRules(unit_class="inf", budget=4, minimum_move=False))
    assert set(reach.hexes()) == set(m.grid.within("0303", 2))
    assert reach.costs["0303"] == 0 and reach.costs["0305"] == 4
    assert reach.path("0305") == ("0303", "0304", "0305")
    assert reach.destinations()[0] != "0303"
    with pytest.raises(KeyError, match="not reachable"):
        reach.path("0306")


def test_reachable_until_stops_once_the_asked_hexes_are_reached() -> None:
    """`until` (issue 15): the hexes asked about are reached exactly when the whole search reaches them, and a
    search asked about a near hex stops before it reaches the far ones."""
    m = make_map()
    t = make_table(m)
    rules = MoveRules(unit_class="inf", budget=8, minimum_move=False)
    whole = reachable(m, t, "0303", rules)
    near = reachable(m, t, "0303", rules, until={"0304"})
    assert "0304" in near.costs and len(near.costs) < len(whole.costs)
    outside = [h for h in sorted(m.grid.hexes()) if h not in whole.costs][:1]  # one the move cannot reach, if any
    asked = {"0304", "0306", *outside}
    partial = reachable(m, t, "0303", rules, until=asked)
    assert {h for h in asked if h in partial.costs} == {h for h in asked if h in whole.costs}


def test_road_movement_counts_half_points() -> None:
    m = make_map(roads=[{"kind": "road", "hexes": ["0101", "0102", "0103", "0104", "0105", "0106"]}])
    t = make_table(m)
    reach = reachable(m, t, "0101", MoveRules(unit_class="inf", budget=5, march_column=True))
    assert reach.costs["0106"] == 5 and reach.path("0106") == ("0101", "0102", "0103", "0104", "0105", "0106")


def test_minimum_move_of_one_hex() -> None:
    # caldiero §9.1.1: a unit may always move one hex unless the step is prohibited.
    m = make_map(hexes={"0102": {"terrain": "marsh"}, "0201": {"terrain": "marsh"}})
    t = make_table(m)
    rules = MoveRules(unit_class="inf", budget=2)
    reach = reachable(m, t, "0101", rules)
    assert reach.costs["0102"] == 2 and reach.stops["0102"] == StopReason.MINIMUM_MOVE
    assert "0103" not in reach.costs
    no_min = reachable(m, t, "0101", MoveRules(unit_class="inf", budget=2, minimum_move=False))
    assert "0102" not in no_min.costs
    art = reachable(m, t, "0101", MoveRules(unit_class="art", budget=2))
    assert "0102" not in art.costs   # prohibited stays prohibited
    check = check_path(m, t, ["0101", "0202", "0102"], MoveRules(unit_class="inf", budget=3))
    assert check.block == MoveBlock.NOT_ENOUGH_POINTS and check.at_step == 2


def test_all_points_only_as_first_step() -> None:
    m = make_map(hexes={"0103": {"terrain": "hill"}, "0102": {"terrain": "hill"}})
    t = make_table(m)
    reach = reachable(m, t, "0101", MoveRules(unit_class="cav", budget=12))
    assert reach.costs["0102"] == 12 and reach.stops["0102"] == StopReason.ALL_POINTS
    assert "0103" not in reach.costs
    check = check_path(m, t, ["0101", "0202", "0203", "0103"], MoveRules(unit_class="cav", budget=12))
    assert check.block == MoveBlock.ALL_POINTS_NOT_FIRST
    later = make_table(m, all_points="any_step_then_stop")
    reach = reachable(m, later, "0101", MoveRules(unit_class="cav", budget=12))
    assert reach.costs["0103"] == 12 and reach.path("0103") == ("0101", "0202", "0203", "0103")


def test_an_all_points_step_dearer_than_the_points_left_is_still_taken_with_any_left() -> None:
    """An "all points" step across a canal is priced all points plus the canal's 2: with any point left it is taken
    (any_step_then_stop), however few are left. The search skips a step dearer than the points left before asking
    the step rule (issue 15, eef8de97), which must not skip this one."""
    m = make_map(hexes={"0103": {"terrain": "hill"}}, hexsides=[{"hexes": ["0102", "0103"], "features": ["canal"]}])
    later = make_table(m, all_points="any_step_then_stop")
    price = step_cost(m, later, "0102", "0103", "cav")
    assert price.all_points and price.half_points == 2
    rules = MoveRules(unit_class="cav", budget=3)
    reach = reachable(m, later, "0101", rules)
    assert reach.costs["0103"] == 3 and reach.stops["0103"] == StopReason.ALL_POINTS
    assert reach.path("0103") == ("0101", "0102", "0103")
    assert check_path(m, later, ["0101", "0102", "0103"], rules).block is None


def test_terrain_that_stops_the_mover() -> None:
    m = make_map(hexes={"0102": {"terrain": "woods"}})
    t = make_table(m)
    reach = reachable(m, t, "0101", MoveRules(unit_class="art", budget=10))
    assert reach.stops["0102"] == StopReason.TERRAIN
    assert reach.path("0103") != ("0101", "0102", "0103")
    assert check_path(m, t, ["0101", "0102", "0103"], MoveRules(unit_class="art", budget=10)).block == \
        MoveBlock.ALREADY_STOPPED


def test_zoc_stop_on_entry() -> None:
    m = make_map()
    t = make_table(m)
    zoc = ZocRules(hexes=frozenset({HexId("0302"), HexId("0303")}))
    reach = reachable(m, t, "0301", MoveRules(unit_class="inf", budget=8, zoc=zoc))
    assert reach.stops["0302"] == StopReason.ENEMY_ZOC
    assert reach.path("0304") != ("0301", "0302", "0303", "0304")
    assert check_path(m, t, ["0301", "0302", "0303"], MoveRules(unit_class="inf", budget=8, zoc=zoc)).block == \
        MoveBlock.ALREADY_STOPPED


def test_zoc_policies() -> None:
    m = make_map()
    t = make_table(m)
    zone = frozenset({HexId("0302"), HexId("0303"), HexId("0402")})
    start_in_zoc = "0302"

    def rules(budget: int = 8, **kw: Any) -> MoveRules:
        return MoveRules(unit_class="inf", budget=budget, zoc=ZocRules(hexes=zone, **kw))

    assert check_path(m, t, ["0301", "0302"], rules(entry="prohibited")).block == MoveBlock.ZOC_ENTRY_PROHIBITED
    assert check_path(m, t, ["0301", "0302"], rules(may_enter=lambda h: h == "0302")).ok
    assert check_path(m, t, ["0301", "0302"], rules(may_enter=lambda h: False)).block == MoveBlock.ZOC_ENTRY_PROHIBITED
    assert check_path(m, t, [start_in_zoc, "0202"], rules(may_leave=False)).block == MoveBlock.ZOC_CANNOT_LEAVE
    assert check_path(m, t, [start_in_zoc, "0303"], rules(zoc_to_zoc=False)).block == MoveBlock.ZOC_TO_ZOC
    assert check_path(m, t, [start_in_zoc, "0303"], rules()).ok
    # caricat §5-6: no stop in enemy ZOC, one extra MP to leave it.
    passing = rules(budget=10, entry="continue", leave_cost=2)
    check = check_path(m, t, ["0301", "0302", "0303", "0304"], passing)
    assert check.ok and check.spent == 2 + 4 + 4
    assert reachable(m, t, "0301", passing).path("0304") == ("0301", "0202", "0203", "0204", "0304")


def test_can_enter_can_end_and_may_step() -> None:
    m = make_map()
    t = make_table(m)
    blocked = reachable(m, t, "0101", MoveRules(unit_class="inf", budget=6, can_enter=lambda h: h != "0102"))
    assert "0102" not in blocked.costs and blocked.path("0103") == ("0101", "0202", "0203", "0103")
    through = reachable(m, t, "0101", MoveRules(unit_class="inf", budget=4, can_end=lambda h: h != "0102"))
    assert "0102" in through.costs and "0102" not in through.destinations() and "0103" in through.destinations()
    assert check_path(m, t, ["0101", "0102"], MoveRules(unit_class="inf", budget=4, can_end=lambda h: h != "0102")).block \
        == MoveBlock.CANNOT_END_HERE
    column_only = reachable(m, t, "0101", MoveRules(unit_class="inf", budget=8, may_step=lambda a, b: a[:2] == b[:2]))
    assert all(h.startswith("01") for h in column_only.costs)


def test_check_path_geometry_errors() -> None:
    m = make_map()
    t = make_table(m)
    rules = MoveRules(unit_class="inf", budget=8)
    assert check_path(m, t, ["0101", "0103"], rules).block == MoveBlock.NOT_ADJACENT
    assert check_path(m, t, ["0101", "0100"], rules).block == MoveBlock.OFF_MAP
    assert check_path(m, t, ["0101"], rules).ok and check_path(m, t, ["0101"], rules).spent == 0


def test_equal_cost_paths_are_chosen_by_hex_id() -> None:
    m = make_map()
    t = make_table(m)
    reach = reachable(m, t, "0303", MoveRules(unit_class="inf", budget=8))
    # 0303 -> 0503 can go by 0403 or 0402 (equal cost); the lower id is expanded first.
    assert reach.path("0503") == ("0303", "0403", "0503")
    again = reachable(make_map(), make_table(), "0303", MoveRules(unit_class="inf", budget=8))
    assert again.costs == reach.costs and all(again.path(h) == reach.path(h) for h in reach.costs)


# -- property: Dijkstra equals exhaustive search over paths ----------------------------------------

TERRAINS = ("clear", "marsh", "hill", "village", "woods")


@st.composite
def random_situations(draw: st.DrawFn) -> tuple[HexMap, MovementTable, str, MoveRules]:
    hexes = {}
    for c in range(1, 5):
        for r in range(1, 5):
            h = f"{c:02d}{r:02d}"
            terrain = draw(st.sampled_from(TERRAINS))
            hexes[h] = {"terrain": terrain, "elevation": draw(st.integers(0, 1)) if terrain == "hill" else 0}
    grid_spec = {**BASE["grid"], "last_column": 4, "last_row": 4}
    probe = parse_map(with_changes(grid=grid_spec))
    edges = sorted({tuple(sorted((a, b))) for a in probe.hexes() for b in probe.grid.neighbours(a)})
    sides = []
    for a, b in draw(st.lists(st.sampled_from(edges), max_size=6, unique=True)):
        sides.append({"hexes": [a, b], "features": draw(st.sampled_from([["river"], ["canal"], ["canal", "bridge"]]))})
    road = draw(st.lists(st.sampled_from(probe.hexes()), min_size=2, max_size=5, unique=True))
    roads = []
    for a, b in zip(road, road[1:]):
        if probe.grid.is_adjacent(a, b):
            roads.append({"kind": draw(st.sampled_from(["road", "track"])), "hexes": [a, b]})
    m = parse_map(with_changes(grid=grid_spec, hexes=hexes, hexsides=sides, roads=roads))
    zone = frozenset(draw(st.lists(st.sampled_from(m.hexes()), max_size=5)))
    zoc = ZocRules(
        hexes=zone,
        entry=draw(st.sampled_from(["stop", "continue", "prohibited"])),
        zoc_to_zoc=draw(st.booleans()),
        leave_cost=draw(st.sampled_from([0, 2])),
    ) if draw(st.booleans()) else None
    table = make_table(m, all_points=draw(st.sampled_from(["first_step_only", "any_step_then_stop"])))
    rules = MoveRules(
        unit_class=draw(st.sampled_from(["inf", "cav", "art"])),
        budget=draw(st.integers(0, 7)),
        march_column=draw(st.booleans()),
        minimum_move=draw(st.booleans()),
        zoc=zoc,
    )
    return m, table, draw(st.sampled_from(m.hexes())), rules


def _exhaustive(m: HexMap, t: MovementTable, start: str, rules: MoveRules) -> dict[str, int]:
    best: dict[str, int] = {start: 0}

    def walk(path: list[str]) -> None:
        for n in m.grid.neighbours(path[-1]):
            if n in path:
                continue
            check = check_path(m, t, [*path, n], rules)
            if not check.ok:
                continue
            if check.spent < best.get(n, 10**9):
                best[n] = check.spent
            walk([*path, n])

    walk([start])
    return best


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_situations())
def test_reachable_equals_exhaustive_search(situation: tuple[HexMap, MovementTable, str, MoveRules]) -> None:
    m, t, start, rules = situation
    reach = reachable(m, t, start, rules)
    assert dict(reach.costs) == _exhaustive(m, t, start, rules)
    for h in reach.costs:
        check = check_path(m, t, reach.path(h), rules)
        assert check.ok and check.spent == reach.costs[h]
        assert check.stop == reach.stops[h]


# -- retreats --------------------------------------------------------------------------------------


def test_retreat_ranks_by_distance_from_enemies() -> None:
    m = make_map()
    options = retreat_options(m.grid, "0303", ["0302"], can_enter=lambda h: h != "0302")
    assert [o.end for o in options] == ["0204", "0304", "0404", "0203", "0403"]
    assert [o.farther_from_all for o in options] == [True, True, True, False, False]
    assert [o.nearest_enemy for o in options][:3] == [2, 2, 2]
    assert [o.end for o in best_retreats(options)] == ["0204", "0304", "0404"]
    unfiltered = retreat_options(m.grid, "0303", ["0302"])
    assert unfiltered[-1].end == "0302" and unfiltered[-1].nearest_enemy == 0   # the caller filters


def test_retreat_filters_hexes_and_finds_two_hex_paths() -> None:
    m = make_map()
    options = retreat_options(m.grid, "0303", ["0302", "0402"], hexes=2, can_enter=lambda h: h != "0304")
    assert all("0304" not in o.path and len(o.path) == 2 and "0303" not in o.path for o in options)
    best = best_retreats(options)
    assert best[0].nearest_enemy == max(o.nearest_enemy for o in options)
    assert best == tuple(sorted(best, key=lambda o: o.path))


def test_paths_built_elsewhere_are_ranked_as_the_retreats_are() -> None:
    """maps.retreat.ranked, the one ranking (parabellum/retreat.py's §12.6.2 continuations rank by it too): each
    option's rank read off its end hex against every enemy, whatever the enemies' order or repeats."""
    m = make_map()
    options = retreat_options(m.grid, "0303", ["0302", "0402"], hexes=2)
    shuffled = sorted((o.path for o in options), reverse=True)
    assert ranked(m.grid, "0303", ["0402", "0302", "0402"], shuffled) == options
    for o in options:
        away = [m.grid.distance(o.end, e) for e in ("0302", "0402")]
        assert o.nearest_enemy == min(away)
        assert o.farther_from_all == all(d > m.grid.distance("0303", e) for d, e in zip(away, ("0302", "0402")))
    assert ranked(m.grid, "0303", [], [("0304",)]) == (RetreatOption(("0304",), 0, True),)  # type: ignore[arg-type]


def test_retreat_when_surrounded_has_no_option() -> None:
    m = make_map()
    around = m.grid.neighbours("0303")
    assert retreat_options(m.grid, "0303", around, can_enter=lambda h: h not in around) == ()
    assert best_retreats(()) == ()


# -- command range ---------------------------------------------------------------------------------


def test_command_range_is_traced_around_blocking_hexes() -> None:
    m = make_map()
    open_ground = command_distances(m.grid, "0101", 3, lambda h: True)
    assert open_ground == {h: m.grid.distance("0101", h) for h in m.grid.within("0101", 3)}
    wall = {"0102", "0201", "0202"}
    assert not in_command_range(m.grid, "0101", "0103", 3, lambda h: h not in wall)
    assert in_command_range(m.grid, "0101", "0102", 1, lambda h: h not in wall)   # the line may end there
    assert in_command_range(m.grid, "0303", "0103", 2, lambda h: h != "0203")        # by 0204
    detour = {"0203", "0204"}
    assert not in_command_range(m.grid, "0303", "0103", 3, lambda h: h not in detour)
    assert in_command_range(m.grid, "0303", "0103", 4, lambda h: h not in detour)


def test_shared_zoc_is_the_six_hexes_around_each_source_but_not_into_closed_terrain() -> None:
    from arbitro.adjudicator.parabellum.zoc import zoc_hexes

    m = make_map()
    around = set(m.grid.neighbours("0303"))
    assert zoc_hexes(m.grid, ["0303"], lambda h: False) == around
    assert zoc_hexes(m.grid, ["0303", "0303"], lambda h: h == "0304") == around - {"0304"}  # a fortress, a redoubt
    assert zoc_hexes(m.grid, ["0101", "0303"], lambda h: False) == around | set(m.grid.neighbours("0101"))
    assert zoc_hexes(m.grid, [], lambda h: False) == frozenset()


def test_command_line_may_be_refused_single_steps() -> None:
    m = make_map()
    # may_cross refuses every step into 0102 (an enemy unit there, caldiero §4.3.3): never reached, and
    # 0103 (two steps through 0102) only around it, by 0202 and 0203
    reach = command_distances(m.grid, "0101", 3, lambda h: True, may_cross=lambda a, b: b != "0102")
    assert "0102" not in reach and reach["0103"] == 3
    # refusing a single hexside only: 0101-0102 closed, 0102 reached through 0202 at distance 2
    side = command_distances(m.grid, "0101", 2, lambda h: True, may_cross=lambda a, b: {a, b} != {"0101", "0102"})
    assert side["0102"] == 2 and side["0202"] == 1


TIE_HEXES = {  # woods, marsh and one-level hills where several routes cost the same (found by a seeded search)
    "0102": {"elevation": 1}, "0103": {"terrain": "woods"}, "0201": {"terrain": "marsh"},
    "0202": {"terrain": "woods", "elevation": 1}, "0204": {"terrain": "woods"}, "0301": {"terrain": "woods", "elevation": 1},
    "0304": {"terrain": "woods", "elevation": 1}, "0403": {"elevation": 1},
}


def test_path_tie_break_takes_the_smallest_path_hex_by_hex() -> None:
    m, t = make_map(hexes=TIE_HEXES), make_table()
    rules = MoveRules(unit_class="inf", budget=8, minimum_move=False)
    first, by_path = reachable(m, t, "0202", rules), reachable(m, t, "0202", rules, tie_break="path")
    assert dict(first.costs) == dict(by_path.costs)
    cheapest = _cheapest_paths(m, t, "0202", 8)
    for h in by_path.hexes():
        assert by_path.path(h) == min(cheapest[h]), h
    # the default keeps the first parent found: here a different (equally cheap) path
    assert first.path("0503") == ("0202", "0302", "0403", "0503")
    assert by_path.path("0503") == ("0202", "0203", "0303", "0404", "0503")


def _cheapest_paths(m: HexMap, t: MovementTable, start: str, budget: int) -> dict[str, list[tuple[str, ...]]]:
    """Every simple path within the budget, kept per end hex when it is among the cheapest (brute force)."""
    best: dict[str, tuple[int, list[tuple[str, ...]]]] = {start: (0, [(start,)])}

    def walk(path: tuple[str, ...], spent: int) -> None:
        for n in m.grid.neighbours(path[-1]):
            cost = step_cost(m, t, path[-1], n, "inf").half_points + spent
            if n in path or cost > budget:
                continue
            old = best.get(n)
            if old is None or cost < old[0]:
                best[n] = (cost, [(*path, n)])
            elif cost == old[0]:
                old[1].append((*path, n))
            walk((*path, n), cost)

    walk((start,), 0)
    return {h: paths for h, (_, paths) in best.items()}


def test_path_tie_break_prefers_a_real_arrival_to_the_minimum_move() -> None:
    # 0102 (marsh on a hill, in enemy ZoC) costs 6 straight from 0101: more than the budget of 4, so only by
    # the minimum move, recorded as the whole budget; in column along the track by 0202 it costs 2 + 2 = 4
    m = make_map(hexes={"0102": {"terrain": "marsh", "elevation": 1}, "0202": {"elevation": 1}},
                 roads=[{"kind": "track", "hexes": ["0101", "0202", "0102"]}])
    t = make_table()
    rules = MoveRules(unit_class="inf", budget=4, march_column=True, zoc=ZocRules(hexes=frozenset({HexId("0102")})))
    first = reachable(m, t, "0101", rules)  # the minimum move into the ZoC, found first, is kept
    assert (first.path("0102"), first.stops["0102"]) == (("0101", "0102"), StopReason.ENEMY_ZOC)
    by_path = reachable(m, t, "0101", rules, tie_break="path")  # the real arrival really costs less
    assert (by_path.path("0102"), by_path.stops["0102"]) == (("0101", "0202", "0102"), StopReason.ENEMY_ZOC)
    assert by_path.costs["0102"] == first.costs["0102"] == 4


def test_a_scaled_road_cost_doubles_with_the_weather() -> None:
    m = make_map(roads=[{"kind": "track", "hexes": ["0101", "0102", "0103"]}])
    spared = make_table(roads={"road": {"in_column": {"cost": 1}}, "track": {"always": {"cost": 1}}})
    scaled = make_table(roads={"road": {"in_column": {"cost": 1}}, "track": {"always": {"cost": 1, "scaled": True}}})
    assert step_cost(m, spared, "0101", "0102", "inf", terrain_multiplier=2).half_points == 1
    assert step_cost(m, scaled, "0101", "0102", "inf", terrain_multiplier=2).half_points == 2
    assert step_cost(m, scaled, "0101", "0102", "inf").half_points == 1


def test_results_do_not_depend_on_the_order_of_the_file() -> None:
    hexes = {"0303": {"terrain": "marsh"}, "0404": {"terrain": "hill", "elevation": 1}, "0202": {"terrain": "woods"}}
    sides = [{"hexes": ["0303", "0304"], "features": ["canal"]}, {"hexes": ["0402", "0403"], "features": ["river"]}]
    roads = [{"kind": "road", "hexes": ["0101", "0201", "0301"]}, {"kind": "track", "hexes": ["0301", "0302", "0303"]}]
    forward = make_map(hexes=hexes, hexsides=sides, roads=roads)
    backward = make_map(hexes=dict(reversed(list(hexes.items()))), hexsides=sides[::-1], roads=roads[::-1])
    rules = MoveRules(unit_class="inf", budget=9, march_column=True,
                      zoc=ZocRules(hexes=frozenset({HexId("0405"), HexId("0205")})))
    a = reachable(forward, make_table(forward), "0101", rules)
    b = reachable(backward, make_table(backward), "0101", rules)
    assert a.hexes() == b.hexes() and dict(a.costs) == dict(b.costs)
    assert all(a.path(h) == b.path(h) for h in a.costs)
    assert retreat_options(forward.grid, "0303", ["0302", "0402"], hexes=2) == \
        retreat_options(backward.grid, "0303", ["0402", "0302"], hexes=2)


def test_order_zoc_rules_honour_every_permission() -> None:
    """parabellum.movement.zoc_rules: the order's EZoC-to-EZoC permission holds whatever its entry rule
    (caldiero §5.1.3 Defence may not go from one EZoC hex to another; arrivano §5.1.3 may, with a test)."""
    from arbitro.adjudicator.parabellum.movement import OrderMove, zoc_rules

    ezoc = frozenset({HexId("0101")})
    friendly = lambda h: h == "0101"
    for order in ("advance", "attack", "defence", "manoeuvre"):
        for entry in ("yes", "no", "with_friend"):
            for to_zoc in (True, False):
                move = OrderMove(order=order, enter_ezoc=entry, ezoc_to_ezoc=to_zoc, max_hexes=None)
                rules = zoc_rules(move, ezoc, friendly)
                assert rules.zoc_to_zoc is to_zoc, (entry, to_zoc)
                assert rules.entry == ("prohibited" if entry == "no" else "stop")
                assert (rules.may_enter is friendly) is (entry == "with_friend")
                assert rules.may_leave is (order == "defence"), order  # §8.1: only a Defence order leaves an EZoC
    assert zoc_rules(OrderMove("advance", "yes", True, None), ezoc, friendly, march_column=True).entry == "prohibited"
