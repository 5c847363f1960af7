"""Scenario rules: Montebello march orders (§17.1.5) and victory (§17.1.8), Campotenese victory (§17.2.12), fog of war
(§11.3.2, LoS 3 and 2), replacements (§12.8, D21), leader loss (D10, D11), rejections of every kind."""

from __future__ import annotations

from arbitro.adjudicator.parabellum import sight

import pytest
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.arrivano.victory import ARRIVANO_SCORING
from arbitro.adjudicator.parabellum import victory
from arbitro.adjudicator.errors import IllegalCommand, NotYourTurn

from tests.arrivano.harness import (
    RULESET,
    Table,
    at_step,
    ev,
    fresh,
    open_ground,
    position,
    world,
)

X = open_ground()
S = RULESET.data.scenarios["montebello"]
C = RULESET.data.scenarios["campotenese"]
GRID = S.map.grid


def nb(h: str, d: int, n: int = 1) -> str:
    for _ in range(n):
        h = GRID.neighbour(h, d)
    return h


def test_march_order_ends_when_an_enemy_comes_into_sight():
    march = next(m for m in S.scenario.march_orders if m.id == "vogelsang")
    state = fresh("montebello")
    state.turn, state.first_turn = 2, False
    u = march.units[0]
    h = state.units[u].hex
    spot = next(x for x in sorted(GRID.within(h, 3)) if sight.sees(world(state), h, x) and world(state).side_at(x) is None)
    state.units["28e-i"].hex, state.units["28e-i"].where = "3914", "map"
    state.leaders["lannes"].hex, state.leaders["lannes"].where = "3914", "map"
    state.formations["L"].order = "manoeuvre"
    t = at_step(state, "L", "movement")
    t.state.units["28e-i"].hex = spot  # as if it had marched there; any command then checks
    t.send("france", {"type": "end_step"})
    ended = t.of(ev.MarchOrderEnded)
    assert [e.march for e in ended] == ["vogelsang"] and ended[0].reason == "enemy_in_los"
    assert t.state.formations[march.formation].order == "defence"


def test_marching_units_move_toward_their_objective():
    march = next(m for m in S.scenario.march_orders if m.id == "vogelsang")
    state = fresh("montebello")
    state.turn, state.first_turn = 2, False
    t = at_step(state, march.formation, "movement")
    u = next(x for x in march.units if S.unit(x).arm != "artillery")
    here = GRID.distance(t.state.units[u].hex, march.objective)
    moves = [c for c in t.legal("austria") if c["type"] == "move" and c["unit"] == u]
    assert moves and all(GRID.distance(c["to"], march.objective) < here for c in moves)
    away = next(x for x in GRID.neighbours(t.state.units[u].hex) if GRID.distance(x, march.objective) > here)
    with pytest.raises(IllegalCommand) as e:
        t.send("austria", {"type": "move", "unit": u, "to": away, "column": False})
    assert e.value.rule == "arrivano §17.1.5"


def test_lannes_lost_is_an_austrian_victory_at_once():
    state = position({"ir18-i": nb(X, 1), "6e-legere-i": X}, leaders={"lannes": X, "watrin": X},
                     orders={"G": "attack"})
    t = at_step(state, "G", "combat")
    t.state.formations["G"].order = "attack"
    t.state.leaders["gottesheim"].hex, t.state.leaders["gottesheim"].where = nb(X, 1, 2), "map"
    t.send("austria", {"type": "assault", "attackers": ["ir18-i"], "targets": [X]}, [6, 1, 1, 1])
    assert t.state.result is not None and t.state.result.winner == "austria"
    assert RULESET.outcome(t.state).rule == "arrivano §17.1.8"


def test_montebello_vp_objectives_and_steps():
    state = position({"6e-legere-i": "1112", "ir18-i": "2011"})
    state.steps_lost = {"france": 1, "austria": 3}
    r = victory.final_result(ARRIVANO_VARIANT, world(state), ARRIVANO_SCORING)
    assert r.points == {"france": 3 + 5, "austria": 3} and r.winner == "france"


def test_campotenese_levels_and_automatic_neapolitan_victory():
    state = position({"42e-1": "2408"}, scenario="campotenese")
    state.steps_lost = {"france": 0, "naples": 9}
    state.flags_captured = 3
    r = victory.final_result(ARRIVANO_VARIANT, world(state), ARRIVANO_SCORING)
    assert r.points["france"] == 1 + 9 + 3 and r.level == "french_victory" and r.winner == "france"
    state.steps_lost = {"france": 2, "naples": 11}
    state.flags_captured = 0
    r = victory.final_result(ARRIVANO_VARIANT, world(state), ARRIVANO_SCORING)
    assert r.level == "draw" and r.winner is None  # 1 + 9 = 10
    morano = C.map.place("Morano Calabro")[0]
    state = position({"real-principessa": morano, "real-sanniti": "3418", "42e-1": "2408"}, scenario="campotenese")
    state.steps_lost = {"france": 0, "naples": 20}
    r = victory.final_result(ARRIVANO_VARIANT, world(state), ARRIVANO_SCORING)
    assert r.winner == "naples" and r.automatic


