"""marengo §8: movement (from reserve, from an approach, by road, cavalry continuation, reinforcements, the
pontoon bridge), the command limit, zone capacity, blocking, forced leave of an approach.

Each `check_*` is a pure validator returning a plan or raising Illegal; each `do_*` emits the plan's events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.common import (
    Illegal,
    Interp,
    cavalry_obstacle,
    data,
    enemy_blocking,
    fail,
    has_enemy,
    on_map,
    own_count,
    refs,
    reveal,
)
from arbitro.events import marengo as ev
from arbitro.projections.marengo import POOL, MarengoState

COMMAND_LIMIT = 3


# --- shared conditions ----------------------------------------------------------------------------
def check_limit(state: MarengoState, cost: int) -> None:
    if cost and state.commands_used + cost > COMMAND_LIMIT:
        raise fail(R.COMMAND_LIMIT, f"the command limit is {COMMAND_LIMIT} groups and/or assaults a turn; "
                                    f"{state.commands_used} used")


def is_forced(state: MarengoState, bid: str) -> bool:
    """The block blocks an approach whose opposite zone holds no enemy: it must leave (marengo §8)."""
    b = state.blocks[bid]
    if b.place == "reserve" or not on_map(b):
        return False
    toward = b.place.split("/")[1]
    return not has_enemy(state, toward, b.side)


def forced_blocks(state: MarengoState, side: str) -> list[str]:
    return sorted(bid for bid, b in state.blocks.items() if b.side == side and is_forced(state, bid))


def can_move(state: MarengoState, bid: str, interp: Interp) -> None:
    """A block may make a (voluntary) move now."""
    b = state.blocks[bid]
    if b.moved:
        raise fail(R.MOVEMENT, f"block {b.token} already moved this turn (once per turn)")
    if b.assaulted:
        raise fail(R.ASSAULT, f"block {b.token} assaulted this turn and cannot move")
    if not b.activated:
        raise fail(R.ACTIVATION, f"block {b.token} is not activated yet")
    if b.arm == "artillery" and state.fired_turn.get(b.side, -99) == state.turn:
        raise fail(R.BOMBARDMENT, "the artillery cannot move in the turn its bombardment is resolved")


def has_room(state: MarengoState, side: str, zone: str) -> bool:
    """One more of `side`'s blocks fits in `zone` (marengo §8: capacity counts own blocks only)."""
    return own_count(state, zone, side) + 1 <= data().zones[zone].capacity


def check_entering(state: MarengoState, side: str, zone: str, movers: list[str], prev: str) -> None:
    """Entering `zone` from `prev`: closures after assaults (marengo §11), enemy blocking (§8)."""
    if f"{prev}/{zone}" in state.closed_approaches:
        raise fail(R.CONQUEST, f"after the failed assault no block may cross {prev}/{zone} this turn")
    if zone in state.closed_zones and any(m not in state.closed_zones[zone] for m in movers):
        raise fail(R.CONQUEST, f"{zone} was conquered this turn: only the blocks of that assault may enter it")
    if enemy_blocking(state, zone, prev, side):
        raise fail(R.MOVEMENT, f"the approach {zone}/{prev} is blocked by the enemy: only an assault crosses it")


# --- group moves ------------------------------------------------------------------------------------
@dataclass
class MovePlan:
    side: str
    blocks: list[str]
    from_zone: str
    to: str
    place: str
    cost: int
    kind: str  # "forced", "move", "manoeuvre"
    show: str | None = None
    blockable: bool = False


@dataclass
class ManoeuvreStart:
    """An attack manoeuvre a move leads into (marengo §9): the caller hands it to `manoeuvre.begin`, so that
    movement (which road cavalry re-enters after each successful manoeuvre) never imports the manoeuvre."""

    side: str
    blocks: list[str]
    from_zone: str
    to_zone: str
    blockable: bool
    cost: int
    show: str | None = None
    road: str = ""
    remaining: list[str] = field(default_factory=list)
    crossings: list[ev.Crossing] = field(default_factory=list)


SHOWN_ONLY_IN_OBSTACLE_ATTACK = "a block is shown only in an attack manoeuvre into cavalry-obstacle terrain"  # marengo §9


