"""Retreats (arrivano §12.6-§12.6.3, §12.8.1, §15.2.2, §11.1; Campotenese retreat flags §17.2.1): the permitted
lines offered to the owner, off-map retreats under both readings of off_map_retreat, the flags under both readings
of neapolitan_retreat_flags, the §12.6.2 continuation, split stacks, rout stops (rout_stop_general both ways), the
§11.1 artillery choice both ways and the assault case, and illegal answers refused with their citation."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from arbitro.adjudicator.arrivano import retreats, rules as R
from arbitro.adjudicator.arrivano.data_model import ARRIVANO_DATA
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum import elimination, rout
from arbitro.adjudicator.parabellum.act import settle
from arbitro.adjudicator.errors import MalformedCommand, Rejected
from arbitro.events import core
from arbitro.projections.arrivano import ArrivanoState

from tests.arrivano.harness import RULESET, Table, at_step, ev, open_ground, position

X = open_ground()
MB = RULESET.data.scenarios["montebello"].map
CT = RULESET.data.scenarios["campotenese"].map
GRID = MB.grid


def nb(h: str, *dirs: int) -> str:
    for d in dirs:
        n = GRID.neighbour(h, d)
        assert n is not None
        h = n
    return h


def pending_retreat(state: ArrivanoState, units: list[str], hexes: int = 1, rule: Any = ARRIVANO_VARIANT.rules.RETREAT,
                    interpretations: dict[str, str] | None = None) -> Table:
    side = state.units[units[0]].side
    return Table(state, interpretations).with_frame("retreat", side, str(rule), {"moves": {u: hexes for u in sorted(units)}})


def pending_rout(state: ArrivanoState, uid: str, interpretations: dict[str, str] | None = None) -> Table:
    state.units[uid].status = "routed"
    state.phase, state.step, state.seat = "end", "rout", ""
    return Table(state, interpretations).with_frame("rout_move", state.units[uid].side, str(R.ROUT_MOVE), {"unit": uid})


def refused(t: Table, seat: str, command: dict[str, Any]) -> Rejected:
    """`command` is refused as a submit refuses it, and the position is left as it was."""
    return t.refuse(seat, command)


# --- §12.8.1 off the map ------------------------------------------------------------------------------------------


E = next(h for h in sorted(MB.hexes()) if len(GRID.neighbours(h)) == 4)
E_NEXT = sorted(GRID.neighbours(E))
AUSTRIANS = ["ir18-i", "ir18-ii", "ir18-iii", "ir57-i", "ir57-ii", "ir57-iii"]


def test_a_unit_forced_off_the_map_is_eliminated_for_good():
    """Every map hex around the edge hex is enemy-held: the only retreat leaves the map (§12.8.1), not §12.6.3."""
    state = position({"6e-legere-i": E} | dict(zip(AUSTRIANS, E_NEXT)))
    t = pending_retreat(state, ["6e-legere-i"])
    options = t.legal("france")
    assert options == [{"type": "retreat", "to": E, "units": ["6e-legere-i"], "off_map": True}]
    t.send("france", options[0])
    gone = t.of(ev.UnitEliminated)[-1]
    assert (gone.unit, gone.permanent, gone.rule) == ("6e-legere-i", True, str(ARRIVANO_VARIANT.rules.OFF_MAP))
    assert t.state.units["6e-legere-i"].where == "eliminated"


def test_a_retreat_that_can_stay_on_the_map_does_not_leave_it():
    """Reading only_way: one map hex is free, so the retreat ends there; leaving the map is refused (§12.6)."""
    state = position({"6e-legere-i": E} | dict(zip(AUSTRIANS, E_NEXT[1:])))
    t = pending_retreat(state, ["6e-legere-i"])
    assert t.legal("france") == [{"type": "retreat", "to": E_NEXT[0], "units": ["6e-legere-i"], "off_map": False}]
    e = refused(t, "france", {"type": "retreat", "to": E, "units": ["6e-legere-i"], "off_map": True})
    assert e.rule == str(ARRIVANO_VARIANT.rules.RETREAT) and "permitted" in str(e)
    t.send("france", {"type": "retreat", "to": E_NEXT[0], "units": ["6e-legere-i"], "off_map": False})
    assert t.state.units["6e-legere-i"].hex == E_NEXT[0]


def test_a_retreat_answer_must_name_its_units():
    """The listed answers name the units that take the line (§12.6 lets a stack part): `units` is required, so an
    answer without them, even to a permitted end, is malformed, naming the field (the schema no longer promises
    "omitted: the whole stack", which the engine never accepted); the position is left as it was."""
    state = position({"6e-legere-i": E} | dict(zip(AUSTRIANS, E_NEXT[1:])))
    t = pending_retreat(state, ["6e-legere-i"])
    with pytest.raises(MalformedCommand) as e:
        t.send("france", {"type": "retreat", "to": E_NEXT[0]})
    assert e.value.problems[0]["field"] == "retreat.units" and "required" in e.value.problems[0]["problem"]
    assert RULESET._commands.json_schema()["$defs"]["RetreatTo"]["required"] == ["type", "to", "units"]
    assert t.pending().kind == "retreat"


def test_reading_farthest_leaves_the_map_whenever_it_can():
    """Reading farthest (an umpire's ruling): leaving the map is the farthest end, so the same retreat must leave."""
    state = position({"6e-legere-i": E} | dict(zip(AUSTRIANS, E_NEXT[1:])))
    t = pending_retreat(state, ["6e-legere-i"], interpretations={"off_map_retreat": "farthest"})
    assert t.legal("france") == [{"type": "retreat", "to": E, "units": ["6e-legere-i"], "off_map": True}]
    e = refused(t, "france", {"type": "retreat", "to": E_NEXT[0], "units": ["6e-legere-i"]})
    assert e.rule == str(ARRIVANO_VARIANT.rules.RETREAT)
    t.send("france", t.legal("france")[0])
    assert t.state.units["6e-legere-i"].where == "eliminated"


def test_a_two_hex_retreat_leaves_through_the_edge_only_when_the_map_ends():
    """A routed unit one hex from the edge with every two-hex line blocked leaves through the edge hex it reaches."""
    inner = next(h for h in E_NEXT if len(GRID.neighbours(h)) == 6)
    others = [h for h in GRID.neighbours(inner) if h != E] + [h for h in E_NEXT if h != inner]
    austrians = AUSTRIANS + ["ir28-i", "ir28-ii", "ir28-iii", "ir17-i"]
    state = position({"6e-legere-i": inner} | dict(zip(austrians, sorted(set(others)))))
    state.units["6e-legere-i"].status = "routed"  # enemy ZoC ignored (§8.1.1)
    t = pending_retreat(state, ["6e-legere-i"], hexes=2, rule=ARRIVANO_VARIANT.rules.ROUT_COMBAT)
    assert t.legal("france") == [{"type": "retreat", "to": E, "units": ["6e-legere-i"], "off_map": True}]
    t.send("france", t.legal("france")[0])
    assert t.of(ev.UnitRetreated)[-1].path == (E,)  # the hexes entered, not the start
    assert t.state.units["6e-legere-i"].where == "eliminated" and t.of(ev.UnitEliminated)[-1].rule == str(ARRIVANO_VARIANT.rules.OFF_MAP)


# --- Campotenese retreat flags (§17.2.1) ----------------------------------------------------------------------------

FLAG_D = "1012"  # retreat flag D (scenario.json, provisional hex)
FRENCH = ["42e-1", "42e-2", "1e-leger-c1", "1e-leger-c2"]


def flag_position(unit: str = "real-principessa", holder: dict[str, str] | None = None) -> ArrivanoState:
    around = dict(zip(FRENCH if unit != "42e-1" else ["real-sanniti", "rc-i-fucilieri", "rf-granatieri",
                                                       "rc-ii-fucilieri"], sorted(CT.grid.neighbours(FLAG_D))))
    return position({unit: FLAG_D} | around, scenario="campotenese", weather=1)


def test_a_neapolitan_unit_leaving_through_its_flag_is_not_eliminated():
    """Reading exit_not_eliminated (default): out of play, no step lost (§17.2.1, §17.2.12)."""
    t = pending_retreat(flag_position(), ["real-principessa"])
    option = {"type": "retreat", "to": FLAG_D, "units": ["real-principessa"], "off_map": True}
    assert t.legal("naples") == [option]
    lost = dict(t.state.steps_lost)
    t.send("naples", option)
    exited = t.of(ev.UnitExited)[-1]
    assert (exited.unit, exited.flag, exited.hex) == ("real-principessa", "D", FLAG_D)
    assert str(R.CT_RETREAT_FLAGS) in exited.rule
    assert t.state.units["real-principessa"].where == "exited" and not t.of(ev.UnitEliminated)
    assert t.state.steps_lost == lost


def test_reading_no_effect_eliminates_at_the_flag_too():
    """Reading no_effect (an umpire's ruling): §12.8.1 applies at the flag as anywhere."""
    t = pending_retreat(flag_position(), ["real-principessa"], interpretations={"neapolitan_retreat_flags": "no_effect"})
    lost = t.state.steps_lost["naples"]
    t.send("naples", t.legal("naples")[0])
    assert not t.of(ev.UnitExited)
    assert t.of(ev.UnitEliminated)[-1].rule == str(ARRIVANO_VARIANT.rules.OFF_MAP) and t.state.steps_lost["naples"] == lost + 1


def test_the_flags_are_the_neapolitans_only():
    t = pending_retreat(flag_position("42e-1"), ["42e-1"])
    t.send("france", t.legal("france")[0])
    assert not t.of(ev.UnitExited) and t.state.units["42e-1"].where == "eliminated"


# --- §12.6.2 overstacked retreats --------------------------------------------------------------------------------

FRIENDS = [["6e-legere-ii", "6e-legere-iii"], ["22e-i", "22e-ii"], ["22e-iii", "40e-i"], ["40e-ii", "40e-iii"],
           ["24e-legere-i", "24e-legere-ii"]]


def crowded(free: int | None = None) -> ArrivanoState:
    """6e-legere-i at X, an Austrian in direction 1, every other neighbour full (two infantry) except `free`."""
    units = {"6e-legere-i": X, "ir18-i": nb(X, 1)}
    for d, pair in zip((0, 2, 3, 4, 5), FRIENDS):
        if d != free:
            units |= {u: nb(X, d) for u in pair}
    return position(units)


def test_an_overstacked_retreat_goes_on_until_stacking_fits():
    t = pending_retreat(crowded(), ["6e-legere-i"])
    options = t.legal("france")
    assert options and all(GRID.distance(o["to"], X) == 2 and not o["off_map"] for o in options)
    e = refused(t, "france", {"type": "retreat", "to": nb(X, 4), "units": ["6e-legere-i"]})  # the full hex a one-hex retreat would end in
    assert e.rule == str(ARRIVANO_VARIANT.rules.RETREAT) and str(ARRIVANO_VARIANT.rules.RETREAT_STACKING) in str(e)
    t.send("france", options[0])
    moved = t.of(ev.UnitRetreated)[-1]
    assert len(moved.path) == 2 and str(ARRIVANO_VARIANT.rules.RETREAT_STACKING) in moved.rule
    assert t.state.units["6e-legere-i"].hex == options[0]["to"]


def test_a_fitting_end_is_taken_without_going_on():
    """One neighbour has room (even if not the farthest): the retreat ends there, no continuation."""
    t = pending_retreat(crowded(free=2), ["6e-legere-i"])
    assert [o["to"] for o in t.legal("france")] == [nb(X, 2)]


# --- §12.6 the owner's line; stacked units to different hexes ------------------------------------------------------


def test_the_owner_chooses_among_the_best_lines():
    t = pending_retreat(position({"6e-legere-i": X, "ir18-i": nb(X, 1)}), ["6e-legere-i"])
    ends = [o["to"] for o in t.legal("france")]
    assert len(ends) > 1 and nb(X, 1) not in ends and X not in ends
    assert all(GRID.distance(h, nb(X, 1)) == 2 for h in ends)  # as far as possible from the enemy
    e = refused(t, "france", {"type": "retreat", "to": nb(X, 0), "units": ["6e-legere-i"]})  # adjacent to the enemy: not the best
    assert e.rule == str(ARRIVANO_VARIANT.rules.RETREAT)
    t.send("france", {"type": "retreat", "to": ends[-1], "units": ["6e-legere-i"], "off_map": False})
    assert t.state.units["6e-legere-i"].hex == ends[-1]


def test_stacked_units_may_retreat_to_different_hexes():
    t = pending_retreat(position({"6e-legere-i": X, "6e-legere-ii": X, "ir18-i": nb(X, 1)}),
                        ["6e-legere-i", "6e-legere-ii"])
    options = t.legal("france")
    ends = sorted({o["to"] for o in options if o["units"] == ["6e-legere-i", "6e-legere-ii"]})
    assert {"type": "retreat", "to": ends[0], "units": ["6e-legere-i"], "off_map": False} in options
    t.send("france", {"type": "retreat", "to": ends[0], "units": ["6e-legere-i"]})
    pending = t.pending()  # the rest of the stack still retreats
    assert pending.kind == "retreat" and all(o["units"] == ["6e-legere-ii"] for o in pending.options)
    e = refused(t, "france", {"type": "retreat", "to": ends[1], "units": ["6e-legere-i"]})
    assert e.rule == str(ARRIVANO_VARIANT.rules.RETREAT) and "still to retreat" in str(e)
    t.send("france", {"type": "retreat", "to": ends[1], "units": ["6e-legere-ii"]})
    assert t.state.units["6e-legere-i"].hex == ends[0] and t.state.units["6e-legere-ii"].hex == ends[1]
    assert t.pending() is None


def test_a_split_that_changes_nothing_is_not_offered():
    """Only one hex to go to: the stack retreats there together; a part alone is refused."""
    blockers = dict(zip(AUSTRIANS, [nb(X, d) for d in (0, 1, 2, 3, 5)]))
    t = pending_retreat(position({"6e-legere-i": X, "6e-legere-ii": X} | blockers), ["6e-legere-i", "6e-legere-ii"])
    assert t.legal("france") == [{"type": "retreat", "to": nb(X, 4), "units": ["6e-legere-i", "6e-legere-ii"],
                                  "off_map": False}]
    e = refused(t, "france", {"type": "retreat", "to": nb(X, 4), "units": ["6e-legere-i"]})
    assert e.rule == str(ARRIVANO_VARIANT.rules.RETREAT) and "together" in str(e)


# --- §15.2.2 end-phase rout moves and where they may stop -----------------------------------------------------------

VILLAGE = next(h for h in sorted(MB.hexes()) if MB.hex(h).terrains == ("villaggio",)
               and len(GRID.neighbours(h)) == 6 and all(len(GRID.neighbours(n)) == 6 for n in GRID.neighbours(h)))
REDOUBT = "2712"


def test_a_rout_may_stop_in_a_village():
    t = pending_rout(position({"ir18-i": VILLAGE, "6e-legere-i": nb(VILLAGE, 1, 1)}), "ir18-i")
    options = t.legal("austria")
    stay = {"type": "rout_move", "to": VILLAGE, "off_map": False}
    assert stay in options and len(options) > 1
    assert all(GRID.distance(o["to"], VILLAGE) == 2 for o in options if o != stay)
    t.send("austria", stay)
    stopped = t.of(ev.RoutStopped)[-1]
    assert (stopped.unit, stopped.hex, stopped.reason, stopped.rule) == ("ir18-i", VILLAGE, "village", str(R.ROUT_MOVE))
    assert t.state.units["ir18-i"].hex == VILLAGE


def test_a_rout_may_go_on_from_a_village():
    t = pending_rout(position({"ir18-i": VILLAGE, "6e-legere-i": nb(VILLAGE, 1, 1)}), "ir18-i")
    move = next(o for o in t.legal("austria") if o["to"] != VILLAGE)
    t.send("austria", move)
    assert t.state.units["ir18-i"].hex == move["to"] and not t.of(ev.RoutStopped)
    assert t.of(ev.UnitRetreated)[-1].rule == str(R.ROUT_MOVE)


def test_a_rout_may_stop_in_a_redoubt():
    t = pending_rout(position({"rf-1-fucilieri": REDOUBT, "42e-1": nb(REDOUBT, 1, 1)}, scenario="campotenese",
                              weather=1), "rf-1-fucilieri")
    assert {"type": "rout_move", "to": REDOUBT, "off_map": False} in t.legal("naples")
    t.send("naples", {"type": "rout_move", "to": REDOUBT})
    assert t.of(ev.RoutStopped)[-1].reason == "redoubt"


def test_no_stop_in_the_open_without_a_general():
    t = pending_rout(position({"ir18-i": X, "6e-legere-i": nb(X, 1, 1)}), "ir18-i")
    options = t.legal("austria")
    assert options and all(GRID.distance(o["to"], X) == 2 for o in options)
    e = refused(t, "austria", {"type": "rout_move", "to": X})
    assert e.rule == str(R.ROUT_MOVE) and "village, redoubt or friendly general" in str(e)


def test_a_rout_may_stop_with_a_friendly_general_of_another_formation():
    """Reading generals_and_chief (default): any friendly general - Vogelsang is not the general of ir18-i (G)."""
    t = pending_rout(position({"ir18-i": X, "6e-legere-i": nb(X, 1, 1)}, leaders={"vogelsang": X}), "ir18-i")
    assert {"type": "rout_move", "to": X, "off_map": False} in t.legal("austria")
    t.send("austria", {"type": "rout_move", "to": X})
    assert t.of(ev.RoutStopped)[-1].reason == "friendly general vogelsang"


def test_reading_own_general_needs_the_units_own_general():
    state = position({"ir18-i": X, "6e-legere-i": nb(X, 1, 1)}, leaders={"vogelsang": X})
    t = pending_rout(state, "ir18-i", interpretations={"rout_stop_general": "own_general"})
    assert {"type": "rout_move", "to": X, "off_map": False} not in t.legal("austria")
    assert refused(t, "austria", {"type": "rout_move", "to": X}).rule == str(R.ROUT_MOVE)
    state = position({"ir18-i": X, "6e-legere-i": nb(X, 1, 1)}, leaders={"gottesheim": X})
    t = pending_rout(state, "ir18-i", interpretations={"rout_stop_general": "own_general"})
    assert {"type": "rout_move", "to": X, "off_map": False} in t.legal("austria")


def test_officers_do_not_stop_a_rout():
    t = pending_rout(position({"ir18-i": X, "6e-legere-i": nb(X, 1, 1)}, leaders={"oreilly": X}), "ir18-i")
    assert {"type": "rout_move", "to": X, "off_map": False} not in t.legal("austria")


def test_a_rout_may_stop_in_a_village_on_its_way():
    """The first hex of a permitted line is a village: the unit may stop there after one hex."""
    start = nb(VILLAGE, 4)
    t = pending_rout(position({"ir18-i": start, "6e-legere-i": nb(start, 4)}), "ir18-i")
    assert {"type": "rout_move", "to": VILLAGE, "off_map": False} in t.legal("austria")
    t.send("austria", {"type": "rout_move", "to": VILLAGE})
    assert t.of(ev.UnitRetreated)[-1].path == (VILLAGE,) and t.of(ev.RoutStopped)[-1].hex == VILLAGE


def test_the_end_phase_waits_for_each_rout_move():
    """arrivano §3.1 C: each routed unit's move is its owner's decision; the turn ends after the last one."""
    state = position({"ir18-i": X, "ir18-ii": nb(X, 3, 3, 3), "6e-legere-i": nb(X, 1, 1)}, leaders={"watrin": "3914"})
    for uid in ("ir18-i", "ir18-ii"):
        state.units[uid].status = "routed"
    for f in state.formations.values():
        f.activated = f.side == "austria" or f is not state.formations["W"]
    state.formations["W"].activated = False
    t = at_step(state, "W", "combat")
    t.send("france", {"type": "end_step"})
    turn = t.state.turn
    first = t.pending()
    assert (first.kind, first.seat) == ("rout_move", "austria") and t.state.phase == "end"
    t.send("austria", first.options[0])
    second = t.pending()
    assert second.kind == "rout_move" and t.state.turn == turn
    t.send("austria", second.options[0])
    assert t.state.turn == turn + 1
    assert len([e for e in t.of(ev.UnitRetreated) if e.rule == str(R.ROUT_MOVE)]) == 2


# --- §11.1 artillery with retreating units ---------------------------------------------------------------------------


def bombarded() -> Table:
    """French guns of C (4 together) bombard ir18-i stacked with art-gottesheim from one hex away: a 5 is row 6, R."""
    target = nb(X, 1)
    state = position({"art-herbin": X, "art-rivaud": X, "ir18-i": target, "art-gottesheim": target},
                     leaders={"chambarlac": X}, orders={"C": "defence"})
    t = at_step(state, "C", "bombardment")
    t.send("france", {"type": "bombard", "units": ["art-herbin", "art-rivaud"], "target": target}, [5])
    assert t.of(ev.ArtilleryFired)[-1].result == "R"
    return t


def test_bombarded_artillery_may_retreat_with_its_unit_turned_to_moved():
    t = bombarded()
    pending = t.pending()
    assert (pending.kind, pending.seat, pending.rule) == ("artillery_retreat", "austria", str(ARRIVANO_VARIANT.rules.ARTILLERY_STACKED))
    assert pending.options == [{"type": "artillery_retreat", "units": ["art-gottesheim"]},
                               {"type": "artillery_retreat", "units": []}]
    t.send("austria", {"type": "artillery_retreat", "units": ["art-gottesheim"]})
    turned = t.of(ev.ArtilleryTurned)[-1]
    assert turned.units == ["art-gottesheim"] and turned.moved and turned.rule == str(ARRIVANO_VARIANT.rules.ARTILLERY_STACKED)
    retreat = t.pending()
    assert retreat.kind == "retreat" and all(o["units"] == ["art-gottesheim", "ir18-i"] for o in retreat.options)
    t.send("austria", retreat.options[0])
    gun, unit = t.state.units["art-gottesheim"], t.state.units["ir18-i"]
    assert gun.hex == unit.hex != nb(X, 1) and gun.art_moved and gun.where == "map"


def test_bombarded_artillery_may_stay():
    t = bombarded()
    t.send("austria", {"type": "artillery_retreat", "units": []})
    retreat = t.pending()
    assert retreat.kind == "retreat" and all(o["units"] == ["ir18-i"] for o in retreat.options)
    t.send("austria", retreat.options[0])
    gun = t.state.units["art-gottesheim"]
    assert gun.hex == nb(X, 1) and gun.where == "map" and not gun.art_moved


def test_only_stacked_guns_may_go_with_the_bombarded_units():
    t = bombarded()
    e = refused(t, "austria", {"type": "artillery_retreat", "units": ["art-vogelsang"]})
    assert e.rule == str(ARRIVANO_VARIANT.rules.ARTILLERY_STACKED)
    e = refused(t, "france", {"type": "artillery_retreat", "units": []})  # not the owner's decision
    assert e.rule == str(ARRIVANO_VARIANT.rules.ARTILLERY_STACKED)


def test_a_retreating_gun_never_leaves_its_unit():
    """Once the gun goes, the stack may not split so as to leave the gun alone (§11.1 'con l'unità')."""
    t = bombarded()
    t.send("austria", {"type": "artillery_retreat", "units": ["art-gottesheim"]})
    to = t.pending().options[0]["to"]
    e = refused(t, "austria", {"type": "retreat", "to": to, "units": ["ir18-i"]})
    assert e.rule == str(ARRIVANO_VARIANT.rules.ARTILLERY_STACKED)


def test_artillery_with_attackers_eliminated_by_an_assault_is_eliminated():
    """§11.1 assault case: AE eliminates the attacker; the gun stacked with it, left without a combat unit, too."""
    D = nb(X, 1)
    state = position({"6e-legere-i": X, "art-watrin": X, "ir40-ii-iii": D}, leaders={"watrin": nb(X, 4)},
                     orders={"W": "attack"})
    t = at_step(state, "W", "combat")
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i"], "targets": [D]}, [1])
    assert t.of(ev.AssaultResolved)[-1].result == "Ae"
    gun = next(e for e in t.of(ev.UnitEliminated) if e.unit == "art-watrin")
    assert gun.rule == str(ARRIVANO_VARIANT.rules.ARTILLERY_STACKED) and t.state.units["art-watrin"].where == "eliminated"


def test_artillery_with_defenders_retreating_after_an_assault_is_eliminated():
    D = nb(X, 1)
    state = position({"6e-legere-i": X, "ir18-i": D, "art-gottesheim": D}, leaders={"watrin": nb(X, 4)},
                     orders={"W": "attack"})
    state.units["art-gottesheim"].art_moved = True  # no defensive bombardment (§11.4.4) to answer first
    t = at_step(state, "W", "combat")
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i"], "targets": [D]}, [6, 2])  # Dr, test passed
    assert t.of(ev.AssaultResolved)[-1].result == "Dr"
    gun = next(e for e in t.of(ev.UnitEliminated) if e.unit == "art-gottesheim")
    assert gun.rule == str(ARRIVANO_VARIANT.rules.ARTILLERY_STACKED)


# --- through the whole procedure: surrounded (§12.6.3) against off the map (§12.8.1); a ruling in force ----------


def dr_against(defender_hex: str, french: dict[str, str]) -> Table:
    """6e-legere-i (in `french`) attacks ir18-i in `defender_hex`; a 6 then a passed DR test: a one-hex retreat."""
    attacker = french["6e-legere-i"]
    state = position({"ir18-i": defender_hex} | french, leaders={"watrin": attacker}, orders={"W": "attack"})
    t = at_step(state, "W", "combat")
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i"], "targets": [defender_hex]}, [6, 2])
    assert t.of(ev.AssaultResolved)[-1].result == "Dr"
    return t


W_UNITS = ["6e-legere-i", "6e-legere-ii", "6e-legere-iii", "22e-i", "22e-ii", "22e-iii"]


def test_a_surrounded_defender_is_eliminated_under_12_6_3():
    """No hex to retreat into and no map edge: §12.6.3, not §12.8.1 (resolved without a decision)."""
    D = nb(X, 1)
    t = dr_against(D, dict(zip(W_UNITS, sorted(GRID.neighbours(D)))))
    gone = [e for e in t.of(ev.UnitEliminated) if e.unit == "ir18-i"]
    assert gone and gone[0].permanent and gone[0].rule == str(ARRIVANO_VARIANT.rules.RETREAT_BLOCKED)


def test_a_defender_against_the_map_edge_is_eliminated_under_12_8_1():
    """The same on the map edge: the only way out is off the map (resolved without a decision: one option)."""
    t = dr_against(E, dict(zip(W_UNITS, E_NEXT)))
    gone = [e for e in t.of(ev.UnitEliminated) if e.unit == "ir18-i"]
    assert gone and gone[0].permanent and gone[0].rule == str(ARRIVANO_VARIANT.rules.OFF_MAP)
    assert t.pending() is None or t.pending().kind != "retreat"


def test_an_umpire_ruling_reaches_the_state_legal_reads():
    """The fold keeps the readings in the state at the ruling itself (note_interpretations)."""
    from arbitro.adjudicator.service import Arbitro
    from arbitro.events.sqlite import SQLiteStore

    app = Arbitro(SQLiteStore(":memory:"))
    gid = app.create("arrivano", "montebello", ())
    ruling = {"off_map_retreat": "farthest", "rout_stop_general": "own_general"}
    app.submit(gid, "umpire", {"type": "ruling", "reason": "retreat readings", "interpretation": ruling})
    rules = app.state_at(gid).rules
    assert rules.interpretations == ruling
    w = RULESET.world(rules)
    assert (w.reading("off_map_retreat"), w.reading("neapolitan_retreat_flags")) == ("farthest", "exit_not_eliminated")


# --- retreats before combat: cavalry (§14.1) and V units (§16.3.5) through the same lines -------------------------
# Interpretation retreat_before_combat_off_map: `stays_on_map` (default: "obbligate a ritirarsi", §12.8.1, is not a
# chosen retreat) or `as_forced` (the lines of a forced retreat, exits included).

LIGHT_OPTIONS = ["light_troops_retreat", "open_order", "physical_exhaustion"]
FILLERS = ["ir18-i", "ir18-ii", "ir28-i", "ir28-ii", "ir17-i", "ir17-ii", "ir40-i", "ir51-i", "ir13-i", "ir18-iii"]


def assaulted(defenders: dict[str, str], french: dict[str, str], interpretations: dict[str, str] | None = None,
              v_unit: str | None = None, dice: list[int] | None = None) -> Table:
    """6e-legere-i (in `french`, with watrin) declares an assault on the hex of the first defender."""
    state = position(defenders | french, leaders={"watrin": french["6e-legere-i"]}, orders={"W": "attack"})
    if v_unit is not None:
        state.options = list(LIGHT_OPTIONS)
        state.units[v_unit].open_order, state.units[v_unit].marker_turn = "V", 2
    t = Table(at_step(state, "W", "combat").state, interpretations)
    target = next(iter(defenders.values()))
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i"], "targets": [target]}, dice)
    return t


def at_edge(free: bool = False) -> dict[str, str]:
    """The French around the edge hex E: the attacker in E_NEXT[1]; E_NEXT[0] left free if `free`."""
    hexes = E_NEXT[1:] if free else E_NEXT
    attacker = E_NEXT[1]
    others = [h for h in hexes if h != attacker]
    return {"6e-legere-i": attacker} | dict(zip(W_UNITS[1:], others))


def crowded_around(defender: str) -> dict[str, str]:
    """`defender` at X, the attacker's neighbours (directions 0, 2) French, the other three holding two Austrian
    infantry each: a one-hex retreat has no room anywhere."""
    return {defender: X, "22e-i": nb(X, 0), "22e-ii": nb(X, 2)} | {
        u: nb(X, d) for d, pair in zip((3, 4, 5), zip(FILLERS[::2], FILLERS[1::2])) for u in pair}


def stay(kind: str) -> dict[str, Any]:
    return ({"type": "cavalry_retreat", "to": None, "units": None, "off_map": False} if kind == "cavalry_retreat"
            else {"type": "light_retreat", "unit": None, "to": None, "off_map": False})


def test_cavalry_may_not_retreat_off_the_map_before_combat():
    """Reading stays_on_map: the only way out is off the map, and nobody obliges the cavalry: no retreat is offered,
    the assault is fought."""
    t = assaulted({"bussy": E}, at_edge())
    assert not [e for e in t.events if isinstance(e, core.DecisionOpened) and e.frame.kind == "cavalry_retreat"]
    assert t.of(ev.AssaultResolved)[-1].result != "cancelled"
    assert not [e for e in t.of(ev.UnitRetreated) if e.unit == "bussy" and e.rule.startswith(str(ARRIVANO_VARIANT.rules.CAVALRY_RETREAT))]


def test_reading_as_forced_lets_cavalry_leave_the_map_eliminated():
    t = assaulted({"bussy": E}, at_edge(), {"retreat_before_combat_off_map": "as_forced"})
    pending = t.pending()
    assert pending.kind == "cavalry_retreat"
    leave = {"type": "cavalry_retreat", "to": E, "units": ["bussy"], "off_map": True}
    assert pending.options == [leave, stay("cavalry_retreat")]
    t.send("austria", leave)
    gone = t.of(ev.UnitEliminated)[-1]
    assert (gone.unit, gone.permanent, gone.rule) == ("bussy", True, str(ARRIVANO_VARIANT.rules.OFF_MAP))
    assert gone.cause == f"{ARRIVANO_VARIANT.rules.CAVALRY_RETREAT}; {ARRIVANO_VARIANT.rules.OFF_MAP}"
    assert t.of(ev.AssaultResolved)[-1].result == "cancelled"
    assert t.pending().kind == "advance"


def test_cavalry_at_the_edge_keeps_to_the_map_under_either_off_map_reading():
    """stays_on_map ignores exits even when off_map_retreat is farthest; as_forced with farthest must leave."""
    t = assaulted({"bussy": E}, at_edge(free=True), {"off_map_retreat": "farthest"})
    on_map = {"type": "cavalry_retreat", "to": E_NEXT[0], "units": ["bussy"], "off_map": False}
    assert t.pending().options == [on_map, stay("cavalry_retreat")]
    e = refused(t, "austria", {"type": "cavalry_retreat", "to": E, "units": ["bussy"], "off_map": True})
    assert e.rule == str(ARRIVANO_VARIANT.rules.CAVALRY_RETREAT) and str(ARRIVANO_VARIANT.rules.OFF_MAP) in str(e) and "never off the map" in str(e)
    e = refused(t, "austria", {"type": "cavalry_retreat", "to": E_NEXT[0], "units": None})  # a listed end, no units
    assert e.rule == str(ARRIVANO_VARIANT.rules.CAVALRY_RETREAT) and "name the units that retreat: bussy" in str(e)
    e = refused(t, "austria", {"type": "cavalry_retreat", "to": E_NEXT[0]})  # units left out with a hex: named
    assert "name the units that retreat: bussy" in str(e)
    t.send("austria", on_map)
    assert t.state.units["bussy"].hex == E_NEXT[0]
    forced = assaulted({"bussy": E}, at_edge(free=True),
                       {"off_map_retreat": "farthest", "retreat_before_combat_off_map": "as_forced"})
    assert forced.pending().options == [
        {"type": "cavalry_retreat", "to": E, "units": ["bussy"], "off_map": True}, stay("cavalry_retreat")]


def test_cavalry_with_no_lawful_hex_is_asked_under_the_fog_and_may_only_stay():
    """§14.1 "possono ritirarsi di un esagono", reading retreat_before_combat_length one_hex (default): every
    neighbour is full (§7.1), and §12.6.2's going on is a forced retreat's, so no line is lawful. Under the fog
    (always Arrivano's, §11.3.2) whether the neighbours may hold the cavalry is not the attacker's to learn: it is asked
    all the same (a line starts), and may only stay; the assault goes on."""
    t = assaulted(crowded_around("bussy"), {"6e-legere-i": nb(X, 1)})
    assert t.pending().kind == "cavalry_retreat"
    assert t.pending().options == [stay("cavalry_retreat")]
    e = refused(t, "austria", {"type": "cavalry_retreat", "to": nb(X, 4), "units": ["bussy"]})
    assert e.rule == str(ARRIVANO_VARIANT.rules.CAVALRY_RETREAT)
    t.send("austria", stay("cavalry_retreat"))
    assert t.state.units["bussy"].hex == X and t.of(ev.AssaultResolved)[-1].defenders == ("bussy",)


def test_a_refused_end_says_the_reading_in_force():
    """A hex a line reaches only by going on is refused in the words of reading one_hex (§7.1, §12.6.2 a forced
    retreat's); a bad hex under goes_on in §12.6.2's."""
    free = {u: h for u, h in crowded_around("bussy").items() if h != nb(X, 3)}
    t = assaulted(free, {"6e-legere-i": nb(X, 1)})
    e = refused(t, "austria", {"type": "cavalry_retreat", "to": nb(X, 4), "units": ["bussy"]})
    assert "never going on past a full one" in str(e) and "one_hex" in str(e)
    on = assaulted(crowded_around("bussy"), {"6e-legere-i": nb(X, 1)}, {"retreat_before_combat_length": "goes_on"})
    e = refused(on, "austria", {"type": "cavalry_retreat", "to": nb(X, 4), "units": ["bussy"]})
    assert "going on past full hexes" in str(e) and str(ARRIVANO_VARIANT.rules.RETREAT_STACKING) in str(e)


def test_reading_goes_on_lets_the_cavalry_go_on_past_full_hexes():
    """Reading retreat_before_combat_length goes_on: §12.6.2 as in any retreat, every neighbour full, the retreat goes
    on to a hex with room, citing §12.6.2."""
    t = assaulted(crowded_around("bussy"), {"6e-legere-i": nb(X, 1)}, {"retreat_before_combat_length": "goes_on"})
    options = t.pending().options
    ends = [o for o in options if o["to"] is not None]
    assert ends and all(GRID.distance(o["to"], X) == 2 and not o["off_map"] for o in ends)
    e = refused(t, "austria", {"type": "cavalry_retreat", "to": nb(X, 4), "units": None})
    assert e.rule == str(ARRIVANO_VARIANT.rules.CAVALRY_RETREAT) and str(ARRIVANO_VARIANT.rules.RETREAT_STACKING) in str(e)
    t.send("austria", ends[0])
    moved = t.of(ev.UnitRetreated)[-1]
    assert moved.unit == "bussy" and len(moved.path) == 2
    assert str(ARRIVANO_VARIANT.rules.CAVALRY_RETREAT) in moved.rule and str(ARRIVANO_VARIANT.rules.RETREAT_STACKING) in moved.rule
    assert t.state.units["bussy"].hex == ends[0]["to"]


def test_stacked_cavalry_may_part_and_the_rest_stay():
    """§14.1 with §12.6: each eligible unit may go (where it likes) or stay; after a part goes the rest answer."""
    t = assaulted({"bussy": nb(X, 1), "nauendorff-i": nb(X, 1)}, {"6e-legere-i": X})
    options = t.pending().options
    alone = next(o for o in options if o["units"] == ["bussy"])
    assert any(o["units"] == ["bussy", "nauendorff-i"] for o in options)
    assert any(o["units"] == ["nauendorff-i"] for o in options)
    t.send("austria", alone)
    pending = t.pending()
    assert pending.kind == "cavalry_retreat"
    assert {tuple(o["units"] or ()) for o in pending.options} == {("nauendorff-i",), ()}
    e = refused(t, "austria", {"type": "cavalry_retreat", "to": alone["to"], "units": ["bussy"]})
    assert e.rule == str(ARRIVANO_VARIANT.rules.CAVALRY_RETREAT) and "nauendorff-i" in str(e)
    t.send("austria", stay("cavalry_retreat"))
    assert t.state.units["bussy"].hex == alone["to"] and t.state.units["nauendorff-i"].hex == nb(X, 1)
    assert t.of(ev.AssaultResolved)[-1].defenders == ("nauendorff-i",)


def test_stacked_cavalry_named_in_another_order_retreats_as_listed():
    """§14.1 "possono ritirarsi": which units go is the answer, not the order they are named in (reread-b: the listed
    units named the other way round were refused "name the units that retreat"); stored in the listing's order."""
    t = assaulted({"bussy": nb(X, 1), "nauendorff-i": nb(X, 1)}, {"6e-legere-i": X})
    both = next(o for o in t.pending().options if o["units"] == ["bussy", "nauendorff-i"])
    named = {**both, "units": ["nauendorff-i", "bussy"]}
    assert t.engine.parse(named)[1] == both  # what is stored
    t.send("austria", named)
    assert t.state.units["bussy"].hex == t.state.units["nauendorff-i"].hex == both["to"]


def test_a_v_unit_at_the_edge_may_not_retreat_off_the_map_before_combat():
    t = assaulted({"mariassy-jager": E}, at_edge(), v_unit="mariassy-jager")
    assert not [e for e in t.events if isinstance(e, core.DecisionOpened) and e.frame.kind == "light_retreat"]
    assert t.of(ev.AssaultResolved)[-1].result != "cancelled"


def test_reading_as_forced_lets_a_v_unit_leave_the_map_on_a_passed_test():
    t = assaulted({"mariassy-jager": E}, at_edge(), {"retreat_before_combat_off_map": "as_forced"},
                  v_unit="mariassy-jager")
    leave = {"type": "light_retreat", "unit": "mariassy-jager", "to": E, "off_map": True}
    assert t.pending().options == [leave, stay("light_retreat")]
    e = refused(t, "austria", {"type": "light_retreat", "unit": "mariassy-jager", "to": E})  # not off_map
    assert e.rule == str(R.LIGHT_RETREAT) and "permitted: " + E + " off the map" in str(e)
    t.send("austria", leave, dice=[2])
    gone = t.of(ev.UnitEliminated)[-1]
    assert gone.unit == "mariassy-jager" and gone.permanent and gone.cause == f"{R.LIGHT_RETREAT}; {ARRIVANO_VARIANT.rules.OFF_MAP}"
    assert t.of(ev.AssaultResolved)[-1].result == "cancelled"


def test_a_v_unit_with_no_lawful_hex_is_asked_and_may_only_stay():
    """§16.3.5 "si ritira di un esagono", reading one_hex: as the cavalry, asked under the fog, staying its one
    answer."""
    t = assaulted(crowded_around("mariassy-jager"), {"6e-legere-i": nb(X, 1)}, v_unit="mariassy-jager")
    assert t.pending().kind == "light_retreat" and t.pending().options == [stay("light_retreat")]


def test_reading_goes_on_lets_a_v_unit_go_on_past_full_hexes():
    t = assaulted(crowded_around("mariassy-jager"), {"6e-legere-i": nb(X, 1)},
                  {"retreat_before_combat_length": "goes_on"}, v_unit="mariassy-jager")
    pending = t.pending()
    assert pending.kind == "light_retreat"
    ends = [o for o in pending.options if o["to"] is not None]
    assert ends and all(GRID.distance(o["to"], X) == 2 for o in ends)
    t.send("austria", ends[-1], dice=[2])
    moved = t.of(ev.UnitRetreated)[-1]
    assert len(moved.path) == 2 and str(R.LIGHT_RETREAT) in moved.rule and str(ARRIVANO_VARIANT.rules.RETREAT_STACKING) in moved.rule
    assert t.state.units["mariassy-jager"].hex == ends[-1]["to"]


# --- elimination events name their cause (§12.8 with the rule that caused it) --------------------------------------


def run(t: Table, act: Any, dice: list[int] | None = None) -> list[Any]:
    """Run `act(game)` on the table's state (as the flow would, inside a decision) and return its eliminations."""
    ctx = t.decision("umpire", list(dice or []))
    act(RULESET.game(ctx))
    return [e for e in ctx.events if isinstance(e, ev.UnitEliminated)]


@pytest.mark.parametrize("rule, result", [(ARRIVANO_VARIANT.rules.RESULTS, "Ae"), (ARRIVANO_VARIANT.rules.RESULTS, "De"), (ARRIVANO_VARIANT.rules.RESULTS, "Ex"),
                                          (R.ARTILLERY_ALONE, "")])
def test_a_flipped_unit_names_its_cause_and_12_8(rule: Any, result: str):
    t = Table(position({"ir18-i": X}))
    gone = run(t, lambda g: elimination.eliminate(g, ARRIVANO_VARIANT, "ir18-i", rule, result=result))
    cause = f"{rule} ({result} result)" if result else str(rule)
    assert len(gone) == 1 and not gone[0].permanent  # full strength with a reduced side: flipped (§12.8)
    assert gone[0].cause == cause and gone[0].rule == f"{cause}; {ARRIVANO_VARIANT.rules.ELIMINATED}"


def test_an_ae_through_the_table_names_ae():
    state = position({"6e-legere-i": X, "ir40-ii-iii": nb(X, 1)}, leaders={"watrin": nb(X, 4)}, orders={"W": "attack"})
    t = at_step(state, "W", "combat")
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i"], "targets": [nb(X, 1)]}, [1])  # 1-2: AE
    gone = t.of(ev.UnitEliminated)[-1]
    assert (gone.unit, gone.permanent, gone.cause) == ("6e-legere-i", False, f"{ARRIVANO_VARIANT.rules.RESULTS} (Ae result)")
    assert gone.rule == f"{ARRIVANO_VARIANT.rules.RESULTS} (Ae result); {ARRIVANO_VARIANT.rules.ELIMINATED}"


def test_a_bombarded_unit_with_nowhere_to_go_names_the_bombardment():
    """A bombardment's R retreat (§11) that has no hex: §12.6.3 after the bombardment table's citation."""
    t = pending_retreat(position({"ir18-i": X} | dict(zip(W_UNITS, GRID.neighbours(X)))), ["ir18-i"],
                        rule=R.BOMBARD_TABLE)
    gone = run(t, lambda g: settle(g))
    assert gone[0].unit == "ir18-i" and gone[0].permanent and gone[0].rule == str(ARRIVANO_VARIANT.rules.RETREAT_BLOCKED)
    assert gone[0].cause == f"{R.BOMBARD_TABLE}; {ARRIVANO_VARIANT.rules.RETREAT_BLOCKED}"


def test_a_routed_unit_that_surrenders_names_15_2():
    state = position({"ir18-i": X, "6e-legere-i": nb(X, 1)})
    state.units["ir18-i"].status = "routed"
    gone = run(Table(state), lambda g: rout.checks(g, ARRIVANO_VARIANT, nb(X, 1)), dice=[6])  # the test fails: surrender
    assert (gone[0].unit, gone[0].permanent, gone[0].cause) == ("ir18-i", True, str(ARRIVANO_VARIANT.rules.ROUT))


def test_a_dr_retreat_off_the_map_names_the_dr_and_12_8_1():
    """The DR's one-hex retreat is forced by §12.5.4 in both games (results.dr_retreat; Arrivano's cited §12.6 until
    the eighteenth session)."""
    t = dr_against(E, dict(zip(W_UNITS, E_NEXT)))
    gone = [e for e in t.of(ev.UnitEliminated) if e.unit == "ir18-i"]
    assert gone[0].cause == f"{ARRIVANO_VARIANT.rules.RESULTS}; {ARRIVANO_VARIANT.rules.OFF_MAP}"


def test_a_de_through_the_table_names_de():
    state = position({"6e-legere-i": X, "6e-legere-ii": X, "mariassy-jager": nb(X, 1)}, leaders={"watrin": nb(X, 4)},
                     orders={"W": "attack"})
    t = at_step(state, "W", "combat")
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i", "6e-legere-ii"], "targets": [nb(X, 1)]}, [5])
    gone = t.of(ev.UnitEliminated)[-1]  # 5-1: DE; no reduced side: for good (§12.8)
    assert (gone.unit, gone.permanent, gone.cause) == ("mariassy-jager", True, f"{ARRIVANO_VARIANT.rules.RESULTS} (De result)")


def test_a_charge_whose_target_hex_emptied_attacks_nothing():
    """A retreat (before combat, or a rout it sets off) may empty the hex a cavalry charged (§14.2.1): no assault on
    the empty hex is offered or owed; with the enemy still there it is."""
    state = position({"12e-hussards": X, "ir18-i": nb(X, 3, 3)}, leaders={"lannes": X}, orders={"L": "attack"})
    state.units["12e-hussards"].charge = nb(X, 1)
    t = at_step(state, "L", "combat")
    assert not [c for c in t.legal("france") if c["type"] == "assault"] and {"type": "end_step"} in t.legal("france")
    t.state.units["ir18-i"].hex = nb(X, 1)
    assert {"type": "assault", "attackers": ["12e-hussards"], "targets": [nb(X, 1)]} in t.legal("france")


# --- §12.6.1 with §15.2.1: a retreat through enemy ZoC that routs -------------------------------------------------


def test_a_disordered_unit_routed_by_retreating_into_enemy_zoc_retreats_two_more_hexes():
    """arrivano §12.6.1 with §15.2.1 (issue 19 defect 2, its retreat case): a disordered unit whose only retreat
    ends in enemy ZoC takes another disorder level there and routs (§15.1.1); routed by a combat result, it "si deve
    immediatamente ritirare di 2 esagoni", enemy ZoC ignored. Before, it was left routed where the retreat ended."""
    around = [nb(X, d) for d in (0, 2, 4)]  # every free neighbour of X is next to two of them: all in enemy ZoC
    state = position({"6e-legere-i": X} | dict(zip(AUSTRIANS, around)))
    state.units["6e-legere-i"].status = "disordered"
    t = pending_retreat(state, ["6e-legere-i"])
    first = t.legal("france")[0]
    t.send("france", first)
    assert t.state.units["6e-legere-i"].status == "routed"
    rout_retreat = t.pending()
    assert (rout_retreat.kind, rout_retreat.seat, rout_retreat.rule) == ("retreat", "france", str(ARRIVANO_VARIANT.rules.ROUT_COMBAT))
    t.send("france", rout_retreat.options[0])
    unit = t.state.units["6e-legere-i"]
    assert unit.where == "eliminated" or GRID.distance(unit.hex, first["to"]) == 2


def test_a_commander_left_alone_by_a_retreat_off_the_map_tests_once():
    """arrivano §4.5.4, §12.8.1: the stack forced off the map is eliminated and its commander, left alone, tests
    once (a 6: he survives) and then asks for his refuge once - not again for the same emptied hex."""
    state = position({"6e-legere-i": E} | dict(zip(AUSTRIANS, E_NEXT)), leaders={"watrin": E})
    t = pending_retreat(state, ["6e-legere-i"])
    t.send("france", t.legal("france")[0], [6, 6])
    tests = [d for d in t.of(core.DiceRolled) if "commander test" in d.purpose]
    assert len(tests) == 1 and t.state.leaders["watrin"].where == "map"
    assert [e.frame.kind for e in t.of(core.DecisionOpened)] == ["commander_refuge"]


def test_a_rout_stop_in_a_village_with_a_redoubt_is_named_by_the_terrain_tables_order() -> None:
    """arrivano §15.2.2 (review rev-kernel 4): whichever order a user's map lists a hex's terrains in, the terrain
    table's order names the stop (village before redoubt); no shipped hex has both, so only such a map tells."""
    table = ARRIVANO_DATA.shipped().tables.terrain
    for terrains in (["ridotta", "villaggio"], ["villaggio", "ridotta"]):
        w = SimpleNamespace(terrain_table=table, hexmap=SimpleNamespace(hex=lambda h, t=terrains: SimpleNamespace(terrains=t)))
        assert retreats.stop_reason(w, "any-unit", "0101") == "village", terrains
