"""The sequence of play (caldiero §3, §6) as a state machine, and every command's check and effect.

Each command has a `check_*` (raises Reject with the rule it enforces; legal.py lists candidates that pass
the same checks) and a `do_*` that emits events. After every command `settle` runs the automatic steps
(weather, initiative, empty steps) until some seat must decide. Multi-step procedures (an assault, a
retreat, an exchange) are frames on `state.stack`: the top frame's seat answers, and `resume` continues
the procedure from the stage recorded in the state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arbitro.adjudicator.caldiero import commands as C
from arbitro.adjudicator.caldiero import fog as FOG
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.board import Board
from arbitro.adjudicator.caldiero.loader import CaldieroData
from arbitro.adjudicator.caldiero.profile import CALDIERO
from arbitro.adjudicator.caldiero.system_bombard import fire_calc, fire_result, targets
from arbitro.adjudicator.caldiero.system_combat import clamp_drm, final_column, look_up, odds_index, odds_label
from arbitro.adjudicator.caldiero.system_command import in_cinc_range, in_command, reach
from arbitro.adjudicator.caldiero.system_efficiency import general_bonus, passes, side_efficiency_choices
from arbitro.adjudicator.caldiero.system_movement import (
    Group, MoveProblem, Route, check_path, leader_reachable, make_group, reachable, stack_problem, stacking_problem,
)
from arbitro.adjudicator.caldiero.system_orders import ALLOWS_ASSAULT, ALLOWS_COLUMN, ALLOWS_REORGANISE, ORDERS, artillery_orders, unit_order
from arbitro.adjudicator.caldiero.system_retreat import retreat_paths
from arbitro.adjudicator.caldiero.system_world import World
from arbitro.adjudicator.caldiero.system_zoc import enemy_zoc, exerts_zoc, projecting_into
from arbitro.adjudicator.hexgrid import parse_hex
from arbitro.adjudicator.ruleset import Decision, Rule
from arbitro.events import caldiero as ev
from arbitro.projections.caldiero import CaldieroState, enemy_of


class Reject(Exception):
    def __init__(self, rule: Rule | str, message: str) -> None:
        super().__init__(message)
        self.rule, self.message = str(rule), message


@dataclass
class Env:
    data: CaldieroData
    board: Board


def world_of(state: CaldieroState, env: Env, reading: Any) -> World:
    return World(state=state, data=env.data, board=env.board, profile=CALDIERO, reading=reading)


class Act:
    """A thin wrapper over the Decision: emit with the current World rebuilt lazily."""

    def __init__(self, ctx: Decision[CaldieroState], env: Env) -> None:
        self.ctx, self.env = ctx, env
        self._world: World | None = None

    @property
    def state(self) -> CaldieroState:
        return self.ctx.state

    @property
    def w(self) -> World:
        if self._world is None:
            self._world = world_of(self.ctx.state, self.env, self.ctx.interpretation)
        return self._world

    def emit(self, event: Any) -> None:
        self.ctx.emit(event)
        self._world = None
        if "fog_of_war" in self.ctx.state.options and isinstance(event, FOG.SIGHT_EVENTS):
            for sighted in FOG.sightings(self.w):  # caldiero §20.4: what each seat now examines
                self.ctx.emit(sighted)
            self._world = None

    def roll(self, purpose: str, detail: dict[str, str | int], count: int = 1) -> tuple[int, ...]:
        if "fog_of_war" in self.state.options:
            detail = {k: _anonymous(v, self.state) for k, v in detail.items()}  # caldiero §20.4: no unit names
            purpose = str(_anonymous(purpose, self.state))
        values = self.ctx.roll(count, 6, purpose=purpose, detail=detail)
        self._world = None
        return values

    def reading(self, name: str) -> str:
        return self.ctx.interpretation(name)


def _anonymous(value: str | int, state: CaldieroState) -> str | int:
    """Dice details name units; with fog of war they say only the arm, so the public roll log hides the stack."""
    if not isinstance(value, str):
        return value
    for u in sorted(state.units, key=len, reverse=True):
        if u in value:
            value = value.replace(u, state.units[u].arm)
    return value


def seat_of_formation(state: CaldieroState, formation: str) -> str:
    return state.formations[formation].side


def arrival_turn(w: World, base: int) -> int:
    shift = w.data.scenario.scenarios[w.state.scenario].reinforcement_shift  # caldiero §19.2.2
    return max(1, base + shift)


def unit_due(w: World, u: str) -> bool:
    unit = w.state.units[u]
    arrival = w.unit_data(u).arrival
    return unit.where == "offmap" and arrival is not None and arrival_turn(w, arrival.turn) <= w.state.turn


def leader_due(w: World, leader: str) -> bool:
    s = w.state.leaders[leader]
    arrival = w.leader_data(leader).arrival
    return s.where == "offmap" and arrival is not None and arrival_turn(w, arrival.turn) <= w.state.turn


# =====================================================================================================
# Set-up (caldiero §21)
# =====================================================================================================
def setup_hexes(w: World, piece: str) -> list[str]:
    if piece in w.state.units:
        setup = w.unit_data(piece).setup
    else:
        setup = w.leader_data(piece).setup
    if setup is None:
        return []
    pis = setup.pi_hexes()
    if len(pis) > 1:
        return sorted(h for h in pis if w.board.on_map(h))  # Erdödy: exactly 2014 or 2114
    return sorted(w.board.grid.within(pis[0], 1))  # caldiero §21: within one hex of the PI


def check_setup_place(w: World, seat: str, cmd: C.Place) -> None:
    piece = cmd.piece
    side = w.state.units[piece].side if piece in w.state.units else w.state.leaders[piece].side if piece in w.state.leaders else None
    if side is None:
        raise Reject(R.SETUP, f"no unit or leader {piece!r}")
    if side != seat:
        raise Reject(R.SETUP, f"{piece} is not yours")
    allowed = setup_hexes(w, piece)
    if not allowed:
        raise Reject(R.SETUP, f"{piece} is not set up on the map: it arrives as a reinforcement (caldiero §21.3, §21.4)")
    if cmd.hex not in allowed:
        raise Reject(R.SETUP, f"{piece} sets up within one hex of its PI: {', '.join(allowed)} (caldiero §21)")
    if w.enemy_units_at(cmd.hex, seat):
        raise Reject(R.SETUP, f"{cmd.hex} holds enemy units")
    if seat == "austria" and parse_hex(cmd.hex)[0] == w.data.scenario.austrian_forbidden_column:
        raise Reject(R.NO_10XX, "Austrian units never enter the 10xx row (caldiero §9.2.1)")


def do_setup_place(a: Act, cmd: C.Place) -> None:
    if cmd.piece in a.state.units:
        a.emit(ev.UnitPlaced(unit=cmd.piece, hex=cmd.hex, rule=str(R.SETUP)))
    else:
        a.emit(ev.LeaderPlaced(leader=cmd.piece, hex=cmd.hex, rule=str(R.SETUP)))


def setup_problems(w: World, side: str) -> list[str]:
    problems = []
    hexes: dict[str, list[str]] = {}
    for u in w.on_map_units():
        if w.state.units[u].side == side:
            hexes.setdefault(w.state.units[u].hex or "", []).append(u)
    for h, units in sorted(hexes.items()):
        problem = stack_problem(w, units)
        if problem:
            problems.append(f"{h}: {problem}")
    if side == "france":
        for f in ("massena", "augereau"):
            if w.state.formations[f].order is None:
                problems.append(f"choose the order of {f} (caldiero §21.2)")
    return problems


def check_setup_order(w: World, seat: str, cmd: C.SetOrder) -> None:
    if seat != "france" or cmd.formation not in ("massena", "augereau"):
        raise Reject(R.SETUP_FRANCE, "at set-up only the French choose the orders of Massena and Augereau (caldiero §21.2)")


# =====================================================================================================
# Command phase (caldiero §3.1 A)
# =====================================================================================================
def check_cinc_order(w: World, seat: str, cmd: C.SetOrder) -> None:
    f = w.state.formations.get(cmd.formation)
    if f is None or f.side != seat:
        raise Reject(R.CINC_ORDERS, f"{cmd.formation} is not one of your formations")
    cinc = w.cinc_of(seat)
    if w.option("bonaparte_intervention") and cmd.formation == "bonaparte":
        if w.leader_on_map("bonaparte") is None:
            raise Reject(R.BONAPARTE, "Bonaparte is not on the map")
        return  # caldiero §20.1.1: Bonaparte changes his own order automatically
    if w.leader_on_map(cinc) is None:
        raise Reject(R.CINC_ORDERS, f"your commander in chief ({cinc}) is not on the map (caldiero §5.2)")
    general = f.general
    where = w.leader_on_map(general)
    if where is None:
        raise Reject(R.CINC_ORDERS, f"the general of {cmd.formation} is not on the map")
    if where not in reach(w, cinc):
        raise Reject(R.GENERAL_OOC, f"{general} is out of {cinc}'s command range: only his own initiative may change the order (caldiero §5.2.1)")
    if f.order == cmd.order:
        raise Reject(R.CINC_ORDERS, f"{cmd.formation} already has a {cmd.order} order")


def reorganise_candidates(w: World, seat: str, h: str) -> list[str]:
    ezoc = enemy_zoc(w, seat)
    if h in ezoc:
        return []
    out = []
    for u in w.side_units_at(h, seat):
        if w.state.units[u].status == "good":
            continue
        if not ALLOWS_REORGANISE[standing_order(w, u)]:
            continue
        out.append(u)
    return out


def standing_order(w: World, u: str) -> str:
    """A unit's order outside an activation: its formation's if in command, else Defence (§5.3)."""
    if w.profile.has_weather and w.state.weather == 3:
        return "defence"
    f = w.formation_of(u)
    if f not in w.state.formations:
        return "defence"
    members = [x for x in w.on_map_units() if w.formation_of(x) == f]
    if u not in in_command(w, f, members):
        return "defence"
    return w.state.formations[f].order or "defence"


def check_reorganise(w: World, seat: str, cmd: C.Reorganise) -> None:
    if cmd.hex in w.state.step_done:
        raise Reject(R.RECOVERY, f"{cmd.hex} already tried to reorganise this phase")
    if not w.side_units_at(cmd.hex, seat):
        raise Reject(R.RECOVERY, f"none of your units is at {cmd.hex}")
    if cmd.hex in enemy_zoc(w, seat):
        raise Reject(R.RECOVERY, f"{cmd.hex} is in an enemy ZoC: no reorganisation there (caldiero §15.3)")
    if not reorganise_candidates(w, seat, cmd.hex):
        raise Reject(R.RECOVERY, f"no unit at {cmd.hex} in disorder or rout whose order allows reorganisation (Defence, caldiero §5.1.3, §15.3)")


def do_reorganise(a: Act, seat: str, cmd: C.Reorganise) -> None:
    units = reorganise_candidates(a.w, seat, cmd.hex)
    values = {u: a.w.efficiency(u) + general_bonus(a.w, u) for u in units}
    (roll,) = a.roll(f"{R.RECOVERY} reorganisation at {cmd.hex}", {"test": "efficiency", "hex": cmd.hex,
                     "values": ", ".join(f"{u}={v}" for u, v in values.items())})
    a.emit(ev.StepRecorded(item=cmd.hex, rule=str(R.RECOVERY)))
    for u in units:
        if passes(roll, values[u]):  # caldiero §15.3.1
            new = "disordered" if a.state.units[u].status == "routed" else "good"
            a.emit(ev.StatusChanged(unit=u, status=new, rule=str(R.RECOVERY)))


def replacement_due(w: World, seat: str) -> list[str]:
    return sorted(u for u, s in w.state.units.items()
                  if s.side == seat and s.where == "eliminated" and s.return_turn <= w.state.turn)


def replacement_generals(w: World, u: str) -> list[str]:
    f = w.state.units[u].formation
    if f == "reserve":
        return ["massena", "augereau"]  # the reserve returns with either French general (§15.4.3)
    general = w.state.formations[f].general if f in w.state.formations else None
    return [general] if general else []


def replacement_hexes(w: World, u: str) -> list[str]:
    side = w.state.units[u].side
    ezoc = enemy_zoc(w, side)
    out = set()
    for general in replacement_generals(w, u):
        where = w.leader_on_map(general)
        if where is None:
            continue
        for h in w.board.grid.within(where, 1):  # caldiero §12.8: with the general or adjacent
            if h in ezoc or w.enemy_units_at(h, side):
                continue
            if side == "austria" and parse_hex(h)[0] == w.data.scenario.austrian_forbidden_column:
                continue
            if stack_problem(w, w.side_units_at(h, side) + [u]) is None:
                out.add(h)
    return sorted(out)


def check_replacement(w: World, seat: str, cmd: C.Place) -> None:
    if cmd.piece not in replacement_due(w, seat):
        raise Reject(R.ELIMINATED, f"{cmd.piece} is not an eliminated unit of yours due back this turn (caldiero §12.8)")
    if cmd.hex not in replacement_hexes(w, cmd.piece):
        raise Reject(R.ELIMINATED, f"{cmd.piece} returns with its general or adjacent, not in enemy ZoC, within stacking limits (caldiero §12.8)")


# =====================================================================================================
# Initiative and activation (caldiero §6)
# =====================================================================================================
def formation_present(w: World, f: str) -> bool:
    fs = w.state.formations[f]
    if arrival_turn(w, fs.arrival_turn) > w.state.turn:
        return False
    members = [u for u, s in w.state.units.items() if s.formation == f]
    if any(w.state.units[u].where == "map" or unit_due(w, u) for u in members):
        return True
    return w.leader_on_map(fs.general) is not None or (fs.general is not None and leader_due(w, fs.general))


def eligible_formations(w: World) -> list[str]:
    return sorted(f for f, s in w.state.formations.items() if not s.activated and formation_present(w, f))


def check_activate(w: World, seat: str, cmd: C.Activate) -> None:
    if cmd.formation not in w.state.formations:
        raise Reject(R.ACTIVATION, f"no formation {cmd.formation!r}")
    if cmd.formation not in eligible_formations(w):
        raise Reject(R.ACTIVATION, f"{cmd.formation} is already activated this turn or not on the map (caldiero §6.2)")
    if w.state.first_turn and w.state.formations[cmd.formation].side != "france":
        raise Reject(R.FIRST_TURN, "on the first turn the French must activate one of their own formations (caldiero §3.2)")


def reserve_joining(w: World, f: str) -> list[str]:
    """French reserve units joining the activated formation this turn (caldiero §15.4.3; reading
    `reserve_attachment`: those in its general's range or out of every range; once per turn)."""
    if w.state.formations[f].side != "france" or f == "bonaparte":
        return []
    other = "augereau" if f == "massena" else "massena"
    own_reach = reach(w, w.state.formations[f].general or "") if w.state.formations[f].general else frozenset()
    other_general = w.state.formations[other].general if other in w.state.formations else None
    other_reach = reach(w, other_general) if other_general else frozenset()
    out = []
    for u, s in sorted(w.state.units.items()):
        if s.formation != "reserve" or s.activated_turn == w.state.turn:
            continue
        if s.where == "offmap" and unit_due(w, u):
            out.append(u)
        elif s.where == "map" and s.hex is not None:
            if s.hex in own_reach or s.hex not in other_reach:
                out.append(u)
    return out


def do_activate(a: Act, by: str, formation: str) -> None:
    w = a.w
    joined = reserve_joining(w, formation)
    members = sorted(u for u, s in w.state.units.items() if s.formation == formation) + joined
    # command is judged with the joined reserve counted as members of the formation (§15.4.3)
    on_map = [u for u in members if w.state.units[u].where == "map"]
    commanded = in_command(w, formation, on_map)
    ooc = tuple(sorted(u for u in on_map if u not in commanded))
    a.emit(ev.FormationActivated(formation=formation, by=by, rule=str(R.ACTIVATION), out_of_command=ooc,
                                 reserve_joined=tuple(joined)))
    w = a.w
    dists = []
    for u in on_map:
        d = w.nearest_enemy_distance(w.state.units[u].hex or "", w.state.units[u].side)
        if d is not None:
            dists.append(f"{u}={d}")
    if dists:
        a.emit(ev.ActivationRecorded(key="start_dist", values=tuple(dists), rule=str(R.ADVANCE)))
    for u in members:
        if unit_due(a.w, u):
            a.emit(ev.UnitOrderSet(unit=u, order="manoeuvre", rule=str(R.REINFORCEMENT_ORDER)))
    seat = a.state.formations[formation].side
    a.emit(ev.StepBegan(phase="action", step="orders", seat=seat, rule=str(R.ACTION_PHASE)))


def roll_initiative(a: Act) -> None:
    while True:
        austria_value = a.state.weather if CALDIERO.has_weather else 0  # caldiero §6.1
        french_value = a.env.data.scenario.french_initiative
        dice = a.roll(f"{R.INITIATIVE} initiative", {"france": f"1d6+{french_value}", "austria": f"1d6+{austria_value} (weather box)"}, 2)
        totals = {"france": dice[0] + french_value, "austria": dice[1] + austria_value}
        if totals["france"] != totals["austria"]:
            winner = "france" if totals["france"] > totals["austria"] else "austria"
            break
        if a.reading("initiative_tie") == "french":
            winner = "france"
            break
    a.emit(ev.InitiativeWon(seat=winner, rule=str(R.INITIATIVE), totals=totals))
    a.emit(ev.StepBegan(phase="action", step="choose_formation", seat=winner, rule=str(R.ACTIVATION)))


def next_activation(a: Act) -> None:
    """After an activation (or the command phase): roll initiative again or end the turn (§6.2)."""
    eligible = eligible_formations(a.w)
    if not eligible:
        end_turn(a)
        return
    if len(eligible) == 1:
        do_activate(a, "only formation left (caldiero §6.2)", eligible[0])
        return
    roll_initiative(a)


def end_turn(a: Act) -> None:
    if a.state.weather == 3 and CALDIERO.has_weather:
        a.emit(ev.WeatherChanged(box=a.env.data.weather.after_ice_storm, rule=str(R.ICE_STORM)))  # §17.1.3
    turn = a.state.turn
    a.emit(ev.TurnEnded(turn=turn, rule=str(R.END_PHASE)))
    if turn >= a.state.last_turn:
        from arbitro.adjudicator.caldiero.victory import final_result

        a.emit(final_result(a.w))
        return
    a.emit(ev.TurnBegan(turn=turn + 1, rule=str(R.END_PHASE)))
    a.emit(ev.StepBegan(phase="command", step="orders", seat="france", rule=str(R.ORDER_CHANGE)))


def roll_weather(a: Act) -> None:
    scen = a.env.data.scenario.scenarios[a.state.scenario]
    if scen.fixed_weather is not None:
        if a.state.weather != scen.fixed_weather:
            a.emit(ev.WeatherChanged(box=scen.fixed_weather, rule=str(R.WEATHER_HOLDS)))
        return  # caldiero §19.2.1: no weather roll
    (roll,) = a.roll(f"{R.WEATHER} weather (Austrian roll)", {"table": "weather (provisional)", "box": a.state.weather})
    new = a.env.data.weather.change[str(a.state.weather)][roll - 1]
    if new != a.state.weather:
        a.emit(ev.WeatherChanged(box=new, rule=str(R.WEATHER)))
    if new == 3:
        for f in sorted(a.state.formations):
            if a.state.formations[f].order != "defence":
                a.emit(ev.OrderSet(formation=f, order="defence", rule=str(R.ICE_STORM), by="weather"))


# =====================================================================================================
# Activation: orders (caldiero §5.2.2, §5.3.1, §4.3.1)
# =====================================================================================================
def check_change_order(w: World, seat: str, cmd: C.ChangeOrder) -> None:
    act = w.state.activation
    assert act is not None
    f = w.state.formations[act.formation]
    if "general" in act.order_tried:
        raise Reject(R.GENERAL_INITIATIVE, "the general already tried to change the order in this activation (caldiero §5.2.2)")
    if w.profile.has_weather and w.state.weather == 3:
        raise Reject(R.ICE_STORM, "in an ice storm every formation holds a Defence order (caldiero §17.1.3)")
    if f.general is None or w.leader_on_map(f.general) is None:
        raise Reject(R.GENERAL_DEAD, f"{act.formation} has no general on the map to change its order (caldiero §4.4.5, §5.2.2)")
    if f.order == cmd.order:
        raise Reject(R.GENERAL_INITIATIVE, f"{act.formation} already has a {cmd.order} order")


def do_change_order(a: Act, cmd: C.ChangeOrder) -> None:
    act = a.state.activation
    assert act is not None
    f = act.formation
    general = a.state.formations[f].general or ""
    a.emit(ev.ActivationRecorded(key="order_tried", values=("general",), rule=str(R.GENERAL_INITIATIVE)))
    if general == "bonaparte":
        a.emit(ev.OrderSet(formation=f, order=cmd.order, rule=str(R.BONAPARTE), by="bonaparte"))  # §20.1.1
        return
    value = a.w.leader_data(general).initiative
    (roll,) = a.roll(f"{R.GENERAL_INITIATIVE} {general} changes order", {"test": "roll <= initiative", "initiative": value, "order": cmd.order})
    if roll <= value:
        a.emit(ev.OrderSet(formation=f, order=cmd.order, rule=str(R.GENERAL_INITIATIVE), by=general))


def ooc_units_at(w: World, h: str) -> list[str]:
    act = w.state.activation
    assert act is not None
    return [u for u in w.units_at(h) if u in act.out_of_command and u not in act.ooc_tested and u not in act.unit_orders]


def check_unit_order(w: World, seat: str, cmd: C.UnitOrder) -> None:
    units = ooc_units_at(w, cmd.hex)
    if not units:
        raise Reject(R.OOC_TEST, f"no out-of-command unit of the active formation at {cmd.hex} may still choose an order (caldiero §5.3.1)")
    if w.profile.has_weather and w.state.weather == 3 and not in_cinc_range(w, seat, cmd.hex):
        raise Reject(R.ICE_STORM, "in an ice storm out-of-command units may not try to change order (caldiero §17.1.3)")
    if cmd.order == "defence":
        raise Reject(R.OUT_OF_COMMAND, "out-of-command units already hold a Defence order (caldiero §5.3)")


def do_unit_order(a: Act, seat: str, cmd: C.UnitOrder) -> None:
    w = a.w
    units = ooc_units_at(w, cmd.hex)
    a.emit(ev.ActivationRecorded(key="ooc_tested", values=tuple(units), rule=str(R.OOC_TEST)))
    if in_cinc_range(w, seat, cmd.hex):
        for u in units:  # caldiero §4.3.1: the order they wish, no test
            a.emit(ev.UnitOrderSet(unit=u, order=cmd.order, rule=str(R.CINC_RANGE)))
        return
    values = {u: w.efficiency(u) + general_bonus(w, u) for u in units}
    (roll,) = a.roll(f"{R.OOC_TEST} out of command at {cmd.hex}", {"test": "efficiency (one die per stack, caldiero §5.3.2)",
                     "values": ", ".join(f"{u}={v}" for u, v in values.items()), "order": cmd.order})
    for u in units:
        if passes(roll, values[u]):
            a.emit(ev.UnitOrderSet(unit=u, order=cmd.order, rule=str(R.OOC_TEST)))


# =====================================================================================================
# Movement (caldiero §9)
# =====================================================================================================
def mover_orders(w: World, units: tuple[str, ...]) -> list[str]:
    """Orders every unit of the group may act under, the group's own first."""
    sets = []
    for u in units:
        sets.append(set(artillery_orders(w, u)) if w.is_artillery(u) else {unit_order(w, u)})
    common = set.intersection(*sets)
    first = unit_order(w, units[0])
    return sorted(common, key=lambda o: (o != first, o))


def check_movers(w: World, seat: str, units: tuple[str, ...]) -> None:
    act = w.state.activation
    assert act is not None
    if len(set(units)) != len(units):
        raise Reject(R.MOVEMENT, "a unit is listed twice")
    locations = set()
    for u in units:
        s = w.state.units.get(u)
        if s is None or s.side != seat:
            raise Reject(R.MOVEMENT, f"{u} is not one of your units")
        if u not in act.units:
            raise Reject(R.ACTION_PHASE, f"{u} does not belong to the active formation {act.formation} (caldiero §3.1 B)")
        if u in act.moved:
            raise Reject(R.MOVEMENT, f"{u} has already moved in this activation (caldiero §9.1)")
        if s.where == "offmap" and not unit_due(w, u):
            raise Reject(R.REINFORCEMENTS, f"{u} is not due to arrive before turn {arrival_turn(w, w.unit_data(u).arrival.turn) if w.unit_data(u).arrival else '?'} (caldiero §15.4)")
        if s.where not in ("map", "offmap"):
            raise Reject(R.MOVEMENT, f"{u} is not on the map")
        if s.status == "routed":
            raise Reject(R.ROUT, f"{u} is routed: routed units do not move (caldiero §15.2)")
        locations.add(s.hex if s.where == "map" else f"entry:{w.unit_data(u).arrival.entry if w.unit_data(u).arrival else ''}")
    if len(locations) != 1:
        raise Reject(R.MOVEMENT, "units moving together must start in the same hex (caldiero §9.1)")


def move_options(w: World, units: tuple[str, ...], column: bool) -> dict[str, tuple[str, Route]]:
    """dest -> (order used, cheapest route), for every order the group may act under."""
    out: dict[str, tuple[str, Route]] = {}
    for order in mover_orders(w, units):
        if column and not ALLOWS_COLUMN[order]:
            continue
        g = make_group(w, units, order, column)
        for dest, route in reachable(w, g).items():
            if attack_move_problem(w, g, route) is not None:
                continue
            if dest not in out or route.cost_half < out[dest][1].cost_half:
                out[dest] = (order, route)
    return out


def attack_move_problem(w: World, g: Group, route: Route) -> str | None:
    """caldiero §5.1.2: an Attack-order unit ends in EZoC or nearer the closest enemy."""
    if g.order != "attack" or g.artillery or g.start is None:
        return None
    end = route.path[-1]
    if end in enemy_zoc(w, g.side):
        return None
    before = w.nearest_enemy_distance(g.start, g.side)
    after = w.nearest_enemy_distance(end, g.side)
    if before is None or after is None or after < before:
        return None
    return f"with an Attack order the move must end nearer the closest enemy ({before} hexes now, {after} at {end}) or in its ZoC (caldiero §5.1.2)"


def check_move(w: World, seat: str, cmd: C.Move) -> tuple[str, Route]:
    units = tuple(cmd.units)
    check_movers(w, seat, units)
    orders = mover_orders(w, units)
    if cmd.column:
        if not any(ALLOWS_COLUMN[o] for o in orders):
            raise Reject(R.COLUMN, "march column needs an Advance or Manoeuvre order (caldiero §9.3, §5.1.1, §5.1.4)")
        start = w.state.units[units[0]].hex
        if start is not None and not w.board.is_road_hex(start):
            raise Reject(R.COLUMN, f"march column is declared on a road or minor road; {start} has none (caldiero §9.3)")
    if cmd.path is None:
        options = move_options(w, units, cmd.column)
        if cmd.to not in options:
            raise Reject(*_why_not(w, units, cmd))
        return options[cmd.to]
    path = tuple(cmd.path)
    if path[-1] != cmd.to:
        raise Reject(R.MOVEMENT, f"the path ends at {path[-1]}, not at {cmd.to}")
    last: Reject | None = None
    for order in orders:
        if cmd.column and not ALLOWS_COLUMN[order]:
            continue
        g = make_group(w, units, order, cmd.column)
        try:
            route = check_path(w, g, path)
        except MoveProblem as e:
            last = Reject(e.rule, e.message)
            continue
        problem = attack_move_problem(w, g, route)
        if problem:
            last = Reject(R.ATTACK, problem)
            continue
        return order, route
    raise last or Reject(R.MOVEMENT, "no order allows this move")


def _why_not(w: World, units: tuple[str, ...], cmd: C.Move) -> tuple[Rule, str]:
    """The most specific reason a destination is not reachable (rule, message)."""
    orders = mover_orders(w, units)
    for order in orders:
        if cmd.column and not ALLOWS_COLUMN[order]:
            continue
        g = make_group(w, units, order, cmd.column)
        if g.start is not None and g.start in enemy_zoc(w, g.side) and order != "defence":
            return R.LEAVE_EZOC, f"{g.start} is in an enemy ZoC: only a Defence order may leave it (caldiero §8.1)"
        if w.board.on_map(cmd.to):
            problem = stacking_problem(w, cmd.to, units, cmd.column)
            if problem:
                return (R.COLUMN_STACKING if cmd.column else R.STACKING), problem
        route = reachable(w, g).get(cmd.to)
        if route is not None:
            problem_attack = attack_move_problem(w, g, route)
            if problem_attack:
                return R.ATTACK, problem_attack
        if g.start is not None and w.board.on_map(cmd.to) and w.board.grid.is_adjacent(g.start, cmd.to):
            try:
                check_path(w, g, (cmd.to,))
            except MoveProblem as e:
                return e.rule, e.message
    return R.MOVEMENT, f"{cmd.to} cannot be reached by {', '.join(units)} with the orders {', '.join(orders)} (caldiero §9.1, §5.1)"


def charge_targets(w: World, units: tuple[str, ...], route: Route) -> list[str]:
    """caldiero §20.2: enemy hexes in the plain the charging cavalry could still enter from the end of its move."""
    end = route.path[-1]
    side = w.state.units[units[0]].side
    ma = min(w.unit_data(u).movement for u in units) * 2
    out = []
    for n in w.board.neighbours(end):
        if not w.enemy_units_at(n, side) or not w.board.is_plain(n) or w.board.crossing_prohibited(end, n):
            continue  # §20.2.1: only units in the plain
        from arbitro.adjudicator.caldiero.system_movement import step_cost

        if route.cost_half + step_cost(w, end, n, False)[0] <= ma:
            out.append(n)
    return sorted(out)


def charge_problem(w: World, units: tuple[str, ...], order: str, route: Route) -> str | None:
    if not w.option("cavalry_charges"):
        return "cavalry charges are an optional rule not in use in this game (caldiero §20.2)"
    if order != "attack" or not all(w.unit_data(u).charge and w.state.units[u].arm == "cavalry" for u in units):
        return "only the Austrian hussars and Erz. Jozsef cavalry with an Attack order may charge (caldiero §20.2)"
    if not charge_targets(w, units, route):
        return "a charge stops next to an enemy in the plain that the cavalry could still enter (caldiero §20.2, §20.2.1)"
    return None


def do_move(a: Act, seat: str, cmd: C.Move, order: str, route: Route) -> None:
    units = tuple(cmd.units)
    if cmd.charge:
        problem = charge_problem(a.w, units, order, route)
        if problem:
            raise Reject(R.CHARGE, problem)
    a.emit(ev.UnitsMoved(units=units, path=route.path, rule=str(R.COLUMN if cmd.column else R.MOVEMENT),
                         column=cmd.column, cost_half=route.cost_half))
    if cmd.charge:
        a.emit(ev.ActivationRecorded(key="charging", values=units, rule=str(R.CHARGE)))
    check_direction_release(a, units)
    dest = route.path[-1]
    lone_leaders(a, dest, seat)
    rout_checks(a, dest, seat)


def check_direction_release(a: Act, units: tuple[str, ...]) -> None:
    """caldiero §19.1: Augereau freed by entering Caldiero (incl. the Rocca), Massena by Colognola."""
    targets_ = {"augereau": "Caldiero", "massena": "Colognola"}
    for u in units:
        f = a.w.formation_of(u)
        place = targets_.get(f)
        if place is None or f in a.state.direction_released:
            continue
        hexes = set(a.env.board.place_hexes(place)) | (set(a.env.board.place_hexes("Rocca di Caldiero")) if f == "augereau" else set())
        if a.state.units[u].hex in hexes:
            a.emit(ev.DirectionReleased(formation=f, rule=str(R.DIRECTION)))


def lone_leaders(a: Act, h: str, seat: str) -> None:
    """caldiero §8.2.3: enemy leaders alone where our combat unit arrived escape or are captured.
    The escape hex is chosen automatically: the nearest hex with a friendly combat unit within 6 MP."""
    enemy = enemy_of(seat)
    for leader in a.w.leaders_at(h, enemy):
        if a.w.side_units_at(h, enemy):
            continue
        options = leader_reachable(a.w, leader)
        friendly = sorted((a.w.board.distance(h, d), d) for d in options if a.w.side_units_at(d, enemy))
        if friendly:
            a.emit(ev.LeaderMoved(leader=leader, path=options[friendly[0][1]], rule=str(R.LEADER_ESCAPE)))
        elif options:
            dest = sorted(options)[0]
            a.emit(ev.LeaderMoved(leader=leader, path=options[dest], rule=str(R.LEADER_ESCAPE)))
        else:
            a.emit(ev.LeaderLost(leader=leader, rule=str(R.LEADER_ESCAPE)))


def rout_checks(a: Act, h: str, seat: str) -> None:
    """caldiero §15.2: routed enemies adjacent to where we arrived test: pass retreat 2, fail eliminated."""
    enemy = enemy_of(seat)
    for n in a.w.board.neighbours(h):
        routed = [u for u in a.w.side_units_at(n, enemy) if a.state.units[u].status == "routed"]
        if not routed:
            continue
        values = {u: a.w.efficiency(u) + general_bonus(a.w, u) for u in routed}
        (roll,) = a.roll(f"{R.ROUT} routed units at {n} reached by the enemy", {"test": "efficiency",
                         "values": ", ".join(f"{u}={v}" for u, v in values.items())})
        moves = {}
        for u in routed:
            if passes(roll, values[u]):
                moves[u] = 2
            else:
                eliminate(a, u, R.ROUT)
        if moves:
            open_retreats(a, moves, R.ROUT, from_combat=False)


def movement_obligation_problem(w: World) -> str | None:
    """caldiero §5.1.1 and §5.1.2, checked when the movement step ends."""
    act = w.state.activation
    assert act is not None
    ezoc = None
    required: list[str] = []
    advance_counted: list[str] = []
    for u in act.units:
        s = w.state.units[u]
        if s.where != "map" or u not in act.start_hex or w.is_artillery(u) or u in act.out_of_command:
            continue
        start = act.start_hex[u]
        if w.board.may_stay(start):
            continue  # §10.1, §10.5.2: may stay put whatever the order
        order = unit_order(w, u)
        if order == "attack" and u not in act.moved and s.status != "routed":
            ezoc = ezoc if ezoc is not None else enemy_zoc(w, s.side)
            if start in ezoc:
                continue
            if move_options(w, (u,), False):
                required.append(u)
        if order == "advance":
            advance_counted.append(u)
    if required:
        return f"with an Attack order every unit must move toward the enemy if it can: {', '.join(required)} (caldiero §5.1.2)"
    if advance_counted:
        need = (len(advance_counted) + 1) // 2  # at least half, rounded up (§1.4)
        closer = [u for u in advance_counted if u in act.moved and u in act.start_dist and
                  (w.nearest_enemy_distance(w.state.units[u].hex or "", w.state.units[u].side) or 99) < act.start_dist[u]]
        if len(closer) < need:
            could = [u for u in advance_counted if u not in act.moved and w.state.units[u].status != "routed" and _can_close(w, u)]
            if len(closer) + len(could) >= need:
                return (f"with an Advance order at least {need} of {len(advance_counted)} units must end nearer the enemy; "
                        f"{len(closer)} did, and {', '.join(could)} still could (caldiero §5.1.1)")
    return None


def _can_close(w: World, u: str) -> bool:
    act = w.state.activation
    assert act is not None
    start = act.start_dist.get(u)
    if start is None:
        return False
    for dest in move_options(w, (u,), False):
        d = w.nearest_enemy_distance(dest, w.state.units[u].side)
        if d is not None and d < start:
            return True
    return False


# =====================================================================================================
# Leaders (caldiero §4.1.4, §4.2.1)
# =====================================================================================================
def movable_leaders(w: World, seat: str) -> list[str]:
    act = w.state.activation
    assert act is not None
    out = []
    general = w.state.formations[act.formation].general
    if general and general not in act.leaders_moved and w.state.leaders[general].where != "dead":
        if w.state.leaders[general].where == "map" or leader_due(w, general):
            out.append(general)
    cinc = w.cinc_of(seat)
    s = w.state.leaders.get(cinc)
    if cinc not in out and s is not None and s.moved_turn != w.state.turn and s.where != "dead":
        if w.option("bonaparte_intervention") and cinc == "bonaparte" and act.formation != "bonaparte":
            pass  # with §20.1 Bonaparte moves as his own formation's general
        elif s.where == "map" or leader_due(w, cinc):
            out.append(cinc)
    return out


def leader_options(w: World, leader: str) -> dict[str, tuple[str, ...]]:
    entry = None
    if w.state.leaders[leader].where == "offmap":
        arrival = w.leader_data(leader).arrival
        entry = arrival.entry if arrival else None
    return leader_reachable(w, leader, entry)


def check_move_leader(w: World, seat: str, cmd: C.MoveLeader) -> tuple[str, ...]:
    if cmd.leader not in movable_leaders(w, seat):
        raise Reject(R.GENERAL_MOVE, f"{cmd.leader} may not move now: the active formation's general moves after its movement, "
                     "a commander in chief once per turn (caldiero §4.1.4, §4.2.1)")
    options = leader_options(w, cmd.leader)
    if cmd.to not in options:
        raise Reject(R.CINC_LIMITS if cmd.leader in ("bonaparte", "alvinczy") else R.LEADER_EZOC,
                     f"{cmd.leader} cannot reach {cmd.to}: 6 MP, no EZoC without a friendly unit there (caldiero §8.2.2, §9.1.4)"
                     + ("; Bonaparte stays within two hexes of 1014, Alvinczy not west of the 24xx line (caldiero §4.2.2)"
                        if cmd.leader in ("bonaparte", "alvinczy") else ""))
    return options[cmd.to]


# =====================================================================================================
# Bombardment (caldiero §11.4)
# =====================================================================================================
def check_bombard(w: World, seat: str, cmd: C.Bombard) -> None:
    act = w.state.activation
    assert act is not None
    arts = list(cmd.artillery)
    hexes = set()
    for u in arts:
        s = w.state.units.get(u)
        if s is None or s.side != seat or s.arm != "artillery":
            raise Reject(R.BOMBARDMENT, f"{u} is not one of your artillery units")
        if u not in act.units:
            raise Reject(R.ACTION_PHASE, f"{u} is not in the active formation")
        if s.where != "map":
            raise Reject(R.BOMBARDMENT, f"{u} is not on the map")
        if s.art_moved:
            raise Reject(R.ARTILLERY, f"{u} is on its Moved side and may not bombard (caldiero §11.0)")
        if u in act.fired:
            raise Reject(R.BOMBARDMENT, f"{u} has already fired (caldiero §11.4)")
        if s.status != "good" and s.status == "routed":
            raise Reject(R.ROUT, f"{u} is routed")
        hexes.add(s.hex)
    if len(hexes) != 1:
        raise Reject(R.BOMBARD_STACK, "artillery combines its fire only when stacked in one hex (caldiero §11.4.1)")
    if w.profile.has_weather and w.state.weather >= 2:
        raise Reject(R.SNOW if w.state.weather == 2 else R.ICE_STORM, "artillery cannot fire in snow and ice or an ice storm (caldiero §17.1.2, §17.1.3)")
    if cmd.target not in targets(w, arts):
        if w.board.on_map(cmd.target) and w.board.is_marsh(cmd.target):
            raise Reject(R.MARSH, "artillery cannot bombard into a marsh (caldiero §10.2)")
        raise Reject(R.ARTILLERY_RANGE, f"{cmd.target} is not an enemy hex in range with a clear line of sight (caldiero §11.2, §11.3)")


def do_bombard(a: Act, cmd: C.Bombard, defensive: bool = False) -> None:
    w = a.w
    arts = list(cmd.artillery)
    calc = fire_calc(w, a.env.data.bombardment, arts, cmd.target)
    (roll,) = a.roll(f"{R.DEFENSIVE_BOMBARD if defensive else R.BOMBARD_PROCEDURE} bombardment of {cmd.target}",
                     {"table": "bombardment (provisional)", "column": calc.column, "modifiers": "; ".join(calc.parts) or "none", "drm": calc.drm})
    result = fire_result(a.env.data.bombardment, calc.column, roll + calc.drm)
    side = w.state.units[arts[0]].side
    a.emit(ev.ArtilleryFired(artillery=tuple(arts), target=cmd.target, result=result, rule=str(R.DEFENSIVE_BOMBARD if defensive else R.BOMBARDMENT),
                             column=calc.column, drm=calc.drm, roll=roll, defensive=defensive))
    if roll == 6:
        for leader in a.w.leaders_at(cmd.target, enemy_of(side)):
            leader_test(a, leader, R.LEADER_LOSS_SIX)
    hit = [u for u in a.w.enemy_units_at(cmd.target, side)]
    if result == "-" or not hit:
        return
    moves: dict[str, int] = {}
    for u in hit:
        if not a.w.is_artillery(u):
            add_disorder(a, u, R.BOMBARD_PROCEDURE, moves)
        if result == "R" and a.state.units[u].where == "map" and u not in moves:
            moves[u] = 1  # caldiero §11.1: artillery retreats normally after a bombardment
    if moves:
        open_retreats(a, moves, R.BOMBARD_PROCEDURE, from_combat=False)


# =====================================================================================================
# Disorder, elimination, retreats, leaders (caldiero §12.6, §12.8, §15, §4.4)
# =====================================================================================================
def add_disorder(a: Act, u: str, rule: Rule, retreats: dict[str, int], from_combat: bool = True) -> None:
    status = a.state.units[u].status
    if status == "good":
        a.emit(ev.StatusChanged(unit=u, status="disordered", rule=str(rule)))
    elif status == "disordered":
        a.emit(ev.StatusChanged(unit=u, status="routed", rule=str(R.DISORDER)))  # caldiero §15.1
        retreats[u] = max(retreats.get(u, 0), 2)  # caldiero §15.2.1


def return_turn_for(w: World, u: str) -> int:
    general = w.general_of(u)
    h = w.state.units[u].hex
    if general and h is not None and h in reach(w, general):
        return w.state.turn + 1
    return w.state.turn + 2


def eliminate(a: Act, u: str, rule: Rule, permanent: bool = False) -> None:
    s = a.state.units[u]
    if s.where != "map":
        return
    h = s.hex
    data = a.w.unit_data(u)
    permanent = permanent or s.reduced or not data.reduced  # caldiero §12.8
    a.emit(ev.UnitEliminated(unit=u, rule=str(rule), permanent=permanent,
                             return_turn=0 if permanent else return_turn_for(a.w, u)))
    if h is not None and not a.w.side_units_at(h, s.side):
        for leader in a.w.leaders_at(h, s.side):  # caldiero §4.4.4
            if leader_test(a, leader, R.LEADER_ALONE):
                relocate_leader(a, leader, h)


def leader_test(a: Act, leader: str, rule: Rule) -> bool:
    """caldiero §4.4.3: roll above the initiative (commanders in chief: 1) or be lost. True: survived."""
    value = 1 if a.w.leader_data(leader).role == "commander_in_chief" else a.w.leader_data(leader).initiative
    (roll,) = a.roll(f"{R.LEADER_TEST} {leader} test", {"test": "roll > initiative", "initiative": value, "cause": str(rule)})
    if roll > value:
        return True
    a.emit(ev.LeaderLost(leader=leader, rule=str(rule)))
    return False


def relocate_leader(a: Act, leader: str, h: str) -> None:
    side = a.state.leaders[leader].side
    friends = sorted({a.state.units[u].hex or "" for u in a.w.on_map_units() if a.state.units[u].side == side})
    if friends:
        dest = min(friends, key=lambda x: (a.w.board.distance(h, x), x))
        if dest != h:
            a.emit(ev.LeaderMoved(leader=leader, path=(dest,), rule=str(R.LEADER_ALONE)))


def open_retreats(a: Act, moves: dict[str, int], rule: Rule, from_combat: bool) -> None:
    """Queue retreats: units with no path are eliminated now; the owner chooses the others' paths."""
    by_side: dict[str, dict[str, int]] = {}
    for u, n in sorted(moves.items()):
        s = a.state.units[u]
        if s.where != "map":
            continue
        if from_combat:
            for art in a.w.side_units_at(s.hex or "", s.side):
                if a.w.is_artillery(art) and art not in moves:
                    eliminate(a, art, R.ARTILLERY_RETREAT)  # caldiero §11.1
        if not retreat_paths(a.w, u, n):
            edge = a.w.board.is_edge(s.hex or "")
            eliminate(a, u, R.OFF_MAP if edge else R.RETREAT_BLOCKED, permanent=True)
            continue
        by_side.setdefault(s.side, {})[u] = n
    for side in sorted(by_side, key=lambda x: x == (a.state.combat.attacker_side if a.state.combat else "")):
        a.emit(ev.DecisionAwaited(kind="retreat", seat=side, rule=str(rule), data={"moves": by_side[side]}))


def do_retreat(a: Act, seat: str, cmd: C.Retreat) -> None:
    frame = a.state.stack[-1]
    moves: dict[str, int] = dict(frame.data["moves"])
    u = cmd.unit
    if u not in moves:
        raise Reject(R.RETREAT, f"{u} has no retreat to make; waiting for: {', '.join(sorted(moves))}")
    options = retreat_paths(a.w, u, moves[u])
    chosen = next((p for p in options if list(p.path) == list(cmd.path)), None)
    if chosen is None:
        raise Reject(R.RETREAT, f"{cmd.path} is not a legal retreat for {u}: each hex farther from the enemy and out of "
                     f"enemy ZoC if possible; choose one of {[list(p.path) for p in options][:6]} (caldiero §12.6)")
    origin = a.state.units[u].hex or ""
    a.emit(ev.UnitRetreated(unit=u, path=chosen.path, rule=frame.rule))
    del moves[u]
    if not a.w.side_units_at(origin, seat):
        for leader in a.w.leaders_at(origin, seat):
            a.emit(ev.LeaderMoved(leader=leader, path=chosen.path, rule=str(R.RETREAT)))
    extra: dict[str, int] = {}
    if chosen.through_ezoc:
        add_disorder(a, u, R.RETREAT_EZOC, extra)  # caldiero §12.6.1
    for x, n in extra.items():
        if a.state.units[x].where == "map":
            if retreat_paths(a.w, x, n):
                moves[x] = n
            else:
                eliminate(a, x, R.ROUT_RETREAT, permanent=True)
    if moves:
        a.emit(ev.DecisionUpdated(data={"moves": moves}, rule=frame.rule))
    else:
        a.emit(ev.DecisionClosed(kind="retreat", rule=frame.rule))


# =====================================================================================================
# Assault (caldiero §12)
# =====================================================================================================
def attack_problem(w: World, seat: str, cmd: C.Attack, *, forced_ok: bool = True) -> None:
    act = w.state.activation
    assert act is not None
    attackers = list(dict.fromkeys(cmd.attackers))
    defenders_hexes = list(dict.fromkeys(cmd.defenders))
    for u in attackers:
        s = w.state.units.get(u)
        if s is None or s.side != seat or s.where != "map":
            raise Reject(R.ASSAULT, f"{u} is not one of your units on the map")
        if u not in act.units:
            raise Reject(R.ACTION_PHASE, f"{u} is not in the active formation (caldiero §3.1 B.5)")
        if s.arm == "artillery":
            raise Reject(R.ARTILLERY_COMBAT, f"{u}: artillery takes part in an attack only by bombarding (caldiero §11.0.1)")
        if s.status != "good":
            raise Reject(R.DISORDER, f"{u} is {s.status}: disordered and routed units never attack (caldiero §15.1, §15.2)")
        if s.attacked_turn == w.state.turn:
            raise Reject(R.ONCE, f"{u} has already attacked this turn (caldiero §12.2.3)")
        order = unit_order(w, u)
        if not ALLOWS_ASSAULT[order]:
            raise Reject(R.DECLARATION, f"{u} has a {order} order: only Attack and Advance orders attack (caldiero §12.2)")
    for h in defenders_hexes:
        if not w.enemy_units_at(h, seat):
            raise Reject(R.ASSAULT, f"{h} holds no enemy unit")
        if h in act.attacked_hexes:
            raise Reject(R.ONCE, f"{h} has already been attacked in this combat segment (caldiero §12.2.3)")
        for u in attackers:
            uh = w.state.units[u].hex or ""
            if not w.board.grid.is_adjacent(uh, h):
                raise Reject(R.MULTIPLE, f"{u} at {uh} is not adjacent to {h}: every attacker must be adjacent to every defender (caldiero §12.4.1)")
            if w.board.crossing_prohibited(uh, h):
                raise Reject(R.ASSAULT, f"no assault across the river hexside {uh}-{h} (terrain effects table)")
        for u in attackers:
            from arbitro.adjudicator.caldiero.system_movement import direction_problem

            if direction_problem(w, w.formation_of(u), h):
                raise Reject(R.DIRECTION, direction_problem(w, w.formation_of(u), h) or "")
    charging = [u for u in attackers if w.state.units[u].charging]
    if charging:
        if len(charging) != len(attackers):
            raise Reject(R.CHARGE, "a hex is not attacked by a cavalry charge and other units in the same segment (caldiero §20.2.4)")
        if len(defenders_hexes) != 1 or not w.board.is_plain(defenders_hexes[0]):
            raise Reject(R.CHARGE, "a charge attacks one hex, in the plain (caldiero §20.2.1, §20.2.2)")
    for u in attackers:
        if w.state.units[u].charging:
            continue  # caldiero §20.2.2: the charge ignores other EZoC
        uh = w.state.units[u].hex or ""
        missing = [h for h in projecting_into(w, uh, seat) if h not in defenders_hexes and h not in act.attacked_hexes]
        if missing:
            raise Reject(R.ZOC_ATTACK, f"{u} must also attack {', '.join(missing)}: every enemy projecting a ZoC into {uh} "
                         "and not already attacked this segment (caldiero §12.2.1)")
    if cmd.elan is not None:
        if cmd.elan not in attackers or seat != "france":
            raise Reject(R.ELAN, "Elan is tried by one of the French attacking units (caldiero §16.1)")
        if w.state.elan_left <= 0:
            raise Reject(R.ELAN, "no Elan left: the French may try it in four attacks (caldiero §16)")
        if w.reading("elan_marker") == "attack_marker_only" and unit_order(w, cmd.elan) != "attack":
            raise Reject(R.ELAN_TEST, f"{cmd.elan} has an 'Attack?' marker, not 'Attack': Elan needs an Attack order (caldiero §16.1)")
    defenders = [u for h in defenders_hexes for u in w.enemy_units_at(h, seat)]
    choices = side_efficiency_choices(w, attackers)
    if cmd.efficiency is not None and cmd.efficiency not in choices:
        raise Reject(R.EFFICIENCY, f"the attackers' efficiency is the value with most SP: {choices} (caldiero §12.3.1)")
    att, dfn = strengths(w, attackers, defenders, defenders_hexes, cmd_charge=False)
    if dfn > 0 and odds_index(att, dfn) < 0:
        forced = all(unit_order(w, u) == "attack" for u in attackers)
        if not (forced and w.reading("forced_attack_below_1_5") == "auto_ae" and forced_ok):
            raise Reject(R.BELOW_1_5, f"{att} against {dfn} is worse than 1-5: such attacks may not be declared (caldiero §12.4.2)")


def strengths(w: World, attackers: list[str], defenders: list[str], defender_hexes: list[str], cmd_charge: bool) -> tuple[int, int]:
    """Attack and defence strengths with the marsh (§10.2), cavalry (§14, §20.2) and storm (§20.3) effects."""
    demoralised = {"disordered", "routed"} if w.reading("demoralised") == "disordered_or_routed" else {"routed"}
    non_art_def = [d for d in defenders if not w.is_artillery(d)]
    cav_bonus = bool(non_art_def) and all(
        w.state.units[d].arm == "infantry" and w.state.units[d].status in demoralised and w.board.is_plain(w.state.units[d].hex or "")
        for d in non_art_def)
    storm = w.option("storm_from_east") and w.state.weather in w.data.scenario.options["storm_from_east"].weather_boxes
    by_hex: dict[str, int] = {}
    for u in attackers:
        value = w.strength(u)
        s = w.state.units[u]
        if s.arm == "cavalry" and (cav_bonus or s.charging):
            value *= 2  # caldiero §14.0 / §20.2 (never cumulative)
        if storm and s.hex and any(parse_hex(h)[0] == parse_hex(s.hex)[0] + 1 for h in defender_hexes):
            value = max(0, value - w.data.scenario.options["storm_from_east"].strength_malus)  # §20.3.1
        by_hex[s.hex or ""] = by_hex.get(s.hex or "", 0) + value
    att = sum((v + 1) // 2 if w.board.is_marsh(h) else v for h, v in by_hex.items())  # §10.2 halved, round up
    d_by_hex: dict[str, int] = {}
    for u in non_art_def:
        h = w.state.units[u].hex or ""
        d_by_hex[h] = d_by_hex.get(h, 0) + w.strength(u)
    dfn = sum((v + 1) // 2 if w.board.is_marsh(h) else v for h, v in d_by_hex.items())
    return att, dfn


def do_attack(a: Act, seat: str, cmd: C.Attack) -> None:
    w = a.w
    attackers = tuple(dict.fromkeys(cmd.attackers))
    hexes = tuple(dict.fromkeys(cmd.defenders))
    defenders = tuple(u for h in hexes for u in w.enemy_units_at(h, seat))
    tested = tuple(u for u in attackers if unit_order(w, u) == "advance")
    a.emit(ev.AttackDeclared(attackers=attackers, defender_hexes=hexes, defenders=defenders, rule=str(R.DECLARATION),
                             tested=tested, elan=cmd.elan, use_general=cmd.use_general, efficiency=cmd.efficiency))
    run_combat(a)


def run_combat(a: Act) -> None:
    guard = 0
    while a.state.combat is not None and not a.state.stack:
        guard += 1
        assert guard < 50, "combat state machine does not progress"
        stage = a.state.combat.stage
        STAGES[stage](a)


def _set_stage(a: Act, stage: str, rule: Rule, **data: Any) -> None:
    a.emit(ev.CombatStageSet(stage=stage, rule=str(rule), data=data))


def stage_declared(a: Act) -> None:
    c = a.state.combat
    assert c is not None
    _set_stage(a, "defensive_fire", R.CAVALRY_RETREAT)
    w = a.w
    if not all(w.state.units[u].arm == "infantry" for u in c.attackers):
        return
    cav = [u for u in c.defenders if w.state.units[u].arm == "cavalry" and w.state.units[u].status != "routed" and retreat_paths(w, u, 1)]
    if cav:
        a.emit(ev.DecisionAwaited(kind="cavalry_retreat", seat=enemy_of(c.attacker_side), rule=str(R.CAVALRY_RETREAT), data={"units": cav}))


def cavalry_retreat_options(w: World) -> list[dict[str, Any]]:
    frame = w.state.stack[-1]
    out: list[dict[str, Any]] = []
    for u in frame.data["units"]:
        for p in retreat_paths(w, u, 1):
            out.append({"type": "cavalry_retreat", "unit": u, "to": p.path[0]})
    return out + [{"type": "decline"}]


def do_cavalry_retreat(a: Act, seat: str, cmd: C.CavalryRetreat) -> None:
    if {"type": "cavalry_retreat", "unit": cmd.unit, "to": cmd.to} not in cavalry_retreat_options(a.w):
        raise Reject(R.CAVALRY_RETREAT, f"{cmd.unit} cannot retreat to {cmd.to} before combat (caldiero §14.1, §12.6)")
    a.emit(ev.UnitRetreated(unit=cmd.unit, path=(cmd.to,), rule=str(R.CAVALRY_RETREAT)))
    a.emit(ev.DefendersWithdrawn(units=(cmd.unit,), rule=str(R.CAVALRY_RETREAT)))
    remaining = [u for u in a.state.stack[-1].data["units"] if u != cmd.unit]
    if remaining:
        a.emit(ev.DecisionUpdated(data={"units": remaining}, rule=str(R.CAVALRY_RETREAT)))
    else:
        a.emit(ev.DecisionClosed(kind="cavalry_retreat", rule=str(R.CAVALRY_RETREAT)))


def stage_defensive_fire(a: Act) -> None:
    c = a.state.combat
    assert c is not None
    _set_stage(a, "tests", R.DEFENSIVE_BOMBARD)
    w = a.w
    if not c.defenders:
        return
    from arbitro.adjudicator.caldiero.system_bombard import may_fire

    if not may_fire(w):
        return
    arts = [u for u in c.defenders if w.is_artillery(u) and not w.state.units[u].art_moved]
    if arts and c.attackers:
        a.emit(ev.DecisionAwaited(kind="defensive_fire", seat=enemy_of(c.attacker_side), rule=str(R.DEFENSIVE_BOMBARD), data={"artillery": arts}))


def defensive_fire_options(w: World) -> list[dict[str, Any]]:
    c = w.state.combat
    frame = w.state.stack[-1]
    out: list[dict[str, Any]] = []
    assert c is not None
    attacker_hexes = sorted({w.state.units[u].hex or "" for u in c.attackers})
    for art in frame.data["artillery"]:
        for h in attacker_hexes:
            if h in targets(w, [art]):
                out.append({"type": "defensive_fire", "artillery": art, "target": h})
    return out + [{"type": "decline"}]


def do_defensive_fire(a: Act, seat: str, cmd: C.DefensiveFire) -> None:
    if {"type": "defensive_fire", "artillery": cmd.artillery, "target": cmd.target} not in defensive_fire_options(a.w):
        raise Reject(R.DEFENSIVE_BOMBARD, f"{cmd.artillery} may bombard one hex holding attacking units (caldiero §11.4.5)")
    remaining = [u for u in a.state.stack[-1].data["artillery"] if u != cmd.artillery]
    if remaining:
        a.emit(ev.DecisionUpdated(data={"artillery": remaining}, rule=str(R.DEFENSIVE_BOMBARD)))
    else:
        a.emit(ev.DecisionClosed(kind="defensive_fire", rule=str(R.DEFENSIVE_BOMBARD)))
    before = {u: (a.state.units[u].hex, a.state.units[u].status) for u in (a.state.combat.attackers if a.state.combat else [])}
    do_bombard(a, C.Bombard(type="bombard", artillery=[cmd.artillery], target=cmd.target), defensive=True)
    c = a.state.combat
    if c is not None:
        out = [u for u in c.attackers if a.state.units[u].where != "map" or a.state.units[u].status != "good"
               or (u in before and before[u][0] != a.state.units[u].hex)]
        if out:
            a.emit(ev.AttackersWithdrawn(units=tuple(out), rule=str(R.DISORDER)))


def stage_tests(a: Act) -> None:
    c = a.state.combat
    assert c is not None
    _set_stage(a, "efficiency", R.ATTACK_TEST)
    w = a.w
    tested = [u for u in c.tested if u in c.attackers]
    by_hex: dict[str, list[str]] = {}
    for u in tested:
        by_hex.setdefault(w.state.units[u].hex or "", []).append(u)
    failed = []
    for h, units in sorted(by_hex.items()):
        values = {u: w.efficiency(u) + general_bonus(w, u) for u in units}
        (roll,) = a.roll(f"{R.ATTACK_TEST} 'Attack?' test at {h}", {"test": "efficiency (one die per stack)",
                         "values": ", ".join(f"{u}={v}" for u, v in values.items())})
        failed += [u for u in units if not passes(roll, values[u])]
    if failed:
        a.emit(ev.AttackersWithdrawn(units=tuple(failed), rule=str(R.ATTACK_TEST)))


def stage_efficiency(a: Act) -> None:
    c = a.state.combat
    assert c is not None
    w = a.w
    if not c.attackers or not [d for d in c.defenders if not w.is_artillery(d)]:
        _set_stage(a, "resolve", R.EFFICIENCY)
        return
    att_choices = side_efficiency_choices(w, c.attackers)
    att = c.efficiency if c.efficiency in att_choices else max(att_choices)
    def_choices = side_efficiency_choices(w, c.defenders)
    if len(def_choices) > 1:
        _set_stage(a, "resolve", R.EFFICIENCY, efficiency=att)
        a.emit(ev.DecisionAwaited(kind="defender_efficiency", seat=enemy_of(c.attacker_side), rule=str(R.EFFICIENCY), data={"choices": def_choices}))
        return
    _set_stage(a, "resolve", R.EFFICIENCY, efficiency=att, defender_efficiency=def_choices[0])


def stage_resolve(a: Act) -> None:
    c = a.state.combat
    assert c is not None
    w = a.w
    if not c.attackers:
        _set_stage(a, "end", R.ATTACK_TEST)
        return
    non_art_def = [d for d in c.defenders if not w.is_artillery(d)]
    if not non_art_def:
        # artillery alone (or nobody left): no table; an advance overruns it (caldiero §11.1.1, §14.1)
        _set_stage(a, "advance", R.ARTILLERY_OVERRUN)
        return
    notes: list[str] = []
    # Elan first: a failed test disorders the unit, which then no longer attacks (caldiero §16.1, §15.1)
    elan_columns = 0
    if c.elan is not None and c.elan in c.attackers:
        (roll,) = a.roll(f"{R.ELAN_TEST} Elan test of {c.elan}", {"test": "efficiency, no modifier", "value": w.efficiency(c.elan)})
        ok = passes(roll, w.efficiency(c.elan))
        if ok:
            (elan_columns,) = a.roll(f"{R.ELAN_TEST} Elan columns", {"table": "1d6 columns right"})
        a.emit(ev.ElanSpent(unit=c.elan, passed=ok, columns=elan_columns, rule=str(R.ELAN_TEST)))
        if not ok:
            a.emit(ev.StatusChanged(unit=c.elan, status="disordered" if a.state.units[c.elan].status == "good" else "routed", rule=str(R.ELAN_TEST)))
            a.emit(ev.AttackersWithdrawn(units=(c.elan,), rule=str(R.ELAN_TEST)))
            notes.append(f"Elan failed: {c.elan} disordered")
        else:
            notes.append(f"Elan: {elan_columns} columns right")
        w = a.w
        c = a.state.combat
        assert c is not None
        if not c.attackers:
            _set_stage(a, "end", R.ELAN_TEST)
            return
    att, dfn = strengths(w, c.attackers, c.defenders, c.defender_hexes, cmd_charge=c.charge)
    raw = odds_index(att, dfn)
    left = 0
    drm_parts: list[str] = []
    drm = 0
    # terrain of the defender (terrain effects table): the best for the defender
    shift_terrain = max(w.board.effect(h).assault_shift_left for h in c.defender_hexes)
    cav_fort = all(w.state.units[d].arm == "cavalry" for d in non_art_def) and any(w.board.is_fortress(h) for h in c.defender_hexes)
    if cav_fort:
        drm -= 1  # caldiero §14.0
        drm_parts.append("cavalry in fortress -1")
        if a.reading("cavalry_in_fortress") == "drm_instead_of_shift":
            shift_terrain = 0
    if shift_terrain:
        left += shift_terrain
        notes.append(f"terrain {shift_terrain}L")
    if CALDIERO.has_weather and w.state.weather:
        left += w.state.weather  # caldiero §17.1.1-§17.1.3: 1, 2, 3 columns left
        notes.append(f"weather {w.state.weather}L")
        (conf,) = a.roll(f"{R.CONFUSION} confusion", {"table": "1-2 one left, 3-4 none, 5-6 one right", "box": w.state.weather})
        shift = a.env.data.weather.confusion[str(conf)]
        left -= shift
        notes.append(f"confusion {conf}: {shift:+d} column")
    right = elan_columns
    if w.option("flank_attacks") and all(flanked(w, h, c) for h in c.defender_hexes):
        right += w.data.scenario.options["flank_attacks"].shift_right  # caldiero §20.5.1
        notes.append("flank attack 2R")
    index = raw - left + right
    col = final_column(index, CALDIERO, a.reading("shift_beyond_6_1"), shifted=right - left)
    att_eff = c.efficiency or 0
    def_eff = c.defender_efficiency or 0
    if col.below_minimum:
        result, roll, total = "Ae", 0, 0  # caldiero §12.4.2
        notes.append("worse than 1-5: automatic Ae")
    else:
        if any(w.state.units[d].status != "good" for d in non_art_def):
            drm += 2
            drm_parts.append("disorder +2")
        if att_eff - def_eff:
            drm += att_eff - def_eff
            drm_parts.append(f"efficiency {att_eff}-{def_eff}")
        att_general = attacking_general(w, c) if c.use_general else None
        if att_general:
            drm += 1
            drm_parts.append(f"{att_general} +1")
        def_general = defending_general(w, c)
        if def_general:
            drm -= 1
            drm_parts.append(f"{def_general} -1")
        if col.extra_drm:
            drm += col.extra_drm
            drm_parts.append(f"above 6-1 +{col.extra_drm}")
        across = all(w.board.canal_for_combat(w.state.units[u].hex or "", h) for u in c.attackers for h in c.defender_hexes)
        if across:
            drm += w.board.table.hexsides["canale"].assault_drm
            drm_parts.append("across canal -1")
        uphill = all(all(w.board.climbs(w.state.units[u].hex or "", h) for h in c.defender_hexes) for u in c.attackers)
        if uphill:
            drm += w.board.table.climb.assault_drm
            drm_parts.append("uphill -1")
        total = clamp_drm(drm, CALDIERO)
        (roll,) = a.roll(f"{R.CRT} assault on {', '.join(c.defender_hexes)}", {
            "table": "CRT (provisional)", "column": col.column, "odds": f"{att}:{dfn} = {odds_label(raw, CALDIERO) if raw >= 0 else 'below 1-5'}",
            "shifts": f"{left}L {right}R", "modifiers": "; ".join(drm_parts) or "none", "drm": total})
        result = look_up(a.env.data.crt, col.column, roll + total)
        if result == "Dr":
            result = dr_in_terrain(w, c.defender_hexes, a.reading("dr_in_fortress"), notes)
    a.emit(ev.CombatResolved(result=result, rule=str(R.RESULTS), attack_strength=att, defence_strength=dfn,
                             odds=odds_label(raw, CALDIERO) if raw >= 0 else "below 1-5", column=col.column,
                             shifts=right - left, drm=total, roll=roll, attacker_efficiency=att_eff,
                             defender_efficiency=def_eff, notes=tuple(notes)))
    if roll == 6:
        for h in c.defender_hexes:
            for leader in a.w.leaders_at(h, enemy_of(c.attacker_side)):
                leader_test(a, leader, R.LEADER_LOSS_SIX)  # caldiero §4.4.1
    if roll == 1 and not col.below_minimum and c.use_general:
        general = attacking_general(a.w, c)
        if general:
            leader_test(a, general, R.LEADER_LOSS_ONE)  # caldiero §4.4.2
    apply_result(a, result)


def dr_in_terrain(w: World, hexes: list[str], reading: str, notes: list[str]) -> str:
    if any(w.board.is_fortress(h) for h in hexes):
        notes.append("Dr in fortification")
        return "Dd" if reading == "dd" else "Ex"
    if any(w.board.is_village(h) for h in hexes):
        notes.append("Dr in village becomes Ex")
        return "Ex"  # caldiero §12.5.4
    return "Dr"


def attacking_general(w: World, c: Any) -> str | None:
    for u in c.attackers:
        general = w.general_of(u)
        if general and w.leader_on_map(general) == w.state.units[u].hex:
            return general  # caldiero §12.4.4: at most one
    return None


def defending_general(w: World, c: Any) -> str | None:
    for u in c.defenders:
        if w.is_artillery(u):
            continue
        general = w.general_of(u)
        if general and w.leader_on_map(general) == w.state.units[u].hex:
            return general
    return None


def flanked(w: World, h: str, c: Any) -> bool:
    """caldiero §20.5: five of six neighbours held or controlled by the engaged attackers, none by friends."""
    if w.board.may_stay(h) or w.board.is_edge(h):
        return False
    attacker_hexes = {w.state.units[u].hex for u in c.attackers}
    controlled: set[str] = set()
    for u in c.attackers:
        for n in w.board.neighbours(w.state.units[u].hex or ""):
            if exerts_zoc(w, u):
                controlled.add(n)
    defender_side = enemy_of(c.attacker_side)
    count = 0
    for n in w.board.neighbours(h):
        if w.side_units_at(n, defender_side):
            continue
        if n in attacker_hexes or n in controlled:
            count += 1
    return count >= 5


def apply_result(a: Act, result: str) -> None:
    c = a.state.combat
    assert c is not None
    w = a.w
    attackers = [u for u in c.attackers]
    defenders = [u for u in c.defenders if not w.is_artillery(u)]
    retreats: dict[str, int] = {}
    if result == "Ae":
        for u in attackers:
            eliminate(a, u, R.RESULTS)
    elif result == "De":
        for u in list(c.defenders):
            eliminate(a, u, R.RESULTS if not a.w.is_artillery(u) else R.ARTILLERY_RETREAT)
    elif result == "Ad":
        for u in attackers:
            add_disorder(a, u, R.RESULTS, retreats)
    elif result == "Dd":
        for u in defenders:
            add_disorder(a, u, R.RESULTS, retreats)
    elif result == "Ne":
        if attackers and all(unit_order(w, u) == "attack" for u in attackers):
            _set_stage(a, "advance", R.RESULTS)
            a.emit(ev.DecisionAwaited(kind="ne_test", seat=c.attacker_side, rule=str(R.RESULTS), data={}))
            return
    elif result == "Ex":
        start_exchange(a)
        return
    elif result == "Dr":
        dr_tests(a, defenders, retreats)
    _set_stage(a, "advance", R.RESULTS)
    if retreats:
        open_retreats(a, retreats, R.ROUT_RETREAT if result != "Dr" else R.RESULTS, from_combat=True)


def dr_tests(a: Act, defenders: list[str], retreats: dict[str, int]) -> None:
    """caldiero §12.5.4 Dr: retreat one hex and test; pass: disorder; fail: rout (two more hexes, §15.2.1).
    The test is rolled before the retreat (one die per defending stack), then one retreat frame."""
    w = a.w
    by_hex: dict[str, list[str]] = {}
    for u in defenders:
        by_hex.setdefault(w.state.units[u].hex or "", []).append(u)
    extra = 2 if a.reading("dr_rout_retreat") == "additional_2" else 1
    for h, units in sorted(by_hex.items()):
        values = {u: w.efficiency(u) + general_bonus(w, u) for u in units}
        (roll,) = a.roll(f"{R.RESULTS} Dr test at {h}", {"test": "efficiency (one die per stack)", "values": ", ".join(f"{u}={v}" for u, v in values.items())})
        for u in units:
            status = a.state.units[u].status
            if passes(roll, values[u]) and not (status != "good" and a.reading("dr_pass_already_disordered") == "rout"):
                if status == "good":
                    a.emit(ev.StatusChanged(unit=u, status="disordered", rule=str(R.RESULTS)))
                retreats[u] = 1
            else:
                a.emit(ev.StatusChanged(unit=u, status="routed", rule=str(R.ROUT_RETREAT)))
                retreats[u] = 1 + extra


def start_exchange(a: Act) -> None:
    c = a.state.combat
    assert c is not None
    w = a.w
    used = c.efficiency or 0
    options = [u for u in c.attackers if w.efficiency(u) >= used]
    _set_stage(a, "exchange_defender", R.RESULTS)
    if len(options) == 1:
        exchange_attacker_loss(a, options[0])
        return
    a.emit(ev.DecisionAwaited(kind="ex_attacker", seat=c.attacker_side, rule=str(R.RESULTS), data={"units": options}))


def exchange_attacker_loss(a: Act, u: str) -> None:
    lost = a.w.strength(u)
    a.emit(ev.CombatStageSet(stage="exchange_defender", rule=str(R.RESULTS), data={"ex_lost": lost, "ex_attacker": u}))
    eliminate(a, u, R.RESULTS)


def ex_defender_sets(w: World) -> list[list[str]]:
    c = w.state.combat
    assert c is not None
    need = int(c.data.get("ex_lost", 0))
    units = sorted(u for u in c.defenders if not w.is_artillery(u) and w.state.units[u].where == "map")
    total = sum(w.strength(u) for u in units)
    if total <= need:
        return [units] if units else []
    sets: list[list[str]] = []
    n = len(units)
    for mask in range(1, 1 << n):
        chosen = [units[i] for i in range(n) if mask >> i & 1]
        sp = sum(w.strength(u) for u in chosen)
        if sp < need:
            continue
        if any(sum(w.strength(x) for x in chosen if x != y) >= need for y in chosen):
            continue  # minimal sets only: no unit can be spared
        sets.append(chosen)
    return sorted(sets)


def stage_exchange_defender(a: Act) -> None:
    c = a.state.combat
    assert c is not None
    sets = ex_defender_sets(a.w)
    _set_stage(a, "exchange_tests", R.RESULTS)
    if len(sets) == 1:
        for u in sets[0]:
            eliminate(a, u, R.RESULTS)
        return
    if sets:
        a.emit(ev.DecisionAwaited(kind="ex_defender", seat=enemy_of(c.attacker_side), rule=str(R.RESULTS), data={"sets": sets}))


def stage_exchange_tests(a: Act) -> None:
    """caldiero §12.5.4 Ex: every other unit in the combat tests; failing ones are disordered."""
    c = a.state.combat
    assert c is not None
    w = a.w
    others = [u for u in c.attackers + c.defenders if not w.is_artillery(u) and w.state.units[u].where == "map"]
    by_hex: dict[str, list[str]] = {}
    for u in others:
        by_hex.setdefault(w.state.units[u].hex or "", []).append(u)
    retreats: dict[str, int] = {}
    for h, units in sorted(by_hex.items()):
        values = {u: w.efficiency(u) + general_bonus(w, u) for u in units}
        (roll,) = a.roll(f"{R.RESULTS} Ex test at {h}", {"test": "efficiency (one die per stack)", "values": ", ".join(f"{u}={v}" for u, v in values.items())})
        for u in units:
            if not passes(roll, values[u]):
                add_disorder(a, u, R.RESULTS, retreats)
    _set_stage(a, "advance", R.RESULTS)
    if retreats:
        open_retreats(a, retreats, R.ROUT_RETREAT, from_combat=True)


def do_ne_test(a: Act, value: int) -> None:
    c = a.state.combat
    assert c is not None
    a.emit(ev.DecisionClosed(kind="ne_test", rule=str(R.RESULTS)))
    if value == 0:
        return
    w = a.w
    by_hex: dict[str, list[str]] = {}
    for u in c.attackers:
        by_hex.setdefault(w.state.units[u].hex or "", []).append(u)
    results = []
    for h, units in sorted(by_hex.items()):
        values = {u: w.efficiency(u) + general_bonus(w, u) for u in units}
        (roll,) = a.roll(f"{R.RESULTS} Ne test at {h}", {"test": "efficiency (one die per stack)", "values": ", ".join(f"{u}={v}" for u, v in values.items())})
        results.append(all(passes(roll, values[u]) for u in units))
    ok = all(results) if CALDIERO.ne_test_pass == "all_stacks" else any(results)
    new = "Ex" if ok else "Ad"
    a.emit(ev.CombatResolved(result=new, rule=str(R.RESULTS), notes=("Ne tested by the attacker",)))
    if new == "Ex":
        start_exchange(a)
    else:
        retreats: dict[str, int] = {}
        for u in list(c.attackers):
            add_disorder(a, u, R.RESULTS, retreats)
        _set_stage(a, "advance", R.RESULTS)
        if retreats:
            open_retreats(a, retreats, R.ROUT_RETREAT, from_combat=True)


def advance_options(w: World) -> list[dict[str, Any]]:
    c = w.state.combat
    assert c is not None
    defender_side = enemy_of(c.attacker_side)
    vacated = [h for h in c.defender_hexes if not [u for u in w.side_units_at(h, defender_side) if not w.is_artillery(u)]]
    if not vacated:
        return []
    eligible = [u for u in c.attackers if w.state.units[u].where == "map" and w.state.units[u].status == "good"
                and not w.is_artillery(u)]
    out: list[dict[str, Any]] = []
    for h in vacated:
        for u in eligible:
            if not w.board.grid.is_adjacent(w.state.units[u].hex or "", h):
                continue
            out.append({"type": "advance", "units": [u], "to": h})
            general = w.general_of(u)
            uh = w.state.units[u].hex or ""
            if general and w.leader_on_map(general) == uh:
                stack = [x for x in eligible if w.state.units[x].hex == uh]
                if len(stack) > 1 and u == stack[0]:
                    out.append({"type": "advance", "units": stack, "to": h})  # caldiero §12.7.3
    return out


def stage_advance(a: Act) -> None:
    c = a.state.combat
    assert c is not None
    _set_stage(a, "end", R.ADVANCE_AFTER)
    options = advance_options(a.w)
    if options:
        a.emit(ev.DecisionAwaited(kind="advance", seat=c.attacker_side, rule=str(R.ADVANCE_AFTER), data={}))


def do_advance(a: Act, seat: str, cmd: C.Advance) -> None:
    wanted = {"type": "advance", "units": list(cmd.units), "to": cmd.to}
    if wanted not in advance_options(a.w):
        raise Reject(R.ADVANCE_AFTER, "one attacking unit in good order (or a stack with its general) may advance into a hex "
                     "the combat vacated (caldiero §12.7, §12.7.1, §12.7.3)")
    w = a.w
    origin = w.state.units[cmd.units[0]].hex or ""
    general = w.general_of(cmd.units[0])
    leaders = (general,) if len(cmd.units) > 1 and general and w.leader_on_map(general) == origin else ()
    a.emit(ev.DecisionClosed(kind="advance", rule=str(R.ADVANCE_AFTER)))
    for art in a.w.enemy_units_at(cmd.to, seat):
        if a.w.is_artillery(art):
            eliminate(a, art, R.ARTILLERY_OVERRUN, permanent=True)  # caldiero §11.1.1
    a.emit(ev.UnitsAdvanced(units=tuple(cmd.units), leaders=leaders, to=cmd.to, rule=str(R.ADVANCE_GENERAL if leaders else R.ADVANCE_AFTER)))
    check_direction_release(a, tuple(cmd.units))
    lone_leaders(a, cmd.to, seat)
    rout_checks(a, cmd.to, seat)  # caldiero §15.2: an enemy arriving adjacent, by advance too


def stage_end(a: Act) -> None:
    c = a.state.combat
    assert c is not None
    for u in c.attackers:
        s = a.state.units[u]
        if s.charging and s.where == "map":
            a.emit(ev.ActivationRecorded(key="uncharge", values=(u,), rule=str(R.CHARGE)))
            if s.status == "good":
                a.emit(ev.StatusChanged(unit=u, status="disordered", rule=str(R.CHARGE)))  # caldiero §20.2.3
    a.emit(ev.CombatEnded(rule=str(R.COMBAT_PROCEDURE)))


STAGES = {
    "declared": stage_declared, "defensive_fire": stage_defensive_fire, "tests": stage_tests,
    "efficiency": stage_efficiency, "resolve": stage_resolve, "exchange_defender": stage_exchange_defender,
    "exchange_tests": stage_exchange_tests, "advance": stage_advance, "end": stage_end,
}


def attack_obligation_problem(w: World, seat: str) -> str | None:
    """caldiero §5.1.2, §12: Attack-order units in enemy ZoC must attack, if any legal attack is left."""
    act = w.state.activation
    assert act is not None
    ezoc = enemy_zoc(w, seat)
    due = []
    for u in act.units:
        s = w.state.units[u]
        if s.where != "map" or s.arm == "artillery" or s.status != "good" or s.attacked_turn == w.state.turn:
            continue
        if unit_order(w, u) != "attack" or s.hex not in ezoc:
            continue
        if u in act.start_hex and w.board.may_stay(act.start_hex[u]) and act.start_hex[u] == s.hex:
            continue  # caldiero §10.1, §10.5.2
        required = [h for h in projecting_into(w, s.hex or "", seat) if h not in act.attacked_hexes]
        if not required:
            continue
        try:
            attack_problem(w, seat, C.Attack(type="attack", attackers=[u], defenders=required))
        except Reject:
            continue
        due.append(u)
    if due:
        return f"units with an Attack order in enemy ZoC must attack: {', '.join(due)} (caldiero §5.1.2, §12)"
    return None


# =====================================================================================================
# Dispatch: step -> handlers; end_step transitions; automatic steps
# =====================================================================================================
FRAME_ANSWERS = {
    "retreat": ("retreat",), "advance": ("advance", "decline"), "defender_efficiency": ("choose",),
    "ne_test": ("choose",), "ex_attacker": ("lose",), "ex_defender": ("lose",),
    "defensive_fire": ("defensive_fire", "decline"), "cavalry_retreat": ("cavalry_retreat", "decline"),
}

STEP_COMMANDS = {
    "setup": ("place", "set_order", "end_step"),
    "orders": ("set_order", "end_step"),  # command phase
    "reorganise": ("reorganise", "end_step"),
    "replacements": ("place", "end_step"),
    "choose_formation": ("activate",),
    "activation_orders": ("change_order", "unit_order", "end_step"),
    "movement": ("move", "end_step"),
    "leaders": ("move_leader", "end_step"),
    "bombardment": ("bombard", "end_step"),
    "combat": ("attack", "end_step"),
}


def step_key(state: CaldieroState) -> str:
    if state.phase == "action" and state.step == "orders":
        return "activation_orders"
    return state.step


def decide(a: Act, seat: str, cmd: Any) -> None:
    state = a.state
    if state.phase == "over":
        raise Reject(R.VICTORY, "the game is over")
    if state.stack:
        answer_frame(a, seat, cmd)
    else:
        allowed = STEP_COMMANDS.get(step_key(state), ())
        if cmd.type not in allowed:
            raise Reject(step_rule(state), f"{cmd.type} is not possible now: the {state.phase} phase is at step "
                         f"'{state.step}', which takes {', '.join(allowed) or 'nothing'} from {state.seat}")
        handle_step(a, seat, cmd)
    if a.state.combat is not None and not a.state.stack:
        run_combat(a)
    settle(a)


def step_rule(state: CaldieroState) -> Rule:
    return {"setup": R.SETUP, "orders": R.ORDER_CHANGE, "reorganise": R.RECOVERY, "replacements": R.ELIMINATED,
            "choose_formation": R.ACTIVATION, "movement": R.MOVEMENT, "leaders": R.GENERAL_MOVE,
            "bombardment": R.BOMBARDMENT, "combat": R.COMBAT}.get(state.step, R.SEQUENCE)


def answer_frame(a: Act, seat: str, cmd: Any) -> None:
    frame = a.state.stack[-1]
    if cmd.type not in FRAME_ANSWERS[frame.kind]:
        raise Reject(frame.rule, f"waiting for {frame.seat} to answer '{frame.kind}' with {' or '.join(FRAME_ANSWERS[frame.kind])}")
    w = a.w
    kind = frame.kind
    if kind == "retreat":
        do_retreat(a, seat, cmd)
    elif kind == "advance":
        if cmd.type == "decline":
            a.emit(ev.DecisionClosed(kind="advance", rule=frame.rule))
        else:
            do_advance(a, seat, cmd)
    elif kind == "defender_efficiency":
        if cmd.value not in frame.data["choices"]:
            raise Reject(R.EFFICIENCY, f"choose one of the tied efficiency values {frame.data['choices']} (caldiero §12.3.1)")
        a.emit(ev.DecisionClosed(kind=kind, rule=frame.rule))
        a.emit(ev.CombatStageSet(stage="resolve", rule=str(R.EFFICIENCY), data={"defender_efficiency": cmd.value}))
    elif kind == "ne_test":
        if cmd.value not in (0, 1):
            raise Reject(R.RESULTS, "answer 1 to test efficiency (Ex if passed, Ad if failed) or 0 to keep Ne (caldiero §12.5.4)")
        do_ne_test(a, cmd.value)
    elif kind == "ex_attacker":
        if len(cmd.units) != 1 or cmd.units[0] not in frame.data["units"]:
            raise Reject(R.RESULTS, f"the attacker loses one unit with efficiency at least the one used: {frame.data['units']} (caldiero §12.5.4 Ex)")
        a.emit(ev.DecisionClosed(kind=kind, rule=frame.rule))
        exchange_attacker_loss(a, cmd.units[0])
    elif kind == "ex_defender":
        if sorted(cmd.units) not in [sorted(s) for s in frame.data["sets"]]:
            raise Reject(R.RESULTS, f"the defender loses at least the SP the attacker lost, with no unit to spare: one of {frame.data['sets']} (caldiero §12.5.4 Ex)")
        a.emit(ev.DecisionClosed(kind=kind, rule=frame.rule))
        for u in sorted(cmd.units):
            eliminate(a, u, R.RESULTS)
    elif kind == "defensive_fire":
        if cmd.type == "decline":
            a.emit(ev.DecisionClosed(kind=kind, rule=frame.rule))
        else:
            do_defensive_fire(a, seat, cmd)
    elif kind == "cavalry_retreat":
        if cmd.type == "decline":
            a.emit(ev.DecisionClosed(kind=kind, rule=frame.rule))
        else:
            do_cavalry_retreat(a, seat, cmd)
    del w


def handle_step(a: Act, seat: str, cmd: Any) -> None:
    w = a.w
    step = step_key(a.state)
    t = cmd.type
    if t == "end_step":
        end_step(a, seat)
    elif step == "setup" and t == "place":
        check_setup_place(w, seat, cmd)
        do_setup_place(a, cmd)
    elif step == "setup" and t == "set_order":
        check_setup_order(w, seat, cmd)
        a.emit(ev.OrderSet(formation=cmd.formation, order=cmd.order, rule=str(R.SETUP_FRANCE), by="france"))
    elif step == "orders" and t == "set_order":
        check_cinc_order(w, seat, cmd)
        a.emit(ev.OrderSet(formation=cmd.formation, order=cmd.order, rule=str(R.CINC_ORDERS), by=w.cinc_of(seat)))
    elif step == "reorganise":
        check_reorganise(w, seat, cmd)
        do_reorganise(a, seat, cmd)
    elif step == "replacements":
        check_replacement(w, seat, cmd)
        a.emit(ev.UnitPlaced(unit=cmd.piece, hex=cmd.hex, rule=str(R.ELIMINATED), reduced=True))
    elif step == "choose_formation":
        check_activate(w, seat, cmd)
        do_activate(a, seat, cmd.formation)
    elif step == "activation_orders" and t == "change_order":
        check_change_order(w, seat, cmd)
        do_change_order(a, cmd)
    elif step == "activation_orders" and t == "unit_order":
        check_unit_order(w, seat, cmd)
        do_unit_order(a, seat, cmd)
    elif step == "movement":
        order, route = check_move(w, seat, cmd)
        do_move(a, seat, cmd, order, route)
    elif step == "leaders":
        path = check_move_leader(w, seat, cmd)
        a.emit(ev.LeaderMoved(leader=cmd.leader, path=path, rule=str(R.CINC_MOVE if w.leader_data(cmd.leader).role == "commander_in_chief" else R.GENERAL_MOVE)))
    elif step == "bombardment":
        check_bombard(w, seat, cmd)
        a.emit(ev.ActivationRecorded(key="fired", values=tuple(cmd.artillery), rule=str(R.BOMBARDMENT)))
        do_bombard(a, cmd)
    elif step == "combat":
        attack_problem(w, seat, cmd)
        do_attack(a, seat, cmd)


def end_step(a: Act, seat: str) -> None:
    state = a.state
    step = step_key(state)
    w = a.w
    if step == "setup":
        problems = setup_problems(w, seat)
        if problems:
            raise Reject(R.SETUP, "the set-up is not legal: " + "; ".join(problems))
        a.emit(ev.SetupEnded(side=seat, rule=str(R.SETUP_AUSTRIA if seat == "austria" else R.SETUP_FRANCE)))
        if seat == "austria":
            a.emit(ev.StepBegan(phase="setup", step="setup", seat="france", rule=str(R.SETUP_FRANCE)))
        else:
            a.emit(ev.InitiativeWon(seat="france", rule=str(R.FIRST_TURN), totals={}))
            a.emit(ev.StepBegan(phase="action", step="choose_formation", seat="france", rule=str(R.FIRST_TURN)))
    elif step == "orders":
        if seat == "france":
            a.emit(ev.StepBegan(phase="command", step="orders", seat="austria", rule=str(R.ORDER_CHANGE)))
        else:
            a.emit(ev.StepBegan(phase="command", step="weather", seat="austria", rule=str(R.WEATHER)))
    elif step == "reorganise":
        nxt = ("reorganise", "austria") if seat == "france" else ("replacements", "france")
        a.emit(ev.StepBegan(phase="command", step=nxt[0], seat=nxt[1], rule=str(R.RECOVERY if nxt[0] == "reorganise" else R.ELIMINATED)))
    elif step == "replacements":
        placeable = [u for u in replacement_due(w, seat) if replacement_hexes(w, u)]
        if placeable:
            raise Reject(R.ELIMINATED, f"returning units must be put back where possible: {', '.join(placeable)} (caldiero §3.1 A.4, §12.8)")
        if seat == "france":
            a.emit(ev.StepBegan(phase="command", step="replacements", seat="austria", rule=str(R.ELIMINATED)))
        else:
            a.emit(ev.StepBegan(phase="command", step="initiative", seat="", rule=str(R.INITIATIVE)))
    elif step == "activation_orders":
        a.emit(ev.StepBegan(phase="action", step="movement", seat=seat, rule=str(R.MOVEMENT)))
    elif step == "movement":
        problem = movement_obligation_problem(w)
        if problem:
            raise Reject(R.ATTACK if "Attack order" in problem else R.ADVANCE, problem)
        a.emit(ev.StepBegan(phase="action", step="leaders", seat=seat, rule=str(R.GENERAL_MOVE)))
    elif step == "leaders":
        a.emit(ev.StepBegan(phase="action", step="bombardment", seat=seat, rule=str(R.BOMBARDMENT)))
    elif step == "bombardment":
        a.emit(ev.StepBegan(phase="action", step="combat", seat=seat, rule=str(R.COMBAT)))
    elif step == "combat":
        problem = attack_obligation_problem(w, seat)
        if problem:
            raise Reject(R.ATTACK, problem)
        act = state.activation
        assert act is not None
        a.emit(ev.ActivationEnded(formation=act.formation, rule=str(R.END_OF_ACTIVATION)))
        a.emit(ev.StepBegan(phase="action", step="initiative", seat="", rule=str(R.INITIATIVE)))
    else:
        raise Reject(step_rule(state), f"step {state.step} cannot be ended by a command")


AUTO_SKIP = {"orders", "reorganise", "replacements", "activation_orders", "movement", "leaders", "bombardment", "combat"}


def settle(a: Act) -> None:
    """Run the automatic steps and skip steps where the seat has nothing to decide."""
    from arbitro.adjudicator.caldiero.legal import step_commands

    for _ in range(200):
        state = a.state
        if state.stack or state.phase == "over" or state.combat is not None:
            return
        step = step_key(state)
        if step == "weather":
            roll_weather(a)
            a.emit(ev.StepBegan(phase="command", step="reorganise", seat="france", rule=str(R.RECOVERY)))
            continue
        if step == "initiative":
            next_activation(a)
            continue
        if step in AUTO_SKIP:
            options = [c for c in step_commands(a.w, state.seat) if c["type"] != "end_step"]
            if not options:
                try:
                    end_step(a, state.seat)
                except Reject:
                    return
                continue
        return
