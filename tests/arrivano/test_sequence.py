"""Sequence of play (arrivano §3, §5.2, §6): initiative and its ties (D13), Montebello's first turn, the chief's order
changes and their limit (D5), the general's roll (§5.2.1), reinforcement orders (D22), recovery timing (D20)."""

from __future__ import annotations

import json

import pytest
from arbitro.adjudicator.arrivano import flow as F
from arbitro.adjudicator.arrivano.turn import start_turn
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.arrivano.world import in_command
from arbitro.adjudicator.parabellum.act import settle
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


def test_initiative_ties_go_to_the_french():
    t = Table(fresh("campotenese"))
    t.start([4, 5])  # france 4 + Reynier 3 = 7; naples 5 + Damas 1 = 6 ... a tie needs 4+3 = 6+1
    assert t.of(ev.InitiativeWon)[-1].seat == "france"
    t = Table(fresh("campotenese"))
    t.start([3, 5])  # 3 + 3 = 6 = 5 + 1: tie
    won = t.of(ev.InitiativeWon)[-1]
    assert won.seat == "france" and won.rule == "arrivano §6.1.1" and won.totals == {"france": 6, "naples": 6}


def test_montebello_turn_one_only_french_formations():
    t = Table(fresh("montebello"))
    t.start([1, 6])  # austria wins, but only French formations activate on turn 1 (§17.1.2)
    assert t.state.seat == "austria"
    assert {c["formation"] for c in t.legal("austria")} == {"L", "W", "C"} & {c["formation"] for c in t.legal("austria")}
    assert all(t.state.formations[c["formation"]].side == "france" for c in t.legal("austria"))
    with pytest.raises(IllegalCommand) as e:
        t.send("austria", {"type": "activate", "formation": "R"})
    assert e.value.rule == "arrivano §17.1.2"
    t.state.formations["L"].activated = True  # a French formation refused on turn 1 for another reason cites §6.1
    with pytest.raises(IllegalCommand) as e:
        t.send("austria", {"type": "activate", "formation": "L"})
    assert e.value.rule == "arrivano §6.1" and "already activated" in str(e.value)


def test_french_reinforcements_at_montebello_choose_their_order():
    t = Table(fresh("montebello"))
    t.start([6, 1])
    t.send("france", {"type": "activate", "formation": "L"})
    pending = t.pending()
    assert pending.kind == "choose_order" and pending.rule == "arrivano §17.1.2" and len(pending.options) == 4
    t.send("france", {"type": "choose_order", "order": "attack"})
    assert t.state.formations["L"].order == "attack"
    assert t.state.units["28e-i"].where == "waiting"


def test_reinforcements_enter_with_advance():
    """arrivano §15.4.1 (D22): Caldiero's reinforcements take Manoeuvre."""
    state = fresh("campotenese")
    state.formations["C"].order = "defence"
    t = Table(state)
    t.start([6, 1])
    t.send("france", {"type": "activate", "formation": "C"})
    changed = t.of(ev.OrderChanged)[-1]
    assert changed.order == "advance" and changed.rule == "arrivano §15.4.1"


def test_activating_an_enemy_formation_is_allowed():
    state = position({"ir18-i": X, "6e-legere-i": GRID.neighbour(X, 1)}, leaders={"gottesheim": X})
    state.seat = "france"
    t = Table(state)
    t.send("france", {"type": "activate", "formation": "G"})  # §6.1: his or the enemy's
    assert t.state.activation.formation == "G" and t.state.seat == "austria"


def orders_position(lannes_far: bool = False):
    near = GRID.neighbour(X, 1)
    leaders = {"lannes": X, "watrin": near, "chambarlac": X if not lannes_far else "3914"}
    state = position({"6e-legere-i": near}, leaders=leaders)
    state.phase, state.step, state.seat = "command", "orders", "france"
    return Table(state)


def test_chief_changes_at_most_his_initiative():
    """arrivano §4.3 (D5): Lannes (initiative 3) changes three orders, not four."""
    t = orders_position()
    t.send("france", {"type": "change_order", "formation": "L", "order": "attack"})
    t.send("france", {"type": "change_order", "formation": "W", "order": "attack"})
    assert t.state.chief_changes["france"] == 2 and t.state.step == "orders"
    t.state.chief_changes["france"] = 3  # as after a third change
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "change_order", "formation": "C", "order": "attack"})
    assert e.value.rule == "arrivano §4.3"
    t = orders_position()
    for f in ("L", "W", "C"):
        t.send("france", {"type": "change_order", "formation": f, "order": "attack"})
    assert t.state.step == "orders" and t.legal("france") == [{"type": "end_step"}]  # nothing more to change: the
    # sub-phase waits for France's end_step all the same (§11.3.2, sequence.UNSEEN_WAITS)


