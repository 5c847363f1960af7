"""Caldiero 1796 (12 November 1796): the ruleset. Rulebook: shared/rules/caldiero-1796.it.md.

See docs/rulesets/caldiero.md for the position format, the interpretations, the provisional data and the
rule-by-rule coverage map.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.caldiero import flow as F
from arbitro.adjudicator.caldiero.commands import CaldieroCommand
from arbitro.adjudicator.caldiero.legal import CALDIERO_STEPS
from arbitro.adjudicator.caldiero.steps import caldiero_steps
from arbitro.adjudicator.caldiero.system_activation import do_activate, eligible_formations
from arbitro.adjudicator.caldiero.loader import BATTLE, CALDIERO_DATA
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import sight
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.decisions import Step
from arbitro.adjudicator.parabellum.loader import GameData, ScenarioData, provisional_report
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum.ruleset import ParaBellumRuleset, pieces_at_start
from arbitro.adjudicator.ruleset import Scenario
from arbitro.events import caldiero as ev
from arbitro.projections import caldiero as P
from arbitro.projections import parabellum as PB

SEATS = ("france", "austria")


FOG_HIDDEN = "fog of war (caldiero §20.4)"  # what an event or a frame hidden by the fog carries


class CaldieroRuleset(ParaBellumRuleset[P.CaldieroState]):
    name = "caldiero"
    title = "Caldiero 1796"
    version = "0.51.0"
    State = P.CaldieroState
    Event = ev.CaldieroEvent
    Command = CaldieroCommand
    Contexts = ev.CALDIERO_CONTEXTS
    variant = CALDIERO_VARIANT
    folder = CALDIERO_DATA
    piece_fields = ev.PIECE_FIELDS
    fog_marker = FOG_HIDDEN
    # a hidden stub's rule by its type (the kernel's, then Caldiero's events'): attackers dropped by a failed "Attack?"
    # test (§12.2.2), by disorder (§15.1) or by Elan (§16.1) all cite the assault
    stub_rules = {**ParaBellumRuleset.stub_rules, ev.AttackersWithdrawn: "COMBAT",
                  ev.OrderTestTaken: "OUT_OF_COMMAND"}

    play_steps = CALDIERO_STEPS

    # --- data ----------------------------------------------------------------------------------
    def rules_on(self, data: GameData) -> ScenarioData:
        return data.scenarios[BATTLE]  # one battle: its one scenario folder

    @property
    def battle(self) -> ScenarioData:
        """The data in force (`in_force`), typed."""
        battle: ScenarioData = self.in_force
        return battle

    def scenario_data(self, scenario: str) -> ScenarioData:
        return self.battle

    def scenarios(self) -> dict[str, Scenario]:
        options = tuple(self.battle.scenario.options)  # every optional rule of caldiero §20, selectable at creation
        return {name: Scenario(name=name, title=s.title, seats=SEATS, options=options, description=s.rule)
                for name, s in self.battle.scenario.scenarios.items()}

    def provisional(self, scenario: str) -> list[str]:
        """What a version rests on: one whose weather holds (caldiero §19.2.1, `fixed_weather`) never rolls on the
        weather table, so that table's reconstruction (`change_provisional`) is none of its."""
        fixed = self.battle.scenario.scenarios[scenario].fixed_weather is not None
        return provisional_report([m for m in self.battle.provisional
                                   if not (fixed and m.path == "$.change_provisional")])

    def new_state(self, scenario: str, options: tuple[str, ...]) -> P.CaldieroState:
        d = self.battle
        brought = [(o.formation, o.takes) for name, o in d.scenario.options.items() if name in options and o.formation]
        formations = {f.id: PB.FormationState(side=f.side, general=f.general, order=f.initial_order)
                      for f in [*d.oob.formations, *(f for f, _ in brought)] if not f.reserve}
        taken = {takes: f.id for f, takes in brought if takes}  # caldiero §20.1: Bonaparte's takes the reserve's units
        units, leaders = pieces_at_start(d.oob, lambda u: taken.get(u.formation, u.formation))
        scen = d.scenario.scenarios[scenario]
        weather = scen.fixed_weather if scen.fixed_weather is not None else d.weather.start_box
        state = P.CaldieroState(scenario=scenario, options=sorted(options), last_turn=d.scenario.turns, weather=weather,
                                elan_left=d.scenario.elan_uses, formations=formations, units=units, leaders=leaders,
                                phase="setup", step="setup", seat="austria")
        if "fog_of_war" in options:
            self._update_seen(state)
        return state

    # --- turn and decisions ----------------------------------------------------------------------
    def scenario_on(self, state: P.CaldieroState) -> ScenarioData:
        """The data a game in `state` is played on (its own data folder, else the data in force)."""
        on: ScenarioData = self.data_of(state)
        return on

    def scenario_names(self, state: P.CaldieroState) -> list[str]:
        """The battle's versions (caldiero §19: scenario.json's `scenarios`), all played on its one folder."""
        return sorted(self.scenario_on(state).scenario.scenarios)

    def steps(self) -> dict[str, Step[Any]]:
        return caldiero_steps(self)

    def step_key(self, state: P.CaldieroState) -> str:
        return F.step_key(state)  # the orders and the initiative are rows of both phases

    def go_on(self, a: Act[Any]) -> None:
        F.go_on(a)  # the assault under way goes on first (its stages)

    # --- the procedures the kernel's protocols reach back to (parabellum/act.Game) ---------------------------------
    def settle_step(self, a: Act[Any]) -> bool:
        """The automatic steps (the weather roll, caldiero §17; the initiative, §6: rows of legal.CALDIERO_STEPS),
        and a step where the seat has nothing to decide ended for him (an obligation still owed keeps it)."""
        state = a.state
        return state.phase != "over" and a.steps.settle(F.step_key(state), a, a.world(), state.seat)

    def eligible(self, w: World) -> list[str]:
        return eligible_formations(w)

    def activate_only(self, a: Act[Any], formation: str) -> None:
        do_activate(a, "only formation left (caldiero §6.2)", formation)

    def end_turn(self, a: Act[Any]) -> None:
        F.end_turn(a)

    # --- projection ----------------------------------------------------------------------------
    def _update_seen(self, state: P.CaldieroState) -> None:
        """At creation (fog of war): the enemy units each seat examines in the set-up position."""
        w = self.world(state)
        for seat in SEATS:
            seen = sight.new_sightings(w, seat, CALDIERO_VARIANT.fog_reach(w), commanders=False)  # units: leaders are public
            state.seen[seat] = sorted(set(state.seen.get(seat, [])) | set(seen))

    def owner(self, event: Any, state: P.CaldieroState) -> str | None:
        """Under the fog (§20.4), served to one side alone: an activation's distances (§5.1.1: which units they name
        tells which joined it, so where its commanders stand; rev-l L8), the hex a reorganisation tried (§15.3: it
        holds units in disorder or rout, the stack's state under its marker; rev-m M1) and the release of a direction
        of attack (§19.1.1, §19.1.2: that a unit of the formation entered the place it names, wherever the enemy
        could not see it go; the restriction binds its own side alone; rev-m M2)."""
        match event:
            case ev.DistancesTaken() if state.activation is not None:
                return state.formations[state.activation.formation].side
            case ev.StepRecorded():
                return state.seat
            case ev.DirectionReleased(formation=f):
                return state.formations[f].side
        return super().owner(event, state)

    def own_position_problems(self, state: P.CaldieroState, w: World, d: ScenarioData) -> list[str]:
        """Caldiero's: its phases, Elan left (§16), the Austrians' 10xx row (§9.2.1)."""
        problems = []
        if state.phase not in ("setup", "command", "action", "over"):
            problems.append(f"phase must be setup, command, action or over, not {state.phase!r}")
        if not 0 <= state.elan_left <= d.scenario.elan_uses:
            problems.append(f"elan_left must be 0..{d.scenario.elan_uses} (caldiero §16), not {state.elan_left}")
        for u, s in sorted(state.units.items()):
            closed = w.closed_to(s.side, s.hex) if s.where == "map" and w.grid.contains(s.hex) else None
            if closed is not None:
                problems.append(f"unit {u} at {closed[1]}")  # the variant's text: "<hex>: why (rule)"
        return problems