def check_move(state: MarengoState, seat: str, blocks: list[str], to: str, place: str, show: str | None,
               interp: Interp) -> MovePlan:
    d = data()
    if not blocks:
        raise fail(R.MOVEMENT, "name at least one block")
    bs = [state.blocks[b] for b in blocks]
    if any(b.side != seat or not on_map(b) for b in bs):
        raise fail(R.MOVEMENT, "move only your own blocks on the map")
    zone = bs[0].zone
    if any(b.zone != zone for b in bs):
        raise fail(R.MOVEMENT, "a group starts its move in one zone")
    if to not in d.zones:
        raise fail(R.MAP, f"no zone {to!r}")
    if to == zone:
        if show is not None:
            raise fail(R.MANOEUVRE, SHOWN_ONLY_IN_OBSTACLE_ATTACK)
        if place == "reserve":
            return _to_own_reserve(state, seat, blocks, zone, interp)
        return _to_own_approach(state, seat, blocks, zone, place, interp)
    if place != "reserve":
        raise fail(R.MOVEMENT, "a block moving to another zone ends in its reserve")
    return _to_adjacent(state, seat, blocks, zone, to, show, interp)


def _to_own_reserve(state: MarengoState, seat: str, blocks: list[str], zone: str, interp: Interp) -> MovePlan:
    if any(state.blocks[b].place == "reserve" for b in blocks):
        raise fail(R.MOVEMENT, "only blocks on an approach move to their zone's reserve")
    forced = [b for b in blocks if is_forced(state, b)]
    for b in blocks:
        if b not in forced:
            can_move(state, b, interp)
    cost = 0 if len(forced) == len(blocks) else 1
    check_limit(state, cost)
    return MovePlan(seat, blocks, zone, zone, "reserve", cost, "forced" if cost == 0 else "move")


def _to_own_approach(state: MarengoState, seat: str, blocks: list[str], zone: str, place: str,
                     interp: Interp) -> MovePlan:
    d = data()
    ap = d.approaches.get(place)
    if ap is None or ap.zone != zone:
        raise fail(R.MAP, f"{place!r} is not an approach of {zone}")
    for b in blocks:
        if state.blocks[b].place != "reserve":
            raise fail(R.MOVEMENT, "a block on an approach moves to its own reserve or into the opposite zone")
        can_move(state, b, interp)
    if not d.is_passable(zone, ap.toward):
        raise fail(R.MAP, f"{place} is impassable and cannot be blocked")
    if not has_enemy(state, ap.toward, seat):
        raise fail(R.BLOCKING, f"{place} may be blocked only while the opposite zone {ap.toward} holds the enemy")
    check_limit(state, 1)
    return MovePlan(seat, blocks, zone, zone, place, 1, "move")


def _to_adjacent(state: MarengoState, seat: str, blocks: list[str], zone: str, to: str, show: str | None,
                 interp: Interp) -> MovePlan:
    d = data()
    if f"{zone}/{to}" not in d.approaches:
        raise fail(R.MOVEMENT, f"{to} is not adjacent to {zone}: only a road reaches a zone further away")
    if not d.is_passable(zone, to):
        raise fail(R.MAP, f"the approaches between {zone} and {to} are impassable")
    for b in blocks:
        can_move(state, b, interp)
        place = state.blocks[b].place
        if place != "reserve" and place != f"{zone}/{to}":
            raise fail(R.MOVEMENT, f"a block on {place} may only cross that approach (into {place.split('/')[1]})")
    check_entering(state, seat, to, blocks, zone)
    cap = d.zones[to].capacity
    if own_count(state, to, seat) + len(blocks) > cap:
        raise fail(R.CAPACITY, f"{to} holds at most {cap} of your blocks")
    check_limit(state, 1)
    plan = MovePlan(seat, blocks, zone, to, "reserve", 1, "move")
    attack = has_enemy(state, to, seat)
    if show is not None and not (attack and cavalry_obstacle(interp, zone, to)):
        raise fail(R.MANOEUVRE, SHOWN_ONLY_IN_OBSTACLE_ATTACK)
    if attack:
        plan.kind = "manoeuvre"
        plan.blockable = any(state.blocks[b].place == "reserve" for b in blocks)
        if cavalry_obstacle(interp, zone, to):
            infantry = [b for b in blocks if state.blocks[b].arm == "infantry"]
            if not infantry:
                raise fail(R.MANOEUVRE, "an attack manoeuvre into cavalry-obstacle terrain needs an infantry block")
            if show is None or show not in infantry:
                raise fail(R.MANOEUVRE, "name the attacking infantry shown to the enemy (show): the attack "
                                        "goes into cavalry-obstacle terrain")
            plan.show = show
    return plan


