"""Arrivano i Francesi! (Montebello 1800, Campotenese 1806): the ruleset. Rulebook:
shared/rules/arrivano-i-francesi.it.md. Position format, interpretations, provisional data and the coverage map:
docs/rulesets/arrivano.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from arbitro.adjudicator.arrivano import activation as AC
from arbitro.adjudicator.arrivano import assault as A
from arbitro.adjudicator.arrivano import declaration as D
from arbitro.adjudicator.arrivano import bombardment as B
from arbitro.adjudicator.arrivano import commands as C
from arbitro.adjudicator.arrivano import flow as F
from arbitro.adjudicator.arrivano import movement as M
from arbitro.adjudicator.arrivano import open_order as O
from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano import steps as S
from arbitro.adjudicator.arrivano import turn as T
from arbitro.adjudicator.arrivano.data_model import ARRIVANO_DATA
from arbitro.adjudicator.arrivano.variant import ARRIVANO, ARRIVANO_VARIANT
from arbitro.adjudicator.arrivano.victory import automatic_now
from arbitro.adjudicator.arrivano.world import acts_now, in_command
from arbitro.adjudicator.parabellum.act import Act, settle
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.errors import BadInput
from arbitro.adjudicator.parabellum import activation, chief_orders, initiative, sequence, sight
from arbitro.adjudicator.parabellum.bombardment import targets, weather_silences
from arbitro.adjudicator.parabellum.commander_move import commander_may_move, leader_commands
from arbitro.adjudicator.parabellum.orders import order_of, ORDERS
from arbitro.adjudicator.decisions import Step
from arbitro.adjudicator.parabellum.loader import GameData, ScenarioData
from arbitro.adjudicator.parabellum.ruleset import ParaBellumRuleset, pieces_at_start
from arbitro.adjudicator.ruleset import Decision, Rule, Scenario
from arbitro.events import arrivano as ev
from arbitro.events import core
from arbitro.projections import arrivano as P
from arbitro.projections import parabellum as PB



class ArrivanoRulesetImpl(ParaBellumRuleset[P.ArrivanoState]):
    name = "arrivano"
    title = "Arrivano i Francesi!"
    version = "1.50.0"
    State = P.ArrivanoState
    Event = ev.ArrivanoEvent
    Command = C.ArrivanoCommand
    Contexts = tuple(dict.fromkeys(ev.ARRIVANO_CONTEXTS.values()))
    variant = ARRIVANO_VARIANT
    folder = ARRIVANO_DATA

    @property
    def data(self) -> GameData:
        """The data in force (`in_force`)."""
        return self.in_force  # type: ignore[no-any-return]

    @property
    def play_steps(self) -> sequence.Steps[Act, World]:
        return ARRIVANO_STEPS

    # --- scenario and data --------------------------------------------------------------------------
    def scenarios(self) -> dict[str, Scenario]:
        options = tuple(sorted(self.data.own["options"].options))  # type: ignore[attr-defined]  # options.json: §16's
        return {name: Scenario(name=name, title=s.scenario.title, seats=tuple(s.scenario.seats), options=options,
                               description=s.scenario.rule) for name, s in sorted(self.data.scenarios.items())}

    def option_problems(self, options: tuple[str, ...] | list[str]) -> list[str]:
        """Options chosen without the options they rest on (data/options.json `requires`; e.g. the V marker
        of arrivano §16.3.5 is placed by §16.3.4, itself part of open order §16.3)."""
        return [f"option {name} needs option {req} ({rule} rests on it)"
                for name, req, rule in self.data.own["options"].missing_requirements(options)]  # type: ignore[attr-defined]

    def new_state(self, scenario: str, options: tuple[str, ...]) -> P.ArrivanoState:
        problems = self.option_problems(options)
        if problems:
            raise BadInput("; ".join(problems))
        s = self.data.scenarios[scenario]
        state = P.ArrivanoState(scenario=scenario, options=sorted(options), last_turn=s.scenario.turns,
                                weather=s.weather.start_box if s.weather is not None else 0)
        for f in s.oob.formations:
            state.formations[f.id] = PB.FormationState(side=f.side, general=f.general, order=f.initial_order or "defence")
        state.units, state.leaders = pieces_at_start(s.oob)  # interpretation campotenese_setup_ranges: either_hex
        state.march_orders = {m.id: True for m in s.scenario.march_orders}
        state.steps_lost = {side: 0 for side in s.scenario.seats}
        return state

    def game(self, ctx: Decision[P.ArrivanoState]) -> Act:
        return Act(ctx, self)

    def start(self, ctx: Decision[P.ArrivanoState]) -> None:
        """Turn 1 starts with the Action phase (arrivano §3.2; interpretation first_turn_initiative: roll)."""
        g = self.game(ctx)
        if g.reading("first_turn_initiative") == "french_first":  # as caldiero §3.2: no roll
            ctx.emit(ev.InitiativeWon(seat="france", totals={}, rule=str(ARRIVANO.FIRST_TURN)))
            ARRIVANO_STEPS.begin(sequence.CHOOSE_ACTIVATION, g, "france")
        else:
            initiative.roll_initiative(g)
        self.go_on(g)

    # --- turn and decisions ---------------------------------------------------------------------------
    def steps(self) -> dict[str, Step[Any]]:
        return S.steps(self, self.go_on)

    # --- the procedures the kernel's protocols reach back to (parabellum/act.Game) ---------------------------------
    def exit_play(self, a: Act, unit: str, edge: str) -> bool:
        """arrivano §17.2.1, reading neapolitan_retreat_flags exit_not_eliminated: through one of its side's retreat
        flags a unit leaves play without counting as eliminated."""
        rules = a.data.scenario
        flag = next((k for k, f in sorted(rules.retreat_hexes.items()) if f.hex == edge), None)
        if flag is None or rules.retreat_hexes_side != a.state.units[unit].side or \
                a.reading("neapolitan_retreat_flags") != "exit_not_eliminated":
            return False
        a.emit(ev.UnitExited(unit=unit, hex=edge, flag=flag, rule=f"{R.CT_RETREAT_FLAGS}; {ARRIVANO.OFF_MAP}"))
        return True

    def to_nearest_friends(self, a: Act, leader: str, h: str) -> None:
        """arrivano §4.5.4: the surviving commander moves to the nearest friendly unit, his owner choosing among
        several (pending `commander_refuge`)."""
        F.push(a, "commander_refuge", a.state.leaders[leader].side, str(ARRIVANO.LEADER_ALONE), ev.RefugeAwaited(leader=leader))

    def after_leader_lost(self, a: Act, leader: str) -> None:
        F.after_leader_lost(a, leader)  # arrivano §17.2.12

    def settle_decision(self, a: Act, frame: core.Frame[Any]) -> bool:
        return S.settle_top(a, frame)  # none left, or a single answer

    def settle_step(self, a: Act) -> bool:
        """The end phase over (arrivano §3.1 C: it waits on no decision), the next turn begins (§3.1 A, turn.py);
        else a step whose seat has nothing left to do in it ended for him (the kernel's `sequence.NOTHING_LEFT`), once
        the checks of any time (`any_time`: a march order ended, the game won) have run on the position it ends in;
        no Arrivano row runs by itself (its initiative and end phase run where they begin, turn.py)."""
        state = a.state
        if state.result is None and state.phase == "end":
            T.start_turn(a, state.turn + 1)
            return True
        if state.result is not None or not a.steps.ends_by_itself(state.step, a.world(), state.seat):
            return False
        any_time(a)
        state = a.state  # as the checks left it
        return state.result is None and a.steps.settle(state.step, a, a.world(), state.seat)

    def eligible(self, w: World) -> list[str]:
        return T.activatable(w) + T.activatable_columns(w)  # arrivano §6.1, §17.2.9 its independent columns

    def end_turn(self, a: Act) -> None:
        T.end_phase(a)

    def go_on(self, g: Act) -> None:
        """After every command: automatic frames and steps, then the checks of any time (`any_time`), which settle
        also makes before it ends a step by itself."""
        settle(g)
        any_time(g)

    # --- projection (the view, what a seat may examine, the secret units and the events' redaction are the
    # kernel's: ParaBellumRuleset; Arrivano adds the decision frames and a unit's second move)
    piece_fields = ev.PIECE_FIELDS
    # a hidden stub's rule by its type (the kernel's, then Arrivano's events')
    stub_rules = {**ParaBellumRuleset.stub_rules, ev.RoutStopped: "ROUT", ev.GroupEntered: "REINFORCEMENTS",
                  ev.CounterChargeDeclared: "CHARGE"}
    # the guns turned to their Moved side by a move (§11) or back at the end phase (§3.1 C), each for itself, served
    # without a gun hidden from the seat and never as a stub: that an unseen gun moved or fired this turn is told
    # neither by its name nor by a stub's presence (rev-m M4)
    listed_fields = {ev.ArtilleryTurned: "units"}
    # a V or F marker placed or taken off (§16.3.4): its removal is made only where the unit acted in open order last
    # turn, a marker under its stack (§11.3.2), so an unseen unit's is served nothing, not a stub telling it had one
    withheld = ParaBellumRuleset.withheld | {ev.OpenOrderMarked}

    def owner(self, event: Any, state: P.ArrivanoState) -> str | None:
        """A march order's end (§17.1.5), served to its side alone: it ends `reached` only while no enemy unit sees
        its units (else it ends `enemy_in_los` first), so the end tells where unseen units stand (§11.3.2; rev-m M3).
        The book is silent on what the enemy knows of a march order (an order given by the scenario, not a marker
        on the map): it binds its side alone, so its side alone is served it, either end; the Defence it then takes
        is an order change as any other (`order_changed`, public)."""
        if isinstance(event, ev.MarchOrderEnded):
            return self.march_side(state, event.march)
        return super().owner(event, state)

    def march_side(self, state: P.ArrivanoState, march: str) -> str:
        data = self.scenario_on(state)
        m = next(m for m in data.scenario.march_orders if m.id == march)
        return data.formation(m.formation).side

    def view(self, state: P.ArrivanoState, seat: str) -> dict[str, Any]:
        """The kernel's, with under the fog a seat's own march orders alone (`owner`: their ends are its own)."""
        served = super().view(state, seat)
        if self.fogged(state, seat):
            served["march_orders"] = {m: v for m, v in served["march_orders"].items() if self.march_side(state, m) == seat}
        return served

    def hides(self, event: Any, data: dict[str, Any], seat: str, state: P.ArrivanoState) -> bool:
        """The kernel's (a hidden piece named), and under the fog an enemy independent column's order, which lies
        under its officer (arrivano §16.2 "piazzate sotto l'Ufficiale una pedina con indicato l'ordine"): as no
        view serves an enemy column (ArrivanoState.served_own), no event tells its order or units, wherever the
        officer stands. That the column is activated stays public: the initiative's winner may choose it (§6.1
        "amica o nemica"; §17.2.9), so legal() lists it and formation_activated names it."""
        officer = state.leaders.get(self._column_told(event, state) or "")
        return (officer is not None and officer.side != seat) or super().hides(event, data, seat, state)

    @staticmethod
    def _column_told(event: Any, state: P.ArrivanoState) -> str | None:
        """The officer of the independent column whose order `event` tells: its forming, a change of its order, or
        its officer's try for one (parabellum/activation.try_order, made in the column's activation)."""
        match event:
            case ev.ColumnFormed(officer=officer):
                return officer
            case ev.OrderChanged(column=column):
                return column
            case ev.OrderChangeTried() if state.activation is not None:
                return state.activation.column
        return None

    def own_context(self, ctx: core.FrameContext, data: dict[str, Any]) -> dict[str, Any]:
        """The kernel's (`redact_frame`: a decision's context is its seats'), and a counter-charge's its seat's in
        part (`_charge_served`)."""
        return self._charge_served(ctx) if isinstance(ctx, ev.CounterchargeAwaited) else data

    @staticmethod
    def _charge_served(ctx: ev.CounterchargeAwaited) -> dict[str, Any]:
        """The charge a seat may counter-charge (arrivano §14.2.4) as the table shows it, from an allow-list: the
        charger in the hex it met the seat's cavalry (in its sight, §11.3.2) and that cavalry. Its whole path and
        target (the Charge marker goes on where it ends, §14.2) are the charger's."""
        return {"ctx": ctx.__struct_config__.tag, "unit": ctx.unit, "path": [ctx.path[ctx.stop]], "stop": 0,
                "counter": list(ctx.counter)}

    automatic_steps = ("rout",)  # the end phase's rout (§3.1 C), a frame's

    def own_position_problems(self, state: P.ArrivanoState, w: World, d: ScenarioData) -> list[str]:
        """The optional rules' requirements (§16), and no order kept for the turn."""
        kept = [f"unit {u}: turn_order {unit.turn_order!r}: Arrivano keeps no order for the turn (caldiero §5.3.1's "
                "rule; out of command a unit obeys Defence, arrivano §5.3): leave it \"\"" for u, unit in
                sorted(state.units.items()) if unit.turn_order]  # the kernel's order_of would obey it (rev-l L5)
        return kept + self.option_problems(state.options)


