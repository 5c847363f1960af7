"""Orders and movement (caldiero §5, §7, §8, §9, §10, §17.1): legal moves and refusals with their rule."""

from __future__ import annotations

import json

import pytest

from arbitro.adjudicator.caldiero import ground, system_movement
from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.caldiero.system_movement import step_cost
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum import movement as parabellum_movement
from arbitro.adjudicator.parabellum import unit_moves
from arbitro.events import caldiero as ev
from tests.caldiero.harness import RULESET, Table, activate, position


def moving(units: dict[str, str], order: str = "manoeuvre", formation: str = "massena", leaders: dict[str, str] | None = None,
           **kw: object) -> Table:
    ls = {"massena": "1317", "augereau": "1412", "hohenzollern": "2318"}
    ls.update(leaders or {})
    state = position(units, leaders=ls, orders={formation: order}, **kw)  # type: ignore[arg-type]
    return activate(state, formation, step="movement")


def reject(t: Table, rule: str, cmd: dict[str, object], seat: str = "france") -> str:
    with pytest.raises(IllegalCommand) as e:
        t.send(seat, cmd)
    assert e.value.rule == rule, e.value
    return str(e.value)


def destinations(t: Table, unit: str, seat: str = "france", column: bool = False) -> set[str]:
    return {c["to"] for c in t.legal(seat) if c["type"] == "move" and c["units"] == [unit] and c["column"] == column}


def test_manoeuvre_moves_freely_but_not_into_ezoc() -> None:
    t = moving({"fr-18-ligne": "1417", "au-colloredo": "1617"})
    dests = destinations(t, "fr-18-ligne")
    assert "1517" not in dests and "1316" in dests  # 1517 is adjacent to 1617
    reject(t, "caldiero §5.1.4", {"type": "move", "units": ["fr-18-ligne"], "to": "1517"})


def test_defence_moves_at_most_one_hex() -> None:
    t = moving({"fr-18-ligne": "1417", "au-colloredo": "2017"}, order="defence")
    assert all(t_ in {"1416", "1418", "1316", "1317", "1516", "1517"} for t_ in destinations(t, "fr-18-ligne"))
    reject(t, "caldiero §5.1.3", {"type": "move", "units": ["fr-18-ligne"], "to": "1419", "path": ["1418", "1419"]})


def test_defence_enters_ezoc_only_where_a_friend_is() -> None:
    t = moving({"fr-18-ligne": "1417", "fr-40-ligne": "1517", "au-colloredo": "1617"}, order="defence")
    reject(t, "caldiero §5.1.3", {"type": "move", "units": ["fr-18-ligne"], "to": "1516"})
    t.send("france", {"type": "move", "units": ["fr-18-ligne"], "to": "1517"})  # a friend is there
    assert t.unit("fr-18-ligne").hex == "1517"


def test_attack_order_must_close_on_the_enemy() -> None:
    t = moving({"fr-18-ligne": "1417", "au-colloredo": "1817"}, order="attack")
    reject(t, "caldiero §5.1.2", {"type": "move", "units": ["fr-18-ligne"], "to": "1316"})
    reject(t, "caldiero §5.1.2", {"type": "end_step"})
    t.send("france", {"type": "move", "units": ["fr-18-ligne"], "to": "1617"})
    assert t.unit("fr-18-ligne").hex == "1617"


def test_advance_order_needs_half_the_units_closer() -> None:
    t = moving({"fr-18-ligne": "1417", "fr-40-ligne": "1418", "fr-32-ligne": "1318", "au-colloredo": "1917"}, order="advance")
    reject(t, "caldiero §5.1.1", {"type": "end_step"})
    t.send("france", {"type": "move", "units": ["fr-18-ligne"], "to": "1517"})
    reject(t, "caldiero §5.1.1", {"type": "end_step"})  # 1 of 3: needs 2 (half rounded up, §1.4)
    t.send("france", {"type": "move", "units": ["fr-40-ligne"], "to": "1518"})
    t.send("france", {"type": "end_step"})
    assert t.state.step != "movement"


