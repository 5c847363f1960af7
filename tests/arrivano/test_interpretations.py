"""Every declared interpretation (docs/rulesets/arrivano.md §4) is effective: for each alternative reading a test
shows the behaviour differs as the reading says, the reading read through the one plumbing of
parabellum/act.Act.reading and World.reading (decide and legal alike); an umpire's ruling switches it from that point on.

(officer_order_change is tested with the officers' choice in test_choices.py; dr_rout_retreat, below_1_5_after_tests,
first_turn_initiative, reinforcement_order, lost_general_replacements, commander_escape_scope in their modules.)"""

from __future__ import annotations

from arbitro.adjudicator.parabellum import assault as sys_assault
from arbitro.adjudicator.parabellum import efficiency as sys_eff
from arbitro.adjudicator.parabellum import sight

from typing import Any

import pytest
from arbitro.adjudicator.arrivano import activation as AC
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.arrivano import movement as M
from arbitro.adjudicator.arrivano.bombardment import apply_bombard_result
from arbitro.adjudicator.arrivano.ruleset import march_checks
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT, defending
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.adjudicator.arrivano.world import in_command
from arbitro.adjudicator.parabellum.orders import order_of

from tests.arrivano.harness import RULESET, Table, at_step, ev, line, open_ground, position, village_attack_hexes, world

X = open_ground()
MB = RULESET.data.scenarios["montebello"]
CT = RULESET.data.scenarios["campotenese"]
GRID = MB.map.grid
D = GRID.neighbour(X, 1)
BACK = GRID.neighbour(X, 4)


def game_of(t: Table, dice: list[int] | None = None) -> tuple[Act, Any]:
    """A decision context on the table's position (as the end phase or a procedure runs)."""
    ctx = t.decision("umpire", list(dice or []))
    return RULESET.game(ctx), ctx


def commander_tests(t: Table) -> int:
    return sum("commander test" in r.purpose for r in t.rolls)


# --- plumbing -----------------------------------------------------------------------------------------------------


def test_one_way_to_ask_the_reading_in_force():
    state = position({"6e-legere-i": X})
    assert world(state).reading("wheat_blocks_los") == RULESET.interpretations()["wheat_blocks_los"].default == "false"
    t = Table(state, interpretations={"wheat_blocks_los": "true"})
    assert world(t.state).reading("wheat_blocks_los") == "true" and game_of(t)[0].reading("wheat_blocks_los") == "true"
    with pytest.raises(KeyError):
        world(state).reading("no_such_reading")


def test_an_umpire_ruling_reaches_legal_at_once_through_the_service():
    app = Arbitro(SQLiteStore(":memory:"))
    gid = app.create("arrivano", "montebello")
    app.submit(gid, "umpire", {"type": "ruling", "reason": "test", "interpretation": {"formation_not_on_map": "activatable"}})
    assert app.state_at(gid).rules.interpretations == {"formation_not_on_map": "activatable"}
    seat = app.state_at(gid).rules.seat
    activations = {c["formation"] for c in app.legal(gid, seat) if c["type"] == "activate"}
    assert activations == {"L", "W", "C"}  # §17.1.2 turn 1: French formations only, even those not yet due


# --- formation_not_on_map (arrivano §6.1) ---------------------------------------------------------------------------


def test_formation_not_on_map_skip_and_activatable():
    t = Table(position({"6e-legere-i": X, "ir18-i": "3914"}, leaders={"watrin": X}))
    offered = lambda: {c["formation"] for c in t.legal("france") if c["type"] == "activate"}  # noqa: E731
    assert "C" not in offered() and "W" in offered()  # skip: nothing of Chambarlac's on the map, nothing due
    t.rule({"formation_not_on_map": "activatable"})
    assert "C" in offered()
    t.send("france", {"type": "activate", "formation": "C"})  # it may be chosen, and does nothing
    assert t.state.activation is not None and t.state.activation.formation == "C"


# --- officer_in_command (arrivano §4.2, §5.3.1) ---------------------------------------------------------------------


def test_officer_in_command_general_range_or_any_in_command():
    """watrin (range 3) at a; 6e-legere-i 3 hexes away (in range); gency 4 away, next to it (in command only by
    contiguity); 6e-legere-ii 6 away, 2 from gency and next to nothing in command."""
    a, _, _, u1, off, _, u2 = line(X, n=7)
    state = position({"6e-legere-i": u1, "6e-legere-ii": u2}, leaders={"watrin": a, "gency": off})
    t = Table(state)
    assert in_command(world(t.state), "W") == {"6e-legere-i"}
    t.rule({"officer_in_command": "any_in_command"})
    assert in_command(world(t.state), "W") == {"6e-legere-i", "6e-legere-ii"}


