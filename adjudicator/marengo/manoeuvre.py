"""marengo §9: attack manoeuvres. The defender may block (only against blocks that started the turn in
reserve, only with blocks in that zone's reserve); a blocked attacker stays, advances to block, or splits
(one more command); otherwise the defender retreats (§12) and the attacker enters; road cavalry goes on.

The manoeuvre under way is a frame on the engine's decision stack (arbitro §S.3; steps.BlockStep,
AfterBlockStep): `block_manoeuvre` awaits the defender, `after_block` the attacker once blocked, and
`manoeuvre_enter` waits below the defender's retreat, the attackers entering when it ends.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator.decisions import close_frame, open_frame
from arbitro.adjudicator.marengo import retreat
from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.common import (
    Illegal, blocks_at, by_content, by_token, fail, refs, reveal, subsets, tokens,
)
from arbitro.adjudicator.marengo.movement import ManoeuvreStart, check_limit, continue_road
from arbitro.events import core
from arbitro.events import marengo as ev
from arbitro.projections.game import GameState, awaited
from arbitro.projections.marengo import MarengoState, other

BLOCK, AFTER, ENTER = "block_manoeuvre", "after_block", "manoeuvre_enter"  # the kinds of its frames
Frame = core.Frame[ev.ManoeuvreUnderway]


def frame(game: GameState[Any]) -> Frame | None:
    """The manoeuvre's frame, when it is on top of the stack."""
    top = awaited(game.core)
    return top if top is not None and top.kind in (BLOCK, AFTER, ENTER) else None


def _open(ctx: Any, kind: str, m: ev.ManoeuvreUnderway) -> None:
    if kind == BLOCK:
        open_frame(ctx, BLOCK, (other(m.side),), str(R.MANOEUVRE),
                   f"block the attack manoeuvre from {m.from_zone} into {m.to_zone}, or retreat", m)
    elif kind == AFTER:
        open_frame(ctx, AFTER, (m.side,), str(R.MANOEUVRE),
                   "the attack was blocked: choose the blocks that advance to block (the rest stay)", m)
    else:
        open_frame(ctx, ENTER, (m.side,), str(R.MANOEUVRE), f"enter {m.to_zone} once its defenders have retreated", m)


def begin(ctx: Any, start: ManoeuvreStart | None) -> None:
    """Start the attack manoeuvre a move led into (nothing when it led into none)."""
    if start is None:
        return
    s = ctx.state
    ctx.emit(ev.ManoeuvreStarted(side=start.side, blocks=refs(s, start.blocks), from_zone=start.from_zone,
                                 to_zone=start.to_zone, blockable=start.blockable, road=start.road,
                                 remaining=tuple(start.remaining), crossings=tuple(start.crossings), cost=start.cost,
                                 rule=str(R.MANOEUVRE)))
    m = ev.ManoeuvreUnderway(side=start.side, blocks=tuple(r.block for r in refs(s, start.blocks)),
                             from_zone=start.from_zone, to_zone=start.to_zone, blockable=start.blockable,
                             road=start.road, remaining=tuple(start.remaining), crossings=tuple(start.crossings))
    if start.show:
        reveal(ctx, [start.show], "manoeuvre_infantry", R.MANOEUVRE)
    if start.road:
        reveal(ctx, start.blocks, "road_cavalry", R.MANOEUVRE)
    if not (start.blockable and blocks_at(s, start.to_zone, "reserve", other(start.side))):
        _defender_retreats(ctx, m)
    else:
        _open(ctx, BLOCK, m)


def _defender_retreats(ctx: Any, m: ev.ManoeuvreUnderway) -> None:
    _open(ctx, ENTER, m)
    retreat.start(ctx, other(m.side), m.to_zone, m.from_zone, [])


