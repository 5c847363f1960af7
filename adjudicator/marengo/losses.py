"""Loss allocation shared by bombardment (marengo §10), assaults (§11) and retreats (§12).

A queued task takes points from some blocks one at a time: first from the leaders (the enemy, who inflicts
the losses, chooses among them), then from the others (their owner chooses); points beyond their
strength are ignored (marengo §11 "quelle in eccesso verranno ignorate"). A block is revealed when it
takes a loss (marengo §10 (3), §11 example). A forced choice is made by the engine.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.common import Illegal, alive, fail, lose, reveal, tokens
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import marengo as ev
from arbitro.projections.marengo import MarengoState, other


def candidates(state: MarengoState) -> tuple[list[str], str]:
    """The blocks that may take the next point of the head task, and who chooses."""
    t = state.losses[0]
    if t.one_block and t.chosen:  # marengo §10 interpretation bombardment_losses=one_block
        return alive(state, [t.chosen]), t.side
    leaders = alive(state, t.leaders)
    if leaders:
        return leaders, other(t.side)
    return alive(state, t.others), t.side


def _rule(task: ev.LossTask) -> Rule:
    return Rule("marengo", task.rule.split("§")[-1], "") if "§" in task.rule else R.LOSSES


def process(ctx: Any) -> bool:
    """Apply queued losses while no choice is needed. True if a choice is awaited."""
    while ctx.state.losses:
        t = ctx.state.losses[0]
        cands, _ = candidates(ctx.state)
        if t.points <= 0 or not cands:
            ctx.emit(ev.LossTaskEnded(side=t.side, ignored=max(0, t.points), rule=t.rule))
            continue
        everyone = alive(ctx.state, list(t.leaders) + list(t.others))
        total = sum(ctx.state.blocks[b].strength for b in everyone)
        if len(cands) == 1 or (t.points >= total and not t.one_block):
            take(ctx, cands[0])
            continue
        return True
    return False


def take(ctx: Any, bid: str) -> None:
    t = ctx.state.losses[0]
    reveal(ctx, [bid], "loss", _rule(t))
    lose(ctx, bid, 1, t.reason, _rule(t), from_task=True)


def check_assign(state: MarengoState, seat: str, bid: str) -> None:
    if not state.losses:
        raise fail(R.LOSSES, "no losses are waiting to be assigned")
    cands, chooser = candidates(state)
    if seat != chooser:
        raise fail(R.LOSSES, f"{chooser} chooses which block takes this loss")
    if bid not in cands:
        toks = ", ".join(tokens(state, cands))
        who = "the enemy leaders" if state.losses[0].leaders and alive(state, state.losses[0].leaders) else "these blocks"
        raise fail(R.LOSSES, f"the loss must go to one of {who}: {toks}")


def options(state: MarengoState) -> list[dict[str, Any]]:
    cands, _ = candidates(state)
    return [{"type": "assign_loss", "block": t} for t in tokens(state, cands)]


__all__ = ["Illegal", "candidates", "check_assign", "options", "process", "take"]