def movement_commands(w: World, seat: str, only: str | None = None) -> Iterator[dict[str, Any]]:
    """The movement step's commands, as they are found (asked whether there is one after every command: settle);
    `only`: those naming that piece (a unit's moves, an officer's orders, a commander's moves: his searches alone)."""
    act = w.state.activation
    assert act is not None
    if w.state.formations[act.formation].side != seat:
        return
    ic: set[str] | None = None  # worked out for the first unit that may move (none may, once all have moved)
    for uid in sorted(w.state.units) if only is None else [only] if only in w.state.units else []:
        unit = w.state.units[uid]
        if unit.side != seat or M.may_move(w, uid) is not None:
            continue
        ic = in_command(w, act.formation) if ic is None else ic
        if unit.arm == "artillery":  # arrivano §11: the owner names the order it moves under
            for o in M.artillery_orders(w, uid, ic):
                yield from unit_moves(w, uid, ic, o)
            continue
        yield from unit_moves(w, uid, ic, None)
        for h, (_, charged) in M.charges(w, uid, ic).items():
            yield from ({"type": "move", "unit": uid, "to": h, "column": False, "charge": t} for t in charged)
    leaders = sorted(w.state.leaders) if only is None else [only] if only in w.state.leaders else []
    for lid in leaders:
        if w.state.leaders[lid].side == seat:
            yield from ({"type": "officer_order", "officer": lid, "order": o} for o in M.officer_orders(w, lid))
    yield from leader_commands(ARRIVANO_VARIANT, w, (lid for lid in leaders if commander_may_move(w, lid, seat)))