# --- dangling_4_3_2 (arrivano §4.4 "(vedi anche 4.3.2)") --------------------------------------------------------------


def dangling(reading: str | None) -> Table:
    a = line(X, n=7)
    state = position({"6e-legere-i": a[5], "ir18-i": "3914"}, leaders={"watrin": a[0], "lannes": a[3]},
                     orders={"W": "manoeuvre"})
    t = Table(state, interpretations={"dangling_4_3_2": reading} if reading else None)
    assert "6e-legere-i" not in in_command(world(t.state), "W")
    t.send("france", {"type": "activate", "formation": "W"})
    return t


def test_dangling_4_3_2_ignore_leaves_defence():
    t = dangling(None)
    assert t.pending() is None and order_of(world(t.state), "6e-legere-i") == "defence"


def test_dangling_4_3_2_caldiero_4_3_1_lets_the_owner_choose():
    t = dangling("caldiero_4_3_1")
    pending = t.pending()
    assert pending.kind == "free_order" and pending.seat == "france" and len(pending.options) == 4
    t.send("france", {"type": "free_order", "order": "attack"})
    assert order_of(world(t.state), "6e-legere-i") == "attack"
    assert t.of(ev.UnitOrderSet)[-1].rule == "arrivano §4.4" and t.of(ev.UnitOrderSet)[-1].order == "attack"


def test_dangling_4_3_2_caldiero_4_3_1_asks_where_no_unit_is_in_the_chief_s_range():
    """Asked at every activation after the first turn, none in range included: asked only where one is, the question
    told the enemy where an unseen chief stands (arrivano §11.3.2, rev-l L6). The answer then sets no order."""
    a = line(X, n=7)
    state = position({"6e-legere-i": a[5], "ir18-i": "3914"}, leaders={"watrin": a[0], "lannes": "0812"},
                     orders={"W": "manoeuvre"})
    t = Table(state, interpretations={"dangling_4_3_2": "caldiero_4_3_1"})
    t.send("france", {"type": "activate", "formation": "W"})
    assert t.pending().kind == "free_order" and t.game.core.decisions[-1].ctx.units == ()
    t.send("france", {"type": "free_order", "order": "attack"})
    assert not t.of(ev.UnitOrderSet) and order_of(world(t.state), "6e-legere-i") == "defence"


# --- defence_ezoc_to_ezoc (arrivano §5.1.3) -------------------------------------------------------------------------


def ezoc_move(reading: str | None) -> Table:
    enemy = D
    to = next(h for h in sorted(GRID.neighbours(X)) if GRID.is_adjacent(h, enemy))
    state = position({"6e-legere-i": X, "ir18-i": enemy}, leaders={"watrin": BACK}, orders={"W": "defence"})
    t = at_step(state, "W", "movement")
    if reading:
        t.rule({"defence_ezoc_to_ezoc": reading})
    t.send("france", {"type": "move", "unit": "6e-legere-i", "to": to, "column": False}, [6])  # natural 6 fails
    return t


def test_defence_ezoc_to_ezoc_move_then_test():
    t = ezoc_move(None)
    unit = t.state.units["6e-legere-i"]
    assert unit.hex != X and unit.status == "disordered"


def test_defence_ezoc_to_ezoc_test_first():
    t = ezoc_move("test_first")
    unit = t.state.units["6e-legere-i"]
    assert unit.hex == X and unit.status == "disordered"  # failed before moving: no move, the move spent
    assert not [c for c in t.legal("france") if c.get("unit") == "6e-legere-i"]


def test_defence_ezoc_to_ezoc_test_first_passed_moves_with_one_test():
    enemy = D
    to = next(h for h in sorted(GRID.neighbours(X)) if GRID.is_adjacent(h, enemy))
    state = position({"6e-legere-i": X, "ir18-i": enemy}, leaders={"watrin": BACK}, orders={"W": "defence"})
    t = at_step(state, "W", "movement")
    t.rule({"defence_ezoc_to_ezoc": "test_first"})
    t.send("france", {"type": "move", "unit": "6e-legere-i", "to": to, "column": False}, [1])
    assert t.state.units["6e-legere-i"].hex == to and len(t.rolls) == 1


