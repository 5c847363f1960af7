"""The owner's choices the rulebook gives and the adjudicator used to reduce to a fixed option: each is a pending
decision listing exactly the permitted answers (legal() offers them, decide accepts only them).

arrivano §12.5.4 EX exact ties; §12.8.2 where a replacement returns; §4.5.4 where a commander left alone goes;
§3.1 B-4 the officers' order change (with its readings)."""

from __future__ import annotations

import pytest
from arbitro.adjudicator.errors import IllegalCommand, Rejected
from arbitro.adjudicator.arrivano.world import in_command
from arbitro.adjudicator.parabellum.orders import order_of
from arbitro.events import parabellum as pb

from tests.arrivano.harness import RULESET, Table, at_step, ev, open_ground, position, world

X = open_ground()
GRID = RULESET.data.scenarios["montebello"].map.grid
D = GRID.neighbour(X, 1)  # the defending hex
BACK = GRID.neighbour(X, 4)  # behind the attacker


def answers(t: Table, seat: str, kind: str) -> list[dict]:
    pending = t.pending()
    assert pending is not None and pending.kind == kind and pending.seat == seat
    assert t.legal(seat) == pending.options  # legal offers exactly the pending decision's answers
    other = "austria" if seat == "france" else "france"
    assert t.legal(other) == []
    return list(pending.options)


# --- arrivano §12.5.4 EX: exact ties -----------------------------------------------------------------------------


def ex_tie() -> Table:
    state = position({"6e-legere-i": X, "6e-legere-ii": X, "ir18-i": D, "ir18-ii": D},
                     leaders={"watrin": BACK}, orders={"W": "attack"})
    t = at_step(state, "W", "combat")
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i", "6e-legere-ii"], "targets": [D]}, [4])
    assert t.of(ev.AssaultResolved)[-1].result == "Ex"  # 10 v 10, 1-1, efficiency +1: row 5
    return t


def test_ex_exact_tie_each_owner_chooses_his_loss():
    t = ex_tie()
    assert answers(t, "france", "exchange_loss") == [{"type": "exchange_loss", "units": ["6e-legere-i"]},
                                                     {"type": "exchange_loss", "units": ["6e-legere-ii"]}]
    assert not t.of(ev.UnitEliminated)  # nothing is lost before the attacker has chosen
    t.send("france", {"type": "exchange_loss", "units": ["6e-legere-ii"]})
    # the attacker's loss is made at once, then the defender's owner names his (the kernel's order, as caldiero
    # §12.5.4 Ex's: "l'attaccante perde una unità ... il difensore perde"; arrivano §12.5.4 EX gives none)
    assert [e.unit for e in t.of(ev.UnitEliminated)] == ["6e-legere-ii"]
    assert answers(t, "austria", "exchange_loss") == [{"type": "exchange_loss", "units": ["ir18-i"]},
                                                      {"type": "exchange_loss", "units": ["ir18-ii"]}]
    assert t.pending().kind == "exchange_loss" and t.game.core.decisions[-1].ctx == pb.ExchangeLossAwaited(
        role="defenders", sets=(("ir18-i",), ("ir18-ii",)))  # the exchange's units are its assault's (issue 18)
    t.send("austria", {"type": "exchange_loss", "units": ["ir18-ii"]}, dice=[2, 2])
    assert sorted(e.unit for e in t.of(ev.UnitEliminated)) == ["6e-legere-ii", "ir18-ii"]
    assert t.state.units["6e-legere-i"].where == "map" and t.state.units["ir18-i"].where == "map"


def test_ex_choice_outside_the_ties_is_rejected_with_the_citation():
    t = ex_tie()
    with pytest.raises(Rejected) as e:
        t.send("france", {"type": "exchange_loss", "units": ["ir18-i"]})
    assert e.value.rule == "arrivano §12.5.4"
    with pytest.raises(Rejected):
        t.send("austria", {"type": "exchange_loss", "units": ["ir18-i"]})  # not austria's decision yet


