"""Commanders' escape (arrivano §4.5.6, §8.2.3, D12) and the optional rules (§16)."""

from __future__ import annotations

import msgspec
import pytest
from arbitro.adjudicator.arrivano.activation import officer_in_superior_range
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.arrivano.turn import start_turn
from arbitro.adjudicator.parabellum.orders import order_of

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
GRID = RULESET.data.scenarios["montebello"].map.grid


def nb(h: str, d: int, n: int = 1) -> str:
    for _ in range(n):
        h = GRID.neighbour(h, d)
    return h


def test_commander_may_flee_when_an_enemy_comes_adjacent():
    state = position({"6e-legere-i": nb(X, 1, 3), "ir18-i": "2815"}, leaders={"watrin": nb(X, 1, 3), "gottesheim": X},
                     orders={"W": "advance"})
    t = at_step(state, "W", "movement")
    t.send("france", {"type": "move", "unit": "6e-legere-i", "to": nb(X, 1), "column": False})
    pending = t.pending()
    assert pending.kind == "escape" and pending.seat == "austria" and pending.rule == "arrivano §4.5.6"
    assert {"type": "escape", "to": None} in pending.options
    dest = next(o["to"] for o in pending.options if o["to"])
    t.send("austria", {"type": "escape", "to": dest})
    assert t.state.leaders["gottesheim"].hex == dest


def test_a_lone_commander_whose_hex_is_entered_must_flee():
    friend = nb(X, 4)  # every other neighbour is in the entering unit's ZoC: he can flee only to friends
    state = position({"6e-legere-i": nb(X, 1), "ir18-i": "2815", "ir18-ii": friend},
                     leaders={"watrin": nb(X, 1), "gottesheim": X}, orders={"W": "advance"})
    t = at_step(state, "W", "movement")
    t.send("france", {"type": "move", "unit": "6e-legere-i", "to": X, "column": False})
    pending = t.pending()
    assert pending.kind == "escape" and pending.rule == "arrivano §8.2.3"
    assert {"type": "escape", "to": None} not in pending.options and {"type": "escape", "to": friend} in pending.options
    t.send("austria", {"type": "escape", "to": friend})
    assert t.state.leaders["gottesheim"].hex == friend


def test_a_surrounded_commander_is_lost():
    """arrivano §8.2.3 (D12): every exit enemy-occupied or in EZoC -> eliminated."""
    ring = list(GRID.neighbours(X))
    units = {"6e-legere-i": nb(X, 1, 2), "6e-legere-ii": ring[3], "6e-legere-iii": ring[0]}
    state = position(units | {"ir18-i": "2815"}, leaders={"watrin": nb(X, 1, 2), "gottesheim": X},
                     orders={"W": "advance"})
    state.units["22e-i"].hex, state.units["22e-i"].where = ring[2], "map"
    state.units["22e-ii"].hex, state.units["22e-ii"].where = ring[5], "map"
    t = at_step(state, "W", "movement")
    t.send("france", {"type": "move", "unit": "6e-legere-i", "to": X, "column": False})
    assert [e.leader for e in t.of(ev.LeaderLost)] == ["gottesheim"]


def test_hq_orders_option():
    """arrivano §16.1: no orders sub-phase; the HQ is activated instead of a formation and its chief changes orders."""
    scenario = RULESET.scenarios()["montebello"]
    assert "hq_orders" in scenario.options
    assert "open_order" in scenario.options  # arrivano §16.3 (tests/arrivano/test_open_order.py)
    state = position({"6e-legere-i": X, "ir18-i": "2815"}, leaders={"lannes": X, "watrin": X})
    state.options = ["hq_orders"]
    t = Table(state)
    assert {"type": "activate", "formation": "HQ"} in t.legal("france")
    t.send("france", {"type": "activate", "formation": "HQ"})
    assert t.of(ev.HeadquartersActivated)[-1].counter == "Lannes AvGd" and t.state.step == "orders"
    t.send("france", {"type": "change_order", "formation": "W", "order": "attack"})
    assert t.state.formations["W"].order == "attack" and not t.state.formations["W"].activated
    t.send("france", {"type": "end_step"})
    assert t.state.step == "choose_activation"
    with pytest.raises(IllegalCommand) as e:
        t.send(t.state.seat, {"type": "activate", "formation": "HQ"})
    assert e.value.rule in ("arrivano §16.1",)