def do_move(ctx: Any, plan: MovePlan) -> ManoeuvreStart | None:
    s = ctx.state
    if plan.kind == "manoeuvre":
        return ManoeuvreStart(plan.side, plan.blocks, plan.from_zone, plan.to, plan.blockable, plan.cost,
                              show=plan.show)
    ctx.emit(ev.BlocksMoved(
        side=plan.side, blocks=refs(s, plan.blocks), from_zone=plan.from_zone, to_zone=plan.to, place=plan.place,
        kind=plan.kind, cost=plan.cost, group=plan.kind == "move" and plan.place == "reserve",
        marks_moved=True, rule=str(R.FORCED_LEAVE if plan.kind == "forced" else R.MOVEMENT),
    ))
    return None


# --- road moves and reinforcements ---------------------------------------------------------------
@dataclass
class RoadPlan:
    side: str
    block: str
    from_zone: str  # "pool:<table>" for an entry
    road: str
    path: list[str]
    crossings: list[ev.Crossing]
    cost: int
    kind: str  # road, enter
    entry: str = ""
    new_token: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def crossing_key(road: str, a: str, b: str) -> str:
    x, y = sorted((a, b))
    return f"{road}|{x}|{y}"


def _claim(state: MarengoState, key: str, direction: str, after: int) -> int:
    """The earliest move index > `after` free on this crossing (marengo §8 road capacity); 4 = none."""
    use = state.road_use.get(key)
    if use is not None and use.direction != direction:
        raise fail(R.ROAD, "road capacity: this approach was crossed by road in the other direction this turn")
    return max(after + 1, (use.last if use else 0) + 1)


def _walk(state: MarengoState, seat: str, bid: str, road: str, start: str, path: list[str], index: int,
          interp: Interp, crossings: list[ev.Crossing], entering: bool = False) -> None:
    """Check a road path from `start` through `path`; append its crossings (move indices after `index`).
    `entering`: `start` is the entry zone the block enters first (its capacity is checked already)."""
    d = data()
    b = state.blocks[bid]
    r = d.roads[road]
    prev = start
    step_dir = 0
    for i, z in enumerate(path):
        if z not in d.zones:
            raise fail(R.MAP, f"no zone {z!r}")
        ia, ib = d.road_index(road, prev), d.road_index(road, z)
        if ia < 0 or ib < 0 or abs(ia - ib) != 1:
            raise fail(R.ROAD, f"{r.id} does not run from {prev} to {z}")
        direction = ib - ia
        if step_dir and direction != step_dir:
            raise fail(R.ROAD, "a road move follows the road in one direction")
        step_dir = direction
        check_entering(state, seat, z, [bid], prev)
        if has_enemy(state, z, seat):
            arms = ("cavalry",) if interp("road_attack_arms") == "cavalry" else ("cavalry", "artillery")
            if b.arm not in arms:
                raise fail(R.MANOEUVRE, f"moving by road, only cavalry makes attack manoeuvres ({z} holds the enemy)")
            if cavalry_obstacle(interp, prev, z):
                raise fail(R.MANOEUVRE, f"an attack manoeuvre into cavalry-obstacle terrain ({prev}/{z}) needs "
                                        "an infantry block in the group")
            if (i > 0 or entering) and not has_room(state, seat, prev):  # a blocked attack ends the move there (§8, §9)
                raise fail(R.CAPACITY, f"{prev} holds at most {d.zones[prev].capacity} of your blocks: the attack "
                                       f"into {z} may be blocked and end the move there")
        index = _claim(state, crossing_key(road, prev, z), prev, index)
        if index > 3:
            raise fail(R.ROAD, f"road capacity: no free move index left to cross {prev}/{z} on {road} this turn")
        crossings.append(ev.Crossing(key=crossing_key(road, prev, z), direction=prev, index=index))
        last = i == len(path) - 1
        if (last or interp("road_capacity_transit") == "every_zone") and not has_room(state, seat, z):
            raise fail(R.CAPACITY, f"{z} holds at most {d.zones[z].capacity} of your blocks")
        prev = z


