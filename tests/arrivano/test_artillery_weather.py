"""Artillery (arrivano §11: Moved side, LoS where units never block D18, artillery-only hexes), the Campotenese
redoubts (§17.2.6) and weather track (§17.2.7-§17.2.8)."""

from __future__ import annotations

from arbitro.adjudicator.parabellum import sight
from arbitro.adjudicator.parabellum.bombardment import fire_range

import pytest
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.parabellum.zoc import enemy_zoc

from tests.arrivano.harness import RULESET, at_step, ev, open_ground, position, world

X = open_ground()
S = RULESET.data.scenarios["montebello"]
GRID = S.map.grid


def nb(h: str, d: int, n: int = 1) -> str:
    for _ in range(n):
        h = GRID.neighbour(h, d)
    return h


def battery(units, leaders=None):
    state = position(units, leaders=leaders or {"watrin": X}, orders={"W": "defence"})
    return at_step(state, "W", "bombardment")


def test_bombardment_flips_to_moved_and_bars_movement():
    target = nb(X, 1, 2)
    t = battery({"art-watrin": X, "ir18-i": target})
    t.send("france", {"type": "bombard", "units": ["art-watrin"], "target": target}, [3])
    fired = t.of(ev.ArtilleryFired)[-1]
    assert fired.column == S.unit("art-watrin").bombard and t.state.units["art-watrin"].art_moved
    t.send("france", {"type": "end_step"})
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "move", "unit": "art-watrin", "to": nb(X, 4), "column": False, "order": "manoeuvre"})
    assert e.value.rule == "arrivano §11"


def test_units_never_block_line_of_sight():
    """arrivano §11.3.1 (D18): Caldiero's units block; here they do not."""
    target = nb(X, 1, 2)
    t = battery({"art-watrin": X, "ir18-i": target, "ir18-ii": nb(X, 1), "6e-legere-i": X})
    assert {"type": "bombard", "artillery": ["art-watrin"], "target": target} in t.legal("france")


def test_blocking_terrain_between():
    w = world(position({}))
    for h in S.map.hexes():
        if not any(RULESET.data.tables.terrain.terrain[x].blocks_los for x in S.map.hex(h).terrains):
            continue
        for d in range(3):
            a, c = GRID.neighbour(h, d), GRID.neighbour(h, d + 3)
            if a and c and S.map.elevation(a) >= S.map.elevation(h) and S.map.elevation(c) >= S.map.elevation(h) \
                    and not any(RULESET.data.tables.terrain.terrain[x].blocks_los for x in S.map.hex(a).terrains + S.map.hex(c).terrains):
                assert not sight.sees(w, a, c)
                return
    pytest.fail("no blocking hex with clear hexes on both sides")


def test_a_hex_of_artillery_alone_cannot_be_bombarded():
    target = nb(X, 1, 2)
    t = battery({"art-watrin": X, "art-gottesheim": target})
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "bombard", "units": ["art-watrin"], "target": target})
    assert e.value.rule == "arrivano §11.4.3"


def test_out_of_range_or_sight():
    target = nb(X, 1, 2)
    t = battery({"art-watrin": X, "ir18-i": target})
    t.state.units["art-watrin"].hex = "3914"
    assert not [c for c in t.legal("france") if c["type"] == "bombard"]


# --- Campotenese ------------------------------------------------------------------------------------------
C = RULESET.data.scenarios["campotenese"]


def redoubt_table(order: str = "defence", weather: int = 1):
    w0 = world(position({}, scenario="campotenese"))
    target = next(h for h in sorted(C.map.grid.within("2713", 2)) if h != "2713" and sight.sees(w0, "2713", h)
                  and C.map.hex(h).terrains == ("pianura",))
    state = position({"art-centro": "2713", "rf-1-fucilieri": "2713", "42e-1": target}, scenario="campotenese",
                     leaders={"ricci": "2713"}, orders={"R": order}, weather=weather)
    return at_step(state, "R", "bombardment"), target


def test_redoubt_battery_fires_without_flipping():
    t, target = redoubt_table()
    assert C.unit("art-centro").redoubt_battery
    t.send("naples", {"type": "bombard", "units": ["art-centro"], "target": target}, [3])
    assert not t.state.units["art-centro"].art_moved  # §17.2.6


def test_redoubt_battery_fires_only_with_defence_units():
    t, target = redoubt_table(order="advance")
    assert not [c for c in t.legal("naples") if c["type"] == "bombard"]


def test_redoubt_battery_is_damaged_by_an_adverse_result():
    from arbitro.adjudicator.arrivano.bombardment import apply_bombard_result
    t, target = redoubt_table()
    t.state.units["42e-1"].hex = "2712"
    t.state.units["art-destra"].hex, t.state.units["art-destra"].where = "2714", "map"
    t.state.units["art-centro"].hex = "2714"
    t.state.units["rf-1-fucilieri"].hex = "2714"
    # the French fire at the battery's hex: a D result damages it
    ctx = t.decision("france")
    apply_bombard_result(RULESET.game(ctx), "2714", "D")
    assert ctx.state.units["art-centro"].damaged and ctx.state.units["art-destra"].damaged