def test_units_in_ezoc_leave_only_with_defence() -> None:
    t = moving({"fr-18-ligne": "1517", "au-colloredo": "1617"}, order="advance")
    reject(t, "caldiero §8.1", {"type": "move", "units": ["fr-18-ligne"], "to": "1417"})


def test_ezoc_stops_movement() -> None:
    t = moving({"fr-18-ligne": "1417", "au-colloredo": "1617"}, order="attack")
    msg = reject(t, "caldiero §9.1.2", {"type": "move", "units": ["fr-18-ligne"], "to": "1518", "path": ["1517", "1518"]})
    assert "stop" in msg


def test_austrians_never_enter_the_10xx_row() -> None:
    t = moving({"au-mahoney-jager": "1115"}, formation="hohenzollern")
    assert not any(d.startswith("10") for d in destinations(t, "au-mahoney-jager", "austria"))
    reject(t, "caldiero §9.2.1", {"type": "move", "units": ["au-mahoney-jager"], "to": "1015"}, seat="austria")


def test_stacking_limits() -> None:
    t = moving({"fr-18-ligne": "1417", "fr-9-dragons": "1418", "fr-40-ligne": "1316", "fr-32-ligne": "1316"})
    reject(t, "caldiero §7.1", {"type": "move", "units": ["fr-9-dragons"], "to": "1417"})  # infantry + cavalry
    reject(t, "caldiero §7.1", {"type": "move", "units": ["fr-18-ligne"], "to": "1316"})  # three units


def test_routed_units_do_not_move() -> None:
    t = moving({"fr-18-ligne": "1417", "fr-40-ligne": "1418"})
    t.state.units["fr-18-ligne"].status = "routed"
    reject(t, "caldiero §15.2", {"type": "move", "units": ["fr-18-ligne"], "to": "1416"})


def test_only_the_active_formation_moves() -> None:
    t = moving({"fr-18-ligne": "1417", "fr-5-legere": "1418"})
    reject(t, "caldiero §3.1 B", {"type": "move", "units": ["fr-5-legere"], "to": "1419"})


def test_march_column_half_mp_on_the_road() -> None:
    t = moving({"fr-18-ligne": "1114", "au-colloredo": "2418"})  # 4 MP infantry on the main road
    assert "1814" in destinations(t, "fr-18-ligne", column=True)  # 7 road hexes at 1/2 MP
    assert "1814" not in destinations(t, "fr-18-ligne")
    t.send("france", {"type": "move", "units": ["fr-18-ligne"], "to": "1814", "column": True})
    moved = t.of(ev.UnitsMoved)[-1]
    assert moved.column and moved.cost_half == 7


def test_march_column_needs_advance_or_manoeuvre() -> None:
    t = moving({"fr-18-ligne": "1114", "au-colloredo": "1814"}, order="attack")
    reject(t, "caldiero §9.3", {"type": "move", "units": ["fr-18-ligne"], "to": "1314", "column": True})


def test_artillery_crosses_canals_only_at_bridges() -> None:
    t = moving({"fr-massena-iv-6pdr": "1409", "fr-18-ligne": "1418"})
    reject(t, "caldiero §10.3", {"type": "move", "units": ["fr-massena-iv-6pdr"], "to": "1410"})


def test_marsh_costs_two() -> None:
    t = moving({"fr-5-legere": "1803"}, formation="augereau")  # 1903 is marsh
    t.send("france", {"type": "move", "units": ["fr-5-legere"], "to": "1903"})
    assert t.of(ev.UnitsMoved)[-1].cost_half == 4


def test_cloudburst_takes_one_mp_off_road() -> None:
    dry = destinations(moving({"fr-18-ligne": "1416"}), "fr-18-ligne")
    wet = destinations(moving({"fr-18-ligne": "1416"}, weather=1), "fr-18-ligne")
    assert "1816" in dry and "1816" not in wet and "1716" in wet  # 4 MP -> 3 MP (§17.1.1)


