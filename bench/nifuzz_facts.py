"""The facts bench/nifuzz.py perturbs (docs/engine-rules.md §V.4), one at a time, of the pieces and records hidden
from an observing seat: its enemy's. Each perturbation names its kind (the report's and `ALLOWED`'s), what it changed
and the pieces it touched, and mutates a copy of the rules state."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from arbitro.adjudicator.parabellum.orders import ORDERS
from arbitro.adjudicator.parabellum.ruleset import ParaBellumRuleset


@dataclass(frozen=True)
class Perturbation:
    # status, zoc, turn, moved_side, reduced, marker, damaged, turn_order, attached, swap, moved_unit, leader,
    # commander, step_done, released, march, column, activation
    kind: str
    name: str  # what was changed, for the report
    touched: tuple[str, ...]  # the pieces changed: a difference once one of them is in sight is a sighting, skipped
    mutate: Callable[[Any], None]
    # units whose assault declaration shows the fact at the table (arrivano §12.2: an "Attacco" marker on a unit with
    # an Attack order, "Attacco?" on one with Advance, which tests first, §12.2.2): a command declaring one of them an
    # attacker, next to the enemy's units, is the table showing it, skipped as a sighting is
    declared: tuple[str, ...] = ()


def perturbations(ruleset: ParaBellumRuleset[Any], state: Any, observer: str, rng: random.Random,
                  zoc: bool) -> list[Perturbation]:
    """One fact at a time of the pieces hidden from `observer` (`hidden_pieces`), and of the records its enemy
    keeps from it (`records`)."""
    hidden = ruleset.hidden_pieces(state, observer)
    units = sorted(u for u in hidden if u in state.units)
    out = [p for u in units for p in unit_facts(state, u)]
    on_map = [u for u in units if state.units[u].where == "map"]
    out += swaps(state, on_map, rng) + moved_units(state, on_map)
    leaders = sorted(p for p in hidden if p in state.leaders)
    out += moved_leaders(ruleset, state, observer, leaders, rng) + [p for le in leaders for p in leader_facts(state, le)]
    seen = sorted(u for u, unit in state.units.items() if unit.side != observer and u not in hidden)
    out += [p for u in seen for p in kept_facts(state, u)]
    out += records(ruleset, state, observer, rng)
    return out if zoc else [p for p in out if p.kind != "zoc"]


def leader_facts(state: Any, leader: str) -> Iterator[Perturbation]:
    """An unseen commander's own marks: the turn he last moved himself (D42: once a turn, caldiero §4.1.4, arrivano
    §4.1.4) and his A side (caldiero §2.2.2)."""
    yield Perturbation("commander", f"{leader} moved_turn", (leader,), flip_turn_of("leaders", leader, "moved_turn"))
    flipped = not state.leaders[leader].activated
    yield Perturbation("commander", f"{leader} activated {flipped}", (leader,),
                       lambda r: setattr(r.leaders[leader], "activated", flipped))


def kept_facts(state: Any, u: str) -> Iterator[Perturbation]:
    """Of an enemy unit in sight, what the fog keeps from the seat whatever it sees (the state's `unit_kept`):
    Caldiero's reserve unit's formation joined (§15.4.3, reading reserve_attachment; rev-l L8). The unit is seen:
    no piece touched, a served event may name it. Not once it acted this turn, nor in the activation now: the formation
    it acted with, in sight, showed it."""
    unit, act = state.units[u], state.activation
    acted = state.turn in (unit.moved_turn, unit.attacked_turn) or act is not None and u in act.units
    if "attached" in state.unit_kept and unit.formation == "reserve" and unit.where == "map" and not acted:
        for f in sorted(state.formations):
            if state.formations[f].side == unit.side and f != unit.attached:
                yield Perturbation("attached", f"{u} (in sight) attached {f}", (),
                                   lambda r, f=f: setattr(r.units[u], "attached", f))


def records(ruleset: ParaBellumRuleset[Any], state: Any, observer: str, rng: random.Random) -> list[Perturbation]:
    """What the observer's enemy keeps that no view serves the observer: Caldiero's hexes tried in its step
    (`step_done`, caldiero §15.3: an unseen hex tried, or one tried untried) and its formations freed of their
    direction of attack (§19.1); Arrivano's march orders in force (§17.1.5) and independent columns (§16.2); the
    enemy's activation's record (`activation_facts`)."""
    out: list[Perturbation] = []
    enemy = {f for f, fs in state.formations.items() if fs.side != observer}
    if hasattr(state, "step_done") and state.seat not in ("", observer):
        out += [Perturbation("step_done", f"{item} untried", (), lambda r, i=item: r.step_done.remove(i))
                for item in state.step_done]
        theirs = {u.hex for u in state.units.values() if u.side == state.seat and u.where == "map"}
        unseen = sorted(ruleset.unexaminable(state, observer, theirs) - set(state.step_done))
        out += [Perturbation("step_done", f"{h} tried", (), lambda r, h=h: r.step_done.append(h)) for h in unseen]
    if hasattr(state, "direction_released"):
        out += [Perturbation("released", f"{f} released {f not in state.direction_released}", (),
                             lambda r, f=f: r.direction_released.remove(f) if f in r.direction_released
                             else r.direction_released.append(f)) for f in sorted(enemy)]
    if hasattr(state, "march_orders"):
        side = ruleset.march_side  # type: ignore[attr-defined]  # Arrivano's alone
        out += [Perturbation("march", f"{m} in force {not on}", (),
                             lambda r, m=m, on=on: r.march_orders.update({m: not on}))
                for m, on in sorted(state.march_orders.items()) if side(state, m) != observer]
    act = state.activation
    if act is not None and state.formations[act.formation].side != observer:
        out += activation_facts(state, act, ruleset.hidden_pieces(state, observer), rng)
    if hasattr(state, "columns"):
        out += [p for officer in sorted(state.columns) if state.leaders[officer].side != observer
                for p in column_facts(state, officer)]
    return out


def activation_facts(state: Any, act: Any, hidden: set[str], rng: random.Random) -> list[Perturbation]:
    """The enemy's activation as its side records it, which the observer is served only as which formation (its
    view's `activation`, rev-l L8): who of its units is out of command (caldiero §5.3, judged once at the activation;
    arrivano §5.3), and the order a unit took for itself (caldiero §4.3.1, §5.3.1; arrivano §4.4): where its
    commanders stand tells both. Of units out of the observer's sight (`hidden`) that have not moved, tried or taken
    an order yet: a unit in sight shows the table how it acts (a §5.3.1 test on its stack, an efficiency test its
    order asks for, caldiero §13.1), as a player's would."""
    fresh = sorted(u for u, unit in state.units.items() if unit.formation == act.formation and unit.where == "map"
                   and u in hidden and u not in act.moved and u not in act.ooc_tested and u not in act.unit_orders)
    out = [Perturbation("activation", f"{u} out of command {u not in act.out_of_command}", (u,),
                        lambda r, u=u: r.activation.out_of_command.remove(u) if u in r.activation.out_of_command
                        else r.activation.out_of_command.append(u)) for u in rng.sample(fresh, min(2, len(fresh)))]
    for u, order in [(u, o) for u, o in sorted(act.unit_orders.items()) if u in hidden][:2]:
        other = next(o for o in ORDERS if o != order)
        out.append(Perturbation("activation", f"{u} own order {other}", (u,),
                                lambda r, u=u, o=other: r.activation.unit_orders.update({u: o})))
    return out