def step(ctx: Any, top: Frame, interp: Any) -> bool:
    m = top.ctx
    if top.kind in (BLOCK, AFTER):
        return True
    # retreat finished: the attacker enters the zone (marengo §9 (2))
    s = ctx.state
    road = bool(m.road)
    ctx.emit(ev.BlocksMoved(side=m.side, blocks=refs(s, m.blocks), from_zone=m.from_zone, to_zone=m.to_zone,
                            place="reserve", kind="manoeuvre_enter", cost=0,
                            crossings=tuple(m.crossings[:1]) if road else (), group=not road,
                            rule=str(R.MANOEUVRE)))
    bid, rd, rem, cr, zone = m.blocks[0], m.road, list(m.remaining), list(m.crossings[1:]), m.to_zone
    ctx.emit(ev.ManoeuvreEnded(result="success", rule=str(R.MANOEUVRE)))
    close_frame(ctx, top)
    if road:
        begin(ctx, continue_road(ctx, bid, rd, zone, rem, cr, interp))
    return False


def check_block(state: MarengoState, m: ev.ManoeuvreUnderway, seat: str, blocks: list[str]) -> None:
    allowed = blocks_at(state, m.to_zone, "reserve", seat)
    if any(b not in allowed for b in blocks):
        raise fail(R.MANOEUVRE, f"only blocks in the reserve of {m.to_zone} block an attack manoeuvre")


def do_block(ctx: Any, top: Frame, blocks: list[str]) -> None:
    m = top.ctx
    close_frame(ctx, top)
    if not blocks:
        _defender_retreats(ctx, m)
        return
    ctx.emit(ev.ManoeuvreBlocked(side=other(m.side), blocks=refs(ctx.state, blocks),
                                 approach=f"{m.to_zone}/{m.from_zone}", rule=str(R.MANOEUVRE)))
    _open(ctx, AFTER, msgspec.structs.replace(m, blockers=tuple(by_token(ctx.state, blocks))))


def check_after(state: MarengoState, m: ev.ManoeuvreUnderway, advance: list[str]) -> int:
    if any(b not in m.blocks for b in advance):
        raise fail(R.MANOEUVRE, "only the blocked attackers may advance")
    cost = 1 if 0 < len(advance) < len(m.blocks) else 0
    if cost:
        check_limit(state, cost)
    return cost


def do_after(ctx: Any, top: Frame, advance: list[str], cost: int) -> None:
    s = ctx.state
    m = top.ctx
    stay = [b for b in m.blocks if b not in advance]
    places = sorted({s.blocks[b].place for b in stay})
    for place in places:
        group = [b for b in stay if s.blocks[b].place == place]
        ctx.emit(ev.BlocksMoved(side=m.side, blocks=refs(s, group), from_zone=m.from_zone, to_zone=m.from_zone,
                                place=place, kind="stay_after_block", cost=0, rule=str(R.MANOEUVRE)))
    if advance:
        ctx.emit(ev.BlocksMoved(side=m.side, blocks=refs(s, advance), from_zone=m.from_zone, to_zone=m.from_zone,
                                place=f"{m.from_zone}/{m.to_zone}", kind="advance_to_block", cost=cost,
                                rule=str(R.MANOEUVRE)))
    ctx.emit(ev.ManoeuvreEnded(result="blocked", rule=str(R.MANOEUVRE)))
    close_frame(ctx, top)


def options(state: MarengoState, top: Frame, seat: str) -> list[dict[str, Any]]:
    m = top.ctx
    if top.kind == BLOCK:
        pool = blocks_at(state, m.to_zone, "reserve", seat)
        out = [{"type": BLOCK, "blocks": tokens(state, sub)} for sub in subsets(pool, 0, len(pool))]
    elif top.kind == AFTER:
        out = []
        for sub in subsets(list(m.blocks), 0, len(m.blocks)):
            try:
                check_after(state, m, sub)
            except Illegal:
                continue
            out.append({"type": AFTER, "advance": tokens(state, sub)})
    else:
        return []
    return by_content(out)
