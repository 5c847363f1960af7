"""Shared queries and small emitters for the Marengo rules modules.

Validators are pure functions of (state, seat, command, interp) that raise `Illegal`; decide() turns that
into a rejection and legal() into "not listed", so the two always agree. `interp(name)` reads an
interpretation in force (defaults when no Decision is at hand, see docs).
"""

from __future__ import annotations

import json

from collections.abc import Callable, Iterable, Iterator
from itertools import combinations
from typing import Any

from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.data_loader import MarengoData, current
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import marengo as ev
from arbitro.projections.marengo import ELIMINATED, POOL, Block, MarengoState, other

Interp = Callable[[str], str]


class Illegal(Exception):
    def __init__(self, rule: Rule, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


def fail(rule: Rule, message: str) -> Illegal:
    return Illegal(rule, message)


def subsets(items: list[str], lo: int, hi: int) -> Iterator[list[str]]:
    """Every sorted subset of `items` with `lo` to `hi` members, smallest first (the listings' choices)."""
    items = sorted(items)
    for n in range(lo, min(hi, len(items)) + 1):
        for c in combinations(items, n):
            yield list(c)


def data() -> MarengoData:
    """The data in force: the shipped data, or the data folder of the game being decided (data_loader.bound)."""
    return current()


# --- block queries --------------------------------------------------------------------------------
def on_map(b: Block) -> bool:
    return not b.zone.startswith(POOL) and b.zone not in (ELIMINATED, "at_start", "")


def blocks_in(state: MarengoState, zone: str, side: str | None = None) -> list[str]:
    return sorted(bid for bid, b in state.blocks.items() if b.zone == zone and (side is None or b.side == side))


def blocks_at(state: MarengoState, zone: str, place: str, side: str) -> list[str]:
    return sorted(bid for bid, b in state.blocks.items() if b.zone == zone and b.place == place and b.side == side)


def has_enemy(state: MarengoState, zone: str, side: str) -> bool:
    enemy = other(side)
    return any(b.zone == zone and b.side == enemy for b in state.blocks.values())


def own_count(state: MarengoState, zone: str, side: str) -> int:
    return sum(1 for b in state.blocks.values() if b.zone == zone and b.side == side)


def enemy_blocking(state: MarengoState, zone: str, toward: str, side: str) -> bool:
    """The approach zone/toward is blocked by `side`'s enemy (marengo §8)."""
    return bool(blocks_at(state, zone, f"{zone}/{toward}", other(side)))


def by_token(state: MarengoState, ids: Iterable[str]) -> list[str]:
    """Internal ids in token order (marengo §4): lists served to the enemy never follow the internal ids, which
    would rank the tokens by identity (the order of battle is public) and so, over a game, tell the faces."""
    return sorted(ids, key=lambda b: (state.blocks[b].token, b))


def refs(state: MarengoState, ids: Iterable[str]) -> tuple[ev.Ref, ...]:
    return tuple(ev.Ref(block=b, token=state.blocks[b].token) for b in by_token(state, ids))


def faces(state: MarengoState, ids: Iterable[str]) -> tuple[ev.Face, ...]:
    return tuple(
        ev.Face(block=b, token=state.blocks[b].token, arm=state.blocks[b].arm, strength=state.blocks[b].strength)
        for b in by_token(state, ids)
    )


def token_of(state: MarengoState, bid: str) -> str:
    return state.blocks[bid].token


def tokens(state: MarengoState, ids: Iterable[str]) -> list[str]:
    """Tokens sorted by token: never in internal-id order, which would tie tokens to identities."""
    return sorted(state.blocks[b].token for b in ids)


def resolve(state: MarengoState, seat: str, ref: str) -> str:
    """A block on the map is named by its token; one's own block off the map (a reinforcement waiting) by its
    id: one name per block, so legal() and decide() agree. The error never echoes the reference: it could be a
    guessed internal id of the enemy."""
    for bid, b in state.blocks.items():
        if b.token and b.token == ref and on_map(b):
            return bid
    if ref in state.blocks and state.blocks[ref].side == seat and not on_map(state.blocks[ref]):
        return ref
    raise fail(R.BLOCKS, "no such block: name a block on the map by its token (see your view), a reinforcement "
                         "of yours by its id")


def resolve_all(state: MarengoState, seat: str, refs_: Iterable[str]) -> list[str]:
    out = [resolve(state, seat, r) for r in refs_]
    if len(set(out)) != len(out):
        raise fail(R.BLOCKS, "a block is named twice")
    return sorted(out)


def pair_passable(a: str, b: str) -> bool:
    return data().is_passable(a, b)


def cavalry_obstacle(interp: Interp, zone: str, toward: str) -> bool:
    """Cavalry-obstacle terrain between two zones, seen from `zone` moving/attacking `toward`
    (interpretation cavalry_obstacle_scope)."""
    d = data()
    mine, theirs = d.approach(zone, toward), d.approach(toward, zone)
    if interp("cavalry_obstacle_scope") == "defender":
        return theirs.cavalry_obstacle
    return mine.cavalry_obstacle or theirs.cavalry_obstacle


def effective_defence(state: MarengoState, interp: Interp, bid: str) -> int:
    """marengo §13: a demoralised army's defending leaders count one less each."""
    b = state.blocks[bid]
    if not state.demoralised.get(b.side):
        return b.strength
    value = b.strength - 1
    return max(0, value) if interp("demoralised_defence_floor") == "zero" else value


# --- emitters ---------------------------------------------------------------------------------------
# reveals that outlast any procedure: the bombarding artillery (marengo §10, until the end of its resolution
# turn) and continuing cavalry (§8); a block already face up for one of them keeps that reason
LASTING_REVEALS = ("bombardment", "continuation")


def reveal(ctx: Any, ids: Iterable[str], reason: str, rule: Rule) -> None:
    ids = [b for b in sorted(ids) if not ctx.state.blocks[b].face_up
           or (ctx.state.blocks[b].reveal != reason and ctx.state.blocks[b].reveal not in LASTING_REVEALS)]
    by_side: dict[str, list[str]] = {}
    for b in ids:
        by_side.setdefault(ctx.state.blocks[b].side, []).append(b)
    for side in sorted(by_side):
        ctx.emit(ev.BlocksRevealed(side=side, blocks=faces(ctx.state, by_side[side]), reason=reason, rule=str(rule)))


def hide(ctx: Any, ids: Iterable[str], reason: str, rule: Rule) -> None:
    ids = [b for b in sorted(set(ids)) if ctx.state.blocks[b].face_up and on_map(ctx.state.blocks[b])]
    by_side: dict[str, list[str]] = {}
    for b in ids:
        by_side.setdefault(ctx.state.blocks[b].side, []).append(b)
    for side in sorted(by_side):
        ctx.emit(ev.BlocksHidden(side=side, blocks=refs(ctx.state, by_side[side]), reason=reason, rule=str(rule)))


def lose(ctx: Any, bid: str, points: int, reason: str, rule: Rule) -> None:
    """A block loses strength (replaced by a weaker block of its type, marengo §4; eliminated at 0); the
    army's morale drops by as much (marengo §13), and reaching 0 demoralises it."""
    b = ctx.state.blocks[bid]
    points = min(points, b.strength)
    if points <= 0:
        return
    ctx.emit(ev.StrengthLost(side=b.side, block=bid, token=b.token, arm=b.arm, strength=b.strength - points,
                             points=points, reason=reason, rule=str(rule)))
    side = b.side
    if ctx.state.morale[side] <= 0 and not ctx.state.demoralised.get(side):
        ctx.emit(ev.Demoralised(side=side, rule=str(R.DEMORALISATION)))


def by_content(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Options in the order of their content (tokens), never of internal ids."""
    return sorted(options, key=lambda o: json.dumps(o, sort_keys=True))


def alive(state: MarengoState, ids: Iterable[str]) -> list[str]:
    return by_token(state, (b for b in ids if state.blocks[b].strength > 0 and state.blocks[b].zone != ELIMINATED))


def turn_index(round_: int, side: str) -> int:
    return 2 * (round_ - 1) + (0 if side == "austria" else 1)