# --- cic_loss_scope (arrivano §4.5.5) -------------------------------------------------------------------------------


def test_cic_loss_scope_chief_changes_or_all_changes():
    state = position({"6e-legere-i": X, "ir18-i": "3914"}, leaders={"watrin": X}, orders={"W": "defence"})
    state.leaders["lannes"].where = "lost"
    t = at_step(state, "W", "bombardment")
    assert any(c["type"] == "try_order_change" for c in t.legal("france"))  # chief_changes: generals still try
    t.rule({"cic_loss_scope": "all_changes"})
    assert not any(c["type"] == "try_order_change" for c in t.legal("france"))
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "try_order_change", "order": "attack"}, [1])
    assert e.value.rule == "arrivano §4.5.5"


# --- leader_loss_bombardment_roller (arrivano §4.5.1) ---------------------------------------------------------------


def defensive_six(reading: str | None) -> Table:
    state = position({"6e-legere-i": X, "6e-legere-ii": X, "ir18-i": D, "art-gottesheim": D},
                     leaders={"watrin": X}, orders={"W": "attack"})
    t = at_step(state, "W", "combat")
    if reading:
        t.rule({"leader_loss_bombardment_roller": reading})
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i", "6e-legere-ii"], "targets": [D]})
    assert t.pending().kind == "defensive_fire"
    t.send("austria", {"type": "defensive_fire", "target": X}, [6], pad=4)  # a natural 6 on the bombardment
    assert t.of(ev.ArtilleryFired)[-1].roll == 6
    return t


def test_leader_loss_bombardment_roller_firer_tests_on_defensive_fire():
    assert commander_tests(defensive_six(None)) == 1


def test_leader_loss_bombardment_roller_active_only_spares_defensive_fire():
    assert commander_tests(defensive_six("active_only")) == 0


# --- column_keeps_to_roads (arrivano §9.3) ---------------------------------------------------------------------------


def column_on_a_road(reading: str | None) -> Table:
    """A French unit under Manoeuvre on a main road hex of Montebello, the road running on both sides of it."""
    road = next(h for h in sorted(MB.map.hexes()) if "strada" in MB.map.roads_at(h) and not MB.map.hex(h).other_terrain
                and len([n for n in GRID.neighbours(h) if MB.map.roads_between(h, n)]) == 2)
    state = position({"6e-legere-i": road, "ir18-i": "0801"}, leaders={"watrin": road}, orders={"W": "manoeuvre"})
    return Table(at_step(state, "W", "movement").state, interpretations={"column_keeps_to_roads": reading} if reading else None)


def column_ends(t: Table) -> set[str]:
    return {c["to"] for c in t.legal("france") if c["type"] == "move" and c["column"]}


def test_column_keeps_to_roads_roads_only_walks_every_step_along_a_road():
    """The default, the title "Marcia in Colonna su strada": no column move ends off the road, nor starts off it."""
    t = column_on_a_road(None)
    ends = column_ends(t)
    assert ends and all(MB.map.roads_at(h) for h in ends)
    start = t.state.units["6e-legere-i"].hex
    t.send("france", {"type": "move", "unit": "6e-legere-i", "to": max(ends), "column": True})
    path = (start, *t.of(ev.UnitsMoved)[-1].path)
    assert all(MB.map.roads_between(a, b) for a, b in zip(path, path[1:]))


def test_column_keeps_to_roads_as_caldiero_declares_on_a_road_and_may_leave_it():
    """The body text, caldiero §9.3's word for word: the column is declared on a road ("una unità su strada o strada
    minore può dichiarare"); its steps off the road cost the terrain's, so it may end off the road."""
    t = column_on_a_road("as_caldiero")
    off = {h for h in column_ends(t) if not MB.map.roads_at(h)}
    assert off and column_ends(t) > column_ends(column_on_a_road(None))
    t.send("france", {"type": "move", "unit": "6e-legere-i", "to": min(off), "column": True})
    assert t.of(ev.UnitsMoved)[-1].column and t.state.units["6e-legere-i"].hex == min(off)
    state = position({"6e-legere-i": X, "ir18-i": "0801"}, leaders={"watrin": X}, orders={"W": "manoeuvre"})
    off_road = Table(at_step(state, "W", "movement").state, interpretations={"column_keeps_to_roads": "as_caldiero"})
    assert not column_ends(off_road)
    with pytest.raises(IllegalCommand) as e:
        off_road.send("france", {"type": "move", "unit": "6e-legere-i", "to": GRID.neighbour(X, 1), "column": True})
    assert e.value.rule == "arrivano §9.3"


