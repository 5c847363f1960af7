"""Optional rules of open order (arrivano §16.3-§16.3.5) with the scenario rules on light infantry (§17.1.7,
§17.2.11): the fire and its results, the fall back, no assault after firing, V and F markers, the fatigue test, the
retreat of V units before an assault, the option switches and their dependencies."""

from __future__ import annotations

from arbitro.adjudicator.parabellum import sight

from typing import Any

import pytest
from arbitro.adjudicator.arrivano import open_order as O
from arbitro.adjudicator.errors import ArbitroError, IllegalCommand
from arbitro.projections import parabellum as PB
from arbitro.events import core
from arbitro.events.arrivano import FallBackAwaited
from arbitro.adjudicator.parabellum.orders import order_of

from tests.arrivano.harness import RULESET, Table, at_step, ev, open_ground, position, world

X = open_ground()  # the firing hex
GRID = RULESET.data.scenarios["montebello"].map.grid
D = GRID.neighbour(X, 1)  # the target hex
BACK = GRID.neighbour(X, 4)  # behind the firer, out of the target's ZoC
ALL = ["light_troops_retreat", "open_order", "physical_exhaustion"]


def table(units: dict[str, str], *, order: str = "manoeuvre", options: list[str] | None = None,
          leaders: dict[str, str] | None = None, step: str = "movement", formation: str = "W",
          interpretations: dict[str, str] | None = None, orders: dict[str, str] | None = None) -> Table:
    state = position(units, leaders={"watrin": BACK} | (leaders or {}), orders={formation: order} | (orders or {}))
    state.options = list(ALL if options is None else options)
    t = at_step(state, formation, step)
    if interpretations:
        t = Table(t.state, interpretations)
    return t


def fire(t: Table, unit: str = "6e-legere-i", to: str = X, target: str = D, dice: list[int] | None = None) -> Any:
    return t.send("france", {"type": "fire", "unit": unit, "to": to, "target": target}, dice)


def fired(t: Table) -> Any:
    return t.of(ev.InfantryFired)[-1]


def settle_retreats(t: Table) -> None:
    """Answer pending retreats of the target with the first listed path."""
    while (p := t.pending()) is not None and p.kind == "retreat":
        t.send(p.seat, p.options[0])


def skip_fall_back(t: Table) -> None:
    p = t.pending()
    if p is not None and p.kind == "fall_back":
        t.send("france", {"type": "fall_back", "to": None})


# --- the table results (arrivano §16.3.3) -------------------------------------------------------------------------


def test_no_effect_result():
    t = table({"6e-legere-i": X, "ir18-i": D})
    fire(t, dice=[1])  # column 5, row 1: •
    assert fired(t).result == "•" and fired(t).record["column"] == "5"
    assert not t.of(ev.OpenOrderTested) and t.state.units["ir18-i"].status == "good"
    assert t.state.units["ir18-i"].hex == D


@pytest.mark.parametrize("test_die, passed", [(3, True), (4, False)])
def test_d_result_tests_the_top_unit(test_die, passed):
    t = table({"6e-legere-i": X, "ir18-i": D})  # ir18-i: efficiency 3
    fire(t, dice=[3, test_die])  # row 3 on column 5: D
    assert fired(t).result == "D"
    assert [(e.unit, e.test, e.passed) for e in t.of(ev.OpenOrderTested)] == [("ir18-i", "D", passed)]
    settle_retreats(t)
    unit = t.state.units["ir18-i"]
    if passed:
        assert (unit.status, unit.hex) == ("good", D)
    else:  # disordered and one hex back
        assert unit.status == "disordered" and GRID.distance(unit.hex, D) == 1
        assert t.of(ev.UnitRetreated)[-1].rule == "arrivano §16.3.3"