def column_facts(state: Any, officer: str) -> Iterator[Perturbation]:
    """An enemy independent column's order and units, which lie under its officer wherever he stands (arrivano
    §16.2 "piazzate sotto l'Ufficiale una pedina con indicato l'ordine"): each other order, and its last unit left
    with its formation. That it was activated is public (§6.1, §17.2.9): not perturbed. Until one of its units is
    declared in an assault: the declaration's marker shows its order (§12.2, `declared`; arrivano-montebello-options
    #691 and #906, where an Advance order's 'Attack?' test, §12.2.2, is rolled at the table in one game only)."""
    column = state.columns[officer]
    units = tuple(column.units)  # one of them declared in an assault shows the column's order (§12.2)
    for order in ORDERS:
        if order != column.order:
            yield Perturbation("column", f"{officer}'s column {order}", (),
                               lambda r, o=order: setattr(r.columns[officer], "order", o), units)
    if len(column.units) > 1:
        yield Perturbation("column", f"{officer}'s column without {column.units[-1]}", (),
                           lambda r: setattr(r.columns[officer], "units", r.columns[officer].units[:-1]), units)


def flip_turn_of(pieces: str, p: str, field: str) -> Callable[[Any], None]:
    """Piece `p`'s (of the state's `pieces`: units, leaders) turn mark `field` set to this turn where it is not,
    else to the turn before."""
    def mutate(r: Any) -> None:
        piece = getattr(r, pieces)[p]
        setattr(piece, field, r.turn if getattr(piece, field) != r.turn else max(0, r.turn - 1))
    return mutate