def test_snow_doubles_costs_off_road() -> None:
    snow = destinations(moving({"fr-18-ligne": "1416"}, weather=2), "fr-18-ligne")
    assert "1616" in snow and "1716" not in snow  # 2 MP per plain hex (§17.1.2)


def test_ice_storm_artillery_only_on_roads_and_defence_orders() -> None:
    t = moving({"fr-massena-iv-6pdr": "1417", "fr-18-ligne": "1418", "au-colloredo": "2117"}, order="attack", weather=3)
    refused = reject(t, "caldiero §17.1.3", {"type": "move", "units": ["fr-massena-iv-6pdr"], "to": "1416"})
    assert refused.startswith("in this weather (Tempesta di Ghiaccio, caldiero §17.1.3) artillery moves only along roads")
    reject(t, "caldiero §5.1.3", {"type": "move", "units": ["fr-18-ligne"], "to": "1420", "path": ["1419", "1420"]})


def test_general_moves_after_movement_and_not_into_ezoc_alone() -> None:
    t = moving({"fr-18-ligne": "1417", "au-colloredo": "1617"}, leaders={"massena": "1416"})
    t.send("france", {"type": "end_step"})
    assert t.state.step == "leaders"
    reject(t, "caldiero §8.2.2", {"type": "move_leader", "leader": "massena", "to": "1517"})
    t.send("france", {"type": "move_leader", "leader": "massena", "to": "1417"})
    assert t.state.leaders["massena"].hex == "1417"


def test_a_leader_walks_the_path_he_is_given_when_every_step_is_legal() -> None:
    """caldiero §9.1.4, §8.2.2 with §9.1's explicit path (issue 19 item 9, found by the agreement sweep): a leader's
    path, when given, is the one he walks and is recorded, if each step is one his move allows within his 6 MP;
    otherwise refused with the rule its first forbidden step breaks (an enemy ZoC without friends: §8.2.2), and a
    path ending elsewhere than `to` is refused."""
    def leaders_step() -> Table:
        t = moving({"fr-18-ligne": "1417", "au-colloredo": "1617"}, leaders={"massena": "1416"})
        t.send("france", {"type": "end_step"})
        return t

    t = leaders_step()
    events = t.send("france", {"type": "move_leader", "leader": "massena", "to": "1315", "path": ["1415", "1315"]})
    assert [e.path for e in events if isinstance(e, ev.LeaderMoved)] == [("1415", "1315")]  # 1315 is next to 1416
    t = leaders_step()
    words = reject(t, "caldiero §8.2.2", {"type": "move_leader", "leader": "massena", "to": "1417", "path": ["1516", "1417"]})
    assert "1516 is in an enemy ZoC: a commander enters it only where a friendly unit already is" in words  # the units'
    reject(t, "caldiero §9.1", {"type": "move_leader", "leader": "massena", "to": "1414", "path": ["1415"]})
    assert "not adjacent" in reject(t, "caldiero §9.1", {"type": "move_leader", "leader": "massena", "to": "1414",
                                                         "path": ["1315", "1414"]})
    t.send("france", {"type": "move_leader", "leader": "massena", "to": "1417"})  # the searched path, as listed
    assert t.state.leaders["massena"].hex == "1417"


def test_a_leader_s_path_into_a_closed_hex_cites_the_rule_closing_it() -> None:
    """caldiero §9.2.1: a commander's path through the 10xx row is refused with the row's own rule and words, as a
    unit's move is (his move is the units' search: `movement.unit_rules`), not as a step the search vetoed (§9.1)."""
    t = moving({"au-colloredo": "1218"}, formation="hohenzollern", leaders={"hohenzollern": "1115"})
    t.send("austria", {"type": "end_step"})
    words = reject(t, "caldiero §9.2.1", {"type": "move_leader", "leader": "hohenzollern", "to": "1116",
                                          "path": ["1016", "1116"]}, seat="austria")
    assert words == "1016: Austrian units never enter the 10xx row (caldiero §9.2.1) [caldiero §9.2.1]"
    listed = {c["to"] for c in t.legal("austria") if c.get("leader") == "hohenzollern"}
    assert "1116" in listed and not any(h.startswith("10") for h in listed)  # the row closed to his search too
    assert reject(t, "caldiero §9.2.1", {"type": "move_leader", "leader": "hohenzollern", "to": "1016"},
                  seat="austria") == "1016: Austrian units never enter the 10xx row (caldiero §9.2.1) [caldiero §9.2.1]"
    moved = [e for e in t.send("austria", {"type": "move_leader", "leader": "hohenzollern", "to": "1116"})
             if isinstance(e, ev.LeaderMoved)]  # straight there: his own move, citing who may move now (§4.1.4)
    assert [(e.leader, e.path, e.rule, e.own) for e in moved] == [("hohenzollern", ("1116",), "caldiero §4.1.4", True)]