def check_road(state: MarengoState, seat: str, bid: str, road: str, path: list[str], interp: Interp) -> RoadPlan:
    d = data()
    b = state.blocks[bid]
    if b.side != seat or not on_map(b):
        raise fail(R.MOVEMENT, "move only your own blocks on the map")
    if road not in d.roads:
        raise fail(R.MAP, f"no road {road!r}")
    can_move(state, bid, interp)
    if b.place != "reserve":
        raise fail(R.ROAD, "a road move starts from the reserve of a zone on the road")
    if b.zone not in d.roads[road].zones:
        raise fail(R.ROAD, f"{road} does not reach {b.zone}")
    if len(path) > 3 or len(set(path)) != len(path) or b.zone in path:
        raise fail(R.ROAD, "a road move enters up to three different zones")
    crossings: list[ev.Crossing] = []
    _walk(state, seat, bid, road, b.zone, path, 0, interp, crossings)
    cost = 0 if d.roads[road].kind == "main" else 1
    check_limit(state, cost)
    return RoadPlan(seat, bid, b.zone, road, list(path), crossings, cost, "road")


def available_reinforcements(state: MarengoState, side: str) -> list[str]:
    return sorted(bid for bid, b in state.blocks.items()
                  if b.side == side and b.zone.startswith(POOL) and b.hour <= state.hour)


def check_enter(state: MarengoState, seat: str, bid: str, entry: str, path: list[str], interp: Interp) -> RoadPlan:
    d = data()
    b = state.blocks[bid]
    if entry not in d.entries or d.entries[entry].side != seat:
        raise fail(R.REINFORCEMENTS, f"{entry!r} is not one of your entry points")
    e = d.entries[entry]
    table = b.zone[len(POOL):] if b.zone.startswith(POOL) else ""
    if b.side != seat or not table or d.tables[table].entry != entry:
        raise fail(R.REINFORCEMENTS, f"that block is not a reinforcement waiting to enter at {entry}")
    if b.hour > state.hour:
        raise fail(R.REINFORCEMENTS, f"that block enters from {b.hour}:00")
    if not path or path[0] != e.zone:
        raise fail(R.REINFORCEMENTS, f"entering at {entry}, the first zone is {e.zone}")
    if has_enemy(state, e.zone, seat):
        raise fail(R.REINFORCEMENTS, f"{e.zone} is occupied by the enemy: reinforcements wait")
    if not has_room(state, seat, e.zone):
        raise fail(R.REINFORCEMENTS, f"{e.zone} is full: reinforcements wait")
    if e.zone in state.closed_zones:
        raise fail(R.CONQUEST, f"{e.zone} was conquered this turn: only the blocks of that assault may enter it")
    if len(set(path)) != len(path):
        raise fail(R.ROAD, "a road move enters different zones")
    key = f"entry|{entry}"
    index = _claim(state, key, "", 0)
    if index > 3:
        raise fail(R.REINFORCEMENTS, f"three blocks already entered at {entry} this turn")
    crossings = [ev.Crossing(key=key, direction="", index=index)]
    if len(path) > 1:
        _walk(state, seat, bid, e.road, e.zone, path[1:], index, interp, crossings, entering=True)
    cost = 0 if d.roads[e.road].kind == "main" else 1
    check_limit(state, cost)
    return RoadPlan(seat, bid, b.zone, e.road, list(path), crossings, cost, "enter", entry=entry,
                    new_token=f"b{state.next_token:03d}")


