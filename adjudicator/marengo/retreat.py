"""marengo §12: retreats after a successful attack manoeuvre (§9) or a won assault (§11).

All the side's blocks in the zone retreat; they are revealed at the start and hidden at the end. Artillery
is eliminated; infantry in reserve lose one point among them; each approach held by retreating infantry or
cavalry costs one point among them (fixed reading, see docs: the worked example); assault participants
lose nothing more. Each block then goes to the reserve of an adjacent zone: not the zone the enemy came
from, not across an impassable approach, not into the enemy, not over capacity; none: eliminated.

The retreat under way is a `retreat` frame on the engine's decision stack (arbitro §S.3; answered by
steps.RetreatStep), opened below the losses it queues (which the stack runs first) and closed at its end.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.decisions import close_frame, open_frame
from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.losses import queue_losses
from arbitro.adjudicator.marengo.common import (
    alive,
    blocks_in,
    by_token,
    data,
    fail,
    has_enemy,
    hide,
    lose,
    own_count,
    refs,
    reveal,
    token_of,
)
from arbitro.events import core
from arbitro.events import marengo as ev
from arbitro.projections.game import GameState, awaited
from arbitro.projections.marengo import MarengoState

KIND = "retreat"  # the kind of the retreat's frame (and the type of its answer)
Frame = core.Frame[ev.RetreatUnderway]


def frame(game: GameState[Any]) -> Frame | None:
    """The retreat's frame, when it is on top of the stack (its losses allocated)."""
    top = awaited(game.core)
    return top if top is not None and top.kind == KIND else None


def start(ctx: Any, side: str, zone: str, enemy_from: str, exempt: list[str]) -> None:
    s = ctx.state
    top = awaited(ctx.game.core)
    if top is not None and top.kind in (KIND, "assign_loss"):  # it would run before what is awaited: never so
        raise RuntimeError(f"marengo: a retreat from {zone} starts while a {top.kind} decision is open")
    blocks = blocks_in(s, zone, side)
    open_frame(ctx, KIND, (side,), str(R.RETREAT), f"choose where each block retreats from {zone}",
               ev.RetreatUnderway(side=side, zone=zone, enemy_from=enemy_from, blocks=tuple(by_token(s, blocks)),
                                  exempt=tuple(by_token(s, exempt))))
    if not blocks:
        return
    reveal(ctx, blocks, "retreat", R.RETREAT)
    for b in blocks:
        if s.blocks[b].arm == "artillery":
            lose(ctx, b, s.blocks[b].strength, "artillery forced to retreat is eliminated", R.RETREAT)
    free = [b for b in alive(ctx.state, blocks) if b not in exempt]
    reserve_inf = [b for b in free if s.blocks[b].place == "reserve" and s.blocks[b].arm == "infantry"]
    queue_losses(ctx, side, 1, [], reserve_inf, "infantry retreating from the reserve", R.RETREAT)
    places = sorted({s.blocks[b].place for b in free if s.blocks[b].place != "reserve"})
    for place in places:
        on = [b for b in free if s.blocks[b].place == place and s.blocks[b].arm in ("infantry", "cavalry")]
        queue_losses(ctx, side, 1, [], on, f"retreating through approach {place}", R.RETREAT)


def remaining(state: MarengoState, r: ev.RetreatUnderway) -> list[str]:
    return [b for b in alive(state, r.blocks) if state.blocks[b].zone == r.zone]


def destinations(state: MarengoState, r: ev.RetreatUnderway) -> list[str]:
    d = data()
    out = []
    for z in sorted(d.neighbours(r.zone)):
        if z == r.enemy_from or not d.is_passable(r.zone, z) or has_enemy(state, z, r.side):
            continue
        if own_count(state, z, r.side) + 1 > d.zones[z].capacity:
            continue
        out.append(z)
    return out


def step(ctx: Any, top: Frame) -> bool:
    """Advance the retreat; True if the retreating side must choose."""
    s, r = ctx.state, top.ctx
    left = remaining(s, r)
    if not left:
        # marengo §12: hidden again at the end of the retreat
        hide(ctx, [b for b in r.blocks if s.blocks[b].reveal != "bombardment"], "end of retreat", R.RETREAT)
        close_frame(ctx, top)
        return False
    for b in left:
        if not destinations(s, r):
            lose(ctx, b, s.blocks[b].strength, "no zone to retreat to", R.RETREAT)
            return False
    if len(left) == 1 and len(destinations(s, r)) == 1:
        move(ctx, r, left[0], destinations(s, r)[0])
        return False
    return True


def move(ctx: Any, r: ev.RetreatUnderway, bid: str, zone: str) -> None:
    s = ctx.state
    ctx.emit(ev.BlocksMoved(side=r.side, blocks=refs(s, [bid]), from_zone=r.zone, to_zone=zone, place="reserve",
                            kind="retreat", cost=0, marks_moved=False, rule=str(R.RETREAT)))


def check(state: MarengoState, r: ev.RetreatUnderway, bid: str, zone: str) -> None:
    if bid not in remaining(state, r):
        raise fail(R.RETREAT, "that block is not retreating")
    if zone not in destinations(state, r):
        allowed = ", ".join(destinations(state, r))
        raise fail(R.RETREAT, f"cannot retreat to {zone}: not the zone the enemy came from, not across an "
                              f"impassable approach, not into the enemy, not over capacity; allowed: {allowed}")


def options(state: MarengoState, r: ev.RetreatUnderway) -> list[dict[str, Any]]:
    out = [{"type": KIND, "block": token_of(state, b), "zone": z}
           for b in remaining(state, r) for z in destinations(state, r)]
    return sorted(out, key=lambda o: (o["block"], o["zone"]))