def test_bonaparte_stays_near_1014() -> None:
    t = moving({"fr-18-ligne": "1417"}, leaders={"bonaparte": "1114"})
    t.send("france", {"type": "end_step"})
    reject(t, "caldiero §4.2.2", {"type": "move_leader", "leader": "bonaparte", "to": "1414"})
    t.send("france", {"type": "move_leader", "leader": "bonaparte", "to": "1214"})


def test_reinforcements_enter_at_their_hex_with_manoeuvre() -> None:
    state = position({"fr-18-ligne": "1417"}, leaders={"massena": "1317", "augereau": "1412"}, orders={"massena": "attack"}, turn=6)
    state.units["fr-1-cavalry"].where = "offmap"
    t = activate(state, "massena", step="movement")
    assert t.state.activation.unit_orders["fr-1-cavalry"] == "manoeuvre"
    entries = [c for c in t.legal("france") if c["type"] == "move" and c["units"] == ["fr-1-cavalry"]]
    assert entries
    reject(t, "caldiero §15.4", {"type": "move", "units": ["fr-1-cavalry"], "to": "1115", "path": ["1114", "1115"]})
    t.send("france", {"type": "move", "units": ["fr-1-cavalry"], "to": "1014", "path": ["1014"]})
    assert t.unit("fr-1-cavalry").where == "map" and t.unit("fr-1-cavalry").hex == "1014"


def test_reinforcements_take_the_orders_table_s_order() -> None:
    """caldiero §15.4.2 ("I rinforzi entrano sulla mappa con un Ordine di Manovra") as the orders table gives it (D6:
    tables/orders.json's `reinforcement_order`): a user's own table that says otherwise is played as it says."""
    files = RULESET.read_data(RULESET.folder.folder)
    files["tables/orders.json"] = json.dumps(json.loads(files["tables/orders.json"]) | {"reinforcement_order": "advance"})
    state = position({"fr-18-ligne": "1417"}, leaders={"massena": "1317", "augereau": "1412"}, orders={"massena": "attack"}, turn=6)
    state.units["fr-1-cavalry"].where, state.data_files = "offmap", files
    t = activate(state, "massena", step="movement")
    assert t.state.activation.unit_orders["fr-1-cavalry"] == "advance"


def test_augereau_may_not_go_north_of_the_road_before_caldiero() -> None:
    t = moving({"fr-5-legere": "1413"}, formation="augereau")
    reject(t, "caldiero §19.1", {"type": "move", "units": ["fr-5-legere"], "to": "1415", "path": ["1414", "1415"]})
    t.state.direction_released.append("augereau")
    t.send("france", {"type": "move", "units": ["fr-5-legere"], "to": "1415", "path": ["1414", "1415"]})


