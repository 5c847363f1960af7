"""Movement under orders (arrivano §5.1, §8, §9), Defence from EZoC to EZoC (D7), march column (§9.3, §17.1.4),
obligations (§5.1.1, §5.1.2), rout (D19)."""

from __future__ import annotations

import dataclasses

import pytest
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.arrivano.data_model import ArrivanoScenario
from arbitro.adjudicator.arrivano.movement import march_rule, plan, why_not
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.arrivano.world import in_command
from arbitro.adjudicator.parabellum.movement import Mover
from arbitro.adjudicator.parabellum.world import World
from pydantic import ValidationError

from tests.arrivano.harness import RULESET, at_step, ev, open_ground, position, world

X = open_ground()
GRID = RULESET.data.scenarios["montebello"].map.grid


def nb(h: str, d: int, n: int = 1) -> str:
    for _ in range(n):
        h = GRID.neighbour(h, d)
    return h


def moving(units, order, leaders=None, formation="W"):
    state = position(units, leaders=leaders or {"watrin": X}, orders={formation: order})
    return at_step(state, formation, "movement")


def move(t, unit, to, column=False, dice=None):
    return t.send("france", {"type": "move", "unit": unit, "to": to, "column": column}, dice)


def rejected(t, unit, to, column=False):
    with pytest.raises(IllegalCommand) as e:
        move(t, unit, to, column)
    return e.value.rule


def test_manoeuvre_never_enters_an_enemy_zoc():
    enemy = nb(X, 1, 3)
    t = moving({"6e-legere-i": X, "ir18-i": enemy}, "manoeuvre")
    assert rejected(t, "6e-legere-i", nb(X, 1, 2)) == "arrivano §5.1.4"
    assert all(c["to"] != nb(X, 1, 2) for c in t.legal("france") if c["type"] == "move")


def test_advance_enters_an_enemy_zoc_and_stops():
    enemy = nb(X, 1, 3)
    t = moving({"6e-legere-i": X, "ir18-i": enemy}, "advance")
    move(t, "6e-legere-i", nb(X, 1, 2))
    assert t.state.units["6e-legere-i"].hex == nb(X, 1, 2)


def test_never_into_an_enemy_hex():
    t = moving({"6e-legere-i": X, "ir18-i": nb(X, 1)}, "advance")
    assert rejected(t, "6e-legere-i", nb(X, 1)) == "arrivano §9.1.2"


def test_defence_moves_one_hex():
    t = moving({"6e-legere-i": X, "ir18-i": "3914"}, "defence")
    assert rejected(t, "6e-legere-i", nb(X, 1, 2)) == "arrivano §5.1.3"
    move(t, "6e-legere-i", nb(X, 1))


def test_a_unit_moves_once_per_turn():
    t = moving({"6e-legere-i": X, "ir18-i": "3914"}, "manoeuvre")
    move(t, "6e-legere-i", nb(X, 1))
    assert rejected(t, "6e-legere-i", X) == "arrivano §9"


@pytest.mark.parametrize("order", ["advance", "attack", "manoeuvre"])
def test_a_unit_in_an_enemy_zoc_leaves_it_only_under_defence(order):
    """arrivano §8.1 (issue 19 defect 1): an Advance-order unit in command at 1306, next to an enemy at 1305, may not
    step away to 1307; nor under Attack or Manoeuvre; the refusal cites §8.1 and legal() lists no move for it."""
    state = position({"6e-legere-i": "1306", "ir18-i": "1305"}, leaders={"watrin": "1306"}, orders={"W": order})
    t = at_step(state, "W", "movement")
    assert GRID.is_adjacent("1306", "1305") and not GRID.is_adjacent("1307", "1305")
    assert "6e-legere-i" in in_command(world(t.state), "W")
    with pytest.raises(IllegalCommand) as e:
        move(t, "6e-legere-i", "1307")
    assert e.value.rule == "arrivano §8.1" and "1306" in str(e.value)
    assert not [c for c in t.legal("france") if c["type"] == "move" and c["unit"] == "6e-legere-i"]


def test_defence_leaves_an_enemy_zoc():
    """arrivano §8.1: "se non con un Ordine di Difesa": one hex out of it (§5.1.3)."""
    t = moving({"6e-legere-i": "1306", "ir18-i": "1305"}, "defence", leaders={"watrin": "1306"})
    move(t, "6e-legere-i", "1307")
    assert t.state.units["6e-legere-i"].hex == "1307"


