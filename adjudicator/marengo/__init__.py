"""Bonaparte a Marengo (14 June 1800): the ruleset. Rulebook: shared/rules/marengo.it.md.

Modules follow the rulebook: setup (§6), sequence (§7), movement (§8), manoeuvre (§9), bombardment (§10),
assault (§11), retreat (§12), morale (§13-§14), with losses (the shared loss allocation), procedure (the
driver of the procedures under way), steps (their decisions on the engine's stack), readings (the
interpretations) and legal (the listing). See docs/rulesets/marengo.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any


from arbitro.adjudicator.marengo import (
    aliases,
    assault,
    bombardment,
    manoeuvre,
    movement,
    overrides,
    procedure,
    sequence,
    setup,
)
from arbitro.adjudicator.marengo import commands as C
from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.common import Illegal, Interp, resolve, resolve_all
from arbitro.adjudicator.marengo.data_loader import ARMIES_FILE, MAP_FILE, bound, current, read_folder
from arbitro.adjudicator.marengo.legal import legal as list_legal
from arbitro.adjudicator.marengo.position import validate
from arbitro.adjudicator.marengo.readings import INTERPRETATIONS, mirrored
from arbitro.adjudicator.marengo.steps import STEPS
from arbitro.adjudicator.decisions import OnData, Step
from arbitro.adjudicator.ruleset import Decision, Interpretation, Scenario, Ruleset
from arbitro.projections.marengo import SIDES, MarengoProjection, MarengoState


class MarengoRuleset(MarengoProjection, Ruleset[MarengoState]):
    title = "Bonaparte a Marengo (14 June 1800)"
    Command = C.MarengoCommand

    def scenarios(self) -> dict[str, Scenario]:
        return {"marengo": Scenario(name="marengo", title="The battle of Marengo, 14 June 1800, 6:00-21:00",
                                    seats=SIDES, description="16 rounds; Austria moves first each round")}

    def interpretations(self) -> dict[str, Interpretation]:
        return dict(INTERPRETATIONS)

    def data_files(self) -> list[Path]:
        return [MAP_FILE, ARMIES_FILE]

    def provisional(self, scenario: str) -> list[str]:
        return current().provisional_items()

    # a user's own data folder (docs/rulesets/marengo.md, "Your own data"): every entry point below works on the
    # data its state carries
    def read_data(self, folder: Path) -> dict[str, str]:
        return read_folder(folder)

    def using_data(self, files: Mapping[str, str] | None) -> AbstractContextManager[object]:
        return bound(files)

    def shipped_data(self) -> dict[str, str]:
        return overrides.shipped_texts()

    def new_state(self, scenario: str, options: tuple[str, ...]) -> MarengoState:
        return setup.new_state()

    def start(self, ctx: Decision[MarengoState]) -> None:
        with bound(ctx.state.data_files):
            setup.start(ctx, ctx.interpretation)

    def active_seats(self, state: MarengoState) -> tuple[str, ...]:
        if state.game_over:
            return ()
        return (state.phasing,)

    def steps(self) -> dict[str, Step[Any]]:
        return {kind: OnData(step, lambda rules: bound(rules.data_files)) for kind, step in STEPS.items()}

    def legal(self, state: MarengoState, seat: str) -> list[dict[str, Any]]:
        with bound(state.data_files):
            return list_legal(state, seat, mirrored(state))

    def override_kinds(self) -> dict[str, str]:
        return dict(overrides.KINDS)

    def apply_override(self, state: MarengoState, override: Mapping[str, Any]) -> tuple[MarengoState, str]:
        return overrides.apply(state, override)

    def validate_position(self, state: MarengoState) -> list[str]:
        return validate(state)

    def decide(self, ctx: Decision[MarengoState], command: Any) -> None:
        interp: Interp = ctx.interpretation
        with bound(ctx.state.data_files) as d:
            try:
                _decide(ctx, aliases.resolved(d, command), interp)
            except Illegal as e:
                ctx.reject(e.rule, e.message)
            procedure.run(ctx, interp)


# the answers to decisions on the engine's stack (steps.py): the engine hands them to their step while one is
# awaited, so here none is
ANSWERS = (C.DefensiveArtillery, C.DefendingLeadersCmd, C.Pursue, C.Advance, C.BombardTarget, C.AssignLoss,
           C.RetreatTo, C.BlockManoeuvre, C.AfterBlock)


def _decide(ctx: Decision[MarengoState], cmd: Any, interp: Interp) -> None:  # noqa: C901 - a dispatch table
    s, seat = ctx.state, ctx.seat
    if seat not in SIDES:
        raise Illegal(R.SEQUENCE, "only the two armies send game commands; the umpire rules")
    if seat != s.phasing:
        raise Illegal(R.SEQUENCE, f"it is {s.phasing}'s turn")
    if isinstance(cmd, ANSWERS):
        raise Illegal(R.SEQUENCE, "no decision of that kind is awaited")
    match cmd:
        case C.Shuffle():
            own = sequence.check_shuffle(s, seat, cmd.zone)
            sequence.do_shuffle(ctx, seat, cmd.zone, own)
        case C.Activate():
            blocks = resolve_all(s, seat, cmd.blocks)
            sequence.check_activate(s, seat, blocks)
            sequence.do_activate(ctx, blocks)
        case C.ResolveBombardment():
            sequence.check_step(s, seat, "bombardment")
            bombardment.check_resolve(s, seat)
            sequence.enter_step(ctx, "bombardment")
            bombardment.do_resolve(ctx, seat, interp)
        case C.CancelBombardment():
            sequence.check_step(s, seat, "bombardment")
            bombardment.check_pending(s, seat)
            sequence.enter_step(ctx, "bombardment")
            bombardment.do_cancel(ctx, seat, "cancelled by its owner")
        case C.AssaultCmd():
            sequence.check_step(s, seat, "assaults")
            blocks = resolve_all(s, seat, cmd.blocks)
            leaders = resolve_all(s, seat, cmd.leaders)
            target, arm = assault.check_declare(s, seat, cmd.approach, blocks, leaders, interp)
            sequence.enter_step(ctx, "assaults")
            assault.do_declare(ctx, seat, cmd.approach, target, blocks, leaders, arm)
        case C.Move():
            blocks = resolve_all(s, seat, cmd.blocks)
            show = resolve(s, seat, cmd.show) if cmd.show else None
            plan = movement.check_move(s, seat, blocks, cmd.to, cmd.place, show, interp)
            if plan.kind != "forced":  # leaving an approach the enemy left is allowed at any step (§8)
                sequence.check_step(s, seat, "movement")
                sequence.enter_step(ctx, "movement")
            else:
                sequence.check_step(s, seat, "assaults" if s.step in ("start", "bombardment") else s.step)
            manoeuvre.begin(ctx, movement.do_move(ctx, plan))
        case C.RoadMove():
            sequence.check_step(s, seat, "movement")
            bid = resolve(s, seat, cmd.block)
            plan = movement.check_road(s, seat, bid, cmd.road, list(cmd.path), interp)
            sequence.enter_step(ctx, "movement")
            manoeuvre.begin(ctx, movement.do_road(ctx, plan))
        case C.Enter():
            sequence.check_step(s, seat, "movement")
            bid = resolve(s, seat, cmd.block)
            plan = movement.check_enter(s, seat, bid, cmd.entry, list(cmd.path), interp)
            sequence.enter_step(ctx, "movement")
            manoeuvre.begin(ctx, movement.do_road(ctx, plan))
        case C.Pontoon():
            sequence.check_step(s, seat, "movement")
            bid = resolve(s, seat, cmd.block)
            plan = movement.check_pontoon(s, seat, bid, interp)
            sequence.enter_step(ctx, "movement")
            movement.do_pontoon(ctx, plan)
        case C.Continue():
            if s.step not in ("assaults", "movement", "start", "bombardment"):
                raise Illegal(R.SEQUENCE, "continuation is part of a move or of a conquest")
            blocks = resolve_all(s, seat, cmd.blocks)
            fresh = s.group is None or not all(b in s.group.blocks for b in blocks)
            if fresh:  # a block that has not moved yet: a movement of this turn (§7 step 3)
                sequence.check_step(s, seat, "movement")
            plan = movement.check_continue(s, seat, blocks, cmd.approach, interp)
            if fresh:
                sequence.enter_step(ctx, "movement")
            movement.do_continue(ctx, plan)
        case C.DeclareBombardment():
            sequence.check_step(s, seat, "declare")
            bid = resolve(s, seat, cmd.block)
            approach = bombardment.check_declare(s, seat, bid, interp)
            sequence.enter_step(ctx, "declare")
            bombardment.do_declare(ctx, seat, bid, approach)
        case C.EndTurn():
            sequence.check_end(s, seat)
            sequence.do_end(ctx, seat, interp)


RULESET = MarengoRuleset
__all__ = ["MarengoRuleset"]