def unit_facts(state: Any, u: str) -> Iterator[Perturbation]:
    unit = state.units[u]

    def put(field: str, value: Any) -> Callable[[Any], None]:
        return lambda r: setattr(r.units[u], field, value)

    if unit.status in ("disordered", "routed"):
        other = "routed" if unit.status == "disordered" else "disordered"
        yield Perturbation("status", f"{u} {unit.status}->{other}", (u,), put("status", other))
    elif unit.status == "good":  # the known limit: kept with --zoc only (`perturbations`)
        yield Perturbation("zoc", f"{u} good->disordered", (u,), put("status", "disordered"))
    for field in ("moved_turn", "acted_turn", "attacked_turn", "fired_turn", "activated_turn"):
        yield Perturbation("turn", f"{u} {field}", (u,), flip_turn_of("units", u, field))
    if unit.arm == "artillery":
        flipped = not unit.art_moved
        yield Perturbation("moved_side", f"{u} art_moved {flipped}", (u,), put("art_moved", flipped))
    yield Perturbation("reduced", f"{u} reduced {not unit.reduced}", (u,), put("reduced", not unit.reduced))
    if "open_order" in state.unit_served:  # Arrivano's exhaustion markers (arrivano §16.3.4)
        for marker in ("", "V", "F"):
            if marker != unit.open_order:
                yield Perturbation("marker", f"{u} marker {marker or 'none'}", (u,),
                                   lambda r, m=marker: (setattr(r.units[u], "open_order", m),
                                                        setattr(r.units[u], "marker_turn", r.turn if m else 0)))
        if unit.damaged:
            yield Perturbation("damaged", f"{u} repaired", (u,), put("damaged", False))
    if "attached" in state.unit_served:  # Caldiero's own orders and reserve (caldiero §5.3.1, §15.4.3)
        for order in ("", "attack", "defence", "manoeuvre", "advance"):
            if order != unit.turn_order:
                yield Perturbation("turn_order", f"{u} turn_order {order or 'none'}", (u,), put("turn_order", order))
        if unit.formation == "reserve":
            for f in sorted(state.formations):
                if state.formations[f].side == unit.side and f != unit.attached:
                    yield Perturbation("attached", f"{u} attached {f}", (u,), put("attached", f))


def swaps(state: Any, on_map: list[str], rng: random.Random) -> list[Perturbation]:
    """Two unseen units of one status in different hexes, swapped (who is where is hidden; each hex shows
    a marker either way)."""
    pairs = [(a, b) for i, a in enumerate(on_map) for b in on_map[i + 1:]
             if state.units[a].hex != state.units[b].hex and state.units[a].status == state.units[b].status]
    out = []
    for a, b in rng.sample(pairs, min(3, len(pairs))):
        def swap(r: Any, a: str = a, b: str = b) -> None:
            r.units[a].hex, r.units[b].hex = r.units[b].hex, r.units[a].hex
        out.append(Perturbation("swap", f"{a}<->{b}", (a, b), swap))
    return out


def moved_units(state: Any, on_map: list[str]) -> list[Perturbation]:
    """An unseen unit of a stack of several moved into another unseen stack of its side: both hexes still show a
    marker (the view check drops the move where they would not). A move that gives a stack its only unit in good
    order, or takes it away, changes where a ZoC lies: kind `zoc`, the known limit (tried with --zoc only)."""

    def good(units: list[str]) -> bool:
        return any(state.units[u].status == "good" for u in units)
    stacks: dict[str, list[str]] = defaultdict(list)
    for u in on_map:
        stacks[state.units[u].hex].append(u)
    out = []
    for here, held in sorted(stacks.items()):
        if len(held) < 2:
            continue
        for there in sorted(stacks):
            if there != here and state.units[stacks[there][0]].side == state.units[held[0]].side:
                zoc = good(held) != good(held[:-1]) or good(stacks[there]) != good([*stacks[there], held[-1]])
                out.append(Perturbation("zoc" if zoc else "moved_unit", f"{held[-1]} {here}->{there}", (held[-1],),
                                        lambda r, u=held[-1], h=there: setattr(r.units[u], "hex", h)))
    return out


def moved_leaders(ruleset: ParaBellumRuleset[Any], state: Any, observer: str, leaders: list[str],
                  rng: random.Random) -> list[Perturbation]:
    """An unseen commander on the map moved to another hex within three that the observer may not examine and holds
    no unit of its own; one still to come (`unseen_off_map`) entered into an unseen stack of his side, whose marker
    shows either way."""
    w = ruleset.world(state)
    held = {unit.hex for unit in state.units.values() if unit.side == observer and unit.where == "map"}
    out = []
    for leader in leaders:
        here = state.leaders[leader].hex
        if state.leaders[leader].where in state.unseen_off_map:
            stacks = sorted(ruleset.unexaminable(state, observer, {
                u.hex for u in state.units.values() if u.side == state.leaders[leader].side and u.where == "map"}))
            out += [Perturbation("leader", f"{leader} entered at {there}", (leader,),
                                 lambda r, l=leader, h=there: (setattr(r.leaders[l], "hex", h),
                                                               setattr(r.leaders[l], "where", "map")))
                    for there in rng.sample(stacks, min(2, len(stacks)))]
        if state.leaders[leader].where != "map":
            continue
        near = sorted(ruleset.unexaminable(state, observer, w.grid.within(here, 3)) - {here} - held)
        for there in rng.sample(near, min(2, len(near))):
            out.append(Perturbation("leader", f"{leader} {here}->{there}", (leader,),
                                    lambda r, l=leader, h=there: setattr(r.leaders[l], "hex", h)))
    return out