def test_the_direction_of_attack_is_the_scenario_file_s() -> None:
    """caldiero §19.1 as scenario.json's `attack_directions` (the formation, the side of the 1014-2714 road barred it,
    the places that free it): a user's file barring Augereau's formation the south instead is played as it says."""
    files = RULESET.read_data(RULESET.folder.folder)
    scenario = json.loads(files["caldiero/scenario.json"])
    scenario["attack_directions"][0] |= {"formation": "augereau", "barred": "south"}
    state = position({"fr-5-legere": "1413"}, leaders={"augereau": "1412"}, orders={"augereau": "manoeuvre"})
    state.data_files = files | {"caldiero/scenario.json": json.dumps(scenario)}
    t = activate(state, "augereau", step="movement")
    refusal = reject(t, "caldiero §19.1", {"type": "move", "units": ["fr-5-legere"], "to": "1412", "path": ["1412"]})
    assert "south of the 1014-2714 road" in refusal and "caldiero §19.1.1" in refusal, refusal
    assert "Augereau's formation may not go there" in refusal, "the formation named as the book names it"
    t.send("france", {"type": "move", "units": ["fr-5-legere"], "to": "1415", "path": ["1414", "1415"]})


def test_a_direction_of_attack_citing_another_rule_is_refused_at_load() -> None:
    """rev-l L7: the refusal cites the file's `rule`; a user's file making it cite anything but §19.1 is refused."""
    files = RULESET.read_data(RULESET.folder.folder)
    scenario = json.loads(files["caldiero/scenario.json"])
    scenario["attack_directions"][0]["rule"] = "arrivano §1"
    state = position({"fr-5-legere": "1413"})
    state.data_files = files | {"caldiero/scenario.json": json.dumps(scenario)}
    with pytest.raises(DataError) as e:
        RULESET.validate_position(state)
    assert "caldiero/scenario.json: $.attack_directions[0].rule" in str(e.value), str(e.value)


def test_a_direction_of_attack_is_taken_from_the_road_its_file_names() -> None:
    """caldiero §19.1 "la strada che corre da 1014 a 2714": the road is the file's `road` (its two ends, a road of the
    map), not one the code knows: a user's file taking Augereau's direction from the Caldiero-Gombion-Zevio road
    (1612-1005) makes 1414 north of it; a direction naming two hexes no road joins is refused at load, saying where."""
    files = RULESET.read_data(RULESET.folder.folder)
    scenario = json.loads(files["caldiero/scenario.json"])
    state = position({"fr-5-legere": "1413"}, leaders={"augereau": "1412"}, orders={"augereau": "manoeuvre"})
    t = activate(state, "augereau", step="movement")
    t.send("france", {"type": "move", "units": ["fr-5-legere"], "to": "1414", "path": ["1414"]})  # on the road
    scenario["attack_directions"][0]["road"] = ["1612", "1005"]
    state.data_files = files | {"caldiero/scenario.json": json.dumps(scenario)}
    t = activate(state, "augereau", step="movement")
    refusal = reject(t, "caldiero §19.1", {"type": "move", "units": ["fr-5-legere"], "to": "1414", "path": ["1414"]})
    assert "1414 is north of the 1612-1005 road" in refusal, refusal
    scenario["attack_directions"][0]["road"] = ["1614", "2714"]  # rev-n N2: the stretch named, not the whole road
    west = position({"fr-5-legere": "1415"}, leaders={"augereau": "1412"}, orders={"augereau": "manoeuvre"})
    west.data_files = files | {"caldiero/scenario.json": json.dumps(scenario)}
    t = activate(west, "augereau", step="movement")
    t.send("france", {"type": "move", "units": ["fr-5-legere"], "to": "1416", "path": ["1416"]})  # west of its end
    scenario["attack_directions"][1]["road"] = ["1014", "1005"]
    state.data_files = files | {"caldiero/scenario.json": json.dumps(scenario)}
    with pytest.raises(DataError) as e:
        RULESET.validate_position(state)
    assert "caldiero/scenario.json: $.attack_directions[1].road: no road of the map runs from 1014 to 1005" in str(
        e.value), str(e.value)


# The terrain effects table's movement column, read by hand, in half MP: plain, hill, village, fortification 1 MP,
# marsh 2 MP; climbing a level and crossing a canal +1 MP; the main road 1/2 MP in march column, a minor road 1 MP.
PRINTED_HALF = {"pianura": 2, "collina": 2, "villaggio": 2, "fortificazione": 2, "palude": 4}
CLIMB_HALF = CANAL_HALF = 2
MAIN_ROAD_COLUMN_HALF, MINOR_ROAD_HALF = 1, 2


