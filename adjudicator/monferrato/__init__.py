"""La Seconda Guerra del Monferrato (1628-1630): the ruleset. Rulebook: shared/rules/monferrato.it.md.

Modules follow the rulebook: sequence (§4), movement (§5 activation, §6, §7.4.3 recovery), chits (§5.1, §15-§16),
supply (§13, §5 command radius), with data (the data files and their loader), common (what every rule asks of a
position), steps (the decisions on the engine's stack), readings (the interpretations) and legal (the listing).
See docs/rulesets/monferrato.md for what is enforced and what is not yet.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any


from arbitro.adjudicator.decisions import OnData, Step
from arbitro.adjudicator.monferrato import battle, chits, movement, overrides, raids, replacements, sequence, setup, siege
from arbitro.adjudicator.monferrato import commands as C
from arbitro.adjudicator.monferrato import rules as R
from arbitro.adjudicator.monferrato.common import Illegal, data, unchanged
from arbitro.adjudicator.monferrato.data import FILES, bound, read_folder
from arbitro.adjudicator.monferrato.legal import legal as list_legal
from arbitro.adjudicator.monferrato.position import validate
from arbitro.adjudicator.monferrato.readings import INTERPRETATIONS
from arbitro.adjudicator.monferrato.steps import STEPS
from arbitro.adjudicator.ruleset import Decision, Interpretation, Ruleset, Scenario
from arbitro.projections.monferrato import SEATS, MonferratoProjection, MonferratoState


class MonferratoRuleset(MonferratoProjection, Ruleset[MonferratoState]):
    title = "La Seconda Guerra del Monferrato (1628-1630)"
    Command = C.MonferratoCommand

    def scenarios(self) -> dict[str, Scenario]:
        return {"1628": Scenario(name="1628", title="La guerra di Mantova e del Monferrato 1628-1630", seats=SEATS,
                                 description="January-February 1628 to November-December 1630; Pro-France deals first")}

    def interpretations(self) -> dict[str, Interpretation]:
        return dict(INTERPRETATIONS)

    def data_files(self) -> list[Path]:
        return list(FILES)

    def provisional(self, scenario: str) -> list[str]:
        return data().provisional_items()

    # a user's own data folder (docs/rulesets/monferrato.md, "Your own data"): every entry point below works on the
    # data its state carries
    def read_data(self, folder: Path) -> dict[str, str]:
        return read_folder(folder)

    def using_data(self, files: Mapping[str, str] | None) -> AbstractContextManager[object]:
        return bound(files)

    def shipped_data(self) -> dict[str, str]:
        return overrides.shipped_texts()

    def override_kinds(self) -> dict[str, str]:
        return dict(overrides.KINDS)

    def apply_override(self, state: MonferratoState, override: Mapping[str, Any]) -> tuple[MonferratoState, str]:
        return overrides.apply(state, override)

    def new_state(self, scenario: str, options: tuple[str, ...]) -> MonferratoState:
        return sequence.new_state()

    def start(self, ctx: Decision[MonferratoState]) -> None:
        with bound(ctx.state.data_files):
            setup.begin(ctx)  # the set-up choices, then the chits dealt and the first marker drawn

    def active_seats(self, state: MonferratoState) -> tuple[str, ...]:
        if state.phase == "over" or state.activation is None:
            return ()
        return (state.activation.seat,)

    def steps(self) -> dict[str, Step[Any]]:
        return {kind: OnData(step, lambda rules: bound(rules.data_files)) for kind, step in STEPS.items()}

    def legal(self, state: MonferratoState, seat: str) -> list[dict[str, Any]]:
        with bound(state.data_files), unchanged(state):  # a listing changes nothing
            return list_legal(state, seat)

    def validate_position(self, state: MonferratoState) -> list[str]:
        with bound(state.data_files):
            return validate(state)

    def decide(self, ctx: Decision[MonferratoState], command: Any) -> None:
        with bound(ctx.state.data_files):
            try:
                _decide(ctx, command)
            except Illegal as e:
                ctx.reject(e.rule, e.message)
            siege.sweep_mines(ctx)


# answers to decisions on the engine's stack (steps.py): never sent otherwise
ANSWERS = (C.Discard, C.CallSupport, C.Respond, C.TakeHit, C.ContinueBattle, C.Retreat, C.TakeForts, C.Replace,
           C.PlaceCommander, C.SetUp, C.ChooseValue)


def _decide(ctx: Decision[MonferratoState], cmd: Any) -> None:
    s, seat = ctx.state, ctx.seat
    if seat not in SEATS:
        raise Illegal(R.SEQUENCE, "only the two players send game commands; the umpire rules")
    if isinstance(cmd, C.Discard):
        raise Illegal(R.HAND_LIMIT, "no discard is awaited: a chit is discarded only with five in hand")
    if isinstance(cmd, (C.SetUp, C.ChooseValue)):
        raise Illegal(R.SETUP_CHOICE, "no set-up choice is awaited: the set-up is over")
    if isinstance(cmd, ANSWERS):
        raise Illegal(R.BATTLE, "no field battle is asking for that decision")
    sequence.require_activation(s, seat)
    if not isinstance(cmd, C.PlayChit):
        chits.check_mandatory_done(s, seat)
    match cmd:
        case C.DrawChit():
            chits.check_draw(s, seat, ctx.interpretation)
            chits.draw(ctx, seat)
            if ctx.game.core.decisions == () or ctx.game.core.decisions[-1].kind != chits.DISCARD:
                sequence.end_activation(ctx)
        case C.Activate():
            movement.check_activate(s, list(cmd.zones), cmd.commander)
            movement.activate(ctx, list(cmd.zones), cmd.commander)
        case C.PlayChit():
            spec = chits.check_play(s, seat, cmd.chit)
            chits.play(ctx, seat, spec)
        case C.Move():
            plan = movement.check_move(s, seat, list(cmd.units), list(cmd.path), dict(cmd.leave))
            movement.do_move(ctx, plan, seat)
            if plan.battle:
                battle.begin(ctx, plan, seat)
            elif not plan.exits:
                battle.forts_alone(ctx, plan, seat)
        case C.Recover():
            movement.check_recover(s, seat, list(cmd.units))
            movement.recover(ctx, list(cmd.units))
        case C.Bombard():
            mode = siege.check_bombard(s, seat, list(cmd.units), cmd.target)
            siege.bombard(ctx, seat, list(cmd.units), cmd.target, mode)
        case C.Siege():
            siege.check_siege(s, seat, list(cmd.units), cmd.operation, cmd.side)
            siege.siege(ctx, seat, list(cmd.units), cmd.operation, cmd.side)
        case C.Fort():
            zone = siege.check_fort(s, seat, cmd.unit, cmd.action)
            siege.fort(ctx, seat, cmd.unit, cmd.action, zone)
        case C.Raid():
            plan = raids.check_raid(s, seat, list(cmd.units), list(cmd.path))
            raids.raid(ctx, seat, plan)
            if movement.battle_after(ctx.state, seat, plan):
                battle.begin(ctx, plan, seat)
        case C.ReturnCamp():
            replacements.check_camp(s, seat, cmd.unit, cmd.zone)
            replacements.return_camp(ctx, cmd.unit, cmd.zone)
        case C.EndActivation():
            sequence.end_activation(ctx)


RULESET = MonferratoRuleset
__all__ = ["MonferratoRuleset"]