@pytest.mark.parametrize("test_die, passed", [(2, True), (3, False)])
def test_d1_result_adds_one_to_the_test(test_die, passed):
    t = table({"6e-legere-i": X, "ir18-i": D})
    fire(t, dice=[4, test_die])  # row 4 on column 5: D1; a 3 passes a D but fails a D1 (3 + 1 > 3)
    assert fired(t).result == "D1"
    assert t.of(ev.OpenOrderTested)[-1].passed is passed
    roll = [r for r in t.rolls if "D1 result" in r.purpose][-1]
    assert roll.detail["modifier"] == 1
    settle_retreats(t)
    assert t.state.units["ir18-i"].status == ("good" if passed else "disordered")


def test_dr_result_pass_disorders_and_retreats_one_hex():
    t = table({"6e-legere-i": X, "ir18-i": D})
    fire(t, dice=[5, 2])  # row 5: DR; the test passes
    assert fired(t).result == "DR" and t.of(ev.OpenOrderTested)[-1].passed
    settle_retreats(t)
    unit = t.state.units["ir18-i"]
    assert unit.status == "disordered" and GRID.distance(unit.hex, D) == 1


def test_dr_result_fail_routs_and_retreats_two_hexes():
    t = table({"6e-legere-i": X, "ir18-i": D})
    fire(t, dice=[5, 5])
    assert not t.of(ev.OpenOrderTested)[-1].passed
    settle_retreats(t)
    unit = t.state.units["ir18-i"]
    assert unit.status == "routed" and GRID.distance(unit.hex, D) == 2
    assert t.of(ev.UnitRetreated)[-1].rule == "arrivano §15.2.1"


def test_artillery_alone_is_no_target():
    t = table({"6e-legere-i": X, "art-gottesheim": D})
    with pytest.raises(IllegalCommand) as e:
        fire(t)
    assert e.value.rule == "arrivano §16.3.3"
    assert not [c for c in t.legal("france") if c["type"] == "fire"]


def test_artillery_in_the_target_stack_is_never_affected():
    t = table({"6e-legere-i": X, "ir18-i": D, "art-gottesheim": D})
    fire(t, dice=[5, 5])  # DR failed: the infantry routs and goes
    settle_retreats(t)
    art = t.state.units["art-gottesheim"]
    assert (art.hex, art.status, art.where) == (D, "good", "map")
    assert all(e.unit != "art-gottesheim" for e in t.of(ev.OpenOrderTested))


# --- modifiers (arrivano §16.3.2) ---------------------------------------------------------------------------------


def reasons(t: Table) -> dict[str, int]:
    return {m["reason"].split(" (")[0]: m["value"] for m in fired(t).record["modifiers"]}


def test_grouping_modifier():
    t = table({"6e-legere-i": X, "ir40-ii-iii": D})  # 8 SP in the target hex
    fire(t, dice=[1])
    assert reasons(t) == {"8 SP in the target hex": 1} and fired(t).record["modified_die"] == 2


def test_terrain_modifier():
    s = RULESET.data.scenarios["montebello"]
    tables = RULESET.data.tables.terrain.terrain
    woods = next(h for h in s.map.hexes() if min(tables[x].bombard_drm for x in s.map.hex(h).terrains) == -1
                 and any(s.map.hex(n).terrains == ("pianura",) for n in GRID.neighbours(h)))
    firer = next(n for n in sorted(GRID.neighbours(woods)) if s.map.hex(n).terrains == ("pianura",))
    t = table({"6e-legere-i": firer, "ir18-i": woods}, leaders={"watrin": firer})
    fire(t, to=firer, target=woods, dice=[3])
    assert reasons(t)[f"terrain of {woods}"] == -1


@pytest.mark.parametrize("leader, expected", [("watrin", 1), ("gency", 1), ("chambarlac", 0), ("lannes", 0)])
def test_general_or_officer_of_the_formation_stacked(leader, expected):
    leaders = {"watrin": BACK, leader: X} if leader != "watrin" else {"watrin": X}
    t = table({"6e-legere-i": X, "ir18-i": D}, leaders=leaders)
    fire(t, dice=[1])
    assert reasons(t).get("general or officer stacked", 0) == expected