def test_defence_from_ezoc_to_ezoc_takes_a_test():
    """arrivano §5.1.3 (D7): Caldiero forbids it; here it costs a disorder level on a failed test."""
    enemy = nb(X, 1)
    start, dest = X, nb(X, 2)  # both next to the enemy
    assert GRID.is_adjacent(start, enemy) and GRID.is_adjacent(dest, enemy) and GRID.is_adjacent(start, dest)
    t = moving({"6e-legere-i": start, "ir18-i": enemy}, "defence")
    move(t, "6e-legere-i", dest, dice=[6])
    assert t.state.units["6e-legere-i"].status == "disordered"
    t = moving({"6e-legere-i": start, "ir18-i": enemy}, "defence")
    move(t, "6e-legere-i", dest, dice=[2])
    assert t.state.units["6e-legere-i"].status == "good"


def test_no_march_column_for_the_austrians_at_montebello():
    s = RULESET.data.scenarios["montebello"]
    road = next(h for h in s.map.hexes() if s.map.roads_at(h))
    state = position({"ir18-i": road, "6e-legere-i": "3914"}, leaders={"gottesheim": road}, orders={"G": "manoeuvre"})
    t = at_step(state, "G", "movement")
    with pytest.raises(IllegalCommand) as e:
        t.send("austria", {"type": "move", "unit": "ir18-i", "to": road, "column": True})
    assert e.value.rule == "arrivano §17.1.4"
    assert not [c for c in t.legal("austria") if c["type"] == "move" and c["column"]]


def test_french_march_column_follows_the_road():
    s = RULESET.data.scenarios["montebello"]
    road = next(h for h in sorted(s.map.hexes()) if "strada" in s.map.roads_at(h) and not s.map.hex(h).other_terrain
                and len([n for n in s.map.grid.neighbours(h) if s.map.roads_between(h, n)]) == 2)
    t = moving({"6e-legere-i": road, "ir18-i": "0801"}, "manoeuvre", leaders={"watrin": road})
    column = [c for c in t.legal("france") if c["type"] == "move" and c["column"]]
    assert column, "a column on a major road goes farther than a normal move"
    c = column[-1]
    move(t, c["unit"], c["to"], True)
    path = (road, *t.of(ev.UnitsMoved)[-1].path)
    assert all(s.map.roads_between(a, b) for a, b in zip(path, path[1:]))


def test_attack_order_obliges_moving_toward_the_enemy():
    t = moving({"6e-legere-i": X, "ir18-i": nb(X, 1, 4)}, "attack")
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "end_step"})
    assert e.value.rule == "arrivano §5.1.2"
    assert {"type": "end_step"} not in t.legal("france")
    move(t, "6e-legere-i", nb(X, 1))
    began = [e.step for e in t.send("france", {"type": "end_step"}) if isinstance(e, ev.StepBegan)]
    assert began[0] == "combat"  # (with nothing to attack, it ends by itself)


def test_advance_obliges_half_the_units():
    t = moving({"6e-legere-i": X, "6e-legere-ii": nb(X, 3), "ir18-i": nb(X, 1, 5)}, "advance")
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "end_step"})
    assert e.value.rule == "arrivano §5.1.1"
    move(t, "6e-legere-i", nb(X, 1))
    t.send("france", {"type": "end_step"})  # one of two is half


def test_routed_units_cannot_move_and_test_when_an_enemy_comes_adjacent():
    enemy = nb(X, 1, 2)
    state = position({"6e-legere-i": X, "ir18-i": enemy}, leaders={"watrin": X}, orders={"W": "advance"})
    state.units["ir18-i"].status = "routed"
    t = at_step(state, "W", "movement")
    move(t, "6e-legere-i", nb(X, 1), dice=[6])  # the routed unit fails its test: surrenders for good (§15.2)
    assert t.state.units["ir18-i"].where == "eliminated"
    state = position({"6e-legere-i": X}, leaders={"watrin": X})
    state.units["6e-legere-i"].status = "routed"
    t = at_step(state, "W", "movement")
    assert rejected(t, "6e-legere-i", nb(X, 1)) == "arrivano §15.2"


