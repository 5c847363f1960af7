"""marengo §7: the sequence of play (16 rounds, Austria then France; each turn: resolve the declared
bombardment, assaults, movement, declare a bombardment), with what happens at the start of a turn (§4
shuffling, §6 activation, §13 morale bonus) and at its end (§8 forced leave, §14 victory after round 16)."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.marengo import bombardment, morale
from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.common import (
    Interp,
    blocks_in,
    data,
    fail,
    has_enemy,
    hide,
    on_map,
    refs,
    turn_index,
)
from arbitro.adjudicator.marengo.movement import forced_blocks
from arbitro.events import marengo as ev
from arbitro.projections.marengo import MarengoState

STEPS = ("start", "bombardment", "assaults", "movement", "declare")


def check_step(state: MarengoState, seat: str, step: str) -> None:
    if state.step not in STEPS:
        raise fail(R.SEQUENCE, "the turn is over")
    if STEPS.index(state.step) > STEPS.index(step):
        raise fail(R.SEQUENCE, f"the {state.step} step is under way: the {step} step is over for this turn")
    if STEPS.index(step) >= STEPS.index("assaults") and _bombardment_due(state, seat):
        raise fail(R.SEQUENCE, "first resolve or cancel the bombardment declared last turn (step 1)")


def _bombardment_due(state: MarengoState, seat: str) -> bool:
    bm = state.bombard.get(seat)
    return bm is not None and bm.declared_turn < state.turn


def enter_step(ctx: Any, step: str) -> None:
    """The turn moves on to `step` (marengo §7), if it is not there yet."""
    if ctx.state.step != step:
        ctx.emit(ev.StepBegan(step=step, rule=str(R.SEQUENCE)))


# --- start of a turn ----------------------------------------------------------------------------------
def begin_turn(ctx: Any, round_: int, side: str, interp: Interp) -> None:
    s = ctx.state
    hour = s.first_hour + round_ - 1
    ctx.emit(ev.TurnBegan(round=round_, hour=hour, side=side, turn=turn_index(round_, side), rule=str(R.SEQUENCE)))
    morale.start_of_turn(ctx, interp)
    bm = s.bombard.get(side)
    if bm is not None:
        art = s.blocks[bm.block]
        if not on_map(art) or art.place != bm.approach:
            bombardment.do_cancel(ctx, side, "the artillery no longer holds the approach it declared from")
    if side == "france":
        _activation(ctx, interp)


def _activation(ctx: Any, interp: Interp) -> None:
    """marengo §6 (6): automatic activation next to the enemy; then the French choices of this turn."""
    s = ctx.state
    d = data()
    waiting = sorted(b for b, x in s.blocks.items() if x.side == "france" and not x.activated and on_map(x))
    auto = []
    for b in waiting:
        zone = s.blocks[b].zone
        for z in d.neighbours(zone):
            if interp("activation_adjacent") == "passable" and not d.is_passable(zone, z):
                continue
            if has_enemy(s, z, "france"):
                auto.append(b)
                break
    if auto:
        ctx.emit(ev.BlocksActivated(blocks=refs(s, auto), automatic=True, allowance_left=0, rule=str(R.ACTIVATION)))
    left = [b for b in waiting if b not in auto]
    if s.round == 1:
        allowance = 1
    elif s.enemy_entered_at_start or s.hour >= s.activation_hour:
        allowance = 2
    else:
        allowance = 0
    allowance = min(allowance, len(left))
    if allowance:
        ctx.emit(ev.ActivationAllowance(count=allowance, rule=str(R.ACTIVATION)))


def check_activate(state: MarengoState, seat: str, blocks: list[str]) -> None:
    if seat != "france":
        raise fail(R.ACTIVATION, "only French blocks are activated")
    if state.step != "start":
        raise fail(R.ACTIVATION, "blocks are activated at the start of the French turn")
    if not blocks:
        raise fail(R.ACTIVATION, "name the blocks to activate")
    if len(blocks) > state.activation_left:
        raise fail(R.ACTIVATION, f"{state.activation_left} block(s) may be activated now")
    for b in blocks:
        x = state.blocks[b]
        if x.side != "france" or x.activated or not on_map(x):
            raise fail(R.ACTIVATION, "only unactivated French blocks on the map are activated")


def do_activate(ctx: Any, blocks: list[str]) -> None:
    s = ctx.state
    ctx.emit(ev.BlocksActivated(blocks=refs(s, blocks), automatic=False,
                                allowance_left=s.activation_left - len(blocks), rule=str(R.ACTIVATION)))


# --- shuffling (marengo §4) ------------------------------------------------------------------------------
def check_shuffle(state: MarengoState, seat: str, zone: str) -> list[str]:
    if state.step != "start":
        raise fail(R.BLOCKS, "blocks are shuffled at the start of a turn, before anything else")
    if zone not in data().zones:
        raise fail(R.MAP, f"no zone {zone!r}")
    own = blocks_in(state, zone, seat)
    if len(own) < 2:
        raise fail(R.BLOCKS, f"you have fewer than two blocks in {zone}: nothing to shuffle")
    return own


def do_shuffle(ctx: Any, seat: str, zone: str, own: list[str]) -> None:
    """Each place's blocks get fresh tokens through a hidden draw: the opponent cannot tell which is which."""
    s = ctx.state
    counter = s.next_token
    assignments = []
    # marengo §6: activated and unactivated French blocks are never mixed; places stay public
    for place, active in sorted({(s.blocks[b].place, s.blocks[b].activated) for b in own}):
        group = [b for b in own if s.blocks[b].place == place and s.blocks[b].activated == active]
        fresh = [f"b{counter + i:03d}" for i in range(len(group))]
        counter += len(group)
        order = ctx.shuffle(group, purpose=f"{R.BLOCKS} shuffle in {zone}", visible_to=(seat,))
        for token, b in zip(fresh, order):
            assignments.append(ev.TokenAssignment(block=b, old_token=s.blocks[b].token, token=token, place=place))
    ctx.emit(ev.BlocksShuffled(side=seat, zone=zone, assignments=tuple(assignments), next_token=counter,
                               rule=str(R.BLOCKS)))


# --- end of a turn --------------------------------------------------------------------------------------------
def check_end(state: MarengoState, seat: str) -> None:
    if _bombardment_due(state, seat):
        raise fail(R.SEQUENCE, "first resolve or cancel the bombardment declared last turn (step 1)")
    forced = forced_blocks(state, seat)
    if forced:
        toks = ", ".join(state.blocks[b].token for b in forced)
        raise fail(R.FORCED_LEAVE, f"blocks on an approach whose opposite zone holds no enemy must leave it "
                                   f"before the turn ends: {toks}")


def do_end(ctx: Any, seat: str, interp: Interp) -> None:
    s = ctx.state
    keep = s.bombard.get(seat)
    up = [b for b, x in s.blocks.items() if x.side == seat and x.face_up and on_map(x)
          and (x.reveal == "continuation" or (x.reveal == "bombardment" and (keep is None or keep.block != b)))]
    hide(ctx, up, "end of turn", R.SEQUENCE)
    ctx.emit(ev.TurnEnded(side=seat, round=s.round, rule=str(R.SEQUENCE)))
    if seat == "austria":
        begin_turn(ctx, s.round, "france", interp)
    elif s.round >= s.rounds:
        winner, reason, rule = morale.victory(s)
        ctx.emit(ev.GameOver(winner=winner, reason=reason, rule=str(rule)))
    else:
        begin_turn(ctx, s.round + 1, "austria", interp)