def test_a_chief_order_refusal_cites_the_rule_it_applies():
    """Review rev-kernel 2: only the D5 limit is arrivano §4.3; an enemy formation, a general off the map and an order
    the formation already has are refused by the orders sub-phase's rule, arrivano §5.2."""
    t = orders_position()
    t.state.formations["L"].order = "attack"
    for formation, words in (("G", "not one of your formations"), ("L", "order is already attack")):
        with pytest.raises(IllegalCommand) as e:
            t.send("france", {"type": "change_order", "formation": formation, "order": "attack"})
        assert e.value.rule == "arrivano §5.2" and words in str(e.value), (formation, e.value)


def test_chief_changes_only_generals_in_range():
    t = orders_position(lannes_far=True)
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "change_order", "formation": "C", "order": "attack"})
    assert e.value.rule == "arrivano §5.2"
    assert {"type": "change_order", "formation": "C", "order": "attack"} not in t.legal("france")


def test_general_order_change_roll():
    """arrivano §5.2.1: d6 <= the general's initiative (Watrin 3); one try per activation."""
    state = position({"6e-legere-i": X}, leaders={"watrin": X}, orders={"W": "defence"})
    t = at_step(state, "W", "bombardment")
    t.send("france", {"type": "try_order_change", "order": "attack"}, [4])
    assert t.state.formations["W"].order == "defence" and not t.of(ev.OrderChanged)
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "try_order_change", "order": "attack"}, [1])
    assert e.value.rule == "arrivano §5.2.1"
    t = at_step(position({"6e-legere-i": X}, leaders={"watrin": X}, orders={"W": "defence"}), "W", "bombardment")
    t.send("france", {"type": "try_order_change", "order": "attack"}, [3])
    assert t.state.formations["W"].order == "attack"


def test_recovery_at_the_end_of_the_activation():
    """arrivano §15.3, §3.1 B-6 (D20): idle disordered units of the active formation test at its end."""
    state = position({"6e-legere-i": X, "ir18-i": "3914"}, leaders={"watrin": X}, orders={"W": "defence"})
    state.units["6e-legere-i"].status = "disordered"
    t = at_step(state, "W", "combat")
    # the owner picks the stacks that try (tests/arrivano/test_choices.py), the first in the combat step's place
    assert t.legal("france") == [{"type": "recover", "hex": X}, {"type": "end_step"}]
    t.send("france", {"type": "recover", "hex": X}, [1])
    assert t.state.units["6e-legere-i"].status == "good"
    assert t.legal("france") == [{"type": "recover", "hex": None}], "asked again, though nothing is left to try"
    t.send("france", {"type": "recover", "hex": None})
    assert t.state.formations["W"].activated and any(e.rule == "arrivano §15.3" for e in t.of(ev.StatusChanged))


def test_no_recovery_under_attack_order():
    state = position({"6e-legere-i": X, "ir18-i": "3914"}, leaders={"watrin": X}, orders={"W": "attack"})
    state.units["6e-legere-i"].status = "disordered"
    t = at_step(state, "W", "combat")
    t.send("france", {"type": "end_step"}, [1])
    assert t.state.units["6e-legere-i"].status == "disordered"


def test_out_of_command_units_have_defence():
    far = "3914"
    state = position({"6e-legere-i": far}, leaders={"watrin": X}, orders={"W": "attack"})
    w = world(state)
    assert order_of(w, "6e-legere-i") == "defence"  # §5.3
    state.leaders["gency"].hex, state.leaders["gency"].where = GRID.neighbour(X, 1), "map"
    assert "6e-legere-i" not in in_command(w, "W")


def test_officer_extends_command():
    """arrivano §4.2: a unit within range of an officer who is within his general's range is in command."""
    spot = GRID.neighbour(GRID.neighbour(GRID.neighbour(X, 1), 1), 1)  # three hexes from the general
    beyond = GRID.neighbour(GRID.neighbour(spot, 1), 1)  # five hexes: out of Watrin's range 3
    state = position({"6e-legere-i": beyond}, leaders={"watrin": X, "gency": spot})
    assert "6e-legere-i" in in_command(world(state), "W")
    state.leaders["gency"].where = "offmap"
    assert "6e-legere-i" not in in_command(world(state), "W")


def test_end_phase_turns_artillery_back_and_starts_the_next_turn():
    """arrivano §3.1 C (D15): Moved artillery flips back only in the end phase."""
    state = position({"art-watrin": X, "ir18-i": "3914"}, leaders={"watrin": X})
    state.units["art-watrin"].art_moved = True
    for f in state.formations.values():
        f.activated = True
    state.formations["W"].activated = False
    t = at_step(state, "W", "combat")
    t.send("france", {"type": "end_step"})
    assert not t.state.units["art-watrin"].art_moved and t.state.turn == 3
    assert t.state.phase in ("command", "action")