# --- village_dr_procedure (arrivano §10.1.1, §12.5.4) ---------------------------------------------------------------


def village_exchange_failed(reading: str | None) -> Table | None:
    village, att, back = village_attack_hexes()
    for die in range(1, 7):
        t = at_step(position({"6e-legere-i": att, "6e-legere-ii": att, "ir18-i": village}, leaders={"watrin": back},
                             orders={"W": "attack"}), "W", "combat")
        if reading:
            t.rule({"village_dr_procedure": reading})
        t.send("france", {"type": "assault", "attackers": ["6e-legere-i", "6e-legere-ii"], "targets": [village]}, [die])
        if t.of(ev.AssaultResolved)[-1].result == "Dr":
            t.send("austria", {"type": "dr_choice", "choice": "exchange"}, [6, 1])  # exchange test fails; then 1
            return t
    return None


def test_village_dr_choose_then_one_test_routs_on_failure():
    t = village_exchange_failed(None)
    assert t is not None, "no die gives DR against this village: the provisional CRT changed, pick another set-up"
    assert t.state.units["ir18-i"].status == "routed"
    assert sum("test" in r.purpose for r in t.rolls) == 1


def test_village_dr_two_tests_falls_back_on_the_dr_procedure():
    t = village_exchange_failed("two_tests")
    assert t is not None, "no die gives DR against this village: the provisional CRT changed, pick another set-up"
    # the exchange test failed: the DR procedure, its one-hex retreat first (arrivano §12.5.4), then its own test
    assert t.state.units["ir18-i"].status == "good" and t.pending().kind == "retreat"
    assert sum("Dr test" in r.purpose for r in t.rolls) == 0
    t.send("austria", t.pending().options[0], [1])
    assert t.state.units["ir18-i"].status == "disordered"  # the second (DR) test passed: disordered
    assert sum("Dr test" in r.purpose for r in t.rolls) == 1


# --- ex_strength_basis (arrivano §12.5.4 EX) -----------------------------------------------------------------------


@pytest.mark.parametrize("reading, lost", [("printed", "28e-i"), ("modified", "12e-hussards")])
def test_ex_strength_basis(reading: str, lost: str):
    """12e-hussards (3 SP, doubled to 6 against disordered infantry, §14.0.1) and 28e-i (5 SP), both efficiency 4."""
    state = position({"12e-hussards": X, "28e-i": X, "ir18-i": D}, leaders={"lannes": BACK}, orders={"L": "attack"})
    state.units["ir18-i"].status = "disordered"
    t = at_step(state, "L", "combat")
    t.rule({"ex_strength_basis": reading})
    t.send("france", {"type": "assault", "attackers": ["12e-hussards", "28e-i"], "targets": [D]}, [1, 2])
    assert t.of(ev.AssaultResolved)[-1].result == "Ex"
    assert sorted(e.unit for e in t.of(ev.UnitEliminated)) == sorted([lost, "ir18-i"])


# --- cic_efficiency_any_formation (arrivano §13.2) ------------------------------------------------------------------


def test_cic_efficiency_any_formation():
    t = Table(position({"6e-legere-i": X, "28e-i": X}, leaders={"lannes": X}))
    assert ARRIVANO_VARIANT.commander_die_modifier(world(t.state), "6e-legere-i") == -1  # true: any friendly unit
    t.rule({"cic_efficiency_any_formation": "false"})
    assert ARRIVANO_VARIANT.commander_die_modifier(world(t.state), "6e-legere-i") == 0  # only his own formation (L)
    assert ARRIVANO_VARIANT.commander_die_modifier(world(t.state), "28e-i") == -1


# --- recovery_scope (arrivano §15.3) --------------------------------------------------------------------------------


def test_recovery_scope_active_formation_or_any_idle_unit():
    far = line(X, n=5)[4]
    state = position({"6e-legere-i": X, "28e-i": far, "ir18-i": "3914"}, leaders={"watrin": X, "lannes": far},
                     orders={"W": "defence", "L": "defence"})
    state.units["28e-i"].status = "disordered"
    t = at_step(state, "W", "combat")
    assert AC.recovery_candidates(world(t.state), []) == {}
    t.rule({"recovery_scope": "any_unit_idle"})
    assert AC.recovery_candidates(world(t.state), []) == {far: ["28e-i"]}
    assert {"type": "recover", "hex": far} in t.legal("france")
    t.send("france", {"type": "recover", "hex": far}, [1])
    t.send("france", {"type": "recover", "hex": None})
    assert t.state.units["28e-i"].status == "good" and t.state.formations["W"].activated