def test_each_unit_fires_alone():
    t = table({"6e-legere-i": X, "6e-legere-ii": X, "ir18-i": D})
    fire(t, dice=[1])
    skip_fall_back(t)
    fire(t, unit="6e-legere-ii", dice=[1])
    assert [e.unit for e in t.of(ev.InfantryFired)] == ["6e-legere-i", "6e-legere-ii"]
    assert all(e.record["column"] == "5" for e in t.of(ev.InfantryFired))  # never summed (§16.3.2)


# --- movement, fall back, no assault after firing (arrivano §16.3, §16.3.1) -------------------------------------


def test_light_troops_in_open_order_enter_ezoc_under_manoeuvre():
    t = table({"6e-legere-i": BACK, "ir18-i": D}, leaders={"watrin": BACK})
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "move", "unit": "6e-legere-i", "to": X, "column": False})
    assert e.value.rule == "arrivano §5.1.4"
    assert {"type": "fire", "unit": "6e-legere-i", "to": X, "target": D} in t.legal("france")
    fire(t, to=X, dice=[1])
    assert t.state.units["6e-legere-i"].hex == X and t.of(ev.UnitsMoved)[-1].path == (X,)


def test_fall_back_one_hex_away_with_the_mp_left():
    t = table({"6e-legere-i": X, "ir18-i": D})
    fire(t, dice=[1])
    pending = t.pending()
    assert pending.kind == "fall_back" and pending.seat == "france"
    hexes = [o["to"] for o in pending.options if o["to"] is not None]
    assert hexes and all(GRID.distance(h, D) == 2 for h in hexes)
    assert {"type": "fall_back", "to": None} in pending.options
    t.send("france", {"type": "fall_back", "to": hexes[0]})
    assert t.state.units["6e-legere-i"].hex == hexes[0] and t.pending() is None


def test_no_fall_back_without_mp():
    t = table({"6e-legere-i": X, "ir18-i": D})
    w = world(t.state)
    assert O.fall_back_hexes(w, FallBackAwaited(unit="6e-legere-i", target=D, left=10, budget=10, moved=False))
    spent = FallBackAwaited(unit="6e-legere-i", target=D, left=0, budget=10, moved=True)
    assert O.fall_back_hexes(w, spent) == []
    frame = core.Frame(kind="fall_back", seats=("france",), rule="arrivano §16.3", prompt="", ctx=spent)
    assert O.fall_back_options(w, frame) == [{"type": "fall_back", "to": None}]


def test_a_unit_that_fired_may_not_assault():
    t = table({"6e-legere-i": X, "ir18-i": D}, order="advance")
    fire(t, dice=[1])
    skip_fall_back(t)
    t.send("france", {"type": "end_step"})
    assert t.state.step == "combat"
    assert not [c for c in t.legal("france") if c["type"] == "assault"]
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "assault", "attackers": ["6e-legere-i"], "targets": [D]})
    assert e.value.rule == "arrivano §16.3.1"


def test_a_hex_fired_at_needs_no_assault():
    """arrivano §12.2.1: open-order fire also meets the duty to attack every hex whose ZoC reaches the attacker."""
    other = GRID.neighbour(X, 2)  # adjacent to X as D is
    t = table({"6e-legere-i": BACK, "22e-i": X, "ir18-i": D, "ir18-ii": other}, order="advance")
    firer_spot = next(h for h in sorted(GRID.neighbours(D)) if h != X and GRID.distance(h, other) > 1
                      and h in O.fire_positions(world(t.state), "6e-legere-i"))
    fire(t, to=firer_spot, dice=[1])
    skip_fall_back(t)
    t.send("france", {"type": "end_step"})
    assert {"type": "assault", "attackers": ["22e-i"], "targets": [other]} in t.legal("france")
    t.send("france", {"type": "assault", "attackers": ["22e-i"], "targets": [other]})
    assert t.of(ev.AssaultDeclared)[-1].targets == (other,)


