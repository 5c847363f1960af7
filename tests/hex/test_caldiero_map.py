"""The reconstructed Caldiero 1796 map holds every hex the rulebook names, where and as the text says."""

from __future__ import annotations

from pathlib import Path

import pytest

import arbitro.adjudicator.caldiero as caldiero_package
from arbitro.adjudicator.maps.hexmap import HexMap, load_map

MAP_PATH = Path(caldiero_package.__file__).parent / "data" / "caldiero" / "map.json"

# Every hex the rulebook names: (hex, section, terrain stated by the text or None if only the hex is named).
NAMED_HEXES = [
    ("1014", "§4.2.2 Bonaparte's limit; §19.1 road end; §21.4 French entry", None),
    ("1005", "§21.4 French entry (units marked *)", None),
    ("2714", "§19.1 road end; §21.3 Austrian entry", None),
    ("1712", "§10.5 Rocca di Caldiero, the only fortress; §18 Caldiero", "fortificazione"),
    ("1612", "§18 Caldiero", "villaggio"),
    ("1613", "§18 Caldiero", "villaggio"),
    ("2020", "§18 Colognola", "villaggio"),
    ("2119", "§18 Colognola", "villaggio"),
    ("1607", "§18 Gombion", None),
    ("2013", "§18 Monte San Mattia", "collina"),
    ("2115", "§18 Monte Zovo", "collina"),
    ("1618", "§20.3.1 example attacker", None),
    ("1717", "§20.3.1 example defender", None),
    ("1718", "§20.3.1 example defender", None),
    ("2120", "§21.1 PI A", None),
    ("1916", "§21.1 PI B", None),
    ("1711", "§21.1 PI C", None),
    ("1707", "§21.1 PI D", None),
    ("2318", "§21.1 PI E", None),
    ("1614", "§21.1 PI F", None),
    ("2014", "§21.1 Erdödy Hussars", None),
    ("2114", "§21.1 Erdödy Hussars", None),
    ("1119", "§21.2 PI 1", None),
    ("1117", "§21.2 PI 2", None),
    ("1115", "§21.2 PI 3", None),
    ("1112", "§21.2 PI 4", None),
]

NAMED_PLACES = {
    "Caldiero": ("1612", "1613", "1712"),        # §18, §19.1.1 (the Rocca included)
    "Rocca di Caldiero": ("1712",),              # §10.5
    "Colognola": ("2020", "2119"),               # §18, §19.1.2
    "Gombion": ("1607",),                        # §18
    "Monte San Mattia": ("2013",),               # §18
    "Monte Zovo": ("2115",),                     # §18
    "French entry": ("1014",),                   # §21.4
    "French entry (asterisk)": ("1005",),        # §21.4
    "Austrian entry": ("2714",),                 # §21.3
}


@pytest.fixture(scope="module")
def caldiero() -> HexMap:
    return load_map(MAP_PATH)


def test_map_loads_and_says_it_is_provisional(caldiero: HexMap) -> None:
    assert caldiero.provisional
    assert "Reconstruction" in caldiero.meta.notes
    assert len(caldiero.hexes()) == 18 * 21


def test_terrain_names_are_those_of_the_terrain_effects_table(caldiero: HexMap) -> None:
    # caldiero TEC: Pianura / Collina, Palude, Villaggio, Fortificazione; Alberi and Cima count the other
    # terrain; Canale, Ponte, Fiume are edges; Strada and Strada minore are roads.
    assert caldiero.terrain_types == ("pianura", "collina", "palude", "villaggio", "fortificazione")
    assert caldiero.hex_feature_types == ("alberi", "cima")
    assert caldiero.hexside_feature_types == ("canale", "ponte", "fiume")
    assert caldiero.road_kinds == ("strada", "strada_minore")


@pytest.mark.parametrize(("hex_id", "section", "terrain"), NAMED_HEXES)
def test_every_named_hex_exists_with_its_stated_terrain(
    caldiero: HexMap, hex_id: str, section: str, terrain: str | None
) -> None:
    info = caldiero.hex(hex_id)
    if terrain is not None:
        assert info.terrain == terrain, section
        assert not info.provisional, f"{hex_id} is stated by {section}"


def test_mounts_carry_a_summit_and_stand_above_the_plain(caldiero: HexMap) -> None:
    for hex_id in ("2013", "2115"):
        assert "cima" in caldiero.hex(hex_id).features
        assert caldiero.elevation(hex_id) > 0
    assert caldiero.hex("2013").name == "Monte San Mattia" and caldiero.hex("2115").name == "Monte Zovo"


def test_named_places(caldiero: HexMap) -> None:
    for name, hexes in NAMED_PLACES.items():
        assert caldiero.place(name) == hexes, name


