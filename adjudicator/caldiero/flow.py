"""Caldiero's sequence of play (caldiero §3, §6, §17, §21) as a state machine: set-up, the command phase,
the turn's end, and the dispatch of every command to the system modules.

Each command has a `check_*` (refuses with the rule it enforces, parabellum/act.refuse; legal.py lists candidates that pass
the same checks) and a `do_*` that emits events. After every command the kernel's `act.settle` runs the automatic steps
(weather, initiative, empty steps) until some seat must decide. Multi-step procedures (an assault, a
retreat, an exchange) wait on frames of the engine's decision stack, answered by the steps of steps.py; the
assault then goes on from the stage its own `assault` frame records, once it is on top again (go_on,
system_assault.run_stages).

System modules (importable by Arrivano i Francesi!): system_procedure (Act, retreats, elimination, leader
tests), system_activation (initiative, activation, orders), system_moves (movement step), system_artillery
(bombardment step), system_assault (the assault procedure). Caldiero-only: this module, scenario_rules,
fog, victory, weather effects inside the system modules (Caldiero's weather track, caldiero §17).
"""

from __future__ import annotations

from arbitro.adjudicator.caldiero import commands as C
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO, CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import orders
from arbitro.adjudicator.parabellum.stacking import stack_problem
from arbitro.adjudicator.parabellum.zoc import enemy_zoc
from arbitro.adjudicator.caldiero.victory import CALDIERO_SCORING
from arbitro.adjudicator.maps.hexgrid import parse_hex
from arbitro.adjudicator.parabellum import efficiency, recovery, reinforcements, victory
from arbitro.adjudicator.parabellum.sequence import CHOOSE_ACTIVATION
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import caldiero as ev
from arbitro.projections.caldiero import CaldieroState
from arbitro.adjudicator.caldiero.system_assault import run_stages
from arbitro.adjudicator.caldiero.system_declare import attack_obligation_problem
from arbitro.adjudicator.parabellum.act import Act, refuse, settle, stack_test


# =====================================================================================================
# Set-up (caldiero §21)
# =====================================================================================================
def setup_hexes(w: World, piece: str) -> list[str]:
    # asked for every candidate hex by legal(): worked out once per World
    return list(w.cached(("setup_hexes", piece), lambda: tuple(_setup_hexes(w, piece))))


def _setup_hexes(w: World, piece: str) -> list[str]:
    if piece in w.state.units:
        setup = w.counters.unit(piece).setup
    else:
        setup = w.counters.leader(piece).setup
    if setup is None:
        return []
    pis = setup.hexes
    if len(pis) > 1:
        return sorted(h for h in pis if w.grid.contains(h))  # Erdödy: exactly 2014 or 2114
    return sorted(w.grid.within(pis[0], 1))  # caldiero §21: within one hex of the PI


def check_setup_place(w: World, seat: str, cmd: C.Place) -> None:
    piece = cmd.piece
    side = w.state.units[piece].side if piece in w.state.units else w.state.leaders[piece].side if piece in w.state.leaders else None
    if side is None:
        refuse(R.SETUP, f"no unit or leader {piece!r}")
    if side != seat:
        refuse(R.SETUP, f"{piece} is not yours")
    allowed = setup_hexes(w, piece)
    if not allowed:
        refuse(R.SETUP, f"{piece} is not set up on the map: it arrives as a reinforcement (caldiero §21.3, §21.4)")
    if cmd.hex not in allowed:
        refuse(R.SETUP, f"{piece} sets up within one hex of its PI: {', '.join(allowed)} (caldiero §21)")
    if w.enemy_units_at(cmd.hex, seat):
        refuse(R.SETUP, f"{cmd.hex} holds enemy units")
    if seat == "austria" and parse_hex(cmd.hex)[0] == w.scenario.austrian_forbidden_column:
        refuse(R.NO_10XX, "Austrian units never enter the 10xx row (caldiero §9.2.1)")
    here = w.state.units[piece].hex if piece in w.state.units else w.state.leaders[piece].hex
    if cmd.hex == here:  # issue 19 item 9: a set-up that changes nothing is refused, as legal() never lists it
        refuse(R.SETUP, f"{piece} is already at {cmd.hex}: place it elsewhere or end the set-up")