def do_road(ctx: Any, plan: RoadPlan) -> ManoeuvreStart | None:
    """Move along the road; entering an enemy zone starts an attack manoeuvre (cavalry, marengo §9)."""
    s = ctx.state
    d = data()
    side = plan.side
    ref = ev.Ref(block=plan.block, token=plan.new_token or s.blocks[plan.block].token)
    # the free stretch before the first enemy zone
    stop = next((i for i, z in enumerate(plan.path) if has_enemy(s, z, side)), len(plan.path))
    main = d.roads[plan.road].kind == "main"
    if stop > 0 or plan.kind == "enter":
        to = plan.path[stop - 1] if stop > 0 else plan.path[0]
        ctx.emit(ev.BlocksMoved(
            side=side, blocks=(ref,), from_zone=plan.from_zone, to_zone=to, place="reserve", kind=plan.kind,
            cost=plan.cost, crossings=tuple(plan.crossings[:max(stop, 1)]), group=stop == len(plan.path),
            group_road=plan.road, group_free=main,
            new_tokens=s.next_token + 1 if plan.new_token else 0,
            rule=str(R.REINFORCEMENTS if plan.kind == "enter" else R.ROAD),
        ))
        cost = 0
    else:
        cost = plan.cost
    if stop == len(plan.path):
        return None
    start = plan.path[stop - 1] if stop > 0 else plan.from_zone
    return ManoeuvreStart(side, [plan.block], start, plan.path[stop], True, cost, road=plan.road,
                          remaining=plan.path[stop + 1:], crossings=plan.crossings[stop:])


def continue_road(ctx: Any, bid: str, road: str, start: str, remaining: list[str],
                  crossings: list[ev.Crossing], interp: Interp) -> ManoeuvreStart | None:
    """After a successful manoeuvre, road cavalry goes on (marengo §9 (2)) while the way is still open; it
    returns the next attack manoeuvre it runs into, if any."""
    s = ctx.state
    side = s.blocks[bid].side
    d = data()
    prev = start
    done = 0
    fit, fit_done = start, 0  # the last zone passed where the cavalry may end its move (§8 capacity)
    for z in remaining:
        try:
            check_entering(s, side, z, [bid], prev)
        except Illegal:
            break
        if has_enemy(s, z, side) and cavalry_obstacle(interp, prev, z):
            break  # a defender retreated there: no road cavalry manoeuvre into obstacle terrain (§9)
        if has_enemy(s, z, side):
            if prev != start and not has_room(s, side, prev):
                break  # a blocked attack would end the move in a full zone: it stops where it has room
            if done:
                ctx.emit(ev.BlocksMoved(side=side, blocks=refs(s, [bid]), from_zone=start, to_zone=prev,
                                        place="reserve", kind="road", cost=0,
                                        crossings=tuple(crossings[:done]), rule=str(R.ROAD)))
            return ManoeuvreStart(side, [bid], prev, z, True, 0, road=road, remaining=remaining[done + 1:],
                                  crossings=crossings[done:])
        prev = z
        done += 1
        if has_room(s, side, z):
            fit, fit_done = z, done
    if prev != fit and not has_room(s, side, prev):
        prev, done = fit, fit_done
    main = d.roads[road].kind == "main"
    ctx.emit(ev.BlocksMoved(side=side, blocks=refs(s, [bid]), from_zone=start, to_zone=prev, place="reserve",
                            kind="road", cost=0, crossings=tuple(crossings[:done]), group=True,
                            group_road=road, group_free=main, rule=str(R.ROAD)))
    return None


def check_pontoon(state: MarengoState, seat: str, bid: str, interp: Interp) -> RoadPlan:
    d = data()
    p = d.map.pontoon
    b = state.blocks[bid]
    if seat != p.side:
        raise fail(R.REINFORCEMENTS, "only the Austrians have the pontoon bridge")
    if b.side != seat or not b.zone.startswith(POOL):
        raise fail(R.REINFORCEMENTS, "only a reinforcement waiting to enter crosses the pontoon bridge")
    if b.hour > state.hour:
        raise fail(R.REINFORCEMENTS, f"that block enters from {b.hour}:00")
    if state.pontoon_used:
        raise fail(R.REINFORCEMENTS, "one block a turn crosses the pontoon bridge")
    if has_enemy(state, p.zone, seat):
        raise fail(R.REINFORCEMENTS, f"{p.zone} is occupied by the enemy")
    if not has_room(state, seat, p.zone):
        raise fail(R.REINFORCEMENTS, f"{p.zone} is full")
    if p.zone in state.closed_zones:
        raise fail(R.CONQUEST, f"{p.zone} was conquered this turn")
    check_limit(state, 1)
    return RoadPlan(seat, bid, b.zone, "", [p.zone], [], 1, "pontoon", new_token=f"b{state.next_token:03d}")


