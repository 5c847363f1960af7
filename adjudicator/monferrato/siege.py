"""Sieges (monferrato §8-§10): bombardment of a fortress's walls and of units (§8.1, §8.2, the lakes of Mantua),
mines, countermines and rebuilding walls (§9.1-§9.3), and forts built or destroyed by sappers (§10).

Each is one action of the units named (§5.3), all of the drawn command and free to act in one activated zone; the
operations that need attack supply (§13.2: bombardment, laying mines, building forts) check it.
"""

from __future__ import annotations

import msgspec

from arbitro.adjudicator.monferrato import battle, supply
from arbitro.adjudicator.monferrato import rules as R
from arbitro.adjudicator.monferrato.common import Illegal, data, enemy_combat_in, enemy_in, kind, printed_fire, units_in
from arbitro.adjudicator.monferrato.movement import check_actors
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import monferrato as ev
from arbitro.projections.monferrato import MonferratoState, other

MAX_FORTS = 2  # monferrato §10
OPERATIONS = ("mine", "detonate", "countermine", "rebuild")


def side_of(fortress: str, toward: str) -> str:
    return f"{fortress}/{toward}"


def printed(side: str) -> int:
    fortress, toward = side.split("/")
    wall = data().border(fortress, toward).wall
    return wall.level if wall else 0


def need_attack_supply(s: MonferratoState, units: list[str]) -> None:
    lacking = [u for u in units if not supply.attack_supplied(s, u)]
    if lacking:
        raise Illegal(R.ATTACK_SUPPLY, f"{', '.join(lacking)} lack attack supply (§13.2)")


# --- bombardment (monferrato §8) ----------------------------------------------------------------------
def bombard_mode(s: MonferratoState, seat: str, zone: str, target: str) -> str:
    """"walls" (§8.1), "out" (from a fortress at adjacent enemies, §8.2) or "breach" (through a breach, §8.2)."""
    d = data()
    if target not in d.neighbours(zone) or not enemy_in(s, target, seat):
        raise Illegal(R.BOMBARD, f"{target} is not an adjacent zone held by the enemy")
    if d.zones[zone].fortress:
        return "out"
    if not d.zones[target].fortress:
        raise Illegal(R.BOMBARD, f"{target} is not a fortress, and {zone} is not one to fire out of")
    return "breach" if s.walls.get(side_of(target, zone), 0) == 0 else "walls"


def check_bombard(s: MonferratoState, seat: str, units: list[str], target: str) -> str:
    zone = check_actors(s, seat, units)
    if any(kind(u) != "artillery" for u in units):
        raise Illegal(R.BOMBARD, "only artillery bombards (§5.3)")
    mode = bombard_mode(s, seat, zone, target)
    if not data().zones[zone].fortress:
        need_attack_supply(s, units)
    return mode


def gun_value(s: MonferratoState, unit: str, zone: str, target: str, mode: str) -> int:
    value = battle.fire_value(s, unit, False, zone)
    if mode == "breach":
        value -= 1  # §8.2
    lakes = data().scenario.lakes
    if lakes.fortress in (zone, target):  # special rule 1: across Mantua's sides, to a minimum of 1
        value = max(1, value + lakes.fire)
    return value


def bombard(ctx: Decision[MonferratoState], seat: str, units: list[str], target: str, mode: str) -> None:
    s = ctx.state
    zone = s.units[units[0]].zone
    values = [gun_value(s, u, zone, target, mode) for u in units]
    dice = ctx.roll(len(units), purpose=f"{R.BOMBARD} {mode} {zone} -> {target}",
                    detail={"units": " ".join(units), "fire": " ".join(map(str, values))})
    ctx.emit(ev.UnitsActed(units=tuple(units), action=f"bombard {target}", rule=str(R.ONE_ACTION)))
    hits = sum(1 for v, x in zip(values, dice) if x <= v)
    b = ev.Battle(zone=target, attacker=seat, origin=zone, bombardment=True, hits={seat: 0, other(seat): 0})
    saved = battle.saved(s, b) if mode != "walls" else 0
    ctx.emit(ev.Volley(zone=target, seat=seat, units=tuple(units), fire=tuple(values), dice=tuple((x,) for x in dice),
                       hits=hits, saved=min(saved, hits), rule=str(R.BOMBARD_UNITS if mode != "walls" else R.BOMBARD)))
    burst = tuple(u for u, x in zip(units, dice) if x == 6)
    if burst:
        ctx.emit(ev.Eliminated(units=burst, rule=str(R.BOMBARDMENT), reason="a six: the gun burst"))
    if mode == "walls":
        side = side_of(target, zone)
        level = max(0, s.walls.get(side, 0) - hits)
        if hits:
            ctx.emit(ev.WallBattered(side=side, level=level, rule=str(R.BOMBARD)))
        return
    owed = max(0, hits - saved)
    if owed:
        battle.advance(ctx, msgspec.structs.replace(b, stage="losses", owed={other(seat): owed},
                                                    round_hits={other(seat): owed}))


