"""Every legal command of a seat now: candidates generated from the position, each kept only if the same
validator decide() uses accepts it (one source of truth). Blocks are named by token."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.marengo import assault, bombardment, movement, sequence
from arbitro.adjudicator.marengo.common import (
    Illegal,
    Interp,
    blocks_in,
    cavalry_obstacle,
    data,
    on_map,
    resolve_all,
    subsets,
    token_of,
    tokens,
)
from arbitro.projections.marengo import POOL, MarengoState


def _ok(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except Illegal:
        return None


def legal(state: MarengoState, seat: str, interp: Interp) -> list[dict[str, Any]]:
    if state.game_over:
        return []
    if seat != state.phasing or state.step not in sequence.STEPS:
        return []
    out: list[dict[str, Any]] = []
    step = sequence.STEPS.index(state.step)
    if state.step == "start":
        out += _start_options(state, seat)
    if step <= 1 and seat in state.bombard and state.bombard[seat].declared_turn < state.turn:
        if _resolvable(state, seat):
            out.append({"type": "resolve_bombardment"})
        out.append({"type": "cancel_bombardment"})
        return out
    if step <= sequence.STEPS.index("assaults"):
        out += _assaults(state, seat, interp)
    if step <= sequence.STEPS.index("movement"):
        out += _moves(state, seat, interp)
    else:
        out += [m for m in _moves(state, seat, interp) if _is_forced_move(state, seat, m, interp)]
    if step <= sequence.STEPS.index("movement"):
        out += _road_moves(state, seat, interp)
        out += _entries(state, seat, interp)
    if step <= sequence.STEPS.index("movement"):
        out += _continuations(state, seat, interp)
    out += _declarations(state, seat, interp)
    if _ends(state, seat):
        out.append({"type": "end_turn"})
    return out


def _is_forced_move(state: MarengoState, seat: str, m: dict[str, Any], interp: Interp) -> bool:
    plan = _ok(movement.check_move, state, seat, resolve_all(state, seat, m["blocks"]), m["to"], m["place"],
               None, interp)
    return plan is not None and plan.kind == "forced"


def _resolvable(state: MarengoState, seat: str) -> bool:
    try:
        bombardment.check_resolve(state, seat)
        return True
    except Illegal:
        return False


def _ends(state: MarengoState, seat: str) -> bool:
    try:
        sequence.check_end(state, seat)
        return True
    except Illegal:
        return False


def _toks(state: MarengoState, ids: list[str]) -> list[str]:
    return tokens(state, ids)


def _start_options(state: MarengoState, seat: str) -> list[dict[str, Any]]:
    out = []
    for z in sorted(data().zones):
        if len(blocks_in(state, z, seat)) >= 2:
            out.append({"type": "shuffle", "zone": z})
    if seat == "france" and state.activation_left:
        waiting = sorted(b for b, x in state.blocks.items() if x.side == "france" and not x.activated and on_map(x))
        for sub in subsets(waiting, 1, state.activation_left):
            out.append({"type": "activate", "blocks": tokens(state, sub)})
    return out


def _assaults(state: MarengoState, seat: str, interp: Interp) -> list[dict[str, Any]]:
    out = []
    d = data()
    places = sorted({(x.zone, x.place) for x in state.blocks.values()
                     if x.side == seat and on_map(x) and x.place != "reserve"})
    for zone, place in places:
        if place not in d.approaches:
            continue
        pool = sorted(b for b, x in state.blocks.items() if x.side == seat and x.zone == zone and x.place == place)
        for sub in subsets(pool, 1, len(pool)):
            for leaders in subsets(sub, 1, 2):
                try:
                    assault.check_declare(state, seat, place, sub, leaders, interp)
                except Illegal:
                    continue
                out.append({"type": "assault", "approach": place, "blocks": tokens(state, sub),
                            "leaders": tokens(state, leaders)})
    return out


def _moves(state: MarengoState, seat: str, interp: Interp) -> list[dict[str, Any]]:
    out = []
    d = data()
    zones = sorted({x.zone for x in state.blocks.values() if x.side == seat and on_map(x)})
    for zone in zones:
        mine = blocks_in(state, zone, seat)
        reserve = [b for b in mine if state.blocks[b].place == "reserve"]
        on_approach = [b for b in mine if state.blocks[b].place != "reserve"]
        # to the own reserve (from approaches)
        for sub in subsets(on_approach, 1, len(on_approach)):
            if _ok(movement.check_move, state, seat, sub, zone, "reserve", None, interp):
                out.append({"type": "move", "blocks": tokens(state, sub), "to": zone, "place": "reserve"})
        # to an approach of the own zone (from the reserve)
        for ap in d.approaches_of[zone]:
            for sub in subsets(reserve, 1, len(reserve)):
                if _ok(movement.check_move, state, seat, sub, zone, ap, None, interp):
                    out.append({"type": "move", "blocks": tokens(state, sub), "to": zone, "place": ap})
        # to an adjacent zone
        for to in sorted(d.neighbours(zone)):
            movers = [b for b in mine if state.blocks[b].place in ("reserve", f"{zone}/{to}")]
            shows: list[str | None] = [None]
            if cavalry_obstacle(interp, zone, to):  # marengo §9: an attack there names the infantry shown
                shows += sorted(b for b in movers if state.blocks[b].arm == "infantry")
            for sub in subsets(movers, 1, len(movers)):
                for show in shows:
                    if show is not None and show not in sub:
                        continue
                    if _ok(movement.check_move, state, seat, sub, to, "reserve", show, interp) is None:
                        continue
                    move = {"type": "move", "blocks": tokens(state, sub), "to": to, "place": "reserve"}
                    out.append(move if show is None else {**move, "show": token_of(state, show)})
    return out


def _paths(road: str, start: str) -> list[list[str]]:
    zs = list(data().roads[road].zones)
    i = zs.index(start)
    out = []
    for direction in (1, -1):
        path: list[str] = []
        j = i + direction
        while 0 <= j < len(zs) and len(path) < 3:
            path = path + [zs[j]]
            out.append(path)
            j += direction
    return out


def _road_moves(state: MarengoState, seat: str, interp: Interp) -> list[dict[str, Any]]:
    out = []
    d = data()
    for bid in sorted(state.blocks):
        x = state.blocks[bid]
        if x.side != seat or not on_map(x) or x.place != "reserve" or x.moved:
            continue
        for road in d.roads_through(x.zone):
            for path in _paths(road, x.zone):
                if _ok(movement.check_road, state, seat, bid, road, path, interp):
                    out.append({"type": "road_move", "block": x.token, "road": road, "path": path})
    return out


def _entries(state: MarengoState, seat: str, interp: Interp) -> list[dict[str, Any]]:
    out = []
    d = data()
    waiting = movement.available_reinforcements(state, seat)
    for bid in waiting:
        table = state.blocks[bid].zone[len(POOL):]
        entry = d.tables[table].entry
        e = d.entries[entry]
        for path in [[e.zone]] + [[e.zone] + p for p in _paths(e.road, e.zone)]:
            if len(path) > 3:
                continue
            if _ok(movement.check_enter, state, seat, bid, entry, path, interp):
                out.append({"type": "enter", "block": bid, "entry": entry, "path": path})
        if _ok(movement.check_pontoon, state, seat, bid, interp):
            out.append({"type": "pontoon", "block": bid})
    return out


def _continuations(state: MarengoState, seat: str, interp: Interp) -> list[dict[str, Any]]:
    out = []
    d = data()
    g = state.group
    if g is not None and g.side == seat:
        cav = [b for b in g.blocks if state.blocks[b].arm == "cavalry"]
        for ap in d.approaches_of[g.zone]:
            for sub in subsets(cav, 1, len(cav)):
                if _ok(movement.check_continue, state, seat, sub, ap, interp):
                    out.append({"type": "continue", "blocks": tokens(state, sub), "approach": ap})
    if sequence.STEPS.index(state.step) <= sequence.STEPS.index("movement"):
        for bid in sorted(state.blocks):
            x = state.blocks[bid]
            if x.side != seat or x.arm != "cavalry" or not on_map(x) or x.place != "reserve" or x.moved:
                continue
            if g is not None and bid in g.blocks:
                continue
            for ap in d.approaches_of[x.zone]:
                if _ok(movement.check_continue, state, seat, [bid], ap, interp):
                    out.append({"type": "continue", "blocks": [x.token], "approach": ap})
    return out


def _declarations(state: MarengoState, seat: str, interp: Interp) -> list[dict[str, Any]]:
    art = bombardment.artillery_of(state, seat)
    if art and _ok(bombardment.check_declare, state, seat, art, interp):
        return [{"type": "declare_bombardment", "block": token_of(state, art)}]
    return []
