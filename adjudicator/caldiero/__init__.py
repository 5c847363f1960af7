"""Caldiero 1796 (12 November 1796): the ruleset. Rulebook: shared/rules/caldiero-1796.it.md.

See docs/rulesets/caldiero.md for the position format, the interpretations, the provisional data and the
rule-by-rule coverage map.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from arbitro.adjudicator.caldiero import flow as F
from arbitro.adjudicator.caldiero import fog as FOG
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.commands import CaldieroCommand
from arbitro.adjudicator.caldiero.legal import CALDIERO_STEPS, CALDIERO_STEP_NAMES, decide, legal_commands
from arbitro.adjudicator.caldiero.steps import caldiero_steps
from arbitro.adjudicator.caldiero.loader import CALDIERO_DATA, CaldieroData
from arbitro.adjudicator.caldiero.variant import CALDIERO, CALDIERO_VARIANT
from arbitro.adjudicator.datafiles import OwnData
from arbitro.adjudicator.decisions import Step
from arbitro.adjudicator.parabellum.overrides import Layout
from arbitro.adjudicator.parabellum.ruleset import ParaBellumRuleset, pieces_at_start, pieces_known, position_problems
from arbitro.adjudicator.ruleset import Decision, Interpretation, Scenario
from arbitro.events import caldiero as ev
from arbitro.projections import caldiero as P
from arbitro.projections import parabellum as PB
from arbitro.events import core
from arbitro.projections.parabellum import others_sighting

SEATS = ("france", "austria")
OPTIONS = ("bonaparte_intervention", "cavalry_charges", "storm_from_east", "fog_of_war", "flank_attacks")
# Optional rules (caldiero §20), each selectable at creation.
IMPLEMENTED_OPTIONS = OPTIONS


def _i(name: str, default: str, choices: tuple[str, ...], rule: str, phrase: str, explanation: str) -> Interpretation:
    return Interpretation(name=name, default=default, choices=choices, rule=rule, phrase=phrase, explanation=explanation)


INTERPRETATIONS = {i.name: i for i in (
    _i("dr_in_fortress", "ex", ("ex", "dd"), "caldiero §12.5.4", "in villaggio o fortificazioni diventa Ex",
       "Dr against a fortification becomes Ex (§12.5.4) or Dd (terrain effects table)"),
    _i("forced_attack_below_1_5", "exempt", ("exempt", "auto_ae"), "caldiero §12.4.2",
       "E' proibito dichiarare attacchi con rapporti peggiori di 1-5",
       "an Attack-order unit whose only attack is worse than 1-5 is exempt, or must attack with an automatic Ae"),
    _i("below_1_5_declared_on", "strength_ratio", ("strength_ratio", "after_terrain"), "caldiero §12.4.2, §12.5.1",
       "E' proibito dichiarare attacchi con rapporti peggiori di 1-5 / Il risultato è un rapporto di forza",
       "an attack may not be declared when the strengths' ratio is worse than 1-5, or (after_terrain) when the column "
       "the defending terrain shifts it to is"),
    _i("shift_beyond_6_1", "extra_drm", ("extra_drm", "capped"), "caldiero §12.4.3",
       "+1 al tiro del dado per ogni livello superiore al 6-1",
       "column shifts past 6-1 give +1 DRM each, like odds above 6-1, or are lost"),
    _i("ne_attack_order", "every_attacker", ("every_attacker", "any_attacker"), "caldiero §12.5.4",
       "Se le unità in attacco avevano Ordine Attacco",
       "an Ne may be tested when every unit still in the attack holds an Attack order, or when any of them does"),
    _i("dr_rout_retreat", "additional_2", ("additional_2", "total_2"), "caldiero §15.2.1",
       "si deve immediatamente ritirare di 2 esagoni", "a unit routed by a Dr test retreats 1+2 hexes, or 2 in all"),
    _i("dr_pass_already_disordered", "rout", ("rout", "disordered"), "caldiero §15.1",
       "Una unità in Disordine che riceve un altro Disordine va in Rotta",
       "a disordered unit passing the Dr test takes a second disorder and routs, or stays disordered"),
    _i("demoralised", "disordered_or_routed", ("disordered_or_routed", "routed_only"), "caldiero §14.0",
       "fanterie nemiche Demoralizzate in Pianura", "what 'demoralised' infantry means for the cavalry bonus"),
    _i("cavalry_in_fortress", "drm_instead_of_shift", ("drm_instead_of_shift", "drm_and_shift"), "caldiero §14.0",
       "danno un DRM all'attaccante di solo -1", "cavalry in the fortress gives -1 DRM instead of, or besides, 2 columns left"),
    _i("ex_defender_loss", "minimal_sets", ("minimal_sets", "any_sufficient"), "caldiero §12.5.4",
       "Il difensore perde un numero di SP almeno uguale",
       "the defender's Ex loss is a set of units covering the attacker's SP with none to spare, or any set covering them"),
    _i("initiative_tie", "reroll", ("reroll", "french"), "caldiero §6", "il risultato modificato più alto",
       "a tied initiative roll is rolled again, or won by the French"),
    _i("vp_control", "occupied_at_end", ("occupied_at_end", "austrian_unless_french"), "caldiero §18",
       "in base all'occupazione di determinati esagoni", "a victory hex counts for the side occupying it at the end"),
    _i("minor_road_cost", "flat_1", ("flat_1", "other_terrain"), "caldiero terrain effects table", "Strada minore 1 MP",
       "moving along a minor road costs 1 MP whatever the terrain, or the other terrain's cost"),
    _i("elan_marker", "attack_marker_only", ("attack_marker_only", "any_attacker"), "caldiero §16.1",
       "una unità francese con un segnalino di Attacco", "Elan only for units with an Attack order"),
    _i("ooc_order_test", "at_activation", ("at_activation", "after_in_command_moves"), "caldiero §5.3.1, §3.1 B-3",
       "Nel momento in cui viene attivata la sua formazione / Una volta eseguito il movimento di tutte le unità in comando",
       "out-of-command units test to change order when their formation is activated, before any move (§5.3.1), or in "
       "the movement sub-phase once the in-command units have moved (§3.1 B-3)"),
    _i("alvinczy_limit", "column_24_and_east", ("column_24_and_east", "east_of_24"), "caldiero §4.2.2",
       "Alvinczy non può muovere oltre la linea di esagoni 24xx", "Alvinczy may stand on column 24, or only east of it"),
)}


LAYOUT = Layout(oob="oob.json", map="map.json", crt="crt.json", book="caldiero")


class CaldieroRuleset(ParaBellumRuleset[P.CaldieroState]):
    name = "caldiero"
    title = "Caldiero 1796"
    version = "0.27.0"
    State = P.CaldieroState
    Event = ev.CaldieroEvent
    Command = CaldieroCommand
    Contexts = ev.CALDIERO_CONTEXTS
    variant = CALDIERO_VARIANT
    folder = CALDIERO_DATA

    def __init__(self) -> None:
        super().__init__()
        self._env: F.Env | None = None
        self.own = OwnData("caldiero_env", lambda files: self._env_on(CALDIERO_DATA.own.load(files)), self._shipped_env)

    # --- data ----------------------------------------------------------------------------------
    def _env_on(self, data: CaldieroData) -> F.Env:
        return F.Env(data=data, steps=CALDIERO_STEPS)

    def _shipped_env(self) -> F.Env:
        if self._env is None:
            self._env = self._env_on(CALDIERO_DATA.shipped())
        return self._env

    @property
    def env(self) -> F.Env:
        """The data in force: the shipped data, or the folder a game is being made on (`using_data`)."""
        return self.own.current()

    def layout(self, state: P.CaldieroState) -> Layout:
        return LAYOUT

    def env_of(self, state: P.CaldieroState) -> F.Env:
        """The data a game in `state` is played on (its own data folder, else the data in force)."""
        env: F.Env = self.data_of(state)
        return env

    def provisional(self, scenario: str) -> list[str]:
        """The reconstructed data in use (the files' meta notes say exactly what and why)."""
        items = [
            "oob.json: every counter value (strength, efficiency, movement, bombardment, range), generals' "
            "initiative and command ranges, the formation of most reinforcements, default set-up hexes",
            "crt.json: the whole combat results table",
            "bombardment.json: the whole bombardment table and its range and concentration modifiers",
            "scenario.json: the number of turns (10)",
        ]
        if self.env.data.scenario.scenarios[scenario].fixed_weather is None:
            items.insert(3, "weather.json: the weather change table")
        if self.env.data.map.provisional:
            items.insert(0, "map.json: the map, except the hexes the rules name (see its meta notes)")
        return items

    def scenarios(self) -> dict[str, Scenario]:
        return {name: Scenario(name=name, title=s.title, seats=SEATS, options=IMPLEMENTED_OPTIONS, description=s.rule)
                for name, s in self.env.data.scenario.scenarios.items()}

    def interpretations(self) -> dict[str, Interpretation]:
        return dict(INTERPRETATIONS)

    def new_state(self, scenario: str, options: tuple[str, ...]) -> P.CaldieroState:
        d = self.env.data
        bonaparte = "bonaparte_intervention" in options
        formations = {}
        for f in d.oob.formations:
            if f.reserve:
                continue
            formations[f.id] = PB.FormationState(side=f.side, general=f.general, order=f.initial_order)
        if bonaparte:  # caldiero §20.1: Bonaparte's formation, the reserve is his
            # present from the first turn its reserve units are due (out of command until Bonaparte arrives)
            formations["bonaparte"] = PB.FormationState(side="france", general="bonaparte", order="advance")
        units, leaders = pieces_at_start(
            d.oob, lambda u: "bonaparte" if bonaparte and u.formation == "reserve" else u.formation)
        scen = d.scenario.scenarios[scenario]
        weather = scen.fixed_weather if scen.fixed_weather is not None else d.weather.start_box
        state = P.CaldieroState(scenario=scenario, options=sorted(options), last_turn=d.scenario.turns, weather=weather,
                                elan_left=d.scenario.elan_uses, formations=formations, units=units, leaders=leaders,
                                phase="setup", step="setup", seat="austria")
        if "fog_of_war" in options:
            self._update_seen(state)
        return state

    # --- turn and decisions ----------------------------------------------------------------------
    def seats(self, state: P.CaldieroState) -> tuple[str, ...]:
        return SEATS

    def scenario_on(self, state: P.CaldieroState) -> CaldieroData:
        return self.env_of(state).data

    def steps(self) -> dict[str, Step[Any]]:
        return caldiero_steps(self.env_of, lambda game: self.world(game.rules))

    def legal(self, state: P.CaldieroState, seat: str) -> list[dict[str, Any]]:
        return legal_commands(self.world(state), seat)

    def decide(self, ctx: Decision[P.CaldieroState], command: Any) -> None:
        act = F.Act(ctx, self.env_of(ctx.state))
        try:
            decide(act, ctx.seat, command)
        except F.Reject as e:
            ctx.reject(e.rule, e.message)

    # --- projection ----------------------------------------------------------------------------
    def _update_seen(self, state: P.CaldieroState) -> None:
        """At creation (fog of war): the enemy units each seat examines in the set-up position."""
        w = self.world(state)
        for seat in SEATS:
            state.seen[seat] = sorted(set(state.seen.get(seat, [])) | set(FOG.new_sightings(w, seat)))

    def redact_frame(self, frame: core.Frame[Any], seat: str, state: P.CaldieroState) -> dict[str, Any]:
        """With fog of war, a frame naming units `seat` may not know is served without its context, as the
        events naming them are (caldiero §20.4)."""
        data: dict[str, Any] = msgspec.to_builtins(frame)
        if not self.fogged(state, seat):
            return data
        secret = self.secret_units(state, seat)
        if secret and _mentions(data["ctx"], secret):
            data["ctx"] = {"ctx": data["ctx"]["ctx"], "hidden": FOG_HIDDEN}
        return data

    def redact(self, event: Any, seat: str, state: P.CaldieroState) -> dict[str, Any] | None:
        data: dict[str, Any] = msgspec.to_builtins(event)
        if not self.fogged(state, seat):
            return data
        if others_sighting(event, seat):
            return None
        secret = self.secret_units(state, seat)
        if secret and _mentions(data, secret):
            return {"type": data["type"], "rule": data.get("rule", ""), "hidden": FOG_HIDDEN}
        return PB.served_move(state, event, data, seat, lambda route: self.unexaminable(state, seat, route), FOG_HIDDEN,
                              str(CALDIERO.MOVEMENT))

    def is_checkpoint(self, event: Any) -> bool:
        return isinstance(event, ev.TurnEnded)

    def validate_position(self, state: P.CaldieroState) -> list[str]:
        """Both books' checks (parabellum/ruleset.position_problems), then Caldiero's: its phases, Elan left (§16),
        the Austrians' 10xx row (§9.2.1)."""
        d = self.env_of(state).data
        w = self.world(state)
        problems = position_problems(w, d.oob, d.scenario.turns, CALDIERO_STEP_NAMES)
        if not pieces_known(state, d.oob):
            return problems
        if state.phase not in ("setup", "command", "action", "over"):
            problems.append(f"phase must be setup, command, action or over, not {state.phase!r}")
        if not 0 <= state.elan_left <= d.scenario.elan_uses:
            problems.append(f"elan_left must be 0..{d.scenario.elan_uses} (caldiero §16), not {state.elan_left}")
        for u, s in sorted(state.units.items()):
            closed = w.closed_to(s.side, s.hex) if s.where == "map" and w.grid.contains(s.hex) else None
            if closed is not None:
                problems.append(f"unit {u} at {closed[1]}")  # the variant's text: "<hex>: why (rule)"
        return problems


FOG_HIDDEN = "fog of war (caldiero §20.4)"


def _mentions(data: Any, secret: set[str]) -> bool:
    if isinstance(data, str):
        return any(x in data for x in secret)
    if isinstance(data, dict):
        return any(_mentions(v, secret) or (isinstance(k, str) and k in secret) for k, v in data.items())
    if isinstance(data, (list, tuple)):
        return any(_mentions(v, secret) for v in data)
    return False
