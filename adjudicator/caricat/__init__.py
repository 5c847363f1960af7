"""Caricat! (Pastrengo 1848, Montebello 1859): the ruleset. Rulebook: shared/rules/caricat.it.md. Position
format, interpretations, provisional data and the coverage map: docs/rulesets/caricat.md."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any


from arbitro.adjudicator.caricat import combat as CB
from arbitro.adjudicator.caricat import commands as C
from arbitro.adjudicator.caricat import legal as LG
from arbitro.adjudicator.caricat import movement as MV
from arbitro.adjudicator.caricat import overrides as OV
from arbitro.adjudicator.caricat import rules as R
from arbitro.adjudicator.caricat import scenario as SC
from arbitro.adjudicator.caricat import sequence as SQ
from arbitro.adjudicator.caricat.flow import Game
from arbitro.adjudicator.caricat.loader import (
    CaricatData, bound, current, data_files, load_files, provisional_items, read_folder,
)
from arbitro.adjudicator.caricat.position import problems as position_problems
from arbitro.adjudicator.caricat.readings import INTERPRETATIONS
from arbitro.adjudicator.caricat.steps import proceed, steps
from arbitro.adjudicator.caricat.world import World
from arbitro.adjudicator.decisions import Step
from arbitro.adjudicator.errors import BadInput
from arbitro.adjudicator.ruleset import Decision, Interpretation, Ruleset, Scenario
from arbitro.events import caricat as ev
from arbitro.projections import caricat as P
from arbitro.projections.base import Outcome


class CaricatRuleset(Ruleset[P.CaricatState]):
    name = "caricat"
    title = "Caricat!"
    version = "0.6.0"
    State = P.CaricatState
    Event = ev.CaricatEvent
    Command = C.CaricatCommand
    Contexts = tuple(ev.CARICAT_CONTEXTS.values())

    @property
    def data(self) -> CaricatData:
        """The data in force: the shipped data, or a user's data folder while a game is made on it (using_data)."""
        return current()

    def data_of(self, state: P.CaricatState) -> CaricatData:
        """The data a game is played on: the user's data folder its state carries, else the data in force."""
        return load_files(state.data_files) if state.data_files else current()

    # --- scenario and data ----------------------------------------------------------------------------------
    def scenarios(self) -> dict[str, Scenario]:
        out = {}
        for name, s in self.data.scenarios.items():
            options = tuple(o.name for o in s.file.options) + ("morale_check",)
            out[name] = Scenario(name=name, title=s.file.meta.title, seats=P.SIDES, options=options,
                                 description=s.file.rule)
        return out

    def interpretations(self) -> dict[str, Interpretation]:
        return dict(INTERPRETATIONS)

    def note_interpretations(self, state: P.CaricatState, chosen: dict[str, str]) -> P.CaricatState:
        state.interpretations = dict(sorted(chosen.items()))
        return state

    def data_files(self) -> list[Path]:
        return data_files()

    # a user's own data folder (`arbitro new caricat SCENARIO --data DIR`, docs/rulesets/caricat.md): every entry
    # point below works on the data its state carries
    def read_data(self, folder: Path) -> dict[str, str]:
        return read_folder(folder)

    def using_data(self, files: Mapping[str, str] | None) -> AbstractContextManager[object]:
        return bound(files)

    def shipped_data(self) -> dict[str, str]:
        return OV.shipped_texts()

    # a position's overrides (issue 19 item 13; adjudicator/caricat/overrides.py): applied to the data it carries
    def override_kinds(self) -> dict[str, str]:
        return dict(OV.KINDS)

    def apply_override(self, state: P.CaricatState, override: Mapping[str, Any]) -> tuple[P.CaricatState, str]:
        return OV.apply(state, override)

    def provisional(self, scenario: str) -> list[str]:
        return provisional_items(self.data, scenario)

    def new_state(self, scenario: str, options: tuple[str, ...]) -> P.CaricatState:
        if scenario not in self.data.scenarios:
            raise BadInput(f"caricat has no scenario {scenario!r}")
        f = self.data.scenarios[scenario].file
        known = set(self.scenarios()[scenario].options)
        unknown = sorted(set(options) - known)
        if unknown:
            raise BadInput(f"unknown options for {scenario}: {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        state = P.CaricatState(scenario=scenario, options=sorted(options), last_turn=f.turns,
                               seat=f.first_commitment, vp={s: 0 for s in P.SIDES}, costs={s: 0 for s in P.SIDES})
        replaced = {le.replaces: le.id for le in f.leaders if le.option in options and le.replaces}
        for u in f.units:
            leader = replaced.get(u.leader or "", u.leader)
            state.units[u.id] = P.UnitState(side=u.side, kind=u.kind, leader=leader, hex=u.hex,
                                            where="map" if u.hex else "off")
        brigades = {o.leader for o in f.options if o.leader and o.until_called}
        for le in f.leaders:
            out = (le.option and le.option not in options) or le.id in replaced
            state.leaders[le.id] = P.LeaderState(side=le.side, unit=le.unit, level=le.level, gone=bool(out),
                                                 present=le.id not in brigades)
        for o in f.objectives:
            state.control[o.hex] = o.controller
        return state

    def start(self, ctx: Decision[P.CaricatState]) -> None:
        SQ.new_game(self.game(ctx))

    def game(self, ctx: Decision[P.CaricatState]) -> Game:
        return Game(ctx, self.data_of(ctx.state))

    def world(self, state: P.CaricatState) -> World:
        return World(state, self.data_of(state))

    # --- turn and decisions -------------------------------------------------------------------------------------
    def seats(self, state: P.CaricatState) -> tuple[str, ...]:
        return P.SIDES

    def active_seats(self, state: P.CaricatState) -> tuple[str, ...]:
        return () if state.phase == "over" else (state.seat,)

    def steps(self) -> dict[str, Step[Any]]:
        return steps(self.data_of)

    def legal(self, state: P.CaricatState, seat: str) -> list[dict[str, Any]]:
        return LG.legal(self.world(state), seat)

    def decide(self, ctx: Decision[P.CaricatState], command: Any) -> None:
        g = self.game(ctx)
        if g.state.phase == "over":
            ctx.reject(R.SEQUENCE, "the game is over")
        if ctx.seat != g.state.seat:
            ctx.reject(R.SEQUENCE, f"it is the {g.state.seat} side's turn to act ({g.state.phase} phase)")
        self._dispatch(g, command)
        proceed(g)

    def _dispatch(self, g: Game, command: Any) -> None:  # noqa: C901 - one branch per command
        match command:
            case C.TryLevel():
                SQ.try_level(g, command.leader, command.level)
            case C.EndLevels():
                SQ.end_levels(g)
            case C.CallBrigade():
                SC.call_brigade(g, command.leader)
            case C.Activate():
                SQ.activate(g, command.leader)
            case C.ActivateCavalry():
                SQ.activate_cavalry(g, command.unit)
            case C.Pass():
                SQ.pass_(g)
            case C.EndActivation():
                problem = LG.unmet(g.world()) if g.state.activation else None
                if problem is not None:
                    g.reject(*problem)
                SQ.end_activation(g)
            case C.Move():
                self._phase(g, R.MOVEMENT)
                MV.move(g, command.unit, list(command.path))
            case C.MoveLeader():
                self._phase(g, R.LEADERS)
                MV.move_leader(g, command.leader, command.unit)
            case C.Fire():
                CB.declare(g, "fire", list(command.units), command.target)
            case C.Melee():
                CB.declare(g, "melee", list(command.units), command.target)
            case C.Charge():
                self._phase(g, R.CHARGE)
                problem = MV.charge_problem(g.world(), command.unit, list(command.path), command.target)
                if problem is not None:
                    g.reject(*problem)
                MV.move(g, command.unit, list(command.path))
                CB.declare(g, "melee", [command.unit], command.target, charge=True)
            case C.DestroyBridge():
                SC.destroy_bridge(g)
                SQ.end_turn(g)
            case C.EndTurn():
                if g.state.phase != "recovery":
                    g.reject(R.SEQUENCE, "the turn ends after the recovery phase")
                SQ.end_turn(g)
            case _:
                g.reject(R.SEQUENCE, f"{command.type} answers a decision, and none is awaited")

    def _phase(self, g: Game, rule: R.Rule) -> None:
        if g.state.phase != "activation" or not g.state.activation:
            g.reject(rule, "units move and fight only in an activation (caricat §4)")

    # --- projection ------------------------------------------------------------------------------------------------
    def apply(self, state: P.CaricatState, event: Any) -> P.CaricatState:
        return P.apply(state, event)

    def notices(self, state: P.CaricatState, seat: str) -> list[str]:
        """The activated leader's units out of his command range, and what it costs them (caricat §4.3, §7.3.1;
        issue 19 item 16). Nothing in Caricat is hidden: every seat is told."""
        if state.phase != "activation" or state.activation_kind != "leader":
            return []
        w = self.world(state)
        units = sorted(u for u, unit in state.units.items() if unit.leader == state.activation and unit.where == "map")
        return [note for note in map(w.command_note, units) if note]

    def view(self, state: P.CaricatState, seat: str) -> dict[str, Any]:
        return P.view(state)

    def is_checkpoint(self, event: Any) -> bool:
        return isinstance(event, ev.TurnEnded)

    def outcome(self, state: P.CaricatState) -> Outcome | None:
        if state.result is None:
            return None
        return Outcome(winner=state.result["winner"], reason=state.result["result"], rule=state.result["rule"])

    def validate_position(self, state: P.CaricatState) -> list[str]:
        return position_problems(self.data_of(state), state)

    def position_scenario(self, state: P.CaricatState) -> str | None:
        """Its state names its battle (caricat §13, §14): a position's header names the same (issue 18)."""
        return state.scenario
