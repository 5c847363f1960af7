"""Loss allocation shared by bombardment (marengo §10), assaults (§11) and retreats (§12).

A queued task takes points from some blocks one at a time: first from the leaders (the enemy, who inflicts
the losses, chooses among them), then from the others (their owner chooses); points beyond their
strength are ignored (marengo §11 "quelle in eccesso verranno ignorate"). A block is revealed when it
takes a loss (marengo §10 (3), §11 example). A forced choice is made by the engine.

The queue is the context of one `assign_loss` frame on the engine's decision stack (arbitro §S.3; answered
by steps.LossStep): queueing opens it (or appends to it), each point taken revises its first task, a task
allocated closes it and opens the next task's frame (whose rule is that task's).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from arbitro.adjudicator.decisions import close_frame, open_frame, update_frame
from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.common import Illegal, alive, by_token, fail, lose, reveal, tokens
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import core
from arbitro.events import marengo as ev
from arbitro.projections.game import GameState, awaited
from arbitro.projections.marengo import MarengoState, other

KIND = "assign_loss"  # the kind of the loss decision's frame (and the type of its answer)


def frame(game: GameState[Any]) -> core.Frame[ev.LossesAwaited] | None:
    """The loss queue's frame, when it is the decision awaited."""
    top = awaited(game.core)
    return top if top is not None and top.kind == KIND else None


def candidates(state: MarengoState, t: ev.LossTask) -> tuple[list[str], str]:
    """The blocks that may take the next point of task `t`, and who chooses."""
    if t.one_block and t.chosen:  # marengo §10 interpretation bombardment_losses=one_block
        return alive(state, [t.chosen]), t.side
    leaders = alive(state, t.leaders)
    if leaders:
        return leaders, other(t.side)
    return alive(state, t.others), t.side


def _rule(task: ev.LossTask) -> Rule:
    return Rule("marengo", task.rule.split("§")[-1], "") if "§" in task.rule else R.LOSSES


def _prompt(t: ev.LossTask) -> str:
    return f"choose the block of {t.side} that takes the next loss ({t.points} left: {t.reason})"


def _open(ctx: Any, tasks: tuple[ev.LossTask, ...]) -> None:
    head = tasks[0]
    _, chooser = candidates(ctx.state, head)
    open_frame(ctx, KIND, (chooser,), head.rule, _prompt(head), ev.LossesAwaited(tasks=tasks))


def _revise(ctx: Any, top: core.Frame[ev.LossesAwaited], tasks: tuple[ev.LossTask, ...]) -> None:
    """The queue after a change to its first task or its tail: who chooses now, and how many points are left."""
    _, chooser = candidates(ctx.state, tasks[0])
    update_frame(ctx, top, ev.LossesAwaited(tasks=tasks), seats=(chooser,), prompt=_prompt(tasks[0]))


def queue_losses(ctx: Any, side: str, points: int, leaders: Iterable[str], others: Iterable[str], reason: str,
                 rule: Rule, one_block: bool = False) -> None:
    """Inflict `points` on `side` among `leaders`, then `others` (marengo §10, §11, §12): a task at the end of
    the queue (allocated by `process`, which procedure.run calls next)."""
    if points <= 0:
        return
    s, leaders = ctx.state, list(leaders)
    task = ev.LossTask(side=side, points=points, leaders=tuple(by_token(s, leaders)),
                       others=tuple(by_token(s, (o for o in others if o not in set(leaders)))),
                       reason=reason, rule=str(rule), one_block=one_block)
    top = frame(ctx.game)
    if top is None:
        _open(ctx, (task,))
    else:
        _revise(ctx, top, (*top.ctx.tasks, task))


def process(ctx: Any) -> bool:
    """Apply queued losses while no choice is needed. True if a choice is awaited."""
    while (top := frame(ctx.game)) is not None:
        t = top.ctx.tasks[0]
        cands, _ = candidates(ctx.state, t)
        if t.points <= 0 or not cands:
            ctx.emit(ev.LossTaskEnded(side=t.side, ignored=max(0, t.points), rule=t.rule))
            close_frame(ctx, top)
            if len(top.ctx.tasks) > 1:  # the next task, under its own rule
                _open(ctx, top.ctx.tasks[1:])
            continue
        everyone = alive(ctx.state, list(t.leaders) + list(t.others))
        total = sum(ctx.state.blocks[b].strength for b in everyone)
        if len(cands) == 1 or (t.points >= total and not t.one_block):
            take(ctx, top, cands[0])
            continue
        return True
    return False


def take(ctx: Any, top: core.Frame[ev.LossesAwaited], bid: str) -> None:
    t = top.ctx.tasks[0]
    reveal(ctx, [bid], "loss", _rule(t))
    lose(ctx, bid, 1, t.reason, _rule(t))
    head = msgspec.structs.replace(t, points=t.points - 1, chosen=t.chosen or bid)
    _revise(ctx, top, (head, *top.ctx.tasks[1:]))


def check_assign(state: MarengoState, t: ev.LossTask, bid: str) -> None:
    cands, _ = candidates(state, t)
    if bid not in cands:
        toks = ", ".join(tokens(state, cands))
        who = "the enemy leaders" if t.leaders and alive(state, t.leaders) else "these blocks"
        raise fail(R.LOSSES, f"the loss must go to one of {who}: {toks}")


def options(state: MarengoState, t: ev.LossTask) -> list[dict[str, Any]]:
    cands, _ = candidates(state, t)
    return [{"type": KIND, "block": tok} for tok in tokens(state, cands)]


__all__ = ["Illegal", "candidates", "check_assign", "frame", "options", "process", "queue_losses", "take"]