def movement_step_commands(w: World, seat: str, only: str | None = None) -> Iterator[dict[str, Any]]:
    """The movement step's listing: the moves, then the open-order fire (§16.3), each worked out only when asked;
    `only`: those naming that piece (the step's `of_piece`, issue 15)."""
    yield from movement_commands(w, seat, only)
    yield from O.fire_commands(w, seat, only)


def unit_moves(w: World, uid: str, ic: set[str], order: str | None) -> Iterator[dict[str, Any]]:
    """A unit's moves (`order`: the order an artillery unit moves under), in line and in march column to every hex
    each reaches (a column move to a hex a line move also reaches is another move, §9.3: its path and record); the
    column's search made only when its moves are asked for."""
    extra = {"order": order} if order is not None else {}
    yield from ({"type": "move", "unit": uid, "to": h, "column": False} | extra
                for h in M.destinations(w, uid, False, ic, order))
    if not isinstance(M.plan(w, uid, True, ic, order), str):
        yield from ({"type": "move", "unit": uid, "to": h, "column": True} | extra
                    for h in M.destinations(w, uid, True, ic, order))


def attack_obligation(w: World) -> str | None:
    """arrivano §5.1.2, §12.2: Attack-order units in EZoC must attack enemies not yet attacked this segment."""
    act = w.state.activation
    assert act is not None
    ic = in_command(w, act.formation)
    side = w.state.formations[act.formation].side
    for u in w.units_of(side):
        if D.may_attack(w, u, act.formation, ic) and order_of(w, u, ic) == "attack" and D.required_targets(w, [u]):
            return "Attack-order units in an enemy zone of control must attack"
    return None


