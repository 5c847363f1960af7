"""One read model for both games (adjudicator/parabellum/world.py): each game's World is the kernel's, asking its
Variant where the books differ; a World keeps what it works out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pydantic
import pytest

from arbitro.adjudicator.arrivano.ruleset import ArrivanoRulesetImpl
from arbitro.adjudicator.arrivano.data_model import ScenarioData
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.datafiles import json_path
from arbitro.adjudicator.parabellum.weather_track import WeatherTrack
from arbitro.adjudicator.parabellum.world import World
from arbitro.projections.parabellum import Activation
from arbitro.adjudicator.ruleset import interpretation_in_force
from tests.caldiero.harness import RULESET, position


def CaldieroWorld(state: object, data: object, hexmap: object, reading: Callable[[str], str],
                  position: Callable[[], int] | None = None) -> World:
    """Caldiero's World: the kernel's, with its Variant."""
    return World(state, RULESET.battle, reading, position, variant=CALDIERO_VARIANT)


def arrivano_world(state: Any, s: ScenarioData) -> World:
    """Arrivano's World: the kernel's, with its Variant and the readings in force in the state."""
    return World(state, s, lambda name: interpretation_in_force(ArrivanoRulesetImpl(), state.interpretations, name), variant=ARRIVANO_VARIANT)


def test_caldiero_plays_on_the_kernels_world_asking_its_variant() -> None:
    """Caldiero's World is the kernel's class itself; what its book answers its own way is its Variant's: the 10xx
    row closed to the Austrians (caldiero §9.2.1, `closed_to`) and units blocking a line of sight (§11.3.1, D18)."""
    data = RULESET.battle
    w = CaldieroWorld(position({"fr-18-ligne": "1517"}), data, data.map, lambda name: "")
    assert type(w) is World and w.variant is CALDIERO_VARIANT
    rule, message = w.closed_to("austria", "1012") or (None, "")
    assert str(rule).startswith("caldiero §9.2.1") and "10xx" in message
    assert w.closed_to("france", "1012") is None and w.closed_to("austria", "1112") is None
    empty = CaldieroWorld(position({}), data, data.map, lambda name: "")
    assert empty.clear_line("1516", "1518") and not w.clear_line("1516", "1518")  # the unit in 1517 between


def test_arrivano_plays_on_the_kernels_world_asking_its_variant() -> None:
    """Arrivano's World is the kernel's class too: units never block a line (arrivano §11.3.1, D18), so its lines
    are kept under the data's content and the terrains its reading adds: wheat blocks only under
    `wheat_blocks_los` (§10.3 over §11.3.1, the Variant's `sight_blocking_terrains`); no hex is closed (§9.2)."""
    arrivano = ArrivanoRulesetImpl()
    montebello = arrivano.data.scenarios["montebello"]
    state = arrivano.new_state("montebello", ())
    w = arrivano_world(state, montebello)
    assert type(w) is World and w.variant is ARRIVANO_VARIANT and w.closed_to("austria", "1012") is None
    wheat = next(h for h in w.grid.hexes() if "grano" in w.hexmap.hex(h).terrains)
    assert not w.blocks_sight(wheat) and w.lines_key() == (montebello.digest, ())
    state.interpretations = {"wheat_blocks_los": "true"}
    blocked = arrivano_world(state, montebello)
    assert blocked.blocks_sight(wheat) and blocked.lines_key() == (montebello.digest, ("grano",))
    assert CaldieroWorld(position({}), None, None, lambda n: "").lines_key() is None  # caldiero §11.3.1: units block


def test_a_world_keeps_what_it_works_out() -> None:
    """`cached`: the work is done once per World (a World is one position)."""
    data = RULESET.battle
    w = CaldieroWorld(position({"fr-18-ligne": "1517"}), data, data.map, lambda name: "")
    calls: list[int] = []
    assert w.cached(("k",), lambda: calls.append(1) or 5) == 5
    assert w.cached(("k",), lambda: calls.append(1) or 6) == 5 and calls == [1]


def test_a_world_keeps_what_it_works_out_for_its_own_position_only() -> None:
    """A World keeps its answers while its position stands; once the state under a tracking World moves it works
    them out again, and another World of the same content works them out afresh (issue 15: what outlives a position
    is kept by the rule that works it out, under a key of what it reads: parabellum/movement.SEARCHES)."""
    data = RULESET.battle
    state = position({"fr-18-ligne": "1517"})
    events: list[int] = []
    first = CaldieroWorld(state, data, data.map, lambda name: "", position=lambda: len(events))
    assert first.cached(("probe",), lambda: "at 1517") == "at 1517"
    assert first.cached(("probe",), lambda: "worked out again") == "at 1517"
    state.units["fr-18-ligne"].hex = "1518"  # an event moves the state under the tracking World
    events.append(1)
    assert first.cached(("probe",), lambda: "at 1518") == "at 1518"
    twin = CaldieroWorld(position({"fr-18-ligne": "1518"}), data, data.map, lambda name: "")
    assert twin.cached(("probe",), lambda: "its own") == "its own"


def _weather_worlds() -> list[tuple[int, World]]:
    """A World of each game at each box of its weather track (Caldiero's four, Campotenese's three)."""
    data = RULESET.battle
    out: list[tuple[int, World]] = []
    for box in data.weather.boxes:
        s = position({"fr-18-ligne": "1517"})
        s.weather = box.box
        out.append((box.box, CaldieroWorld(s, data, data.map, lambda name: "")))
    arrivano = ArrivanoRulesetImpl()
    campotenese = arrivano.data.scenarios["campotenese"]
    assert campotenese.weather is not None
    for box in campotenese.weather.boxes:
        state = arrivano.new_state("campotenese", ())
        state.weather = box.box
        out.append((box.box, arrivano_world(state, campotenese)))
    return out


def test_the_weather_answers_are_the_boxes_data() -> None:
    """D29: what a weather box does to the kernel's questions is its data (parabellum/weather_track.WeatherBox), read by the
    kernel's World for both games: caldiero §17.1.1 range one, §17.1.2-§17.1.3 no fire, §17.1.3 command range halved
    (rounded up, §1.4); arrivano §17.2.7 range limits, no fire and no ZoC in the storm."""
    seen = {}
    for number, w in _weather_worlds():
        box = w.weather_box()
        assert box is not None and box.box == number
        leader = sorted(w.state.leaders)[0]
        printed = w.counters.leader(leader).command_range
        answers = (w.weather_range_cap(), w.artillery_fires(), w.zocs_in_force(), w.command_range(leader))
        expected = (box.artillery_range_max, box.artillery_fires, box.zoc,
                    -(-printed // 2) if box.command_range_halved else printed)
        assert answers == expected, (type(w).__module__, number)
        seen[(w.variant.book, number)] = answers[:3]  # type: ignore[attr-defined]
    assert seen[("caldiero", 0)] == (None, True, True) and seen[("caldiero", 1)] == (1, True, True)
    assert seen[("caldiero", 2)] == seen[("caldiero", 3)] == (None, False, True)
    assert seen[("arrivano", 2)] == (1, True, True) and seen[("arrivano", 3)] == (0, False, False)
    data = RULESET.battle
    ice = position({"fr-18-ligne": "1517"}, leaders={"massena": "1317"})
    ice.weather = 3
    w = CaldieroWorld(ice, data, data.map, lambda name: "")
    assert w.command_range("massena") == (data.leader("massena").command_range + 1) // 2  # caldiero §17.1.3


def test_one_weather_model_for_both_books() -> None:
    """D29: both games' tracks are the kernel's WeatherTrack (each adding how its weather changes), and the kernel's
    World alone reads the box in force: no game overrides `weather_box`; Montebello has no track, and Arrivano's
    weather 0 names no box."""
    assert isinstance(RULESET.battle.weather, WeatherTrack)
    arrivano = ArrivanoRulesetImpl()
    assert isinstance(arrivano.data.scenarios["campotenese"].weather, WeatherTrack)
    montebello = arrivano.new_state("montebello", ())
    assert arrivano_world(montebello, arrivano.data.scenarios["montebello"]).weather_box() is None
    campotenese = arrivano.new_state("campotenese", ())
    campotenese.weather = 0
    assert arrivano_world(campotenese, arrivano.data.scenarios["campotenese"]).weather_box() is None


def test_every_problem_of_a_weather_track_is_reported_at_once() -> None:
    """The kernel's checks (a box listed twice, a start in no box, the change table: one entry a box, six boxes an
    entry) with each game's own (Arrivano's boxes numbered 1..n), in one report."""
    caldiero = RULESET.battle.weather.model_dump()
    caldiero["boxes"][1]["box"] = 0
    caldiero["start_box"] = 7
    caldiero["change"]["2"] = [0, 1]
    with pytest.raises(pydantic.ValidationError) as caught:
        type(RULESET.battle.weather).model_validate(caldiero)
    found = {json_path(e["loc"]) for e in caught.value.errors()}  # box 1 gone: its entry and the results naming it too
    assert {"$.boxes[1].box", "$.change", "$.change.2", "$.start_box"} <= found, found
    campotenese = ArrivanoRulesetImpl().data.scenarios["campotenese"].weather
    assert campotenese is not None
    arrivano = campotenese.model_dump()
    arrivano["start_box"] = 9
    arrivano["change"]["1"] = [1, 2, 3, 4, 1, 1]
    with pytest.raises(pydantic.ValidationError) as caught:
        type(campotenese).model_validate(arrivano)
    assert sorted(json_path(e["loc"]) for e in caught.value.errors()) == ["$.change.1", "$.start_box"]


def _ground_worlds() -> list[World]:
    """A World of each game at its set-up (Caldiero's historical scenario, Campotenese with its redoubts)."""
    data = RULESET.battle
    arrivano = ArrivanoRulesetImpl()
    campotenese = arrivano.data.scenarios["campotenese"]
    return [CaldieroWorld(position({"fr-18-ligne": "1517"}), data, data.map, lambda name: ""),
            arrivano_world(arrivano.new_state("campotenese", ()), campotenese)]


@pytest.mark.parametrize("w", _ground_worlds(), ids=["caldiero", "arrivano"])
def test_the_ground_answers_are_the_terrain_tables_data(w: World) -> None:
    """The kernel's World answers what the ground does from the map and the one terrain effects table
    (parabellum/data.TerrainTable), the same way for both books: no ZoC into a fortress (caldiero §10.5.1) or a
    redoubt (arrivano §8, Campotenese's), no bombardment into a marsh (caldiero §10.2), villages block sight and let units stay put
    (caldiero §10.1, §11.3.1; arrivano §10.1, §11.3.1). Every hex is checked against its terrains' entries."""
    table = w.terrain_table.terrain
    seen: dict[str, set[str]] = {"no_zoc_into": set(), "no_fire_into": set(), "blocks_sight": set(), "may_stay": set()}
    for h in w.grid.hexes():
        names = w.hexmap.hex(h).terrains
        assert w.terrains(h) == [table[t] for t in names]
        for question, field in (("no_zoc_into", "no_zoc_into"), ("no_fire_into", "no_bombard_into"),
                                ("blocks_sight", "blocks_los"), ("may_stay", "may_stay")):
            answer = getattr(w, question)(h)
            assert answer == any(getattr(table[t], field) for t in names), (h, question)
            if answer:
                seen[question].update(names)
    assert "villaggio" in seen["blocks_sight"] and "villaggio" in seen["may_stay"]
    if w.variant is CALDIERO_VARIANT:
        assert seen["no_zoc_into"] == {"fortificazione"} and seen["no_fire_into"] == {"palude"}
    else:
        assert "ridotta" in seen["no_zoc_into"] and seen["no_fire_into"] == set()



def _command_worlds() -> list[World]:
    """Caldiero with Massena at 1516 next to an Austrian unit at 1517; Campotenese at its set-up."""
    data = RULESET.battle
    arrivano = ArrivanoRulesetImpl()
    caldiero = position({"fr-18-ligne": "1515", "au-gyulai": "1517"}, leaders={"massena": "1516"})
    return [CaldieroWorld(caldiero, data, data.map, lambda name: ""),
            arrivano_world(arrivano.new_state("campotenese", ()), arrivano.data.scenarios["campotenese"])]


@pytest.mark.parametrize("w", _command_worlds(), ids=["caldiero", "arrivano"])
def test_a_command_line_is_traced_by_one_rule_for_both_books(w: World) -> None:
    """caldiero §4.3.3 and arrivano §4.4.3 say the same ("non può essere tracciata attraverso Terreno intransitabile o
    unità nemiche"): the kernel's World alone answers where a line may step, from the terrain table and the units;
    no game overrides it. Caldiero's rivers bar it, and in both games a hex holding the enemy's units does."""
    hexsides = w.terrain_table.hexsides
    barred = {"river": 0, "enemy": 0}
    for side in w.sides:
        for a in w.grid.hexes():
            for b in w.grid.neighbours(a):
                river = any(hexsides[f].prohibited for f in w.hexmap.hexside_features(a, b) if f in hexsides)
                enemy = w.side_at(b) == w.enemy(side)
                assert w.command_line_enters(a, b, side) == (not river and not enemy), (a, b)
                barred["river"] += river
                barred["enemy"] += enemy
    assert barred["enemy"] and not barred["river"]  # neither map has a river hexside: a table that bars the canal
    if w.variant is CALDIERO_VARIANT:
        canal = next((a, b) for a in w.grid.hexes() for b in w.grid.neighbours(a)
                     if w.hexmap.hexside_features(a, b) == ("canale",))
        assert w.command_line_enters(*canal, "france")
        raw = w.terrain_table.model_dump()
        raw["hexsides"]["canale"].update(prohibited=True, assault_prohibited=True)
        w.terrain_table = type(w.terrain_table).model_validate(raw)
        assert not w.command_line_enters(*canal, "france")
        w.terrain_table = RULESET.battle.terrain
    for leader in sorted(w.state.leaders):
        if w.leader_on_map(leader) is not None:
            reach = w.command_reach(leader)
            assert reach and not any(w.side_at(h) == w.enemy(w.leader_side(leader)) for h in reach), leader
    if w.variant is CALDIERO_VARIANT:
        assert "1515" in w.command_reach("massena") and "1517" not in w.command_reach("massena")


def test_a_command_reach_is_kept_across_positions_while_what_it_reads_is_unchanged() -> None:
    """Issue 15: a commander's reach (caldiero §4.3.3, arrivano §4.4.3) reads his hex and range, the hexes his enemy
    holds and the ground; another position differing in none of them gets the same answer without tracing it
    again, one where an enemy unit stands in the way gets its own (the line goes through no enemy unit)."""
    data = RULESET.battle

    def reach(units: dict[str, str]) -> frozenset[str]:
        state = position(units, leaders={"massena": "1416"})
        return CaldieroWorld(state, data, data.map, lambda name: "").command_reach("massena")

    first = reach({"fr-18-ligne": "1517"})
    assert reach({"fr-18-ligne": "1518"}) is first  # a friend moved: nothing the reach reads
    blocked = reach({"fr-18-ligne": "1517", "au-colloredo": "1415"})
    assert "1415" in first and "1415" not in blocked and blocked < first


def test_a_kept_command_reach_is_not_served_where_only_the_weather_or_the_ground_differs() -> None:
    """Issue 15, review rev-move 5: the kept reach's key names the range after the weather (caldiero §17.1.3 with
    §1.4: the ice storm halves it, rounded up) and its anchors the terrain table (caldiero §4.3.3: a line never
    crosses a hexside the table prohibits), so a position differing only in either is traced afresh, not served
    the kept answer; and the line stops at every hex holding enemy units, whoever else stands there."""
    data = RULESET.battle
    state = position({"fr-18-ligne": "1517"}, leaders={"massena": "1416"})
    fine = CaldieroWorld(state, data, data.map, lambda name: "")
    storm = CaldieroWorld(position({"fr-18-ligne": "1517"}, leaders={"massena": "1416"}, weather=3), data,
                          data.map, lambda name: "")
    assert storm.command_range("massena") < fine.command_range("massena")
    near = storm.command_reach("massena")
    assert near < fine.command_reach("massena")
    assert max(data.map.grid.distance("1416", h) for h in near) == storm.command_range("massena")

    by_canal = CaldieroWorld(position({}, leaders={"massena": "1410"}), data, data.map, lambda name: "")
    assert by_canal.hexmap.hexside_features("1410", "1409") == ("canale",) and "1409" in by_canal.command_reach(
        "massena")
    raw = data.terrain.model_dump()
    raw["hexsides"]["canale"].update(prohibited=True, assault_prohibited=True)
    barred = CaldieroWorld(position({}, leaders={"massena": "1410"}), data, data.map, lambda name: "")
    barred.terrain_table = type(data.terrain).model_validate(raw)  # an own-data folder's table: another object
    assert barred.command_reach("massena") < by_canal.command_reach("massena")

    # a hex holding both sides (no rule allows it; a hand-made position might): the line stops there all the same
    mixed = CaldieroWorld(position({"fr-18-ligne": "2317", "au-colloredo": "2317"}, leaders={"hohenzollern": "2318"}),
                          data, data.map, lambda name: "")
    assert mixed.side_at("2317") == "austria"  # the side of its lowest unit id
    assert not mixed.command_line_enters("2318", "2317", "austria")
    assert "2317" not in mixed.command_reach("hohenzollern")  # the key's enemy-held hexes are what the trace reads


def test_held_to_defence_is_one_rule_with_each_books_moment() -> None:
    """caldiero §5.3, arrivano §5.3: the kernel's World alone says who is held to Defence for being out of command; a
    game answers only when a unit is out of command (`out_of_command`) and what else gives it its order
    (`ordered_otherwise`). Caldiero's ice storm (§17.1.3 "Tutte le formazioni automaticamente assumono un ordine di
    Difesa") is its weather box's data, so the same unit is held in box 2 and not in box 3."""
    data = RULESET.battle
    held = {}
    for box in (2, 3):
        state = position({"fr-18-ligne": "1517", "fr-32-ligne": "1518"}, orders={"massena": "attack"}, weather=box)
        state.activation = Activation(formation="massena", out_of_command=["fr-18-ligne", "fr-32-ligne"],
                                      unit_orders={"fr-32-ligne": "attack"})  # fr-32-ligne won its own order
        w = CaldieroWorld(state, data, data.map, lambda name: "")
        held[box] = [u for u in ("fr-18-ligne", "fr-32-ligne") if w.held_to_defence(u)]
    assert data.weather.in_force(3).formations_defence and not data.weather.in_force(2).formations_defence
    assert held == {2: ["fr-18-ligne"], 3: []}