def test_hq_orders_skip_the_orders_sub_phase():
    state = position({"6e-legere-i": X, "ir18-i": "2815"}, leaders={"lannes": X, "watrin": X, "ott": "2815"})
    state.options = ["hq_orders"]
    t = Table(state)
    ctx = t.decision("umpire")
    start_turn(RULESET.game(ctx), 3)
    assert ctx.state.step == "choose_activation"


def test_options_not_implemented_cannot_be_chosen():
    from arbitro.adjudicator.service import Arbitro
    from arbitro.events.sqlite import SQLiteStore
    app = Arbitro(SQLiteStore(":memory:"))
    from arbitro.adjudicator.errors import ArbitroError
    with pytest.raises(ArbitroError):
        app.create("arrivano", "montebello", options=("no_such_option",))
    app.create("arrivano", "campotenese", options=("hq_orders",))
    assert fresh("montebello").options == []


def test_cavalry_charge_doubles_and_disorders_the_charger():
    """arrivano §14.2 (D28: standard here, optional in Caldiero), §14.2.2."""
    start = nb(X, 4)
    target = nb(X, 1)
    state = position({"12e-hussards": start, "ir18-i": target}, leaders={"lannes": start}, orders={"L": "attack"})
    t = at_step(state, "L", "movement")
    charges = [c for c in t.legal("france") if c.get("charge")]
    assert {"type": "move", "unit": "12e-hussards", "to": X, "column": False, "charge": target} in charges
    t.send("france", {"type": "move", "unit": "12e-hussards", "to": X, "column": False, "charge": target})
    assert t.state.units["12e-hussards"].charge == target
    t.send("france", {"type": "end_step"})
    t.state.leaders["lannes"].hex = X
    t.send("france", {"type": "assault", "attackers": ["12e-hussards"], "targets": [target]}, [4])  # 6 v 5, +2: Dd
    r = t.of(ev.AssaultResolved)[-1]
    strength = RULESET.data.scenarios["montebello"].unit("12e-hussards").strength
    assert r.table.attack == 2 * strength
    assert t.state.units["12e-hussards"].status != "good"


def test_no_charges_at_campotenese():
    state = position({"6e-chasseurs-1": "1805", "rf-1-fucilieri": "2713"}, scenario="campotenese",
                     leaders={"compere": "1805"}, orders={"C": "attack"})
    t = at_step(state, "C", "movement")
    assert not [c for c in t.legal("france") if c.get("charge")]
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "move", "unit": "6e-chasseurs-1", "to": "1806", "column": False, "charge": "1807"})
    assert e.value.rule == "arrivano §17.2.5"


def test_franceschi_activates_as_an_independent_column():
    """arrivano §17.2.9: the chasseurs are activated on their own, even when Compère is already A."""
    state = position({"42e-1": "1805", "rf-1-fucilieri": "2713"}, scenario="campotenese",
                     leaders={"compere": "1805", "reynier": "1805"}, turn=4)
    state.entered_groups.remove("cp-fr-t4")
    for uid in RULESET.data.scenarios["campotenese"].scenario.franceschi.units:
        state.units[uid].where = "offmap"
    t = Table(state)
    t.send("france", {"type": "activate", "formation": "C"})
    assert "franceschi" in t.state.columns and t.state.units["6e-chasseurs-1"].where == "waiting"
    if t.state.step == "bombardment":  # (a step with nothing left to do has ended by itself)
        t.send("france", {"type": "end_step"})
    assert not [c for c in t.legal("france") if c["type"] == "move" and c["unit"].startswith(("6e-ch", "9e-ch"))]
    while t.state.activation is not None:  # C's activation to its end
        listed = t.legal("france")
        t.send("france", next((c for c in listed if c["type"] == "end_step"), None) or
               next(c for c in listed if c["type"] == "move"))
    assert t.state.formations["C"].activated
    seat = t.state.seat
    assert {"type": "activate", "formation": "franceschi"} in t.legal(seat)
    t.state.leaders["compere"].hex = t.state.leaders["franceschi"].hex  # the premise: within Compère's range
    assert officer_in_superior_range(world(t.state), "franceschi")
    assert not [c for c in t.legal(seat) if c["type"] == "rejoin_column"], "§17.2.9's column never rejoins"
    with pytest.raises(IllegalCommand) as e:
        t.send(seat, {"type": "rejoin_column", "officer": "franceschi"})
    assert e.value.rule == "arrivano §16.2.1" and ("may: none" if seat == "france" else "not one of your") in str(e.value)
    if seat == "naples":
        t.send("naples", {"type": "activate", "formation": "franceschi"})
    else:
        t.send("france", {"type": "activate", "formation": "franceschi"})
    assert t.state.activation.column == "franceschi" and t.state.seat == "france"
    if t.state.step == "bombardment":
        t.send("france", {"type": "end_step"})
    movers = {c["unit"] for c in t.legal("france") if c["type"] == "move"}
    assert movers and movers <= set(RULESET.data.scenarios["campotenese"].scenario.franceschi.units)


