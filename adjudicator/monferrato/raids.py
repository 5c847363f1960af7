"""Raids (monferrato §11, the scenario's raid areas): infantry and cavalry raid the zone they are in or enter, a
movement point an attempt; a natural 1 succeeds, a natural 6 fails and disorganises; else the die plus one for
each enemy unit and fort must not exceed the raiders. Success: morale +1 (+2 where the enemy camp is), supply
markers off, the zone raided for the year. A field battle follows if both sides are there.

After an attempt that is not a natural six the raiders may go on moving and raiding with the movement points left,
in the same activation (interpretation `raid_goes_on`: also after a success, or only after an attempt without effect);
a battle that follows ends their raid.
"""

from __future__ import annotations

from arbitro.adjudicator.monferrato import chits, supply
from arbitro.adjudicator.monferrato import rules as R
from arbitro.adjudicator.monferrato.common import OFF_MAP, Illegal, data, enemy_in, kind, units_in
from arbitro.adjudicator.monferrato.movement import Plan, check_actors, check_path, do_move, points_left, reachable
from arbitro.adjudicator.monferrato.readings import reading
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import monferrato as ev
from arbitro.projections.monferrato import MonferratoState, other

RAIDERS = ("infantry", "cavalry")
NEEDS_ATTACK_SUPPLY = 3  # monferrato §13.2: a raid with three or more units


def cost(s: MonferratoState, seat: str, units: list[str], origin: str, path: list[str]) -> int:
    if not path:
        return 0
    spent, here = 0, origin
    d = data()
    for zone in path:
        border = d.border(here, zone)
        if border.kind == "passage" or (border.kind == "river" and not border.bridge):
            return min(points_left(s, u) for u in units)  # the whole allowance: no point left to raid
        spent += 2 if d.zones[zone].terrain == "difficult" else 1
        here = zone
    return spent


def check_raid(s: MonferratoState, seat: str, units: list[str], path: list[str]) -> Plan:
    origin = check_actors(s, seat, units, going_on=True)
    d = data()
    if any(kind(u) not in RAIDERS for u in units):
        raise Illegal(R.RAID, "only infantry and cavalry raid")
    if OFF_MAP in path:
        raise Illegal(R.RAID, "raiders raid a zone of the map: a raid's path does not leave it")
    plan = check_path(s, seat, units, origin, path) if path else Plan(units=units, path=[], origin=origin)
    zone = path[-1] if path else origin
    if d.zones[zone].fortress:
        raise Illegal(R.RAID, "no raid in a fortress zone")
    if zone in s.raided:
        raise Illegal(R.RAID, f"{zone} has been raided this year")
    for u in units:
        regions = d.scenario.raid_regions.get(d.units[u].command, ())
        if d.zones[zone].region not in regions and zone not in d.scenario.raid_everyone:
            raise Illegal(R.RAID_AREAS, f"{d.units[u].command}'s troops may not raid {d.zones[zone].region}")
    if cost(s, seat, units, origin, path) + 1 > min(points_left(s, u) for u in units):
        raise Illegal(R.RAID, "no movement point left for the attempt (§11: one each)")
    if len(units) >= NEEDS_ATTACK_SUPPLY:
        lacking = [u for u in units if not supply.attack_supplied(s, u)]
        if lacking:
            raise Illegal(R.ATTACK_SUPPLY, f"a raid of three or more needs attack supply: {', '.join(lacking)} lack it")
    elif enemy_in(s, zone, seat) and not all(supply.attack_supplied(s, u) for u in units):
        raise Illegal(R.ATTACK_SUPPLY, "without attack supply, a raid only where no enemy is (§13.2 c)")
    return plan


def raid(ctx: Decision[MonferratoState], seat: str, plan: Plan) -> None:
    s, d = ctx.state, data()
    zone = plan.path[-1] if plan.path else plan.origin
    points = cost(s, seat, plan.units, plan.origin, plan.path) + 1
    spent = tuple((s.units[u].spent if s.units[u].raiding else 0) + points for u in plan.units)
    if plan.path:
        do_move(ctx, plan, seat)
    else:
        ctx.emit(ev.UnitsActed(units=tuple(plan.units), action=f"raid {zone}", rule=str(R.ONE_ACTION)))
    s = ctx.state
    enemies = [u for u in units_in(s, zone, other(seat))] + [f for f in s.forts.get(zone, []) if f == other(seat)]
    die = ctx.roll(1, purpose=f"{R.RAID} raid on {zone}", detail={"raiders": len(plan.units), "enemies": len(enemies)})[0]
    success = die == 1 or (die != 6 and die + len(enemies) <= len(plan.units))
    result = "success" if success else "failed" if die == 6 else "no effect"
    goes_on = result == "no effect" or (result == "success" and reading(s, "raid_goes_on") == "unless_six")
    ctx.emit(ev.Raided(zone=zone, units=tuple(plan.units), die=die, modifier=len(enemies), result=result,
                       rule=str(R.RAID), spent=spent, goes_on=goes_on))
    if success:
        unsupplied = tuple(u for u in plan.units if ctx.state.units[u].unsupplied)
        if unsupplied:
            ctx.emit(ev.SupplyChecked(command=d.units[plan.units[0]].command, out=(), back=unsupplied, rule=str(R.RAID)))
        camp = any(kind(u) == "camp" for u in units_in(ctx.state, zone, other(seat)))
        chits.change_morale(ctx, d.units[plan.units[0]].nation, 2 if camp else 1, R.RAID, f"a raid on {zone}")
    elif die == 6:
        fresh = tuple(u for u in plan.units if not ctx.state.units[u].disorganised)
        if fresh:
            ctx.emit(ev.Disorganised(units=fresh, rule=str(R.RAID), reason="the raid failed on a six"))


def raid_options(s: MonferratoState, seat: str, free: list[str], zone: str) -> list[dict[str, object]]:
    raiders = [u for u in free if kind(u) in RAIDERS]
    groups = [[u] for u in raiders] + ([raiders] if len(raiders) > 1 else [])
    out: list[dict[str, object]] = []
    for g in groups:
        paths: list[list[str]] = [[]] + (list(reachable(s, seat, g, zone).values()) if len(g) == 1 else [])
        for path in paths:
            try:
                check_raid(s, seat, g, path)
            except Illegal:
                continue
            out.append({"type": "raid", "units": g, "path": path})
    return out