def bombard_options(s: MonferratoState, seat: str, free: list[str], zone: str) -> list[dict[str, object]]:
    guns = [u for u in free if kind(u) == "artillery"]
    if not guns:
        return []
    out: list[dict[str, object]] = []
    for target in data().neighbours(zone):
        try:
            check_bombard(s, seat, guns, target)
        except Illegal:
            continue
        out.append({"type": "bombard", "units": guns, "target": target})
    return out


# --- mines, countermines, walls (monferrato §9) ---------------------------------------------------------
def check_siege(s: MonferratoState, seat: str, units: list[str], operation: str, side: str) -> None:
    zone = check_actors(s, seat, units)
    d = data()
    if any(kind(u) != "sapper" for u in units):
        raise Illegal(R.MINES, "only sappers mine, countermine and rebuild (§5.3, §14.1)")
    fortress, _, toward = side.partition("/")
    if fortress not in d.zones or not d.zones[fortress].fortress or toward not in d.neighbours(fortress):
        raise Illegal(R.MINES, f"{side} is not a fortress wall side")
    if operation in ("mine", "detonate"):
        if zone != toward:
            raise Illegal(R.MINES, f"sappers mine {fortress} from {toward}, adjacent to that side")
        if d.border(fortress, toward).kind == "river":
            raise Illegal(R.MINES, "no mine across a river, bridged or not (§9.1)")
        if not enemy_in(s, fortress, seat):
            raise Illegal(R.MINES, f"{fortress} is not held by the enemy")
        if operation == "mine":
            need_attack_supply(s, units)
        elif s.mines.get(side, 0) - s.fresh_mines.get(side, 0) <= 0 or s.mine_owner.get(side) != seat:
            raise Illegal(R.MINES, f"no mine of yours on {side} laid before this activation")
        return
    if zone != fortress:
        raise Illegal(R.COUNTERMINE if operation == "countermine" else R.REBUILD, f"the sappers must be inside {fortress}")
    if operation == "countermine" and (not s.mines.get(side) or s.mine_owner.get(side) == seat):
        raise Illegal(R.COUNTERMINE, f"no enemy mine on {side}")
    if operation == "rebuild" and s.walls.get(side, 0) >= printed(side):
        raise Illegal(R.REBUILD, f"{side} is at its printed level")


def siege(ctx: Decision[MonferratoState], seat: str, units: list[str], operation: str, side: str) -> None:
    s, d = ctx.state, data()
    values = [printed_fire(s, u) for u in units]
    rule = {"mine": R.MINES, "detonate": R.MINES, "countermine": R.COUNTERMINE, "rebuild": R.REBUILD}[operation]
    pairs = min(len(units), s.mines.get(side, 0)) if operation == "detonate" else len(units)
    dice = ctx.roll(pairs, purpose=f"{rule} {operation} {side}", detail={"units": " ".join(units[:pairs])})
    ctx.emit(ev.UnitsActed(units=tuple(units), action=f"{operation} {side}", rule=str(R.ONE_ACTION)))
    owner = s.mine_owner.get(side, seat)
    if operation == "mine":
        laid = sum(1 for v, x in zip(values, dice) if x <= v)
        if laid:
            ctx.emit(ev.MinesChanged(side=side, mines=s.mines.get(side, 0) + laid, owner=seat, fresh=laid, rule=str(rule)))
    elif operation == "detonate":
        blown = sum(1 for x in dice if x <= 3)
        lost = sum(1 for x in dice if x == 6)
        if blown or lost:
            ctx.emit(ev.MinesChanged(side=side, mines=s.mines[side] - blown - lost, owner=owner, rule=str(rule)))
        if blown:
            ctx.emit(ev.WallBattered(side=side, level=0, rule=str(rule)))
    elif operation == "countermine":
        cleared = sum(1 for v, x in zip(values, dice) if x <= v)
        if cleared:
            ctx.emit(ev.MinesChanged(side=side, mines=max(0, s.mines[side] - cleared), owner=owner, rule=str(rule)))
    else:
        built = sum(1 for v, x in zip(values, dice) if x <= v)
        if built:
            ctx.emit(ev.WallBattered(side=side, level=min(printed(side), s.walls.get(side, 0) + built), rule=str(rule)))