# --- blocked_entry (arrivano §15.4) ---------------------------------------------------------------------------------


def blocked(reading: str | None) -> Table:
    group = next(g for g in MB.oob.reinforcements if g.id == "mb-fr-t2-C")
    entry = MB.scenario.entry_hexes[group.entry].hex
    state = position({"ir18-i": entry, "28e-i": X}, leaders={"lannes": X})
    state.entered_groups = [g for g in state.entered_groups if g != group.id]
    for u in group.units:
        state.units[u].where = "offmap"
    t = Table(state, interpretations={"blocked_entry": reading} if reading else None)
    t.send("france", {"type": "activate", "formation": "W"})
    return t


def test_blocked_entry_delay():
    t = blocked(None)
    assert "mb-fr-t2-C" not in t.state.entered_groups and t.state.units["6e-legere-i"].where == "offmap"


def test_blocked_entry_lost():
    t = blocked("lost")
    assert "mb-fr-t2-C" in t.state.entered_groups
    assert t.state.units["6e-legere-i"].where == "eliminated" and t.state.leaders["watrin"].where == "lost"


# --- wheat_blocks_los (arrivano §10.3 vs §11.3.1) -------------------------------------------------------------------


def test_wheat_blocks_los():
    def flat(h: str) -> bool:
        return MB.map.elevation(h) == MB.map.elevation(X)
    pair = None
    for h in sorted(MB.map.hexes()):
        for d in range(6):
            mid = GRID.neighbour(h, d)
            far = GRID.neighbour(mid, d) if mid is not None else None
            if far is None or MB.map.hex(mid).terrains != ("grano",) or not all(flat(x) for x in (h, mid, far)):
                continue
            pair = (h, far)
            break
        if pair:
            break
    assert pair is not None
    t = Table(position({"6e-legere-i": X}))
    assert sight.sees(world(t.state), *pair)  # false: §10.3, fields do not block
    t.rule({"wheat_blocks_los": "true"})
    assert not sight.sees(world(t.state), *pair)


# --- cavalry_in_woods (arrivano §10.4) -----------------------------------------------------------------------------


def test_cavalry_in_woods_both_or_defending_only():
    woods = next(h for h in sorted(MB.map.hexes()) if "bosco" in MB.map.hex(h).terrains)
    att = sorted(GRID.neighbours(woods))[0]
    t = Table(position({"12e-hussards": att, "ir18-i": woods}))
    def attack() -> int:
        w = world(t.state)
        return sys_assault.strengths(ARRIVANO_VARIANT, w, ["12e-hussards"], defending(w, [woods]), [woods])[0]
    assert attack() == 2  # 3 halved, rounded up
    t.rule({"cavalry_in_woods": "defending_only"})
    assert attack() == 3


# --- redoubt_battery_adverse (arrivano §17.2.6) --------------------------------------------------------------------


@pytest.mark.parametrize("reading, damaged", [("defender_result", True), ("loss_results_only", False)])
def test_redoubt_battery_adverse_on_bombardment(reading: str, damaged: bool):
    battery = next(u for u in CT.oob.units if u.redoubt_battery)
    h = battery.setup.hexes[0]
    friend = next(u.id for u in CT.oob.units if u.side == battery.side and u.arm == "infantry")
    t = Table(position({battery.id: h, friend: h}, scenario="campotenese", weather=1),
              interpretations={"redoubt_battery_adverse": reading})
    g, ctx = game_of(t)
    apply_bombard_result(g, h, "D")
    assert ctx.state.units[battery.id].damaged is damaged
    assert ctx.state.units[friend].status == "disordered"