@pytest.mark.parametrize(("box", "die", "after"), [(1, 6, 2), (1, 5, 1), (2, 6, 3), (2, 1, 1), (2, 3, 2), (3, 6, 2),
                                                   (3, 1, 1), (3, 4, 3)])
def test_weather_transitions(box, die, after):
    """arrivano §17.2.7: rolled as the last act of the end phase."""
    state = position({"42e-1": "1401", "rf-1-fucilieri": "2713"}, scenario="campotenese", weather=box,
                     leaders={"compere": "1401"})
    for f in state.formations.values():
        f.activated = True
    state.formations["C"].activated = False
    t = at_step(state, "C", "combat")
    t.send("france", {"type": "end_step"}, [die, 3, 3])
    assert t.state.weather == after
    weather_rolls = [r for r in t.rolls if "weather" in r.purpose]
    assert weather_rolls and weather_rolls[0].values == (die,)


def test_storm_silences_artillery_and_moves_one_hex_without_zoc():
    t, target = redoubt_table(weather=3)
    assert not [c for c in t.legal("naples") if c["type"] == "bombard"]
    w = world(t.state)
    assert enemy_zoc(w, "france") == frozenset()  # no unit has a ZoC in the storm
    state = position({"42e-1": "1805"}, scenario="campotenese", leaders={"compere": "1805"}, orders={"C": "advance"},
                     weather=3)
    t = at_step(state, "C", "movement")
    dests = {c["to"] for c in t.legal("france") if c["type"] == "move"}
    assert dests and all(C.map.grid.distance("1805", h) == 1 for h in dests)


def test_blizzard_range_one_and_neapolitan_efficiency():
    t, target = redoubt_table(weather=2)
    w = world(t.state)
    assert fire_range(w, "art-centro") == 1
    assert w.test_efficiency("rf-1-fucilieri") == C.unit("rf-1-fucilieri").efficiency + 1
    t.state.weather = 3
    assert world(t.state).test_efficiency("rf-1-fucilieri") == C.unit("rf-1-fucilieri").efficiency + 2
    t.state.weather = 1
    assert world(t.state).test_efficiency("rf-1-fucilieri") == C.unit("rf-1-fucilieri").efficiency


def test_road_costs_by_weather():
    """arrivano §17.2.8: roads half MP, 1 MP in the blizzard, all MP in the storm (the movement tables)."""
    roads = [C.movement[b].roads["strada"].always for b in (2, 3)]
    assert roads[0] is not None and roads[0].cost == 2 and roads[1] is not None and roads[1].cost == "all"


def test_in_the_storm_a_longer_move_is_refused_citing_the_storm():
    """arrivano §17.2.7 (Tormenta: combat units and commanders move one hex only): a move two hexes away is refused
    citing §17.2.7, a unit's and a commander's; one hex is accepted."""
    state = position({"42e-1": "1805"}, scenario="campotenese", leaders={"compere": "1805"}, orders={"C": "advance"},
                     weather=3)
    t = at_step(state, "C", "movement")
    grid = C.map.grid
    far = next(h for h in sorted(grid.within("1805", 2)) if grid.distance("1805", h) == 2)
    via = next(h for h in sorted(grid.neighbours("1805")) if grid.is_adjacent(h, far))
    for command in ({"type": "move", "unit": "42e-1", "to": far, "column": False},
                    {"type": "move_leader", "leader": "compere", "to": far}):
        with pytest.raises(IllegalCommand) as e:
            t.send("france", command)
        assert e.value.rule == "arrivano §17.2.7" and "one hex" in str(e.value), command
    t.send("france", {"type": "move", "unit": "42e-1", "to": via, "column": False})
    assert t.state.units["42e-1"].hex == via


def test_a_bombard_in_the_storm_is_refused_for_the_weather():
    """arrivano §17.2.7 (Tormenta: "Le artiglierie non sparano"): a bombard sent in the storm is refused citing the
    weather box's rule and saying so, as Caldiero's guns are in its snow and ice storm (caldiero §17.1.2-§17.1.3); it
    was refused as a gun that could not fire (Moved, not stacked, not of the active formation: arrivano §11), the
    weather unnamed (rev-r)."""
    t, target = redoubt_table(weather=3)
    with pytest.raises(IllegalCommand) as refused:
        t.send("naples", {"type": "bombard", "units": ["art-centro"], "target": target}, [3])
    assert refused.value.rule == "arrivano §17.2.7, §17.2.8" and "weather" in str(refused.value), str(refused.value)
