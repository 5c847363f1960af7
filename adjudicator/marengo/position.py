"""Semantic checks of a Marengo position file (the structure is checked by msgspec): zones, approaches,
capacities, strengths, tokens, procedure consistency (marengo §4, §5, §8)."""

from __future__ import annotations

from arbitro.adjudicator.marengo.data_loader import bound, current
from arbitro.projections.marengo import ELIMINATED, POOL, SIDES, MarengoState


def validate(state: MarengoState) -> list[str]:
    with bound(state.data_files):
        return _validate(state)


def _validate(state: MarengoState) -> list[str]:
    d = current()
    problems: list[str] = []
    if set(state.blocks) != set(d.blocks):
        missing = sorted(set(d.blocks) - set(state.blocks))
        extra = sorted(set(state.blocks) - set(d.blocks))
        if missing:
            problems.append(f"blocks missing from the position: {', '.join(missing)}")
        if extra:
            problems.append(f"blocks not in the order of battle: {', '.join(extra)}")
    tokens: dict[str, str] = {}
    count: dict[tuple[str, str], int] = {}
    for bid, b in sorted(state.blocks.items()):
        spec = d.blocks.get(bid)
        if spec is not None and (b.side != spec.side or b.arm != spec.arm):
            problems.append(f"block {bid}: side/arm {b.side}/{b.arm} differ from the order of battle")
        if spec is not None and not 0 <= b.strength <= spec.strength:
            problems.append(f"block {bid}: strength {b.strength} outside 0..{spec.strength}")
        if b.zone in (ELIMINATED, "at_start") or b.zone.startswith(POOL):
            if b.zone.startswith(POOL) and b.zone[len(POOL):] not in d.tables:
                problems.append(f"block {bid}: unknown reinforcement table {b.zone}")
            continue
        if b.zone not in d.zones:
            problems.append(f"block {bid}: unknown zone {b.zone!r}")
            continue
        if b.strength <= 0:
            problems.append(f"block {bid}: strength 0 but on the map")
        if b.place != "reserve":
            ap = d.approaches.get(b.place)
            if ap is None or ap.zone != b.zone:
                problems.append(f"block {bid}: {b.place!r} is not an approach of {b.zone}")
            elif not d.is_passable(ap.zone, ap.toward):
                problems.append(f"block {bid}: blocks impassable approach {b.place}")
        if not b.token:
            problems.append(f"block {bid}: on the map without a token")
        elif b.token in tokens:
            problems.append(f"block {bid}: token {b.token} also used by {tokens[b.token]}")
        else:
            tokens[b.token] = bid
        count[(b.zone, b.side)] = count.get((b.zone, b.side), 0) + 1
    for (zone, side), n in sorted(count.items()):
        if n > d.zones[zone].capacity:
            problems.append(f"{zone}: {n} {side} blocks over capacity {d.zones[zone].capacity}")
    zones_by_side = {s: {z for (z, x) in count if x == s} for s in SIDES}
    both = sorted(zones_by_side["austria"] & zones_by_side["france"])
    if both:
        problems.append(f"zones held by both armies: {', '.join(both)}")
    if not 1 <= state.round <= state.rounds:
        problems.append(f"round {state.round} outside 1..{state.rounds}")
    if state.phasing not in SIDES:
        problems.append(f"phasing side {state.phasing!r} unknown")
    if not 0 <= state.commands_used <= 3:
        problems.append(f"commands_used {state.commands_used} outside 0..3")
    for side in SIDES:
        if state.morale.get(side, -1) < 0:
            problems.append(f"morale of {side} missing or negative")
    if state.step not in ("setup", "start", "bombardment", "assaults", "movement", "declare", "ended"):
        problems.append(f"step {state.step!r} unknown")
    problems += _procedures(state)
    return problems


def _procedures(state: MarengoState) -> list[str]:
    """The procedures under way name known blocks, zones and approaches."""
    d = current()
    out: list[str] = []

    def known(ids: list[str], what: str) -> None:
        for b in ids:
            if b not in state.blocks:
                out.append(f"{what}: unknown block {b!r}")

    for side, bm in sorted(state.bombard.items()):
        b = state.blocks.get(bm.block)
        if b is None or b.arm != "artillery" or b.side != side:
            out.append(f"bombardment of {side}: {bm.block!r} is not its artillery")
        if bm.approach not in d.approaches:
            out.append(f"bombardment of {side}: unknown approach {bm.approach!r}")
    for ap in state.closed_approaches + state.assaulted_approaches:
        if ap not in d.approaches:
            out.append(f"unknown approach {ap!r}")
    for z, ids in sorted(state.closed_zones.items()):
        if z not in d.zones:
            out.append(f"closed zone {z!r} unknown")
        known(ids, f"closed zone {z}")
    return out