# --- who may use open order -------------------------------------------------------------------------------------


def test_line_infantry_refused_montebello():
    t = table({"22e-i": X, "ir18-i": D})
    with pytest.raises(IllegalCommand) as e:
        fire(t, unit="22e-i")
    assert e.value.rule == "arrivano §17.1.7"


def test_campotenese_light_infantry_are_those_with_movement_3():
    s = RULESET.data.scenarios["campotenese"]
    assert s.scenario.is_light(s.unit("1e-leger-c1")) and not s.scenario.is_light(s.unit("42e-1"))
    x = open_ground("campotenese", 1)
    d = s.map.grid.neighbour(x, 1)
    state = position({"42e-1": x, "real-sanniti": d}, scenario="campotenese",
                     leaders={"compere": x}, orders={"C": "manoeuvre"}, weather=1)
    state.options = list(ALL)
    t = at_step(state, "C", "movement")
    with pytest.raises(IllegalCommand) as e:
        fire(t, unit="42e-1", to=x, target=d)
    assert e.value.rule == "arrivano §17.2.11"
    state = position({"1e-leger-c1": x, "real-sanniti": d}, scenario="campotenese",
                     leaders={"compere": x}, orders={"C": "manoeuvre"}, weather=1)
    state.options = list(ALL)
    t = at_step(state, "C", "movement")
    fire(t, unit="1e-leger-c1", to=x, target=d, dice=[1])
    assert fired(t).unit == "1e-leger-c1"
    state = position({"1e-leger-c1": x, "real-sanniti": d}, scenario="campotenese", leaders={"compere": x},
                     orders={"C": "manoeuvre"}, weather=3)
    state.options = list(ALL)
    t = at_step(state, "C", "movement")
    with pytest.raises(IllegalCommand) as e:  # the storm (arrivano §17.2.7)
        fire(t, unit="1e-leger-c1", to=x, target=d)
    assert e.value.rule == "arrivano §17.2.7"


@pytest.mark.parametrize("order", ["defence", "attack"])
def test_only_manoeuvre_or_advance(order):
    t = table({"6e-legere-i": X, "ir18-i": D}, order=order)
    with pytest.raises(IllegalCommand) as e:
        fire(t)
    assert e.value.rule == "arrivano §16.3"


def test_options_off_refuse_the_commands():
    t = table({"6e-legere-i": X, "ir18-i": D}, options=[])
    assert not [c for c in t.legal("france") if c["type"] == "fire"]
    with pytest.raises(IllegalCommand) as e:
        fire(t)
    assert e.value.rule == "arrivano §16.3"
    t = table({"6e-legere-i": X, "ir18-i": D}, options=["open_order"])
    fire(t, dice=[1])
    assert t.state.units["6e-legere-i"].open_order == ""  # no markers without physical exhaustion


def test_option_dependencies_at_creation():
    from arbitro.adjudicator.service import Arbitro
    from arbitro.events.sqlite import SQLiteStore
    app = Arbitro(SQLiteStore(":memory:"))
    scenario = RULESET.scenarios()["montebello"]
    assert {"open_order", "physical_exhaustion", "light_troops_retreat"} <= set(scenario.options)
    with pytest.raises(ArbitroError) as e:
        app.create("arrivano", "montebello", options=("physical_exhaustion",))
    assert "needs option open_order" in str(e.value) and "arrivano §16.3.4" in str(e.value)
    with pytest.raises(ArbitroError) as e:
        app.create("arrivano", "campotenese", options=("light_troops_retreat", "open_order"))
    assert "needs option physical_exhaustion" in str(e.value) and "arrivano §16.3.5" in str(e.value)
    app.create("arrivano", "montebello", options=tuple(ALL))


# --- the target unit "in cima allo stack" (interpretation open_order_top_unit) ----------------------------------


