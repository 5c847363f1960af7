"""Marengo's steps on the engine's decision stack (arbitro §S.3; docs/ruleset-interface.md, "Decisions").

The bombardment's target choice (marengo §10), the loss allocation (§10-§12), the retreat (§12), the attack
manoeuvre (§9) and the assault's steps (§11) are answered here: every decision Marengo asks.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.decisions import Step, close_frame
from arbitro.adjudicator.marengo import assault, bombardment, losses, manoeuvre, procedure, retreat
from arbitro.adjudicator.marengo import commands as C
from arbitro.adjudicator.marengo.common import Illegal, resolve, resolve_all
from arbitro.adjudicator.marengo.readings import mirrored
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import core
from arbitro.events import marengo as ev
from arbitro.projections.game import GameState


class TargetStep(Step[ev.BombardTargetAwaited]):
    """marengo §10: no enemy blocker faces the artillery and none is in reserve: the bombarding side chooses
    which approach's blockers it fires at."""

    kind = bombardment.TARGET

    def options(self, state: GameState[Any], frame: core.Frame[ev.BombardTargetAwaited], seat: str) -> list[dict[str, Any]]:
        return [{"type": "bombard_target", "approach": a} for a in frame.ctx.choices]

    def answer(self, ctx: Decision[Any], frame: core.Frame[ev.BombardTargetAwaited], command: C.BombardTarget) -> None:
        close_frame(ctx, frame)
        bombardment.do_resolve(ctx, frame.ctx.side, ctx.interpretation, command.approach)
        procedure.run(ctx, ctx.interpretation)  # the losses it inflicts, then what follows


class LossStep(Step[ev.LossesAwaited]):
    """marengo §10, §11, §12: the next point of the first loss task goes to a block the chooser names: among
    the leaders the enemy chooses, among the others their owner (the frame's seat)."""

    kind = losses.KIND

    def options(self, state: GameState[Any], frame: core.Frame[ev.LossesAwaited], seat: str) -> list[dict[str, Any]]:
        return losses.options(state.rules, frame.ctx.tasks[0])

    def answer(self, ctx: Decision[Any], frame: core.Frame[ev.LossesAwaited], command: C.AssignLoss) -> None:
        try:
            bid = resolve(ctx.state, ctx.seat, command.block)
            losses.check_assign(ctx.state, frame.ctx.tasks[0], bid)
        except Illegal as e:  # the engine lets only listed options through; kept for a direct call
            ctx.reject(e.rule, e.message)
        losses.take(ctx, frame, bid)
        procedure.run(ctx, ctx.interpretation)  # the rest of the task, the next task, then what the losses ended


class RetreatStep(Step[ev.RetreatUnderway]):
    """marengo §12: the retreating side sends each of its blocks still in the zone to an adjacent zone."""

    kind = retreat.KIND

    def options(self, state: GameState[Any], frame: core.Frame[ev.RetreatUnderway], seat: str) -> list[dict[str, Any]]:
        return retreat.options(state.rules, frame.ctx)

    def answer(self, ctx: Decision[Any], frame: core.Frame[ev.RetreatUnderway], command: C.RetreatTo) -> None:
        try:
            bid = resolve(ctx.state, ctx.seat, command.block)
            retreat.check(ctx.state, frame.ctx, bid, command.zone)
        except Illegal as e:  # the engine lets only listed options through; kept for a direct call
            ctx.reject(e.rule, e.message)
        retreat.move(ctx, frame.ctx, bid, command.zone)
        procedure.run(ctx, ctx.interpretation)  # the next block, then what the retreat ended


class BlockStep(Step[ev.ManoeuvreUnderway]):
    """marengo §9: the defender blocks the attack manoeuvre with blocks of the zone's reserve, or none (retreat)."""

    kind = manoeuvre.BLOCK

    def options(self, state: GameState[Any], frame: core.Frame[ev.ManoeuvreUnderway], seat: str) -> list[dict[str, Any]]:
        return manoeuvre.options(state.rules, frame, seat)

    def answer(self, ctx: Decision[Any], frame: core.Frame[ev.ManoeuvreUnderway], command: C.BlockManoeuvre) -> None:
        try:
            blocks = resolve_all(ctx.state, ctx.seat, command.blocks)
            manoeuvre.check_block(ctx.state, frame.ctx, ctx.seat, blocks)
        except Illegal as e:  # the engine lets only listed options through; kept for a direct call
            ctx.reject(e.rule, e.message)
        manoeuvre.do_block(ctx, frame, blocks)
        procedure.run(ctx, ctx.interpretation)


class AfterBlockStep(Step[ev.ManoeuvreUnderway]):
    """marengo §9: the blocked attacker stays, advances to block, or splits (one more command)."""

    kind = manoeuvre.AFTER

    def options(self, state: GameState[Any], frame: core.Frame[ev.ManoeuvreUnderway], seat: str) -> list[dict[str, Any]]:
        return manoeuvre.options(state.rules, frame, seat)

    def answer(self, ctx: Decision[Any], frame: core.Frame[ev.ManoeuvreUnderway], command: C.AfterBlock) -> None:
        try:
            blocks = resolve_all(ctx.state, ctx.seat, command.advance)
            cost = manoeuvre.check_after(ctx.state, frame.ctx, blocks)
        except Illegal as e:
            ctx.reject(e.rule, e.message)
        manoeuvre.do_after(ctx, frame, blocks, cost)
        procedure.run(ctx, ctx.interpretation)