def place_at_setup(a: Act, seat: str, cmd: C.Place) -> None:
    check_setup_place(a.world(), seat, cmd)
    if cmd.piece in a.state.units:
        a.emit(ev.UnitPlaced(unit=cmd.piece, hex=cmd.hex, rule=str(R.SETUP)))
    else:
        a.emit(ev.LeaderPlaced(leader=cmd.piece, hex=cmd.hex, rule=str(R.SETUP)))


def setup_problems(w: World, side: str) -> list[str]:
    problems = []
    for h, units in efficiency.stacks(w, [u for u in w.on_map_units() if w.state.units[u].side == side]):
        problem = stack_problem(CALDIERO_VARIANT, w, units)
        if problem:
            problems.append(f"{h}: {problem}")
    for f in orders_chosen_at_setup(w, side):
        if w.state.formations[f].order is None:
            problems.append(f"choose the order of {f} (caldiero §21.2)")
    return problems


def orders_chosen_at_setup(w: World, side: str) -> list[str]:
    """caldiero §21.2: the side's formations the order of battle prints with a general and no order (the French
    Massena's and Augereau's): their owner chooses it at set-up."""
    return [f.id for f in w.counters.oob.formations if f.side == side and f.general and f.initial_order is None]


def order_at_setup(a: Act, seat: str, cmd: C.ChangeOrder) -> None:
    if cmd.formation not in (chosen := orders_chosen_at_setup(a.world(), seat)):
        refuse(R.SETUP_FRANCE, f"at set-up {seat} chooses the orders of {', '.join(chosen)} only: those the order of "
               "battle prints without one (caldiero §21.2)" if chosen else
               f"at set-up {seat} chooses no formation's order: the order of battle prints every one of them (caldiero "
               "§21.2)")
    if a.state.formations[cmd.formation].order == cmd.order:  # issue 19 item 9, as in the orders step
        refuse(R.SETUP_FRANCE, f"{cmd.formation}'s order is already {cmd.order}")
    a.emit(ev.OrderChanged(formation=cmd.formation, order=cmd.order, rule=str(R.SETUP_FRANCE), by=seat))


# =====================================================================================================
# Command phase (caldiero §3.1 A)
# =====================================================================================================
def reorganise_candidates(w: World, seat: str, h: str) -> list[str]:
    """The units of `seat` in `h` that may try to reorganise (caldiero §15.3, the kernel's recovery.stacks): in
    disorder or rout, outside enemy ZoC, their order allowing it (Defence, caldiero §5.1.3)."""
    return recovery.stacks(w, seat, w.side_units_at(h, seat), lambda u: orders.order_of(w, u)).get(h, [])


def check_reorganise(w: World, seat: str, cmd: C.Reorganise) -> None:
    if cmd.hex in w.state.step_done:
        refuse(CALDIERO.RECOVERY, f"{cmd.hex} already tried to reorganise this phase")
    if not w.side_units_at(cmd.hex, seat):
        refuse(CALDIERO.RECOVERY, f"none of your units is at {cmd.hex}")
    if cmd.hex in enemy_zoc(w, seat):
        refuse(CALDIERO.RECOVERY, f"{cmd.hex} is in an enemy ZoC: no reorganisation there (caldiero §15.3)")
    if not reorganise_candidates(w, seat, cmd.hex):
        refuse(CALDIERO.RECOVERY, f"no unit at {cmd.hex} in disorder or rout whose order allows reorganisation (Defence, caldiero §5.1.3, §15.3)")


def reorganise(a: Act, seat: str, cmd: C.Reorganise) -> None:
    """caldiero §15.3: one die for the stack (the kernel's test); those passing come one level back (§15.3.1)."""
    check_reorganise(a.world(), seat, cmd)
    results = stack_test(a, reorganise_candidates(a.world(), seat, cmd.hex), f"{CALDIERO.RECOVERY} reorganisation at {cmd.hex}")
    a.emit(ev.StepRecorded(item=cmd.hex, rule=str(CALDIERO.RECOVERY)))
    for u in (u for u, passed in results.items() if passed):
        a.emit(ev.StatusChanged(unit=u, status=recovery.recovered(a.world(), u), rule=str(CALDIERO.RECOVERY)))