def _printed_cost(w: World, a: str, b: str, column: bool, weather: int, reading: str) -> int:
    """The terrain effects table read by hand (§9.3.1, §10.3, §10.4.1, §17.1.2, §17.1.3), in half-MP: what the
    movement tables of Caldiero's data (movement.json, movement_3.json) must price."""
    kinds = w.hexmap.roads_between(a, b)
    road = ("strada" if "strada" in kinds else kinds[0]) if kinds else None  # the best road crossing the hexside
    base = PRINTED_HALF[w.hexmap.terrain(b)] + (CLIMB_HALF if ground.climbs(w, a, b) else 0)
    if ground.canal_without_bridge(w, a, b):
        base += CANAL_HALF
    if road == "strada" and column:
        cost = MAIN_ROAD_COLUMN_HALF
    elif road == "strada_minore":
        flat = MINOR_ROAD_HALF if reading == "flat_1" else base
        cost = max(2, flat - 2) if column else flat
    else:
        cost = base
    if weather == 2 and road is None:
        cost *= 2  # §17.1.2: off-road costs doubled
    if weather == 3 and road != "strada":
        cost *= 2  # §17.1.3: all but the main road's
    return cost


@pytest.mark.parametrize("weather", [0, 1, 2, 3])
@pytest.mark.parametrize("reading", ["flat_1", "other_terrain"])
def test_engine_movement_tables_price_every_step_as_the_terrain_table(weather: int, reading: str) -> None:
    state = position({})
    state.weather = weather
    state.interpretations = {"minor_road_cost": reading}
    w = RULESET.world(state)
    checked = 0
    for a in w.hexmap.hexes():
        for b in w.grid.neighbours(a):
            if w.crossing_prohibited(a, b):
                continue
            for column in (False, True):
                assert step_cost(w, a, b, column) == _printed_cost(w, a, b, column, weather, reading), (a, b, column)
                checked += 1
    assert checked > 4000


def test_a_march_column_to_a_hex_a_line_move_reaches_is_listed() -> None:
    """Issue 19 item 9: a column move is another move (§9.3: declared, road steps at 1/2 MP, its own path and record)
    even where a line move ends too; decide accepts it, so legal() lists it."""
    t = moving({"fr-18-ligne": "1114", "au-colloredo": "2418"})
    both = destinations(t, "fr-18-ligne", column=True) & destinations(t, "fr-18-ligne")
    assert "1115" in both  # off the road: no cheaper in column, listed all the same
    t.send("france", {"type": "move", "units": ["fr-18-ligne"], "to": "1115", "column": True})
    assert t.of(ev.UnitsMoved)[-1].column


def test_a_kept_unit_search_makes_its_rules_only_when_it_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15 (8f04fdc): a unit's movement search is kept across positions under what it reads; a position that
    changes none of it (a unit that does not touch the search moved) gets the kept routes without the search's rules
    being made again, and snow (caldiero §17.1.2: off-road costs doubled, the cost multiplier in Caldiero's own key)
    is searched afresh and reaches less."""
    monkeypatch.setattr(parabellum_movement, "SEARCHES", Memo(1024))  # this test's searches only
    made: list[int] = []
    rules = unit_moves.unit_rules
    monkeypatch.setattr(unit_moves, "unit_rules", lambda *a, **k: made.append(1) or rules(*a, **k))

    def routes(weather: int, friend: str) -> set[str]:
        state = position({"fr-18-ligne": "1416", "fr-32-ligne": friend}, orders={"massena": "manoeuvre"},
                         weather=weather)
        w = RULESET.world(state)
        return set(system_movement.reachable(w, system_movement.make_group(w, ("fr-18-ligne",), "manoeuvre", False)))

    dry = routes(0, "1012")
    assert made and "1716" in dry
    searched = len(made)
    assert routes(0, "1013") == dry and len(made) == searched  # kept: no rules made
    snow = routes(2, "1012")
    assert len(made) > searched and "1616" in snow and "1716" not in snow
