"""The map kit's generic pieces Caricat! needed: one unit per hex and zones counted by the units exerting them, reaction
fire's steps, the count of a hex's surrounded sides (adjudicator/maps/control.py), and lines of communication to a road
leading to a destination (adjudicator/maps/communication.py)."""

from __future__ import annotations

from arbitro.adjudicator.maps import communication, control
from arbitro.adjudicator.maps.hexgrid import Grid
from arbitro.adjudicator.maps.hexmap import parse_map

GRID = Grid(orientation="flat-top", shifted="odd", first_column=1, last_column=9, first_row=1, last_row=9)


def test_occupancy_keeps_one_unit_a_hex_and_reports_the_clash():
    occ = control.Occupancy([("b", "0505"), ("a", "0505"), ("c", "0606"), ("d", None)])
    assert occ.at("0505") == "a" and occ.clashes == [("0505", "a", "b")] and occ.free("0707")


def test_zones_list_every_unit_exerting_them_in_id_order():
    zones = control.zones(GRID, {"y": "0505", "x": "0507"})
    assert zones["0506"] == ("x", "y") and zones["0504"] == ("y",) and "0505" not in zones


def test_reaction_only_from_one_hex_of_a_units_zone_straight_into_another_of_the_same():
    zones = control.zones(GRID, {"e": "0505", "f": "0808"})
    found = control.reactions(["0405", "0504", "0604", "0703"], zones, ["e", "f"])
    assert [(r.step, r.unit, r.hex) for r in found] == [(1, "e", "0504")]  # 0604 is out of e's zone
    assert control.reactions(["0405", "0504"], zones, ["f"]) == ()  # e may not react: not listed


def test_surrounded_counts_the_covered_sides():
    assert control.surrounded(GRID, "0505", ["0504", "0506", "0405", "0406", "0605", "0909"]) == 5


MAP = parse_map({
    "meta": {"title": "t", "provisional": True, "default_terrain": "clear"},
    "grid": {"orientation": "flat-top", "first_column": 1, "last_column": 9, "first_row": 1, "last_row": 9,
             "shifted_columns": "odd"},
    "terrain_types": ["clear"], "road_kinds": ["road"],
    "roads": [{"kind": "road", "hexes": ["0105", "0205", "0305", "0405", "0505"]}],
})


def test_a_line_runs_a_few_hexes_to_a_road_then_along_it_to_a_destination():
    def free(h: str) -> bool:
        return False
    assert communication.has_line(MAP, "0507", ["0105"], 3, free)
    assert not communication.has_line(MAP, "0509", ["0105"], 3, free)  # four hexes off the road
    cut = communication.road_network(MAP, ["0105"], lambda h: h == "0305")
    assert "0205" in cut and "0405" not in cut  # the road is cut at 0305
    assert not communication.has_line(MAP, "0507", ["0105"], 1, lambda h: h in ("0305", "0205"))