def test_fog_of_war_by_line_of_sight():
    """arrivano §11.3.2 (D18: standard here, optional in Caldiero): enemy stacks out of sight show only their side."""
    far, near = nb(X, 1, 2), X
    state = position({"6e-legere-i": near, "ir18-i": far, "ir57-i": "2815"})
    view = RULESET.view(state, "france")
    assert "ir18-i" in view["units"] and "ir57-i" not in view["units"]
    assert view["hidden_stacks"]["2815"] == "austria"
    assert '"ir57-i"' in RULESET.secrets(state, "france") and '"ir18-i"' not in RULESET.secrets(state, "france")
    assert RULESET.view(state, "umpire")["units"]["ir57-i"]["hex"] == "2815"


def test_line_of_sight_three_at_montebello_two_at_campotenese():
    assert S.scenario.los_range == 3 and C.scenario.los_range == 2
    w = world(position({}))
    assert w.sight_range() == 3
    assert world(position({}, scenario="campotenese")).sight_range() == 2


def test_hidden_moves_are_redacted():
    state = position({"6e-legere-i": X, "ir57-i": "2815"}, leaders={"gottesheim": "2815"}, orders={"G": "manoeuvre"})
    t = at_step(state, "G", "movement")
    dest = next(c["to"] for c in t.legal("austria") if c["type"] == "move" and c["unit"] == "ir57-i")
    t.send("austria", {"type": "move", "unit": "ir57-i", "to": dest, "column": False})
    moved = t.of(ev.UnitsMoved)[-1]
    served = RULESET.redact(moved, "france", t.state)
    assert served["hidden"] and "ir57-i" not in str(served)
    assert list(RULESET.redact(moved, "austria", t.state)["units"]) == ["ir57-i"]


def test_guns_out_of_sight_are_not_named_by_their_fire():
    """A typed event's pieces are a tuple (artillery_fired's guns, units_moved's units): the enemy may not examine
    the guns' hex, so their fire is served without naming them (arrivano §11.3.2). Until Arrivano 1.29.0 only a
    list was looked into, and a fire named its hidden guns."""
    state = position({"6e-legere-i": X, "ir57-i": "2815"}, leaders={"gottesheim": "2815"}, orders={"G": "manoeuvre"})
    t = at_step(state, "G", "movement")
    assert "ir57-i" in RULESET.hidden_pieces(t.state, "france")
    fired = ev.ArtilleryFired(artillery=("ir57-i",), target=X, result="-", rule="arrivano §11.4", column=1, roll=1,
                              drm=0, row=1)
    served = RULESET.redact(fired, "france", t.state)
    assert served == {"type": "artillery_fired", "rule": "arrivano §11.4", "hidden": True}
    assert RULESET.redact(fired, "austria", t.state)["artillery"] == ("ir57-i",)


def test_replacements_return_near_their_general():
    """arrivano §12.8, §12.8.2 (D21): reduced, within one hex of the general, not in EZoC."""
    state = position({"ir18-ii": X}, leaders={"gottesheim": X})
    state.units["ir18-i"].where, state.units["ir18-i"].reduced, state.units["ir18-i"].return_turn = "track", True, 3
    t = Table(state)
    t.new_turn(3)
    pending = t.pending()  # the owner chooses the hex (tests/arrivano/test_choices.py)
    assert pending.kind == "replacement_hex" and pending.seat == "austria"
    t.send("austria", pending.options[0])
    unit = t.state.units["ir18-i"]
    assert unit.where == "map" and unit.reduced and GRID.distance(unit.hex, X) <= 1


def test_wrong_seat_and_wrong_step_are_rejected():
    state = position({"6e-legere-i": X, "ir18-i": "2815"}, leaders={"watrin": X})
    t = at_step(state, "W", "movement")
    with pytest.raises(NotYourTurn) as e:  # the engine's turn check (as a submit refuses it)
        t.send("austria", {"type": "end_step"})
    assert e.value.rule == "arbitro §S.2"
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "assault", "attackers": ["6e-legere-i"], "targets": ["2815"]})
    assert e.value.rule == "arrivano §3.1 B-5"
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "bombard", "units": ["6e-legere-i"], "target": "2815"})
    assert e.value.rule == "arrivano §3.1 B-3"
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "activate", "formation": "G"})
    assert e.value.rule == "arrivano §6.1"
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "retreat", "to": X, "units": ["6e-legere-i"]})
    assert e.value.rule == "arrivano §3.1"
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "change_order", "formation": "W", "order": "attack"})
    assert e.value.rule == "arrivano §5.2"