def do_pontoon(ctx: Any, plan: RoadPlan) -> None:
    s = ctx.state
    ctx.emit(ev.BlocksMoved(
        side=plan.side, blocks=(ev.Ref(block=plan.block, token=plan.new_token),), from_zone=plan.from_zone,
        to_zone=plan.path[0], place="reserve", kind="pontoon", cost=1, group=True,
        new_tokens=s.next_token + 1, rule=str(R.REINFORCEMENTS),
    ))


# --- cavalry continuation ---------------------------------------------------------------------------
@dataclass
class ContinuePlan:
    side: str
    blocks: list[str]
    zone: str
    approach: str
    cost: int


def check_continue(state: MarengoState, seat: str, blocks: list[str], approach: str, interp: Interp) -> ContinuePlan:
    d = data()
    ap = d.approaches.get(approach)
    if ap is None:
        raise fail(R.MAP, f"no approach {approach!r}")
    if not blocks:
        raise fail(R.CONTINUATION, "name the cavalry that continues")
    for b in blocks:
        if state.blocks[b].side != seat or state.blocks[b].arm != "cavalry":
            raise fail(R.CONTINUATION, "only your cavalry continues")
    g = state.group
    in_group = g is not None and g.side == seat and all(b in g.blocks for b in blocks)
    if in_group:
        assert g is not None
        zone = g.zone
        for b in blocks:
            if state.blocks[b].zone != zone or state.blocks[b].place != "reserve":
                raise fail(R.CONTINUATION, "continuing cavalry is in the reserve where its move ended")
            if b in g.no_continuation:
                raise fail(R.CONTINUATION, "cavalry that left an approach for its own reserve cannot block another")
        if g.road and not d.road_crosses(g.road, approach):
            raise fail(R.CONTINUATION, f"after a road move, continuation follows the same road ({g.road})")
        whole = sorted(blocks) == sorted(g.blocks) and not g.continued
        cost = 0 if (g.free and g.road) or whole else 1
    else:
        # marengo §8 note: cavalry in reserve on a main road may "move" and continue along it, free
        if len(blocks) != 1:
            raise fail(R.CONTINUATION, "only the cavalry of the group that just moved continues")
        b = state.blocks[blocks[0]]
        if b.moved:  # marengo §8 "al termine di un movimento": another move came in between
            raise fail(R.CONTINUATION, f"block {b.token} moved already: a continuation comes at the end of its "
                                       "own move, before any other move")
        can_move(state, blocks[0], interp)
        if b.place != "reserve" or not on_map(b):
            raise fail(R.CONTINUATION, "continuing cavalry is in a reserve")
        zone = b.zone
        mains = [r for r in d.roads_through(zone) if d.roads[r].kind == "main" and d.road_crosses(r, approach)]
        if not mains:
            raise fail(R.CONTINUATION, "only the cavalry of the group that just moved continues (or cavalry "
                                       "blocking along a main road through its zone)")
        cost = 0
    if ap.zone != zone:
        raise fail(R.CONTINUATION, f"{approach} is not an approach of {zone}")
    if not d.is_passable(zone, ap.toward):
        raise fail(R.MAP, f"{approach} is impassable")
    if not has_enemy(state, ap.toward, seat):
        raise fail(R.BLOCKING, f"{approach} may be blocked only while {ap.toward} holds the enemy")
    check_limit(state, cost)
    return ContinuePlan(seat, blocks, zone, approach, cost)


def do_continue(ctx: Any, plan: ContinuePlan) -> None:
    s = ctx.state
    ctx.emit(ev.BlocksMoved(side=plan.side, blocks=refs(s, plan.blocks), from_zone=plan.zone, to_zone=plan.zone,
                            place=plan.approach, kind="continuation", cost=plan.cost, rule=str(R.CONTINUATION)))
    reveal(ctx, plan.blocks, "continuation", R.CONTINUATION)