def test_ex_without_tie_asks_nothing():
    """12e-hussards (3 SP) and 28e-i (5 SP), both efficiency 4: the stronger is lost, no question."""
    state = position({"12e-hussards": X, "28e-i": X, "ir18-i": D}, leaders={"lannes": BACK}, orders={"L": "attack"})
    state.units["ir18-i"].status = "disordered"
    t = at_step(state, "L", "combat")
    t.send("france", {"type": "assault", "attackers": ["12e-hussards", "28e-i"], "targets": [D]}, [1, 2])
    assert t.of(ev.AssaultResolved)[-1].result == "Ex"
    assert sorted(e.unit for e in t.of(ev.UnitEliminated)) == ["28e-i", "ir18-i"]


# --- arrivano §12.8.2: where a replacement returns ------------------------------------------------------------------


def returning(extra: dict[str, str] | None = None) -> Table:
    state = position({"ir18-ii": X} | (extra or {}), leaders={"gottesheim": X})
    state.units["ir18-i"].where, state.units["ir18-i"].reduced, state.units["ir18-i"].return_turn = "track", True, 3
    t = Table(state)
    t.new_turn(3)
    return t


def test_replacement_owner_chooses_among_the_permitted_hexes():
    t = returning()
    options = answers(t, "austria", "replacement_hex")
    hexes = [o["hex"] for o in options]
    assert hexes == sorted([X, *GRID.neighbours(X)])  # open ground, no enemy: the general's hex and the six around
    choice = hexes[-1]
    t.send("austria", {"type": "replacement_hex", "hex": choice})
    unit = t.state.units["ir18-i"]
    assert (unit.where, unit.hex, unit.reduced) == ("map", choice, True)
    assert t.of(ev.UnitPlaced)[-1].rule == "arrivano §12.8.2" and t.of(ev.UnitPlaced)[-1].reduced


def test_replacement_hexes_exclude_ezoc_and_reject_others():
    enemy = GRID.neighbour(GRID.neighbour(X, 1), 1)  # two hexes away: its ZoC covers the hex between
    t = returning({"6e-legere-i": enemy})
    hexes = [o["hex"] for o in answers(t, "austria", "replacement_hex")]
    assert D not in hexes and X in hexes
    with pytest.raises(Rejected) as e:
        t.send("austria", {"type": "replacement_hex", "hex": D})
    assert e.value.rule == "arrivano §12.8.2"
    far = GRID.neighbour(GRID.neighbour(X, 4), 4)
    with pytest.raises(Rejected):
        t.send("austria", {"type": "replacement_hex", "hex": far})


# --- arrivano §4.5.4: a commander left alone -----------------------------------------------------------------------


def lone_commander(friends: dict[str, str]) -> Table:
    """mariassy-jager with gottesheim in D is destroyed (DE at 5-1); the commander passes his test."""
    state = position({"6e-legere-i": X, "6e-legere-ii": X, "mariassy-jager": D} | friends,
                     leaders={"watrin": BACK, "gottesheim": D}, orders={"W": "attack"})
    t = at_step(state, "W", "combat")
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i", "6e-legere-ii"], "targets": [D]}, [5, 5])
    assert t.of(ev.AssaultResolved)[-1].result == "De" and t.state.leaders["gottesheim"].where == "map"
    return t


def two_away(direction_a: int, direction_b: int) -> tuple[str, str]:
    a = GRID.neighbour(GRID.neighbour(D, direction_a), direction_a)
    b = GRID.neighbour(GRID.neighbour(D, direction_b), direction_b)
    return a, b


def test_commander_alone_owner_chooses_among_the_nearest_friends():
    a, b = two_away(1, 2)
    far = GRID.neighbour(GRID.neighbour(a, 1), 1)
    t = lone_commander({"ir18-ii": a, "ir18-iii": b, "ir57-i": far})
    options = answers(t, "austria", "commander_refuge")  # before the attacker's advance
    assert sorted(o["to"] for o in options) == sorted([a, b])  # the nearest two; the farther friend is not offered
    with pytest.raises(Rejected) as e:
        t.send("austria", {"type": "commander_refuge", "to": far})
    assert e.value.rule == "arrivano §4.5.4"
    t.send("austria", {"type": "commander_refuge", "to": max(a, b)})
    assert t.state.leaders["gottesheim"].hex == max(a, b)
    assert t.pending().kind == "advance"  # the advance comes after


