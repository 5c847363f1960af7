"""The position's basic answers made cheaper for verification (issue 15), each equal to what it replaced on positions
of the shipped logs of both games: the hexes near a hex as a set (`Grid.near`), the side's piece hexes kept for the
position (`World.piece_hexes`), the weather box in force looked up by number (`WeatherTrack.in_force`), the map's
road steps from its roads (`movement.road_steps`), whether pieces see any of some hexes (`sight.sees_any`, arrivano
§17.1.5's march orders) and the command reach's enemy-held hexes and ground (`World.command_reach`, caldiero §4.3.3, arrivano
§4.4.3)."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.maps.command import command_distances
from arbitro.adjudicator.parabellum import movement, sight
from arbitro.adjudicator.parabellum import world as world_module
from tests.parabellum.log_positions import log_worlds

LOGS = ["arrivano-montebello.jsonl", "arrivano-campotenese.jsonl", "caldiero-tempo-regge.jsonl"]


@pytest.mark.parametrize("log", LOGS)
def test_the_basics_answer_as_they_were_worked_out(log: str) -> None:
    checked = 0
    for i, w in log_worlds(log, 60):
        for side in w.sides:
            leaders = {s.hex for s in w.state.leaders.values() if s.side == side and s.where == "map"}
            assert w.piece_hexes(side) == {w.state.units[u].hex for u in w.units_of(side)} | leaders, (i, side)
        if w.weather is not None:
            assert w.weather_box() is next((b for b in w.weather.boxes if b.box == w.state.weather), None)
        for h in w.grid.hexes()[::97]:
            for radius in (0, 1, 2, w.sight_range()):
                assert w.grid.near(h, radius) == frozenset(w.grid.within(h, radius))
        checked += 1
    assert checked > 3


@pytest.mark.parametrize("log", LOGS)
def test_road_steps_are_every_step_the_map_finds_a_road_on(log: str) -> None:
    _, w = next(log_worlds(log, 10**9))
    hm = w.hexmap
    every = frozenset((h, n) for h in hm.hexes() for n in hm.grid.neighbours(h) if hm.roads_between(h, n))
    assert every and movement.road_steps(hm) == every


@pytest.mark.parametrize("log", LOGS)
def test_sees_any_answers_as_every_pair_does(log: str) -> None:
    asked = seen = 0
    for i, w in log_worlds(log, 25):
        for side in w.sides:
            looking = {w.state.units[u].hex for u in w.units_of(side)}
            enemies = w.hexes_held(w.enemy(side))
            for reach in (None, 1, 3):
                some = sorted(looking)[::3]
                whole = any(sight.sees(w, a, e, reach) for a in some for e in sorted(enemies))
                assert sight.sees_any(w, some, enemies, reach) == whole, (i, side, reach)
                asked, seen = asked + 1, seen + whole
    assert 0 < seen < asked, "the positions have pieces in sight and pieces out of it"


@pytest.mark.parametrize("log", LOGS)
def test_a_command_reach_is_the_whole_trace(log: str) -> None:
    traced = 0
    for i, w in log_worlds(log, 50):
        for leader, s in sorted(w.state.leaders.items()):
            if s.where != "map":
                continue
            held = w.hexes_held(w.enemy(s.side))
            whole = frozenset(command_distances(w.grid, s.hex, w.command_range(leader), lambda h: h not in held,
                                                may_cross=w._line_steps(held)))
            assert w.command_reach(leader) == whole, (i, leader)
            traced += 1
    assert traced > 10


@pytest.mark.parametrize("log", LOGS)
def test_a_command_line_asks_the_ground_once_per_map(log: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command line's step (caldiero §4.3.3, arrivano §4.4.3) answers as the terrain table and the hexsides do, for
    every step of the map and whoever stands where, from what the ground bars worked out once per map and table: a
    reach traced anew asks the World's terrains and hexsides nothing (issue 15: they were asked of every step)."""
    _, w = next(log_worlds(log, 10**9))
    hm = w.hexmap
    for h in hm.hexes():
        for n in hm.grid.neighbours(h):
            ground = not any(t.impassable for t in w.terrains(n)) and not w.crossing_prohibited(h, n)
            assert w._line_steps(())(h, n) == ground and not w._line_steps({n})(h, n), (h, n)
    asked: list[str] = []
    monkeypatch.setattr(world_module.World, "terrains", lambda self, h: asked.append(h) or [])
    monkeypatch.setattr(world_module.World, "hexside_effects", lambda self, a, b: asked.append(b) or [])
    monkeypatch.setattr(world_module, "_REACHES", world_module.Memo(1024))  # every reach traced anew
    traced = 0
    for i, w in log_worlds(log, 100):
        for leader, s in sorted(w.state.leaders.items()):
            if s.where == "map":
                traced += len(w.command_reach(leader))
    assert traced > 10 and asked == []