@pytest.mark.parametrize("reading", ["defender_result", "loss_results_only"])
def test_redoubt_battery_alone_is_overrun_under_either_reading(reading: str):
    """arrivano §11.1.1 "il risultato è un automatico DE, ma è obbligatorio avanzare nell'esagono" with §11.0.2 (the
    combat table's results never touch artillery): a redoubt battery attacked alone is eliminated and its redoubt (an
    objective, §17.2.12) taken, never first turned to Damaged (§17.2.6's adverse result is a bombardment's: the
    reading decides only which of those damage it, as the test above shows)."""
    battery = next(u for u in CT.oob.units if u.redoubt_battery)
    h = battery.setup.hexes[0]
    attacker = next(u for u in CT.oob.units if u.side != battery.side and u.arm == "infantry")
    near = sorted(CT.map.grid.neighbours(h))[0]
    general = next(f.general for f in CT.oob.formations if f.id == attacker.formation)
    t = at_step(position({battery.id: h, attacker.id: near}, leaders={general: near}, scenario="campotenese",
                         weather=1, orders={attacker.formation: "attack"}), attacker.formation, "combat")
    t.rule({"redoubt_battery_adverse": reading})
    t.send(attacker.side, {"type": "assault", "attackers": [attacker.id], "targets": [h]})
    resolved = t.of(ev.AssaultResolved)[-1]
    assert (resolved.result, resolved.automatic) == ("De", "arrivano §11.1.1")
    assert t.state.units[battery.id].where == "eliminated"
    assert not [e for e in t.of(ev.StatusChanged) if e.unit == battery.id]  # no Damaged side on the way
    assert t.pending().options == [{"type": "advance", "units": [attacker.id], "to": h}]


# --- road_cost_scope (arrivano §17.2.8) ----------------------------------------------------------------------------


def test_road_cost_scope_all_movement_or_column_only():
    road = max(CT.map.roads, key=lambda r: len(r.hexes))
    h = road.hexes[len(road.hexes) // 2]
    unit = next(u for u in CT.oob.units if u.side == "france" and u.arm == "infantry")
    state = position({unit.id: h}, scenario="campotenese", weather=1, orders={unit.formation: "manoeuvre"})
    t = at_step(state, unit.formation, "movement")
    w = world(t.state)
    ic = in_command(w, unit.formation) | {unit.id}
    along_roads = set(M.destinations(w, unit.id, False, ic))
    t.rule({"road_cost_scope": "march_column_only"})
    w = world(t.state)
    off_column = set(M.destinations(w, unit.id, False, ic))
    assert off_column < along_roads  # the road's half MP no longer helps a unit not in column


# --- march_order_units (arrivano §17.1.5) --------------------------------------------------------------------------


@pytest.mark.parametrize("reading, ended", [("listed_group", True), ("in_hex_only", False)])
def test_march_order_units_reaching_the_objective(reading: str, ended: bool):
    m = next(m for m in MB.scenario.march_orders if m.id == "vogelsang")
    near = sorted(GRID.neighbours(m.objective))
    far = line(m.objective, n=6)[5]
    state = position({"ir28-i": near[0], "ir28-ii": near[1], "ir28-iii": far})
    state.march_orders["vogelsang"] = True
    t = Table(state, interpretations={"march_order_units": reading})
    g, ctx = game_of(t)
    march_checks(g)
    assert (not ctx.state.march_orders["vogelsang"]) is ended


# --- campotenese_setup_ranges (arrivano §17.2 set-up) ---------------------------------------------------------------


def test_campotenese_setup_ranges_is_a_set_up_reading():
    """Only the set-up reads it: the default set-up puts a unit printed with two hexes in the first; a position may
    put it in the second (either_hex). After creation no reading can change a set-up (docs §4)."""
    two = next(u for u in CT.oob.units if u.setup is not None and len(u.setup.hexes) > 1)
    state = RULESET.new_state("campotenese", ())
    assert state.units[two.id].hex == two.setup.hexes[0]
    state.units[two.id].hex = two.setup.hexes[1]
    assert not [p for p in RULESET.validate_position(state) if two.id in p]


# --- disordered_defender_drm (arrivano §15.1, §12.5.2) --------------------------------------------------------------


def test_disordered_defender_drm_any_unit_or_every_unit():
    t = Table(position({"6e-legere-i": X, "ir18-i": D, "ir18-ii": D}))
    t.state.units["ir18-i"].status = "disordered"

    def plus_two() -> bool:
        w, attackers, defenders = world(t.state), ["6e-legere-i"], ["ir18-i", "ir18-ii"]
        mods = sys_assault.side_modifiers(ARRIVANO_VARIANT, w, attackers, defenders,
                                          sys_eff.in_use(sys_eff.choices(w, attackers, defenders), {}), True, w.reading)
        return any("disordered defender" in m.reason and m.value == 2 for m in mods)
    assert plus_two()  # any_unit: "la presenza di unità in Disordine"
    t.rule({"disordered_defender_drm": "every_unit"})
    assert not plus_two()
    t.state.units["ir18-ii"].status = "routed"
    assert plus_two()