def test_commander_alone_single_nearest_friend_is_automatic():
    a, _ = two_away(1, 2)
    t = lone_commander({"ir18-ii": a})
    assert t.state.leaders["gottesheim"].hex == a
    assert t.pending().kind == "advance"


def test_commander_alone_without_friends_in_reach_goes_anywhere_in_reach():
    """arrivano §4.5.4 second paragraph: no friendly unit within his movement, any hex within it free of enemies."""
    t = lone_commander({})
    hexes = [o["to"] for o in answers(t, "austria", "commander_refuge")]
    assert len(hexes) > 6 and D not in hexes and X not in hexes
    assert all(GRID.distance(D, h) <= RULESET.data.scenarios["montebello"].scenario.commander_movement for h in hexes)
    t.send("austria", {"type": "commander_refuge", "to": hexes[-1]})
    assert t.state.leaders["gottesheim"].hex == hexes[-1]


# --- arrivano §3.1 B-4: officers with out-of-command units ----------------------------------------------------------


def officer_table(reading: str | None = None) -> Table:
    far = "3914"
    state = position({"6e-legere-i": far, "ir18-i": "0801"}, leaders={"watrin": X, "gency": far}, orders={"W": "attack"})
    t = at_step(state, "W", "movement")
    if reading:
        t.rule({"officer_order_change": reading})
    assert "6e-legere-i" not in in_command(world(t.state), "W")
    return t


def officer_offers(t: Table) -> list[str]:
    return sorted(c["order"] for c in t.legal("france") if c["type"] == "officer_order")


def test_officer_order_change_efficiency_test_offers_any_order():
    t = officer_table()
    assert officer_offers(t) == ["advance", "attack", "manoeuvre"]
    t.send("france", {"type": "officer_order", "officer": "gency", "order": "manoeuvre"}, [6])  # natural 6 fails
    assert order_of(world(t.state), "6e-legere-i") == "defence" and officer_offers(t) == []


def test_officer_order_change_formation_order_reading():
    t = officer_table("formation_order")
    assert officer_offers(t) == ["attack"]  # only the formation's current order
    with pytest.raises(Rejected) as e:
        t.send("france", {"type": "officer_order", "officer": "gency", "order": "manoeuvre"}, [1])
    assert e.value.rule == "arrivano §3.1 B-4" and "formation_order" in str(e.value)
    t.send("france", {"type": "officer_order", "officer": "gency", "order": "attack"}, [1])
    assert order_of(world(t.state), "6e-legere-i") == "attack"


def test_officer_order_change_formation_order_in_defence_offers_nothing():
    t = officer_table("formation_order")
    t.state.formations["W"].order = "defence"
    assert officer_offers(t) == []


# --- arrivano §12.3.1: the efficiency value on a tie in SP ---------------------------------------------------------


def tied_defence() -> Table:
    """mariassy-jager (2 SP, efficiency 4) and the reduced otocac (2 SP, efficiency 3): a tie, 3 or 4."""
    state = position({"6e-legere-i": X, "6e-legere-ii": X, "mariassy-jager": D, "otocac": D},
                     leaders={"watrin": BACK}, orders={"W": "attack"})
    state.units["otocac"].reduced = True
    return at_step(state, "W", "combat")


@pytest.mark.parametrize("value, modifier", [(3, 1), (4, 0)])
def test_efficiency_tie_the_owner_picks_the_value(value: int, modifier: int):
    t = tied_defence()
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i", "6e-legere-ii"], "targets": [D]})
    assert not t.of(ev.AssaultResolved)  # nothing is rolled before the owner picks
    assert answers(t, "austria", "efficiency_value") == [{"type": "efficiency_value", "value": 3},
                                                         {"type": "efficiency_value", "value": 4}]
    with pytest.raises(Rejected) as e:
        t.send("austria", {"type": "efficiency_value", "value": 5})
    assert e.value.rule == "arrivano §12.3.1"
    t.send("austria", {"type": "efficiency_value", "value": value}, [3])
    record = t.of(ev.AssaultResolved)[-1].table
    assert record is not None and record.modifier_total == modifier  # the French 4 against the value picked