@pytest.mark.parametrize("log", LOGS)
def test_what_blocks_sight_is_the_terrain_tables_and_a_cold_line_asks_it_nothing(
        log: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`World.blocks_sight` (caldiero §11.3.1, arrivano §11.3.1 and §10.3's wheat under `wheat_blocks_los`) answers for
    every hex of the map as the terrain table and the reading's terrains do, from the blocking hexes worked out once
    per map, table and reading: a line of sight traced cold asks the World's terrains nothing (issue 15: each hex of
    each line asked them, most of Arrivano's largest legal(), an open-order game's first sight)."""
    _, w = next(log_worlds(log, 10**9))
    more = w._more_blocking()
    for h in w.hexmap.hexes():
        table = any(t.blocks_los for t in w.terrains(h)) or not more.isdisjoint(w.hexmap.hex(h).terrains)
        assert w.blocks_sight(h) == table, h
    wheat = world_module._sight_blocking(w.hexmap, w.terrain_table, frozenset({"grano"}))
    assert wheat >= world_module._sight_blocking(w.hexmap, w.terrain_table, frozenset())
    asked: list[str] = []
    monkeypatch.setattr(world_module.World, "terrains", lambda self, h: asked.append(h) or [])
    monkeypatch.setattr(world_module, "_LINES", world_module.Memo(1 << 18))  # every line traced anew
    lines = 0
    for i, w in log_worlds(log, 150):
        hexes = sorted(w.piece_hexes(w.sides[0]))[:3]
        for a in hexes:
            for b in sorted(w.grid.near(a, w.sight_range()))[::7]:
                lines += w.clear_line(a, b) or 1
    assert lines > 10 and asked == []


def hexes_looked_at(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every hex `sight` traces lines to from now on, in order (the list fills as it looks)."""
    looked: list[str] = []
    in_sight = sight._in_sight
    monkeypatch.setattr(sight, "_in_sight", lambda w, h, pieces, limit: looked.append(h) or in_sight(w, h, pieces, limit))
    return looked


def enemy_and_in_sight(w: world_module.World, side: str) -> tuple[dict[str, str], list[str]]:
    """The enemy's units by hex, and those of them in sight of any piece of `side`, worked out hex by hex."""
    enemy = {u: w.state.units[u].hex for u in w.units_of(w.enemy(side))}
    limit = w.sight_range()
    return enemy, sorted(u for u, h in enemy.items() if sight.in_view(w, sight.observers(w, side), h, limit))


def test_a_side_whose_pieces_stand_still_asks_its_sightings_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """`sight.sighted` (arrivano §11.3.2, units never block a line: §11.3.1) answers as looking from every piece of the
    side does, and where the side's pieces stand where they stood, whatever the enemy did, it asks no hex it asked
    before (issue 15: the side that did not move looked again after every command)."""
    monkeypatch.setattr(sight, "_IN_SIGHT", sight.Memo(256))
    looked = hexes_looked_at(monkeypatch)
    again = checked = 0
    for i, w in log_worlds("arrivano-montebello.jsonl", 40):
        for side in w.sides:
            enemy, whole = enemy_and_in_sight(w, side)
            assert sight.sighted(w, side, enemy) == whole, (i, side)
            looked.clear()
            assert sight.sighted(w, side, enemy) == whole and looked == []  # the same pieces: nothing asked again
            again += 1
            checked += len(whole)
    assert again > 4 and checked > 0


def test_the_kept_command_reaches_are_keyed_by_what_the_collector_does_not_walk() -> None:
    """A kept reach's key names the enemy-held hexes by a sorted tuple of strings, which the garbage collector stops
    tracking (a frozenset is always tracked: each full collection walked ~1,500 of them after the Arrivano logs,
    speed6's note)."""
    for _, w in log_worlds("arrivano-montebello.jsonl", 200):
        for leader, s in sorted(w.state.leaders.items()):
            if s.where == "map":
                w.command_reach(leader)
    keys = [key for _, key in world_module._REACHES._kept]
    assert keys and all(type(held) is tuple and held == tuple(sorted(held)) for _, _, held in keys)


@pytest.mark.parametrize("log", LOGS)
def test_new_sightings_look_at_the_enemy_s_pieces_on_the_map(log: str) -> None:
    """`new_sightings` (caldiero §20.4, arrivano §11.3.2) picks the unknown pieces from the enemy's units on the map
    (issue 15: it looked at every unit of both sides) and answers as from every enemy piece on the map."""
    asked = 0
    for i, w in log_worlds(log, 30):
        for side in w.sides:
            known = set(w.state.seen.get(side, []))
            unknown = {u: s.hex for u, s in w.state.units.items()
                       if s.side != side and s.where == "map" and s.hex and u not in known}
            unknown |= {c: s.hex for c, s in w.state.leaders.items()
                        if s.side != side and s.where == "map" and s.hex and c not in known}
            assert sight.new_sightings(w, side) == sight.sighted(w, side, unknown), (i, side)
            asked += len(unknown)
    assert asked > 0


@pytest.mark.parametrize("log", LOGS)
def test_the_position_s_lists_of_units_answer_as_picked_out_of_every_unit(log: str) -> None:
    """The World's lists of who stands where, each kept for the position and made from the others (issue 15: the
    units on the map, each side's, each hex's and each formation's, the hexes held, the units entering), answer as
    picked out of every unit of the state: in id order, on the map only, by the formation a unit obeys."""
    checked = entered = 0
    for i, w in log_worlds(log, 40):
        units = w.state.units
        on_map = sorted(u for u, s in units.items() if s.where == "map")
        assert w.on_map_units() == on_map, i
        for side in w.sides:
            mine = [u for u in on_map if units[u].side == side]
            leaders = {s.hex for s in w.state.leaders.values() if s.side == side and s.where == "map"}
            assert w.units_of(side) == mine, (i, side)
            assert w.hexes_held(side) == frozenset(units[u].hex for u in mine) == w.occupied_by(side), (i, side)
            assert w.piece_hexes(side) == frozenset(units[u].hex for u in mine) | leaders, (i, side)
        for f in sorted({s.formation for s in units.values()} | {s.attached for s in units.values() if s.attached}):
            assert w.formation_units(f) == [u for u in on_map if w.formation_of(u) == f], (i, f)
            activated = w.state.activation is not None and w.state.activation.formation == f
            entering = sorted(u for u in units if w.formation_of(u) == f and w.entering_now(u)) if activated else []
            assert w.entering(f) == entering, (i, f)
            entered += len(entering)
        for h in {units[u].hex for u in on_map}:
            assert w.units_at(h) == [u for u in on_map if units[u].hex == h], (i, h)
        checked += 1
    assert checked > 3 and (entered > 0 or log.startswith("caldiero"))


@pytest.mark.parametrize("log", LOGS)
def test_a_command_reach_traced_asks_the_kept_ground_once(log: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command line's every step reads what the ground bars (caldiero §4.3.3, arrivano §4.4.3) from one look-up of
    the kept ground per reach traced, not one per step (issue 15: those look-ups were most of a reach's tracing)."""
    monkeypatch.setattr(world_module, "_REACHES", world_module.Memo(1024))  # every reach traced anew
    ground = world_module._line_ground
    asked: list[object] = []
    monkeypatch.setattr(world_module, "_line_ground", lambda hexmap, table: asked.append(hexmap) or ground(hexmap, table))
    traced = 0
    for i, w in log_worlds(log, 150):
        for leader, s in sorted(w.state.leaders.items()):
            if s.where == "map" and w.command_range(leader) > 1:
                before = len(asked)
                assert len(w.command_reach(leader)) > 1, (i, leader)
                assert len(asked) - before <= 1, (i, leader)
                traced += 1
    assert traced > 10


def test_where_units_block_sight_a_position_asks_each_hex_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """`sight.sighted` where units block lines (caldiero §11.3.1, §20.4.1) answers as looking from every piece of the
    side does, and asked again at the same position (serving one event asks it for each hidden thing the event may
    name) it looks at no hex it looked at before (issue 15: each ask traced every line again)."""
    looked = hexes_looked_at(monkeypatch)
    checked = 0
    for i, w in log_worlds("caldiero-tempo-regge-fog.jsonl", 40):
        assert w.lines_key() is None
        for side in w.sides:
            enemy, whole = enemy_and_in_sight(w, side)
            assert sight.sighted(w, side, enemy) == whole, (i, side)
            looked.clear()
            assert sight.sighted(w, side, dict(sorted(enemy.items())[::2])) == [u for u in whole if u in dict(
                sorted(enemy.items())[::2])] and looked == [], (i, side)
            checked += len(enemy)
    assert checked > 0