def test_counter_charge_stops_the_charger_and_is_fought_first():
    """arrivano §14.2.4: Defence cavalry alone next to the charge's path may counter-charge."""
    start = nb(X, 4)
    target = nb(X, 1)
    side_hex = nb(X, 0)  # next to X, where the charge ends, not next to its start
    state = position({"12e-hussards": start, "ir18-i": target, "bussy": side_hex},
                     leaders={"lannes": start}, orders={"L": "attack", "R": "defence"})
    t = at_step(state, "L", "movement")
    charges = [c for c in t.legal("france") if c.get("charge") == target and c["to"] == X]
    assert charges, "the set-up must offer a charge through this ground (a changed map or table broke it)"
    t.send("france", charges[0])
    pending = t.pending()
    assert world(t.state).grid.is_adjacent(t.state.units["bussy"].hex, X), "the counter-charger must be next to the path"
    assert pending is not None and pending.kind == "countercharge"
    assert pending.seat == "austria" and {"type": "countercharge", "unit": None} in pending.options
    t.send("austria", {"type": "countercharge", "unit": "bussy"})
    assert t.state.countercharges == {"bussy": "12e-hussards"} and t.state.units["12e-hussards"].charge is None
    t.send("france", {"type": "end_step"}, [3])
    declared = t.of(ev.AssaultDeclared)[-1]
    assert declared.attackers == ("bussy",) and declared.rule == "arrivano §14.2.4"
    r = t.of(ev.AssaultResolved)[-1]
    assert r.table.attack == 2 * world(t.state).strength("bussy") or r.result in ("Ae", "Ex")


def test_independent_columns_option():
    """arrivano §16.2-§16.2.3: an officer in his general's range forms a column of units in his range, with its own
    order and activation; activated again it acts, and its owner may instead rejoin it to its formation, the officer
    in the general's range (§16.2.1 "il giocatore decide di riaggiungerla")."""
    assert "independent_columns" in RULESET.scenarios()["montebello"].options
    near = nb(X, 1)
    state = position({"6e-legere-i": near, "6e-legere-ii": near, "ir18-i": "0801"},
                     leaders={"watrin": X, "gency": near}, orders={"W": "defence"})
    state.options = ["independent_columns"]
    t = Table(state)
    forms = [c for c in t.legal("france") if c["type"] == "form_column"]
    assert {"type": "form_column", "officer": "gency", "units": ["6e-legere-i", "6e-legere-ii"], "order": "attack"} in forms
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "form_column", "officer": "gency", "units": ["ir18-i"], "order": "attack"})
    assert e.value.rule == "arrivano §16.2"
    t.send("france", {"type": "form_column", "officer": "gency", "units": ["6e-legere-i"], "order": "manoeuvre"})
    assert t.state.activation.column == "gency" and t.state.columns["gency"].order == "manoeuvre"
    assert order_of(world(t.state), "6e-legere-i") == "manoeuvre" and order_of(world(t.state), "6e-legere-ii") == "defence"
    if t.state.step == "bombardment":  # (a step with nothing left to do has ended by itself)
        t.send("france", {"type": "end_step"})
    movers = {c["unit"] for c in t.legal("france") if c["type"] == "move"}
    assert movers == {"6e-legere-i"}
    while t.state.activation is not None:  # the column's activation to its end
        t.send("france", {"type": "end_step"})
    assert t.state.columns["gency"].activated and not t.state.formations["W"].activated
    # next turn, Gency still in Watrin's range: France may activate the column or rejoin it (§16.2.1)
    t.state.columns["gency"].activated = False
    t.state.step, t.state.seat = "choose_activation", "france"
    again = Table(msgspec.structs.replace(t.state))
    assert {"type": "rejoin_column", "officer": "gency"} in t.legal("france")
    again.send("france", {"type": "activate", "formation": "gency"})
    assert again.state.activation.column == "gency" and not again.of(ev.ColumnDissolved), "activating never rejoins"
    t.send("france", {"type": "rejoin_column", "officer": "gency"})
    assert "gency" not in t.state.columns and t.of(ev.ColumnDissolved)[-1].rule == "arrivano §16.2.1"
    assert t.state.activation is None and not t.state.formations["W"].activated, "the activation is spent on it"