def any_time(g: Act) -> None:
    """What holds at any time, checked at the end of every command and before a step ends by itself (so that the
    next step runs on it): march orders ending (§17.1.5, march_order_end: any_time), the automatic victory (§17.1.8)
    and the sightings (§11.3.2)."""
    if g.state.result is None:
        march_checks(g)
        found = automatic_now(g.world())
        if found is not None:
            g.emit(found)
    for sighting in sight.sightings(g.world(), str(ARRIVANO.FOG)):
        g.emit(sighting)


def march_checks(g: Act) -> None:
    """arrivano §17.1.5 (interpretations march_order_end: any_time, march_order_units: listed_group): a march order
    ends when an enemy unit is in line of sight of one of its units (the formation takes the rules' `then_order`,
    Defence) or when its `release_fraction` of its units (artillery excluded; half, "almeno metà") are in or next to
    the objective: scenario.json's `march_order_rules`, read here."""
    w, rules = g.world(), g.data.scenario.march_order_rules
    for m in g.data.scenario.march_orders:
        if not g.state.march_orders.get(m.id):
            continue
        assert rules is not None  # required with march orders (data_model._check_march_orders)
        units = [u for u in m.units if g.state.units[u].where == "map"]
        looking = {g.state.units[u].hex for u in units}  # each pair of hexes once: stacks share a line
        if sight.sees_any(w, looking, w.hexes_held(w.enemy(g.data.formation(m.formation).side))):
            g.emit(ev.MarchOrderEnded(march=m.id, reason="enemy_in_los", rule=rules.rule))
            if g.state.formations[m.formation].order != rules.then_order:
                g.emit(ev.OrderChanged(formation=m.formation, order=rules.then_order, by="march_order",
                                       rule=rules.rule))
            continue
        foot = [u for u in units if g.state.units[u].arm != "artillery"]
        reach = 0 if w.reading("march_order_units") == "in_hex_only" else 1  # in it, or in or next to it
        there = [u for u in foot if w.grid.distance(g.state.units[u].hex, m.objective) <= reach]
        num, den = rules.release_fraction  # "almeno metà": Montebello's 1/2 (scenario.json)
        if foot and len(there) * den >= len(foot) * num:
            g.emit(ev.MarchOrderEnded(march=m.id, reason="reached", rule=rules.rule))