def test_end_phase_rout_move_two_hexes():
    """arrivano §15.2.2 (D19): routed units move two hexes away in the end phase."""
    state = position({"ir18-i": X, "6e-legere-i": nb(X, 1, 3)}, leaders={"watrin": "3914"})
    state.units["ir18-i"].status = "routed"
    for f in state.formations.values():
        f.activated = True
    state.formations["W"].activated = False
    t = at_step(state, "W", "combat")
    t.send("france", {"type": "end_step"})
    pending = t.pending()  # the owner chooses the line (tests/arrivano/test_retreats.py)
    assert (pending.kind, pending.seat) == ("rout_move", "austria")
    t.send("austria", pending.options[0])
    assert GRID.distance(t.state.units["ir18-i"].hex, X) == 2
    assert any(e.rule == "arrivano §15.2.2" for e in t.of(ev.UnitRetreated))


def test_commanders_enter_ezoc_only_with_friends():
    enemy = nb(X, 1, 2)
    t = moving({"6e-legere-i": X, "ir18-i": enemy}, "manoeuvre")
    dests = {c["to"] for c in t.legal("france") if c["type"] == "move_leader"}
    assert nb(X, 1) not in dests  # in EZoC, no friendly unit there (§8.2.2)
    t.send("france", {"type": "move_leader", "leader": "watrin", "to": nb(X, 3, 2)})
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "move_leader", "leader": "watrin", "to": X})
    assert e.value.rule == "arrivano §9.1.4"


def test_a_commander_goes_from_ezoc_to_ezoc_only_between_friends():
    """arrivano §8.2.2 "da EZoC a EZoC se entrambi gli esagoni sono occupati da unità di combattimento amiche": watrin,
    alone in X next to the enemy, may not step straight into nb(X, 2), next to the enemy too, although a friend stands
    there: he goes round by a hex outside the enemy's ZoC; with a friend in his own hex he steps straight in."""
    enemy, there = nb(X, 1), nb(X, 2)
    t = moving({"6e-legere-i": there, "ir18-i": enemy}, "manoeuvre")
    t.send("france", {"type": "move_leader", "leader": "watrin", "to": there})
    path = tuple(t.of(ev.LeaderMoved)[-1].path)
    assert path[-1] == there and len(path) == 2 and not GRID.is_adjacent(path[0], enemy)  # the hexes entered
    t = moving({"6e-legere-i": there, "6e-legere-ii": X, "ir18-i": enemy}, "manoeuvre")
    t.send("france", {"type": "move_leader", "leader": "watrin", "to": there})
    assert tuple(t.of(ev.LeaderMoved)[-1].path) == (there,)


def test_an_out_of_command_unit_is_told_why_it_holds_a_defence_order():
    """Issue 19 item 16: a unit out of command does not silently fall to Defence; the refusal says why (§4.4, §5.3)."""
    far = next(h for h in sorted(GRID.hexes()) if GRID.distance(X, h) == 8)
    t = moving({"6e-legere-i": X, "ir18-i": "3914"}, "advance", leaders={"watrin": far})
    with pytest.raises(IllegalCommand) as e:
        move(t, "6e-legere-i", nb(X, 1, 2))
    assert e.value.rule == "arrivano §5.1.3"
    assert ("6e-legere-i is out of command: not within 3 hexes of its general watrin nor next to a unit in command "
            "(arrivano §4.4), so under a Defence order (arrivano §5.3)") in str(e.value)
    t = moving({"6e-legere-i": X, "ir18-i": "3914"}, "advance", leaders={"watrin": nb(X, 1)})
    move(t, "6e-legere-i", nb(X, 1, 2))  # in command: its Advance order


def test_status_notes_the_out_of_command_units_to_their_side_only():
    far = next(h for h in sorted(GRID.hexes()) if GRID.distance(X, h) == 8)
    t = moving({"6e-legere-i": X, "ir18-i": "3914"}, "advance", leaders={"watrin": far})
    assert RULESET.notices(t.state, "france") == RULESET.notices(t.state, "umpire") == [
        "6e-legere-i is out of command: not within 3 hexes of its general watrin nor next to a unit in command "
        "(arrivano §4.4), so under a Defence order (arrivano §5.3)"]
    assert RULESET.notices(t.state, "austria") == []


def test_a_march_column_to_a_hex_a_line_move_reaches_is_listed():
    """Issue 19 item 9: a column move is another move (§9.3) even where a line move ends too; listed as accepted."""
    s = RULESET.data.scenarios["montebello"]
    road = next(h for h in sorted(s.map.hexes()) if "strada" in s.map.roads_at(h) and not s.map.hex(h).other_terrain
                and len([n for n in s.map.grid.neighbours(h) if s.map.roads_between(h, n)]) == 2)
    t = moving({"6e-legere-i": road, "ir18-i": "0801"}, "manoeuvre", leaders={"watrin": road})
    moves = [c for c in t.legal("france") if c["type"] == "move" and c["unit"] == "6e-legere-i"]
    both = {c["to"] for c in moves if c["column"]} & {c["to"] for c in moves if not c["column"]}
    assert both
    move(t, "6e-legere-i", min(both), True)
    assert t.of(ev.UnitsMoved)[-1].column