def replace(a: Act, seat: str, cmd: C.Place) -> None:
    if cmd.piece not in reinforcements.due(a.world(), seat):
        refuse(CALDIERO.ELIMINATED, f"{cmd.piece} is not an eliminated unit of yours due back this turn (caldiero §12.8)")
    if cmd.hex not in reinforcements.return_hexes(CALDIERO_VARIANT, a.world(), cmd.piece):
        refuse(CALDIERO.ELIMINATED, f"{cmd.piece} returns with its general or adjacent, not in enemy ZoC, within stacking limits (caldiero §12.8)")
    a.emit(ev.UnitPlaced(unit=cmd.piece, hex=cmd.hex, rule=str(CALDIERO.ELIMINATED), reduced=True))


# =====================================================================================================
# Initiative and activation (caldiero §6): the kernel's loop (initiative.next_activation) asks the ruleset
# =====================================================================================================
def end_turn(a: Act) -> None:
    box = a.world().weather_box()  # caldiero §17.1.3: the ice storm's marker moves to box 2 in the end phase
    if box is not None and box.end_phase_box is not None and box.end_phase_box != a.state.weather:
        a.emit(ev.WeatherChanged(box=box.end_phase_box, rule=box.rule))
    turn = a.state.turn
    if turn >= a.state.last_turn:
        a.emit(victory.final_result(CALDIERO_VARIANT, a.world(), CALDIERO_SCORING))  # caldiero §18
        return
    a.emit(ev.TurnBegan(turn=turn + 1, rule=str(CALDIERO.END_PHASE)))
    a.steps.begin("orders", a)


def roll_weather(a: Act, seat: str) -> None:
    scen = a.data.scenario.scenarios[a.state.scenario]
    if scen.fixed_weather is not None:
        if a.state.weather != scen.fixed_weather:
            a.emit(ev.WeatherChanged(box=scen.fixed_weather, rule=str(R.WEATHER_HOLDS)))
        return  # caldiero §19.2.1: no weather roll
    a.weather(f"{R.WEATHER} weather (Austrian roll)", "weather (provisional)", R.WEATHER)
    box = a.world().weather_box()
    if box is not None and box.formations_defence:  # caldiero §17.1.3, the ice storm's box: every formation in Defence
        for f in sorted(a.state.formations):
            if a.state.formations[f].order != "defence":
                a.emit(ev.OrderChanged(formation=f, order="defence", rule=box.rule, by="weather"))


# =====================================================================================================
# The end of each step a seat acts in (its `end_step`, or the step ended for him: legal.CALDIERO_STEPS, the kernel's
# sequence.Steps): the next step begins
# =====================================================================================================
def step_key(state: CaldieroState) -> str:
    """The row of legal.CALDIERO_STEPS the state is at: the orders and the initiative are steps of both the command
    and the action phase."""
    if state.phase == "action" and state.step in ("orders", "initiative"):
        return f"activation_{state.step}"
    return state.step


def go_on(a: Act) -> None:
    """After a command or an answer: the assault in progress goes on unless a decision waits, then the steps
    that need no choice are run."""
    run_stages(a)
    settle(a)


def setup_problem(w: World, seat: str) -> tuple[Rule, str] | None:
    problems = setup_problems(w, seat)
    return (R.SETUP, "the set-up is not legal: " + "; ".join(problems)) if problems else None


def after_setup(a: Act, seat: str) -> None:
    """caldiero §21.1, §21.2: the Austrians set up first, then the French; the French have the first turn's
    initiative (§3.2)."""
    a.emit(ev.SetupEnded(side=seat, rule=str(R.SETUP_AUSTRIA if seat == "austria" else R.SETUP_FRANCE)))
    if seat == "austria":
        a.steps.begin("setup", a, "france", rule=R.SETUP_FRANCE)
    else:
        a.emit(ev.InitiativeWon(seat="france", rule=str(CALDIERO.FIRST_TURN), totals={}))
        a.steps.begin(CHOOSE_ACTIVATION, a, "france", rule=CALDIERO.FIRST_TURN)


def replacements_owed(w: World, seat: str) -> tuple[Rule, str] | None:
    placeable = [u for u in reinforcements.due(w, seat) if reinforcements.return_hexes(CALDIERO_VARIANT, w, u)]
    if placeable:
        return CALDIERO.ELIMINATED, f"returning units must be put back where possible: {', '.join(placeable)} (caldiero §3.1 A.4, §12.8)"
    return None


def attack_owed(w: World, seat: str) -> tuple[Rule, str] | None:
    problem = attack_obligation_problem(w, seat)
    return (CALDIERO.ATTACK, problem) if problem else None