def test_owner_names_the_top_unit():
    t = table({"6e-legere-i": X, "ir18-i": D, "mariassy-jager": D})
    fire(t, dice=[3])  # D
    pending = t.pending()
    assert pending.kind == "fire_target" and pending.seat == "austria"
    assert pending.options == [{"type": "fire_target", "unit": "ir18-i"}, {"type": "fire_target", "unit": "mariassy-jager"}]
    t.send("austria", {"type": "fire_target", "unit": "mariassy-jager"}, dice=[2])
    assert t.of(ev.OpenOrderTested)[-1].unit == "mariassy-jager"


def test_strongest_reading_picks_the_strongest():
    t = table({"6e-legere-i": X, "ir18-i": D, "mariassy-jager": D},
              interpretations={"open_order_top_unit": "strongest"})
    fire(t, dice=[3, 2])
    assert t.pending().kind == "fall_back"
    assert t.of(ev.OpenOrderTested)[-1].unit == "ir18-i"  # 5 SP against 2


# --- physical exhaustion (arrivano §16.3.4) ---------------------------------------------------------------------


def test_v_marker_placed_and_removed_after_the_next_turns_combat():
    t = table({"6e-legere-i": X, "ir18-i": D})
    fire(t, dice=[1])
    skip_fall_back(t)
    assert (t.state.units["6e-legere-i"].open_order, t.state.units["6e-legere-i"].marker_turn) == ("V", 2)
    t.send("france", {"type": "end_step"})
    t.send("france", {"type": "end_step"}, pad=6)  # end of this turn's combat: the V stays
    assert t.state.units["6e-legere-i"].open_order == "V"
    state = t.state
    state.turn = 3
    t = at_step(state, "W", "combat")
    t.send("france", {"type": "end_step"}, pad=6)
    assert t.state.units["6e-legere-i"].open_order == ""
    assert t.of(ev.OpenOrderMarked)[-1].rule == "arrivano §16.3.4"


def test_v_of_another_formation_stays_after_this_combat():
    t = table({"6e-legere-i": X, "24e-legere-i": BACK, "ir18-i": D})
    t.state.units["24e-legere-i"].open_order, t.state.units["24e-legere-i"].marker_turn = "V", 1
    t.send("france", {"type": "end_step"})
    t.send("france", {"type": "end_step"}, pad=6)
    assert t.state.units["24e-legere-i"].open_order == "V"


def test_open_order_two_turns_running_flips_v_to_f():
    t = table({"6e-legere-i": X, "ir18-i": D})
    t.state.units["6e-legere-i"].open_order, t.state.units["6e-legere-i"].marker_turn = "V", 1
    fire(t, dice=[1])
    assert t.state.units["6e-legere-i"].open_order == "F"


def fatigued(order: str) -> Table:
    t = table({"6e-legere-i": X, "ir18-i": D}, order=order, step="bombardment")
    t.state.units["6e-legere-i"].open_order, t.state.units["6e-legere-i"].marker_turn = "F", 1
    return t


def test_fatigued_unit_passes_its_test_before_firing():
    t = fatigued("manoeuvre")
    t.send("france", {"type": "end_step"})  # Manoeuvre: no test yet
    assert not t.of(ev.OpenOrderTested)
    fire(t, dice=[2, 1])
    assert [(e.test, e.passed) for e in t.of(ev.OpenOrderTested)] == [("fatigue", True)]
    assert fired(t).unit == "6e-legere-i" and t.state.units["6e-legere-i"].open_order == "V"


def test_fatigued_unit_failing_its_test_takes_defence():
    t = fatigued("manoeuvre")
    t.send("france", {"type": "end_step"})
    fire(t, dice=[6])
    assert [(e.test, e.passed) for e in t.of(ev.OpenOrderTested)] == [("fatigue", False)]
    assert not t.of(ev.InfantryFired) and t.state.units["6e-legere-i"].hex == X
    assert order_of(world(t.state), "6e-legere-i") == "defence"
    with pytest.raises(IllegalCommand) as e:
        fire(t)
    assert e.value.rule == "arrivano §16.3.4"