def test_columns_named_by_the_rules_exist(caldiero: HexMap) -> None:
    # §9.2.1: Austrians never enter column 10xx; §4.2.2: Alvinczy never goes beyond the line 24xx.
    grid = caldiero.grid
    assert (grid.first_column, grid.last_column) == (10, 27)
    assert all(caldiero.grid.contains(f"10{r:02d}") and caldiero.grid.contains(f"24{r:02d}") for r in range(1, 22))


def test_entry_hexes_are_on_the_map_edges(caldiero: HexMap) -> None:
    # §21.3-21.4: reinforcements enter the map there; 10xx is the west edge, 27xx the east edge.
    for hex_id in ("1014", "1005", "2714"):
        assert len(caldiero.grid.neighbours(hex_id)) < 6, hex_id


def test_the_road_from_1014_to_2714(caldiero: HexMap) -> None:
    # §19.1.1-2 name the road that runs from 1014 to 2714.
    main = [r for r in caldiero.roads if r.kind == "strada" and {r.hexes[0], r.hexes[-1]} == {"1014", "2714"}]
    assert len(main) == 1
    road = main[0].hexes
    assert all(caldiero.roads_between(a, b) for a, b in zip(road, road[1:]))


def test_parity_matches_the_example_of_20_3_1(caldiero: HexMap) -> None:
    assert caldiero.grid.is_adjacent("1618", "1717") and caldiero.grid.is_adjacent("1618", "1718")


def test_set_up_hexes_have_room_within_one_hex(caldiero: HexMap) -> None:
    # §21: units set up within one hex of their set-up hex; every PI hex is inside the map.
    for hex_id, section, _ in NAMED_HEXES:
        if "PI" in section or "Erdödy" in section:
            assert len(caldiero.grid.neighbours(hex_id)) == 6, hex_id


def test_compass_agrees_with_the_set_up(caldiero: HexMap) -> None:
    # §19.1: Massena (north of the road, row 14) sets up at 1115-1119, Augereau (south) at 1112 (§21.2);
    # the French come from Verona (west) at 1014, the Austrians from the east at 2714.
    assert caldiero.compass is not None
    assert (caldiero.compass.higher_columns, caldiero.compass.higher_rows) == ("E", "N")
    assert all(int(h[2:]) > 14 for h in ("1115", "1117", "1119")) and int("1112"[2:]) < 14


def test_bridges_are_exactly_where_roads_cross_canals(caldiero: HexMap) -> None:
    # §10.4: bridges are present where a road or minor road crosses a canal hexside.
    crossings = set()
    for road in caldiero.roads:
        for a, b in zip(road.hexes, road.hexes[1:]):
            if "canale" in caldiero.hexside_features(a, b):
                crossings.add(caldiero.grid.hexside(a, b))
    bridges = {
        caldiero.grid.hexside(a, b)
        for a in caldiero.hexes() for b in caldiero.grid.neighbours(a)
        if "ponte" in caldiero.hexside_features(a, b)
    }
    assert crossings and bridges == crossings


# A table pricing the names of the caldiero TEC, to exercise the engine on the real map (the ruleset owns
# the real table; these values follow the TEC: 1 MP plain/hill/village/fortress, 2 MP marsh, +1 MP to
# climb a level, +1 MP canal unless bridged, river prohibited, road 1/2 MP in march column).
TEC = {
    "title": "caldiero TEC (test copy)", "provisional": False,
    "unit_classes": ["infantry", "cavalry", "artillery", "leader"],
    "terrain": {t: {"cost": {"default": 2}} for t in ("pianura", "collina", "villaggio", "fortificazione")}
    | {"palude": {"cost": {"default": 4}}},
    "climb": {"default": 2},
    "hexside": {"canale": {"cost": {"default": 2, "artillery": "prohibited"}, "cancelled_by": ["ponte"]},
                "ponte": {"cost": {"default": 0}}, "fiume": {"cost": {"default": "prohibited"}}},
    "roads": {"strada": {"in_column": {"cost": 1}}, "strada_minore": {"in_column": {"reduce_by": 2, "minimum": 2}}},
}


def test_path_finding_reaches_every_hex_of_the_whole_map(caldiero: HexMap) -> None:
    from arbitro.adjudicator.maps.costs import parse_movement_table
    from arbitro.adjudicator.maps.movement import MoveRules, reachable

    table = parse_movement_table(TEC, hexmap=caldiero)
    rules = MoveRules(unit_class="infantry", budget=400, march_column=True)
    reach = reachable(caldiero, table, "1014", rules)
    assert len(reach.costs) == len(caldiero.hexes())
    assert reach.costs["2714"] == 17       # 17 road hexes at half a point each (§9.3.1)


def test_artillery_crosses_canals_only_at_bridges(caldiero: HexMap) -> None:
    from arbitro.adjudicator.maps.costs import parse_movement_table, step_cost

    table = parse_movement_table(TEC, hexmap=caldiero)
    assert not step_cost(caldiero, table, "2214", "2314", "artillery").prohibited      # the road bridge
    assert step_cost(caldiero, table, "2213", "2313", "artillery").prohibited