def test_independent_columns_need_the_option():
    state = position({"6e-legere-i": nb(X, 1), "ir18-i": "0801"}, leaders={"watrin": X, "gency": nb(X, 1)})
    t = Table(state)
    assert not [c for c in t.legal("france") if c["type"] == "form_column"]
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "form_column", "officer": "gency", "units": ["6e-legere-i"], "order": "attack"})
    assert e.value.rule == "arrivano §16.2"


def test_a_column_of_any_subset_of_the_listed_units():
    """Issue 19 item 8: `form_column` is listed with every unit the officer may take (the template's domain,
    docs/ruleset-interface.md); any non-empty subset of it is accepted and forms the column of just those units."""
    near = nb(X, 1)
    units = ["6e-legere-i", "6e-legere-ii"]
    state = position({u: near for u in units} | {"ir18-i": "0801"}, leaders={"watrin": X, "gency": near},
                     orders={"W": "defence"})
    state.options = ["independent_columns"]
    listed = [c for c in Table(state).legal("france") if c["type"] == "form_column" and c["order"] == "advance"]
    assert [c["units"] for c in listed] == [units]
    for subset in (units[:1], units[1:], units):
        t = Table(msgspec.convert(msgspec.to_builtins(state), type(state)))
        t.send("france", {"type": "form_column", "officer": "gency", "units": subset, "order": "advance"})
        assert t.state.columns["gency"].units == subset


def test_a_charge_owes_no_other_zoc_hex_within_the_sub_phase():
    """arrivano §14.2.1 under zoc_attack_obligation=within_sub_phase (§12.2.1): a charge ignores the other enemy
    ZoC, so attacking its target leaves nothing owed and the sub-phase may end at once, though another unit could
    still attack the other hex."""
    start, target, other = nb(X, 4), nb(X, 1), nb(X, 2)
    state = position({"12e-hussards": start, "ir18-i": target, "ir18-ii": other, "28e-i": nb(other, 2)},
                     leaders={"lannes": start}, orders={"L": "attack"})
    t = at_step(state, "L", "movement")
    t.state.interpretations["zoc_attack_obligation"] = "within_sub_phase"
    t.state.activation.unit_orders["28e-i"] = "advance"  # may attack `other`, not obliged to (§5.1.2)
    t.send("france", {"type": "move", "unit": "12e-hussards", "to": X, "column": False, "charge": target})
    t.send("france", {"type": "end_step"})
    t.state.leaders["lannes"].hex = X
    t.send("france", {"type": "assault", "attackers": ["12e-hussards"], "targets": [target]}, [4])
    listed = t.legal("france")
    assert t.state.assault_hexes == [] and {"type": "assault", "attackers": ["28e-i"], "targets": [other]} in listed
    assert {"type": "end_step"} in listed


def test_a_charge_is_a_move_its_attack_order_binds_to_the_enemy_5_1_2():
    """arrivano §5.1.2 with §14.2: a charge is a move, so under an Attack order it must end in an enemy ZoC or nearer
    the closest enemy. Next to a disordered enemy (no ZoC, §15), sliding to another hex next to it is neither: the
    charge is not listed and is refused citing §5.1.2; from two hexes away the charge at it ends nearer."""
    for start, end, allowed in ((nb(X, 4), nb(X, 3), False), (nb(X, 4, 2), nb(X, 4), True)):  # ends next to X
        state = position({"12e-hussards": start, "ir18-i": X}, leaders={"lannes": start}, orders={"L": "attack"})
        state.units["ir18-i"].status = "disordered"
        t = at_step(state, "L", "movement")
        charge = {"type": "move", "unit": "12e-hussards", "to": end, "column": False, "charge": X}
        assert (charge in t.legal("france")) is allowed
        if allowed:
            t.send("france", charge)
            assert t.state.units["12e-hussards"].charge == X
            continue
        with pytest.raises(IllegalCommand) as e:
            t.send("france", charge)
        assert e.value.rule == "arrivano §5.1.2" and "nearer the closest enemy (1 hexes now, 1" in str(e.value)
