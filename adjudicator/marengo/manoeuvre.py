"""marengo §9: attack manoeuvres. The defender may block (only against blocks that started the turn in
reserve, only with blocks in that zone's reserve); a blocked attacker stays, advances to block, or splits
(one more command); otherwise the defender retreats (§12) and the attacker enters; road cavalry goes on."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.marengo import retreat
from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.common import Illegal, blocks_at, fail, refs, reveal, stage, subsets, tokens
from arbitro.adjudicator.marengo.movement import ManoeuvreStart, check_limit, continue_road
from arbitro.events import marengo as ev
from arbitro.projections.marengo import MarengoState, other


def begin(ctx: Any, start: ManoeuvreStart | None) -> None:
    """Start the attack manoeuvre a move led into (nothing when it led into none)."""
    if start is None:
        return
    s = ctx.state
    ctx.emit(ev.ManoeuvreStarted(side=start.side, blocks=refs(s, start.blocks), from_zone=start.from_zone,
                                 to_zone=start.to_zone, blockable=start.blockable, road=start.road,
                                 remaining=tuple(start.remaining), crossings=tuple(start.crossings), cost=start.cost,
                                 rule=str(R.MANOEUVRE)))
    if start.show:
        reveal(ctx, [start.show], "manoeuvre_infantry", R.MANOEUVRE)
    if start.road:
        reveal(ctx, start.blocks, "road_cavalry", R.MANOEUVRE)
    if not (start.blockable and blocks_at(s, start.to_zone, "reserve", other(start.side))):
        _defender_retreats(ctx)


def _defender_retreats(ctx: Any) -> None:
    m = ctx.state.manoeuvre
    stage(ctx, "manoeuvre", "retreat", R.MANOEUVRE)
    retreat.start(ctx, other(m.side), m.to_zone, m.from_zone, [])


def step(ctx: Any, interp: Any) -> bool:
    m = ctx.state.manoeuvre
    if m.stage in ("block", "after_block"):
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
    if road:
        begin(ctx, continue_road(ctx, bid, rd, zone, rem, cr, interp))
    return False


def check_block(state: MarengoState, seat: str, blocks: list[str]) -> None:
    m = state.manoeuvre
    if m is None or m.stage != "block":
        raise fail(R.MANOEUVRE, "no attack manoeuvre awaits blocking")
    if seat != other(m.side):
        raise fail(R.MANOEUVRE, "the defender decides whether to block")
    allowed = blocks_at(state, m.to_zone, "reserve", seat)
    if any(b not in allowed for b in blocks):
        raise fail(R.MANOEUVRE, f"only blocks in the reserve of {m.to_zone} block an attack manoeuvre")


def do_block(ctx: Any, blocks: list[str]) -> None:
    m = ctx.state.manoeuvre
    if not blocks:
        _defender_retreats(ctx)
        return
    ctx.emit(ev.ManoeuvreBlocked(side=other(m.side), blocks=refs(ctx.state, blocks),
                                 approach=f"{m.to_zone}/{m.from_zone}", rule=str(R.MANOEUVRE)))


def check_after(state: MarengoState, seat: str, advance: list[str]) -> int:
    m = state.manoeuvre
    if m is None or m.stage != "after_block":
        raise fail(R.MANOEUVRE, "no blocked attack manoeuvre awaits the attacker")
    if seat != m.side:
        raise fail(R.MANOEUVRE, "the attacker decides after a block")
    if any(b not in m.blocks for b in advance):
        raise fail(R.MANOEUVRE, "only the blocked attackers may advance")
    cost = 1 if 0 < len(advance) < len(m.blocks) else 0
    if cost:
        check_limit(state, cost)
    return cost


def do_after(ctx: Any, advance: list[str], cost: int) -> None:
    s = ctx.state
    m = s.manoeuvre
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


def options(state: MarengoState, seat: str) -> list[dict[str, Any]]:
    m = state.manoeuvre
    assert m is not None
    if m.stage == "block":
        pool = blocks_at(state, m.to_zone, "reserve", seat)
        return [{"type": "block_manoeuvre", "blocks": tokens(state, sub)}
                for sub in subsets(pool, 0, len(pool))]
    out = []
    for sub in subsets(m.blocks, 0, len(m.blocks)):
        try:
            check_after(state, seat, sub)
        except Illegal:
            continue
        out.append({"type": "after_block", "advance": tokens(state, sub)})
    return out