# --- arrivano §11: artillery chooses Manoeuvre or Defence ------------------------------------------------------------


def gun_beside_friend() -> Table:
    enemy = GRID.neighbour(D, 1)  # its zone of control covers D, where a friend stands
    state = position({"art-watrin": X, "6e-legere-i": D, "ir18-i": enemy}, leaders={"watrin": BACK},
                     orders={"W": "manoeuvre"})
    return at_step(state, "W", "movement")


def test_artillery_moves_under_manoeuvre_or_defence_as_its_owner_names():
    t = gun_beside_friend()
    gun = [c for c in t.legal("france") if c.get("unit") == "art-watrin"]
    assert {c["order"] for c in gun} == {"defence", "manoeuvre"}
    assert {"type": "move", "unit": "art-watrin", "to": D, "column": False, "order": "defence"} in gun
    assert not any(c["to"] == D and c["order"] == "manoeuvre" for c in gun)  # Manoeuvre never enters EZoC
    assert all(GRID.distance(X, c["to"]) == 1 for c in gun if c["order"] == "defence")  # Defence: one hex
    with pytest.raises(Rejected) as e:
        t.send("france", {"type": "move", "unit": "art-watrin", "to": D, "column": False})
    assert e.value.rule == "arrivano §11"
    with pytest.raises(Rejected):
        t.send("france", {"type": "move", "unit": "art-watrin", "to": D, "column": False, "order": "manoeuvre"})
    t.send("france", {"type": "move", "unit": "art-watrin", "to": D, "column": False, "order": "defence"})
    assert t.state.units["art-watrin"].hex == D


def test_only_artillery_names_an_order():
    t = gun_beside_friend()
    with pytest.raises(Rejected) as e:
        t.send("france", {"type": "move", "unit": "6e-legere-i", "to": X, "column": False, "order": "defence"})
    assert e.value.rule == "arrivano §5.1"


# --- arrivano §15.3: the owner picks the stacks that try to recover ----------------------------------------------------


def test_recovery_the_owner_may_decline():
    far = GRID.neighbour(GRID.neighbour(X, 4), 4)
    state = position({"6e-legere-i": X, "6e-legere-ii": far, "ir18-i": "3914"}, leaders={"watrin": X},
                     orders={"W": "defence"})
    state.units["6e-legere-i"].status = state.units["6e-legere-ii"].status = "disordered"
    t = at_step(state, "W", "combat")
    assert t.legal("france") == [{"type": "recover", "hex": h} for h in sorted([X, far])] + [{"type": "end_step"}]
    t.send("france", {"type": "recover", "hex": far}, [1])
    assert answers(t, "france", "recovery") == [{"type": "recover", "hex": X}, {"type": "recover", "hex": None}]
    t.send("france", {"type": "recover", "hex": None})
    assert t.state.units["6e-legere-ii"].status == "good" and t.state.units["6e-legere-i"].status == "disordered"
    assert sum("recovery" in r.purpose for r in t.rolls) == 1 and t.state.formations["W"].activated


def test_recovery_declined_by_ending_the_combat_step():
    """arrivano §15.3 "possono tentare": `end_step` in the combat step ends the activation with no try; a `recover`
    naming no stack, or one that may not try, is refused with the rule."""
    state = position({"6e-legere-i": X, "ir18-i": "3914"}, leaders={"watrin": X}, orders={"W": "defence"})
    state.units["6e-legere-i"].status = "disordered"
    t = at_step(state, "W", "combat")
    for wrong in (None, "3914"):
        with pytest.raises(IllegalCommand) as e:
            t.send("france", {"type": "recover", "hex": wrong})
        assert e.value.rule == "arrivano §15.3"
    t.send("france", {"type": "end_step"})
    assert t.state.activation is None and t.pending() is None
    assert t.state.units["6e-legere-i"].status == "disordered" and not any("recovery" in r.purpose for r in t.rolls)