def siege_options(s: MonferratoState, seat: str, free: list[str], zone: str) -> list[dict[str, object]]:
    sappers = [u for u in free if kind(u) == "sapper"]
    if not sappers:
        return []
    d = data()
    sides = [side_of(f, zone) for f in d.neighbours(zone) if d.zones[f].fortress]
    if d.zones[zone].fortress:
        sides += [side_of(zone, t) for t in d.neighbours(zone)]
    out: list[dict[str, object]] = []
    for side in sorted(sides):
        for operation in OPERATIONS:
            try:
                check_siege(s, seat, sappers, operation, side)
            except Illegal:
                continue
            out.append({"type": "siege", "units": sappers, "operation": operation, "side": side})
    return out


def sweep_mines(ctx: Decision[MonferratoState]) -> None:
    """monferrato §9.1: mines go when the zone by their side is left without the layer's units; §7.2.3: when the
    fortress is taken."""
    s = ctx.state
    for side in sorted(s.mines):
        fortress, _, toward = side.partition("/")
        owner = s.mine_owner.get(side, "")
        if not units_in(s, toward, owner) or (units_in(s, fortress, owner) and not units_in(s, fortress, other(owner))):
            ctx.emit(ev.MinesChanged(side=side, mines=0, owner=owner, rule=str(R.MINES)))


# --- forts (monferrato §10) --------------------------------------------------------------------------
def check_fort(s: MonferratoState, seat: str, unit: str, action: str) -> str:
    zone = check_actors(s, seat, [unit])
    act, d = s.activation, data()
    assert act is not None
    if kind(unit) != "sapper":
        raise Illegal(R.FORTS, "only sappers build or destroy forts (§5.3)")
    if zone in act.forts:
        raise Illegal(R.FORTS, f"this command has already built or destroyed a fort in {zone} in this activation")
    forts = s.forts.get(zone, [])
    if action == "destroy":
        if seat not in forts:
            raise Illegal(R.FORTS, f"no fort of yours in {zone}")
        return zone
    if d.zones[zone].fortress:
        raise Illegal(R.FORTS, "no fort in a fortress zone")
    if enemy_combat_in(s, zone, seat):
        raise Illegal(R.FORTS, f"{zone} holds enemy combat units")
    if len(forts) >= MAX_FORTS:
        raise Illegal(R.FORTS, f"{zone} has {len(forts)} forts already")
    if s.fort_counters.get(seat, 0) <= 0:
        raise Illegal(R.FORT_COUNTERS, "all your fort counters are on the map")
    need_attack_supply(s, [unit])
    return zone


def fort(ctx: Decision[MonferratoState], seat: str, unit: str, action: str, zone: str) -> None:
    ctx.emit(ev.UnitsActed(units=(unit,), action=f"{action} fort", rule=str(R.ONE_ACTION)))
    if action == "build":
        ctx.emit(ev.FortBuilt(zone=zone, seat=seat, rule=str(R.FORTS)))
    else:
        forts = list(ctx.state.forts.get(zone, []))
        forts.remove(seat)
        ctx.emit(ev.FortsChanged(zone=zone, owners=tuple(forts), rule=str(R.FORTS), by_sapper=True))


def fort_options(s: MonferratoState, seat: str, free: list[str]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for u in free:
        if kind(u) != "sapper":
            continue
        for action in ("build", "destroy"):
            try:
                check_fort(s, seat, u, action)
            except Illegal:
                continue
            out.append({"type": "fort", "unit": u, "action": action})
    return out