@pytest.mark.parametrize("die, passed", [(2, True), (6, False)])
def test_fatigued_units_under_advance_test_as_movement_begins(die, passed):
    t = fatigued("advance")
    t.send("france", {"type": "end_step"}, dice=[die])
    assert [(e.unit, e.test, e.passed) for e in t.of(ev.OpenOrderTested)] == [("6e-legere-i", "fatigue", passed)]
    assert t.state.units["6e-legere-i"].open_order == ("" if passed else "F")
    assert order_of(world(t.state), "6e-legere-i") == ("advance" if passed else "defence")


# --- retreat of light troops before an assault (arrivano §16.3.5) ------------------------------------------------


def assaulted_v(options: list[str] | None = None) -> Table:
    t = table({"22e-i": X, "mariassy-jager": D}, order="attack", step="combat", options=options)
    t.state.units["mariassy-jager"].open_order, t.state.units["mariassy-jager"].marker_turn = "V", 2
    t.send("france", {"type": "assault", "attackers": ["22e-i"], "targets": [D]})
    return t


def test_v_unit_retreats_on_a_passed_test_and_the_attacker_may_advance():
    t = assaulted_v()
    pending = t.pending()
    assert pending.kind == "light_retreat" and pending.seat == "austria"
    choice = next(o for o in pending.options if o["unit"] == "mariassy-jager")
    t.send("austria", choice, dice=[2])
    assert t.of(ev.OpenOrderTested)[-1].passed and t.state.units["mariassy-jager"].hex == choice["to"]
    assert t.of(ev.AssaultResolved)[-1].result == "cancelled"
    pending = t.pending()
    assert pending.kind == "advance" and pending.seat == "france"
    t.send("france", {"type": "advance", "units": ["22e-i"], "to": D})
    assert t.state.units["22e-i"].hex == D


def test_v_unit_failing_its_test_stays_and_is_assaulted():
    t = assaulted_v()
    choice = next(o for o in t.pending().options if o["unit"] == "mariassy-jager")
    t.send("austria", choice, dice=[6, 3])
    assert not t.of(ev.OpenOrderTested)[-1].passed
    assert t.of(ev.AssaultResolved)[-1].result != "cancelled"


def test_no_light_retreat_without_the_option():
    t = assaulted_v(options=["open_order", "physical_exhaustion"])
    assert t.of(ev.AssaultResolved)  # resolved straight away, no decision asked
    assert t.pending() is None or t.pending().kind != "light_retreat"


# --- markers in the views, under fog of war (arrivano §11.3.2) ---------------------------------------------------


def test_markers_are_public_on_seen_units_only():
    t = table({"6e-legere-i": X, "ir18-i": D})
    fire(t, dice=[1])
    assert RULESET.view(t.state, "austria")["units"]["6e-legere-i"]["open_order"] == "V"
    far = next(h for h in RULESET.data.scenarios["montebello"].map.hexes() if GRID.distance(h, X) > 12)
    t.state.units["ir18-i"].hex = far
    assert "6e-legere-i" not in RULESET.view(t.state, "austria")["units"]


def test_v_of_a_unit_not_activated_goes_in_the_end_phase():
    from arbitro.adjudicator.arrivano.turn import end_phase
    t = table({"6e-legere-i": X, "24e-legere-i": BACK, "ir18-i": D})
    t.state.units["24e-legere-i"].open_order, t.state.units["24e-legere-i"].marker_turn = "V", 1
    t.state.units["6e-legere-i"].open_order, t.state.units["6e-legere-i"].marker_turn = "V", 2
    ctx = t.decision("umpire")
    end_phase(RULESET.game(ctx))
    assert ctx.state.units["24e-legere-i"].open_order == ""  # placed in turn 1, turn 2 is over
    assert ctx.state.units["6e-legere-i"].open_order == "V"  # placed in turn 2: stays through turn 3's combat