def test_an_attack_order_move_tends_toward_the_nearest_enemy():
    """arrivano §5.1.2 (issue 19: "il movimento deve tendere verso l'unità nemica più vicina", not enforced per move
    before): an Attack-order unit may not step away from the nearest enemy, nor stay as far from it, unless it ends
    in an enemy ZoC; the refusal cites §5.1.2 with both distances and legal() lists only moves that close. Units
    §5.1.5 does not count (disordered here) are not bound."""
    enemy = nb(X, 1, 4)
    t = moving({"6e-legere-i": X, "ir18-i": enemy}, "attack")
    away = nb(X, 4)
    assert GRID.distance(away, enemy) > GRID.distance(X, enemy)
    with pytest.raises(IllegalCommand) as e:
        move(t, "6e-legere-i", away)
    assert e.value.rule == "arrivano §5.1.2" and f"at {away}" in str(e.value)
    listed = [c["to"] for c in t.legal("france") if c["type"] == "move" and c["unit"] == "6e-legere-i"]
    assert listed and nb(X, 1) in listed and away not in listed
    assert all(GRID.distance(h, enemy) < GRID.distance(X, enemy) for h in listed)
    move(t, "6e-legere-i", nb(X, 1))
    disordered = position({"6e-legere-i": X, "ir18-i": enemy}, leaders={"watrin": X}, orders={"W": "attack"})
    disordered.units["6e-legere-i"].status = "disordered"
    u = at_step(disordered, "W", "movement")
    move(u, "6e-legere-i", away)


def test_the_march_column_ban_cites_the_scenario_s_rule():
    """arrivano §17.1.4 (Montebello: "Gli Austriaci non possono usare la Colonna di Marcia"): the ban is the
    scenario's (`march_column_forbidden`), and so is its citation, `march_column_rule`, required with it (loaded and
    never read till the twentieth session: the refusal cited the code's own copy, rules.MB_NO_COLUMN)."""
    shipped = RULESET.data.scenarios["montebello"]
    data = dataclasses.replace(shipped, scenario=shipped.scenario.model_copy(update={"march_column_rule": "arrivano §99.9"}),
                               digest=f"{shipped.digest}+rule")
    road = next(h for h in shipped.map.hexes() if shipped.map.roads_at(h))
    state = position({"ir18-i": road, "6e-legere-i": "3914"}, leaders={"gottesheim": road}, orders={"G": "manoeuvre"})
    w = World(state, data, lambda name: "", variant=ARRIVANO_VARIANT)
    assert plan(w, "ir18-i", True, frozenset({"ir18-i"}), "manoeuvre") == "arrivano §99.9"
    with pytest.raises(ValidationError, match="(?s)march_column_rule.*required with `march_column_forbidden`"):
        ArrivanoScenario.model_validate({**shipped.scenario.model_dump(), "march_column_rule": ""})


def test_a_march_order_cites_the_scenario_s_rule():
    """arrivano §17.1.5: a unit under a march order is refused a move away from its objective citing scenario.json's
    `march_order_rules.rule` (loaded and never read till the twentieth session: the code's copy rules.MB_MARCH)."""
    shipped = RULESET.data.scenarios["montebello"]
    rules = shipped.scenario.march_order_rules
    assert rules is not None and rules.rule == "arrivano §17.1.5"
    scenario = shipped.scenario.model_copy(update={"march_order_rules": rules.model_copy(update={"rule": "arrivano §99.9"})})
    data = dataclasses.replace(shipped, scenario=scenario, digest=f"{shipped.digest}+march rule")
    state = position({"ir28-iii": "2210"})
    state.march_orders = {"vogelsang": True}
    w = World(state, data, lambda name: "", variant=ARRIVANO_VARIANT)
    assert march_rule(w) == "arrivano §99.9"
    mover = plan(w, "ir28-iii", False, frozenset({"ir28-iii"}))
    assert isinstance(mover, Mover) and why_not(w, "ir28-iii", "2209", mover) == (
        "arrivano §99.9", "2209 is not closer to the march order's objective")