# --- the steps of play in which a seat acts (arrivano §3.1), on the kernel's one table ---------------------------
def _activation(g: Act, rule: Rule) -> PB.Activation:
    """The activation under way, for a command of its bombardment step; none (a hand-written position at the step
    with no activation): the command is refused, as games up to 1.27.0 refused it."""
    act = g.state.activation
    if act is None:
        g.reject(rule, f"no activation is under way at the {g.state.step} step: the command is given by the "
                       "activated formation's side")
    return act


def bombard(g: Act, seat: str, cmd: C.Bombard) -> None:
    act = _activation(g, R.BOMBARD_STEP)
    w, units = g.world(), sorted(cmd.artillery)
    weather_silences(w)  # §17.2.7's Tormenta, before the guns' own readiness (which the weather also denies)
    if units not in B.fire_groups(w, seat, act.formation):
        g.reject(R.BOMBARD_COMBINE if len(units) > 1 else ARRIVANO.ARTILLERY,
                 "these guns cannot fire together now (stacked, not Moved, of the active formation)")
    if cmd.target not in targets(ARRIVANO_VARIANT, w, units):
        g.reject(R.BOMBARD_TABLE, f"{cmd.target} is not a target: enemy non-artillery units in range and line of sight "
                                  f"({w.scenario.los_rule})")
    B.bombard(g, units, cmd.target, defensive=False)


def move(g: Act, seat: str, cmd: C.UnitMove) -> None:
    if cmd.charge is None:
        M.move(g, cmd.unit, cmd.to, cmd.column, cmd.order)
        return
    if cmd.unit not in g.state.units or g.state.units[cmd.unit].side != seat or cmd.column:
        g.reject(ARRIVANO.CHARGE, "charges are moves of your cavalry, not in column")
    M.charge(g, cmd.unit, cmd.to, cmd.charge)


def combat_owed(w: World, seat: str) -> tuple[Any, str] | None:
    """arrivano §5.1.2, §12.2: what the active formation still owes before its combat sub-phase ends (once per
    position: the combat step's listing asks it for its tries, and again for its `end_step`)."""
    return w.cached(("combat owed", seat), lambda: _combat_owed(w, seat))


def _combat_owed(w: World, seat: str) -> tuple[Any, str] | None:
    problem = attack_obligation(w)
    if problem is not None:
        return ARRIVANO.ATTACK, problem
    owed = D.owed_problem(w, seat)
    return (R.EVERY_ZOC, owed) if owed is not None else None


def end_combat(g: Act, seat: str) -> None:
    """The combat step ended with no recovery try: the activation is over (B-6 asks nothing, arrivano §3.1)."""
    close_combat(g)
    AC.finish_activation(g)


def recover_first(g: Act, seat: str, cmd: C.Recover) -> None:
    """B-6 begun in the combat step (arrivano §3.1, §15.3): the step ends as by `end_step`, then the stack in `cmd.hex`
    tries to recover (activation.begin_recovery); `end_step` ends it with no try."""
    owed = combat_owed(g.world(), seat)
    if owed is not None:
        g.reject(*owed)
    if cmd.hex is None:
        g.reject(ARRIVANO.RECOVERY, "recover names the hex of a stack that tries; end_step ends the combat step "
                 "with no try")
    close_combat(g)
    AC.begin_recovery(g, seat, cmd.hex)