def test_officer_stacked_with_out_of_command_units_may_change_their_order():
    """arrivano §3.1 B-4 (D8; interpretation officer_order_change: efficiency_test)."""
    far = "3914"
    state = position({"6e-legere-i": far, "ir18-i": "0801"}, leaders={"watrin": X, "gency": far}, orders={"W": "attack"})
    assert order_of(world(state), "6e-legere-i") == "defence" or "6e-legere-i" in in_command(world(state), "W")
    state.leaders["gency"].hex = far
    t = at_step(state, "W", "movement")
    w = world(t.state)
    assert "6e-legere-i" not in in_command(w, "W"), "the set-up must leave the unit out of its general's range"
    assert {"type": "officer_order", "officer": "gency", "order": "attack"} in t.legal("france")
    t.send("france", {"type": "officer_order", "officer": "gency", "order": "attack"}, [2])
    assert order_of(world(t.state), "6e-legere-i") == "attack"
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "officer_order", "officer": "gency", "order": "advance"}, [2])
    assert e.value.rule == "arrivano §3.1 B-4"


def test_interpretation_first_turn_french_first():
    t = Table(fresh("campotenese"), interpretations={"first_turn_initiative": "french_first"})
    t.start([])
    assert t.state.seat == "france" and not t.rolls and t.of(ev.InitiativeWon)[-1].rule == "arrivano §3.2"


def test_interpretation_reinforcement_order_always_advance():
    t = Table(fresh("montebello"), interpretations={"reinforcement_order": "always_advance"})
    t.start([6, 1])
    t.send("france", {"type": "activate", "formation": "L"})
    assert t.pending() is None and t.state.formations["L"].order == "advance"
    # each entering unit its own Advance for the activation (the kernel's, as caldiero §15.4.2): a change of the
    # formation's order by Lannes's try (§5.2.1) leaves them under it
    given = {e.unit: (e.order, e.rule) for e in t.of(ev.UnitOrderSet)}
    assert given == {u: ("advance", "arrivano §15.4.1") for u in ("28e-i", "28e-ii", "28e-iii")}
    # the order is the orders table's `reinforcement_order` (arrivano §15.4.1, D6): a user's table is played as it says
    state = fresh("montebello")
    files = RULESET.read_data(RULESET.folder.folder)
    state.data_files = files | {"tables/orders.json": json.dumps(json.loads(files["tables/orders.json"])
                                                                 | {"reinforcement_order": "manoeuvre"})}
    t = Table(state, interpretations={"reinforcement_order": "always_advance"})
    t.start([6, 1])
    t.send("france", {"type": "activate", "formation": "L"})
    assert t.pending() is None and t.state.formations["L"].order == "manoeuvre"


def test_interpretation_lost_general_replacements():
    for reading, back in (("no_return", False), ("with_chief", True)):
        state = position({"ir18-ii": X}, leaders={"ott": X})
        state.leaders["gottesheim"].where = "lost"
        state.units["ir18-i"].where, state.units["ir18-i"].reduced, state.units["ir18-i"].return_turn = "track", True, 3
        t = Table(state, interpretations={"lost_general_replacements": reading})
        ctx = t.decision("umpire")
        start_turn(RULESET.game(ctx), 3)
        pending = F.top(RULESET.game(ctx))  # arrivano §12.8.2: the owner places the unit next to the commander
        assert (pending is not None and pending.kind == "replacement_hex") is back


def test_interpretation_commander_escape_lone_only():
    state = position({"6e-legere-i": nb2(X, 1, 3), "ir18-i": X}, leaders={"watrin": nb2(X, 1, 3), "gottesheim": X},
                     orders={"W": "advance"})
    t = at_step(state, "W", "movement")
    t.send("france", {"type": "move", "unit": "6e-legere-i", "to": nb2(X, 1, 1), "column": False})
    assert t.pending().kind == "escape"  # default any_commander: stacked commanders too
    state = position({"6e-legere-i": nb2(X, 1, 3), "ir18-i": X}, leaders={"watrin": nb2(X, 1, 3), "gottesheim": X},
                     orders={"W": "advance"})
    t = at_step(state, "W", "movement")
    t.rule({"commander_escape_scope": "lone_only"})
    t.send("france", {"type": "move", "unit": "6e-legere-i", "to": nb2(X, 1, 1), "column": False})
    assert t.pending() is None  # Gottesheim is stacked with a unit: no escape under lone_only


def nb2(h: str, d: int, n: int) -> str:
    for _ in range(n):
        h = GRID.neighbour(h, d)
    return h


def test_a_turn_whose_end_phase_is_over_begins_the_next_from_the_settle_loop():
    """arrivano §3.1 C then §3.1 A: the end phase over and waiting on nothing, the kernel's settle begins the next
    turn (ruleset.settle_step), never the end phase inside itself (a turn nobody decides anything in would begin the
    next one inside the last, once a turn). France's orders sub-phase then waits for its end_step (§11.3.2)."""
    state = position({"ir18-i": "3914"})
    state.phase, state.step, state.seat = "end", "rout", ""
    ctx = Table(state).decision("umpire", [])
    g = RULESET.game(ctx)
    settle(g)
    began = [e for e in ctx.events if isinstance(e, ev.TurnBegan)]
    assert [e.turn for e in began] == [3] and (g.state.turn, g.state.step, g.state.seat) == (3, "orders", "france")
