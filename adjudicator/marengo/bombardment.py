"""marengo §10: bombardment. Declared at the end of a turn (the artillery is revealed), resolved or cancelled
at the start of its owner's next turn, at most every other turn; the artillery cannot move in the resolving
turn nor assault in the declaring or resolving turn. Targets: the blockers of the directly opposite approach,
else the reserve, else (attacker's choice) the blockers of any approach of that zone; the artillery penalty
applies only against the directly opposite approach; the defender chooses who takes the losses."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.decisions import open_frame
from arbitro.adjudicator.marengo.common import Interp, blocks_at, data, fail, hide, on_map, reveal
from arbitro.adjudicator.marengo.losses import queue_losses
from arbitro.events import marengo as ev
from arbitro.projections.marengo import MarengoState, other


TARGET = "bombard_target"  # the kind of the target decision's frame


def artillery_of(state: MarengoState, side: str) -> str | None:
    arts = sorted(b for b, x in state.blocks.items() if x.side == side and x.arm == "artillery" and on_map(x))
    return arts[0] if arts else None


def check_declare(state: MarengoState, seat: str, bid: str, interp: Interp) -> str:
    b = state.blocks[bid]
    if b.side != seat or b.arm != "artillery" or not on_map(b):
        raise fail(R.BOMBARDMENT, "only your artillery on the map bombards")
    if seat in state.bombard:
        raise fail(R.BOMBARDMENT, "a bombardment is already declared")
    if not b.activated and interp("unactivated_may_assault") == "no":
        raise fail(R.ACTIVATION, "an unactivated block does not bombard")
    if b.place == "reserve":
        raise fail(R.BOMBARDMENT, "to bombard, the artillery must block an approach, not stand in reserve")
    toward = b.place.split("/")[1]
    if not any(x.side == other(seat) and x.zone == toward for x in state.blocks.values()):
        raise fail(R.BOMBARDMENT, f"no enemy in {toward} to bombard")
    if state.fired_turn.get(seat, -99) == state.turn:
        raise fail(R.BOMBARDMENT, "the artillery fired this turn: it declares again only next turn")
    if b.assaulted:
        raise fail(R.BOMBARDMENT, "the artillery assaulted this turn")
    return b.place


def do_declare(ctx: Any, seat: str, bid: str, approach: str) -> None:
    s = ctx.state
    ctx.emit(ev.BombardmentDeclared(side=seat, block=bid, token=s.blocks[bid].token, approach=approach,
                                    rule=str(R.BOMBARDMENT)))
    reveal(ctx, [bid], "bombardment", R.BOMBARDMENT)


def check_pending(state: MarengoState, seat: str) -> None:
    if seat not in state.bombard:
        raise fail(R.BOMBARDMENT, "no bombardment of yours awaits resolution")
    if state.bombard[seat].declared_turn >= state.turn:
        raise fail(R.BOMBARDMENT, "a bombardment is resolved in the turn after its declaration")


def check_resolve(state: MarengoState, seat: str) -> None:
    check_pending(state, seat)
    tgt, _, choices = targets(state, seat)
    if not tgt and not choices:
        zone = state.bombard[seat].approach.split("/")[1]
        raise fail(R.BOMBARDMENT, f"no enemy is left in {zone}: cancel the bombardment")


def targets(state: MarengoState, seat: str) -> tuple[list[str], bool, list[str]]:
    """(blocks targeted, directly opposite?, approach choices when the attacker must choose)."""
    bm = state.bombard[seat]
    zone, toward = bm.approach.split("/")
    enemy = other(seat)
    direct = blocks_at(state, toward, f"{toward}/{zone}", enemy)
    if direct:
        return direct, True, []
    reserve = blocks_at(state, toward, "reserve", enemy)
    if reserve:
        return reserve, False, []
    choices = sorted({state.blocks[b].place for b, x in state.blocks.items()
                      if x.side == enemy and x.zone == toward and x.place != "reserve"})
    if len(choices) == 1:
        return blocks_at(state, toward, choices[0], enemy), False, []
    return [], False, choices


def do_resolve(ctx: Any, seat: str, interp: Interp, chosen: str | None = None) -> None:
    s = ctx.state
    bm = s.bombard[seat]
    if chosen is None:
        tgt, direct, choices = targets(s, seat)
        if choices:  # the bombarding side chooses: a decision on the engine's stack, answered by TargetStep
            open_frame(ctx, TARGET, (seat,), str(R.BOMBARDMENT), "choose the approach the bombardment fires at",
                       ev.BombardTargetAwaited(side=seat, choices=tuple(choices)))
            return
    else:
        zone = bm.approach.split("/")[1]
        tgt, direct = blocks_at(s, zone, chosen, other(seat)), False
    art = s.blocks[bm.block]
    strength = art.strength
    target_place = s.blocks[tgt[0]].place if tgt else "reserve"
    if direct:
        strength -= data().approaches[target_place].penalty.artillery
    strength = max(0, strength)
    ctx.emit(ev.BombardmentResolved(side=seat, block=bm.block, token=art.token, target=target_place,
                                    strength=strength, rule=str(R.BOMBARDMENT)))
    queue_losses(ctx, other(seat), strength, [], tgt, "bombardment", R.BOMBARDMENT,
                 one_block=interp("bombardment_losses") == "one_block")


def do_cancel(ctx: Any, seat: str, reason: str) -> None:
    s = ctx.state
    bm = s.bombard[seat]
    ctx.emit(ev.BombardmentCancelled(side=seat, block=bm.block, token=s.blocks[bm.block].token, reason=reason,
                                     rule=str(R.BOMBARDMENT)))
    hide(ctx, [bm.block], "bombardment cancelled", R.BOMBARDMENT)


def may_fire_in_defence(state: MarengoState, bid: str) -> bool:
    """marengo §11 step 2: not if it declared or resolved a bombardment in its side's previous turn."""
    b = state.blocks[bid]
    prev = state.turn - 1
    return (b.arm == "artillery" and b.strength > 0 and state.declared_turn.get(b.side, -99) != prev
            and state.fired_turn.get(b.side, -99) != prev)