def close_combat(g: Act) -> None:
    w = g.world()
    T.remove_spent_markers(g, [u for u in sorted(g.state.units) if acts_now(w, u)])  # arrivano §16.3.4


def combat_commands(w: World, seat: str) -> Iterator[dict[str, Any]]:
    """The combat step's assaults, then, once nothing is owed, the stacks that may begin B-6 by trying to recover."""
    yield from D.assaults(w, seat)
    if combat_owed(w, seat) is None:
        yield from AC.recovery_answers(w, [])


def choices(w: World, seat: str) -> Iterator[dict[str, Any]]:
    """The activations the initiative's winner may choose (arrivano §6.1, §16.1, §16.2, §16.2.1, §17.2.9)."""
    yield from ({"type": "activate", "formation": f} for f in [*T.activatable(w), *T.activatable_columns(w)])
    for lid in sorted(w.state.leaders):
        if w.state.leaders[lid].side == seat:
            units = AC.column_candidates(w, lid)
            if units:
                yield from ({"type": "form_column", "officer": lid, "units": units, "order": o} for o in ORDERS)
    yield from ({"type": "rejoin_column", "officer": o} for o in AC.rejoinable(w, seat))
    if AC.hq_available(w, seat):
        yield {"type": "activate", "formation": AC.HQ}


def bombardment_commands(w: World, seat: str) -> Iterator[dict[str, Any]]:
    act = w.state.activation
    assert act is not None
    yield from activation.tries(ARRIVANO_VARIANT, w, seat)
    for group in B.fire_groups(w, seat, act.formation):
        yield from ({"type": "bombard", "artillery": group, "target": t} for t in targets(ARRIVANO_VARIANT, w, group))


# `unseen` (sequence.UNSEEN_WAITS, arrivano §11.3.2): the orders sub-phase (since 1.38.0: whether a general stands in
# his chief's command range, §4.3, §5.2, hangs on where leaders stand out of the enemy's sight) and an activation's
# bombardment, movement and combat (which units may still fire, move or assault).
ARRIVANO_STEPS: sequence.Steps[Act, World] = sequence.Steps({
    "orders": sequence.Step(ARRIVANO.ORDER_CHANGES, {"change_order": chief_orders.change},
                            lambda w, seat: chief_orders.changes(ARRIVANO_VARIANT, w, seat),
                            lambda g, seat: initiative.next_activation(g), unseen=True, phase="command",
                            seats=T.orders_seats, begins=R.ORDERS_PHASE),
    sequence.CHOOSE_ACTIVATION: sequence.Step(R.ACTIVATE, {
        "activate": lambda g, seat, cmd: AC.activate(g, cmd.formation),
        "form_column": lambda g, seat, cmd: AC.form_column(g, cmd.officer, sorted(cmd.units), cmd.order),
        "rejoin_column": lambda g, seat, cmd: AC.rejoin_column(g, cmd.officer)}, choices,
        phase="action"),
    "bombardment": sequence.Step(R.BOMBARD_STEP, {"try_order_change": activation.try_order, "bombard": bombard},
                                 bombardment_commands, lambda g, seat: O.fatigue_tests_at_movement(g), unseen=True,
                                 phase="action", then="movement"),  # arrivano §16.3.4: F units test as movement begins
    "movement": sequence.Step(R.MOVE_STEP, {
        "move": move, "officer_order": lambda g, seat, cmd: M.officer_order(g, cmd.officer, cmd.order),
        "move_leader": lambda g, seat, cmd: M.move_leader(g, cmd.leader, cmd.to),
        "fire": lambda g, seat, cmd: O.fire(g, cmd.unit, cmd.to, cmd.target)},
        movement_step_commands, lambda g, seat: A.resolve_countercharges(g),  # arrivano §14.2.4, as combat begins
        lambda w, seat: M.obligation_problem(w), of_piece=movement_step_commands, unseen=True, phase="action",
        then="combat"),
    "combat": sequence.Step(R.COMBAT_STEP, {"assault": lambda g, seat, cmd: D.declare(g, sorted(cmd.attackers),
                                                                                       sorted(cmd.targets),
                                                                                       cmd.use_general),
                                            "recover": recover_first},
                            combat_commands, end_combat, combat_owed, unseen=True,
                            phase="action"),
}, ARRIVANO.SEQUENCE)