def test_a_bad_fire_order_of_a_fatigued_unit_rolls_nothing():
    t = fatigued("manoeuvre")
    t.send("france", {"type": "end_step"})
    with pytest.raises(IllegalCommand):
        fire(t, target=BACK)
    assert not t.of(ev.OpenOrderTested) and t.state.units["6e-legere-i"].open_order == "F"


def test_each_v_unit_of_the_hex_tries_in_turn():
    t = table({"22e-i": X, "mariassy-jager": D, "bach": D}, order="attack", step="combat")
    for u in ("mariassy-jager", "bach"):
        t.state.units[u].open_order, t.state.units[u].marker_turn = "V", 2
    t.send("france", {"type": "assault", "attackers": ["22e-i"], "targets": [D]})
    first = t.pending()
    assert {o["unit"] for o in first.options} == {"mariassy-jager", "bach", None}
    t.send("austria", next(o for o in first.options if o["unit"] == "bach"), dice=[6])  # fails, stays
    second = t.pending()
    assert second.kind == "light_retreat" and {o["unit"] for o in second.options} == {"mariassy-jager", None}
    t.send("austria", {"type": "light_retreat", "unit": None, "to": None}, dice=[3])
    assert t.state.units["bach"].hex != "" and t.of(ev.AssaultResolved)  # the assault went on


def test_position_with_an_option_missing_its_requirement_is_reported():
    state = position({"6e-legere-i": X})
    state.options = ["physical_exhaustion"]
    assert any("needs option open_order" in p for p in RULESET.validate_position(state))


def test_no_fire_at_a_stack_out_of_sight():
    """arrivano §11.3.2: targets are chosen among the stacks the seat may examine; nothing is said of the others."""
    t = table({"6e-legere-i": X, "ir18-i": D})
    w = world(t.state)
    visible = sight.visible_hexes(w, "france") - {D}
    assert O.fire_targets(w, "6e-legere-i", X, visible) == []
    assert O.fire_targets(w, "6e-legere-i", X, sight.visible_hexes(w, "france")) == [D]


def test_the_fall_back_is_served_as_a_move_from_the_hex_it_fired_from():
    """Fog of war judges the fall back's route from the hex it left, where it fired (arrivano §16.3, §11.3.2), not
    from where the activation's first move began: the fold keeps both (Activation.left, starts)."""
    t = table({"6e-legere-i": BACK, "ir18-i": D})
    fire(t, dice=[1])
    assert t.of(ev.UnitsMoved)[-1].path[-1] == X
    to = next(o["to"] for o in t.pending().options if o["to"] is not None)
    t.send("france", {"type": "fall_back", "to": to})
    fall_back = t.of(ev.UnitsMoved)[-1]
    assert PB.route_start(t.state, fall_back) == X
    assert t.state.activation is not None and t.state.activation.starts["6e-legere-i"] == BACK


def test_a_fire_judged_at_its_hex_sees_as_the_listing_does():
    """A fire is judged at the hex it names (`fire_position`, issue 15), with the sight of that hex's neighbours alone
    (`Examinable`, arrivano §11.3.2): the same path, cost and targets as the listing's `fire_positions`, and the same
    hexes examinable as `sight.visible_hexes`, for every hex near the firer, with a target in sight or out of it."""
    far = GRID.neighbour(GRID.neighbour(D, 1), 1)
    for units in ({"6e-legere-i": X, "ir18-i": D}, {"6e-legere-i": BACK, "ir18-i": D, "ir18-ii": far}):
        t = table(units)
        w = world(t.state)
        listed, visible = O.fire_positions(w, "6e-legere-i"), sight.visible_hexes(w, "france")
        assert listed
        near = GRID.near(X, 4)
        for h in sorted(near):
            assert O.fire_position(w, "6e-legere-i", h) == listed.get(h), h
            assert (h in O.Examinable(w, "france")) == (h in visible), h
    assert "not a hex" not in O.Examinable(w, "france")