class EnterStep(Step[ev.ManoeuvreUnderway]):
    """marengo §9 (2): the attackers enter once the defender's retreat above this frame ends; procedure.run does
    it in the same command, so nobody ever answers this frame."""

    kind = manoeuvre.ENTER

    def answer(self, ctx: Decision[Any], frame: core.Frame[ev.ManoeuvreUnderway], command: Any) -> None:
        ctx.reject(frame.rule, "the attackers enter when the defender's retreat ends; nothing is asked")


class _AssaultStep(Step[ev.AssaultUnderway]):
    """marengo §11: a step of an assault a seat is asked (its frame's kind); the options depend on the readings
    in force, which the fold keeps in the state. An answer closes the frame, then carries the step out (which
    opens the next), then the losses, retreat and steps that follow run."""

    def options(self, state: GameState[Any], frame: core.Frame[ev.AssaultUnderway], seat: str) -> list[dict[str, Any]]:
        return assault.options(state.rules, frame, mirrored(state.rules))

    def answer(self, ctx: Decision[Any], frame: core.Frame[ev.AssaultUnderway], command: Any) -> None:
        try:
            self.carry_out(ctx, frame, command)
        except Illegal as e:  # the engine lets only listed options through; kept for a direct call
            ctx.reject(e.rule, e.message)
        procedure.run(ctx, ctx.interpretation)

    def carry_out(self, ctx: Decision[Any], frame: core.Frame[ev.AssaultUnderway], command: Any) -> None:
        raise NotImplementedError


class DefensiveArtilleryStep(_AssaultStep):
    """marengo §11 steps 2-3: the defender's artillery on the approach fires, or not."""

    kind = assault.DEF_ART

    def carry_out(self, ctx: Decision[Any], frame: core.Frame[ev.AssaultUnderway], command: C.DefensiveArtillery) -> None:
        assault.check_defensive(ctx.state, frame.ctx, command.fire)
        close_frame(ctx, frame)
        assault.do_defensive(ctx, frame.ctx, command.fire)


class DefendingLeadersStep(_AssaultStep):
    """marengo §11 step 4: the defender chooses its leaders (none to the approach's limit); steps 5-7 follow."""

    kind = assault.DEF_LEADERS

    def carry_out(self, ctx: Decision[Any], frame: core.Frame[ev.AssaultUnderway], command: C.DefendingLeadersCmd) -> None:
        blocks = resolve_all(ctx.state, ctx.seat, command.blocks)
        assault.check_def_leaders(ctx.state, frame.ctx, blocks, ctx.interpretation)
        close_frame(ctx, frame)
        assault.do_def_leaders(ctx, frame.ctx, blocks, ctx.interpretation)


class PursuitStep(_AssaultStep):
    """marengo §11 steps 8-10: the winner's cavalry that took part without leading pursues, or none does."""

    kind = assault.PURSUIT

    def carry_out(self, ctx: Decision[Any], frame: core.Frame[ev.AssaultUnderway], command: C.Pursue) -> None:
        blocks = resolve_all(ctx.state, ctx.seat, command.blocks)
        assault.check_pursuit(ctx.state, frame.ctx, blocks, ctx.interpretation)
        close_frame(ctx, frame)
        assault.do_pursuit(ctx, frame.ctx, blocks)


class AdvanceStep(_AssaultStep):
    """marengo §11 step 11: the surviving attackers advance into the conquered zone (some may stay), or not."""

    kind = assault.ADVANCE

    def carry_out(self, ctx: Decision[Any], frame: core.Frame[ev.AssaultUnderway], command: C.Advance) -> None:
        stay = resolve_all(ctx.state, ctx.seat, command.stay)
        assault.check_advance(ctx.state, frame.ctx, command.advance, stay, ctx.interpretation)
        close_frame(ctx, frame)
        assault.do_advance(ctx, frame.ctx, command.advance, stay)


class _AssaultWaitStep(Step[ev.AssaultUnderway]):
    """marengo §11: an assault's frame waiting below the losses or the retreat one of its steps caused;
    procedure.run moves the assault on in the same command once they end, so nobody ever answers it."""

    def answer(self, ctx: Decision[Any], frame: core.Frame[ev.AssaultUnderway], command: Any) -> None:
        ctx.reject(frame.rule, "the assault goes on when what it caused has ended; nothing is asked")


class ResultLossesStep(_AssaultWaitStep):
    kind = assault.RESULT_LOSSES


class PursuitLossesStep(_AssaultWaitStep):
    kind = assault.PURSUIT_LOSSES


class ConquestStep(_AssaultWaitStep):
    kind = assault.CONQUEST


STEPS: dict[str, Step[Any]] = {step.kind: step for step in (
    TargetStep(), LossStep(), RetreatStep(), BlockStep(), AfterBlockStep(), EnterStep(), DefensiveArtilleryStep(),
    DefendingLeadersStep(), PursuitStep(), AdvanceStep(), ResultLossesStep(), PursuitLossesStep(), ConquestStep())}
