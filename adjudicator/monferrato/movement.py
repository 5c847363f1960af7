"""Activation of zones (monferrato §5, §5.2, §5.3), movement (§6, §2.3.1, §14.4, §14.5, §13.1) and recovery (§7.4.3).

A move names the units (all of the drawn command, in one activated zone, none of which has acted) and the zones
entered in order. Its cost is checked step by step from the map's borders (common.move_step); the group moves at its
slowest unit's allowance; it stops on entering a zone that holds the enemy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from arbitro.adjudicator.monferrato import rules as R
from arbitro.adjudicator.monferrato import supply
from arbitro.adjudicator.monferrato.common import (
    ALL, ESCORTED, OFF_MAP, Illegal, data, enemy_combat_in, enemy_in, kind, morale_band, move_step, units_in,
)
from arbitro.adjudicator.monferrato.readings import reading
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import monferrato as ev
from arbitro.projections.monferrato import MonferratoState

BASE = {"garrison": 3, "infantry": 3, "artillery": 3, "sapper": 3, "cavalry": 5, "commander": 5, "camp": 1}
WINTER_CAVALRY = 4  # monferrato §14.4


# --- activation (monferrato §5) ----------------------------------------------------------------------
def activatable_zones(s: MonferratoState, command: str) -> list[str]:
    d = data()
    return sorted({x.zone for u, x in s.units.items() if d.units[u].command == command and x.zone in d.zones})


def commanders(s: MonferratoState, command: str) -> list[str]:
    d = data()
    return sorted(u for u, x in s.units.items()
                  if d.units[u].command == command and d.units[u].kind == "commander" and x.zone in d.zones)


def check_activate(s: MonferratoState, zones: list[str], commander: str | None) -> None:
    act = s.activation
    assert act is not None
    if act.drew or act.zones:
        raise Illegal(R.ACTIVATION, "the zones of this activation are already chosen" if act.zones
                      else "a chit was drawn: this activation activates no unit")
    own = activatable_zones(s, act.command)
    for z in zones:
        if z not in own:
            raise Illegal(R.ACTIVATE_UNITS, f"{z} holds no unit of command {act.command}")
    if len(zones) == 1 and commander is None:
        return
    if commander is None:
        raise Illegal(R.ACTIVATION, "several zones need the command's commander (§5 3)")
    if commander not in commanders(s, act.command):
        raise Illegal(R.ACTIVATION, f"{commander} is not a commander of {act.command} on the map")
    nation = data().army(act.command)
    if len(zones) > 1 and morale_band(s, nation) != "high":
        raise Illegal(R.MORALE, f"{nation}'s morale is {morale_band(s, nation)}: one zone per activation")
    if act.chits > 1:
        raise Illegal(R.ACTIVATION, "two chits were played: a commander's activation allows one chit at most, so "
                      "only one zone may be activated, without a commander (§5 1, 3)")
    lead = supply.leadership(s, commander)
    if len(zones) > lead:
        raise Illegal(R.ACTIVATION, f"{commander}'s leadership is {lead}: at most {lead} zones")
    radius = supply.in_radius(s, commander)
    for z in zones:
        if z not in radius:
            raise Illegal(R.COMMAND_RADIUS, f"{z} is beyond {commander}'s command radius")


def activation_options(s: MonferratoState) -> list[dict[str, object]]:
    act = s.activation
    assert act is not None
    own = activatable_zones(s, act.command)
    out: list[dict[str, object]] = [{"type": "activate", "zones": [z], "commander": None} for z in own]
    if act.chits > 1:
        return out
    high = morale_band(s, data().army(act.command)) == "high"
    for c in commanders(s, act.command):  # §5 3: with him, up to one chit and up to his leadership in zones
        radius = supply.in_radius(s, c)
        near = [z for z in own if z in radius]
        for n in range(1, min(supply.leadership(s, c) if high else 1, len(near)) + 1):
            out += [{"type": "activate", "zones": list(combo), "commander": c} for combo in combinations(near, n)]
    return out


def activate(ctx: Decision[MonferratoState], zones: list[str], commander: str | None) -> None:
    act = ctx.state.activation
    assert act is not None
    ctx.emit(ev.ZonesActivated(command=act.command, zones=tuple(zones), commander=commander or "",
                               rule=str(R.ACTIVATION)))


# --- who may act ---------------------------------------------------------------------------------
def may_act(s: MonferratoState, unit: str, going_on: bool = False) -> bool:
    """monferrato §5.2, §5.3, §7.1: a unit of the drawn command (or the army's camp) in an activated zone that has
    not acted and was not called in support this turn; `going_on`: or raiders going on moving and raiding (§11)."""
    act, d = s.activation, data()
    if act is None or unit not in s.units:
        return False
    x, spec = s.units[unit], d.units[unit]
    if x.raiding:
        return going_on
    if x.zone not in act.zones or x.acted or x.activated:
        return False
    if spec.kind == "camp":  # monferrato §14.5: with any command of its army, once a turn
        return spec.nation == d.army(act.command) and not x.moved
    return spec.command == act.command


def check_actors(s: MonferratoState, seat: str, units: list[str], going_on: bool = False) -> str:
    """The units may act now and share one zone (returned); `going_on`: raiders may go on moving and raiding (§11),
    but not with units that have not raided (§6: no unit is picked up on the way)."""
    act = s.activation
    assert act is not None
    if not act.zones:
        raise Illegal(R.ACTIVATION, "choose the zones to activate first (activate)")
    for u in units:
        if not may_act(s, u, going_on):
            raise Illegal(R.ONE_ACTION, f"{u} is not a unit of {act.command} free to act in an activated zone")
    if len({s.units[u].raiding for u in units}) > 1:
        raise Illegal(R.RAID, "raiders going on move and raid on their own, not with units that have not raided")
    zones = {s.units[u].zone for u in units}
    if len(zones) != 1:
        raise Illegal(R.MOVEMENT, "units acting together must start in one zone")
    return zones.pop()


# --- movement (monferrato §6) --------------------------------------------------------------------
def allowance(s: MonferratoState, unit: str) -> int:
    d = data()
    k = kind(unit)
    base = BASE[k]
    if k == "cavalry" and d.turn(s.turn).winter:
        base = WINTER_CAVALRY
    if d.units[unit].combat and s.units[unit].unsupplied:  # monferrato §13.1
        base -= 1
    return base


def points_left(s: MonferratoState, unit: str) -> int:
    """The allowance less what a raider going on has spent in this activation (monferrato §11)."""
    x = s.units[unit]
    return allowance(s, unit) - (x.spent if x.raiding else 0)


@dataclass
class Plan:
    units: list[str]
    path: list[str]
    origin: str
    lone_enemy: list[str] = field(default_factory=list)  # commanders, sappers, camps alone where it stops (§6)
    battle: bool = False  # it enters enemy combat units: a field battle (§7)
    exits: bool = False  # its last step leaves the map (§6): the units that go are eliminated
    left: dict[str, str] = field(default_factory=dict)  # units left behind on the way (§6), unit -> zone


def closed_region(s: MonferratoState, zone: str) -> bool:
    """scenario, special rule 5: the Republic of Venice is closed until its chit brings its army in."""
    rule = data().scenario.closed_region
    return data().zones[zone].region == rule.region and rule.until_group not in s.arrived


def check_step(s: MonferratoState, seat: str, units: list[str], a: str, b: str, first: bool) -> int:
    d = data()
    if b not in d.neighbours(a):
        raise Illegal(R.MOVEMENT, f"{b} is not adjacent to {a}")
    costs = [move_step(a, b, kind(u)) for u in units]
    if any(c is None for c in costs):
        rule = R.MAP if d.border(a, b).kind == "impassable" else R.RIVER
        raise Illegal(rule, f"the border {a}-{b} cannot be crossed by {'these units' if len(units) > 1 else units[0]}")
    cost = max(c for c in costs if c is not None)
    if cost == ALL and not first and reading(s, "river_crossing") == "whole_allowance":
        raise Illegal(R.RIVER if d.border(a, b).kind == "river" else R.PASSAGES,
                      f"crossing {a}-{b} takes the whole allowance: it must be the only step of the move")
    if closed_region(s, b):
        raise Illegal(R.VENICE_CLOSED, f"{b} is in the Republic of Venice, closed until it enters the war")
    if enemy_in(s, b, seat) and d.zones[b].fortress:
        wall = s.walls.get(f"{b}/{a}")
        if wall != 0 or (d.border(a, b).kind == "river" and not d.border(a, b).bridge):
            raise Illegal(R.FORTRESS_ENTRY, f"{b} is a fortress held by the enemy: entry only through a breach")
    return cost


def check_move(s: MonferratoState, seat: str, units: list[str], path: list[str],
               leave: dict[str, str] | None = None) -> Plan:
    """A move (§6); `leave`: units of the group left behind in zones it passed through (unit -> zone)."""
    origin = check_actors(s, seat, units, going_on=True)
    leave = leave or {}
    for u, z in sorted(leave.items()):
        if u not in units:
            raise Illegal(R.MOVEMENT, f"{u} is not in the moving group")
        if z not in path[:-1]:
            raise Illegal(R.MOVEMENT, f"units are left behind only in a zone the group passes through, not {z}")
    arriving = [u for u in units if u not in leave]
    if not arriving:
        raise Illegal(R.MOVEMENT, "a group that leaves every unit behind does not move on")
    plan = check_path(s, seat, units, origin, path)
    if leave:
        plan = check_path(s, seat, arriving, origin, path)  # what arrives: escorts, battle, attack supply
        plan.left = dict(leave)
    return plan


def check_path(s: MonferratoState, seat: str, units: list[str], origin: str, path: list[str], *,
               called: bool = False) -> Plan:
    """The move of `units` from `origin` along `path` (monferrato §6); `called`: units called in support by a
    commander (§7.1), who need no attack supply (§13.2)."""
    if len(set(units)) != len(units):
        raise Illegal(R.MOVEMENT, "a unit is named twice")
    camp = any(kind(u) == "camp" for u in units)
    if camp and len(path) > 1:  # monferrato §14.5: "di una sola zona per turno", whatever the terrain
        raise Illegal(R.CAMP, "the camp moves one zone")
    if OFF_MAP in path[:-1]:
        raise Illegal(R.MAP_EDGE, f"units that leave the map are eliminated: {OFF_MAP} is only a move's last step")
    cap = 1 if camp else min(points_left(s, u) for u in units)
    spent, here = 0, origin
    for i, zone in enumerate(path):
        if enemy_in(s, here, seat) and i > 0:
            raise Illegal(R.MOVEMENT, f"units entering {here}, which holds the enemy, stop there")
        cost = 1 if zone == OFF_MAP else check_step(s, seat, units, here, zone, i == 0)
        if cost == ALL and i < len(path) - 1:
            rule = R.PASSAGES if data().border(here, zone).kind == "passage" else R.RIVER
            raise Illegal(rule, f"crossing {here}-{zone} takes the whole allowance: the move ends there")
        spent = cap if cost == ALL or camp else spent + cost
        here = zone
    if spent > cap:
        raise Illegal(R.MOVEMENT, f"the move costs {spent}; the group's allowance is {cap}")
    if len(set([origin, *path])) != len(path) + 1:
        raise Illegal(R.MOVEMENT, "a move does not pass through a zone twice")
    plan = Plan(units=units, path=path, origin=origin)
    if path[-1] == OFF_MAP:  # §6: from an edge zone, one more step (reading: it costs 1, as entering a zone does)
        edge = path[-2] if len(path) > 1 else origin
        if not data().on_edge(edge):
            raise Illegal(R.MAP_EDGE, f"{edge} is not on the map's edge: units leave the map only from an edge zone")
        plan.exits = True
        return plan
    dest = path[-1]
    enemy = enemy_combat_in(s, dest, seat)
    escorts = [u for u in units if kind(u) not in ESCORTED]
    if enemy_in(s, dest, seat) and not escorts:
        raise Illegal(R.ENTER_ENEMY, "commanders, sappers, camps and artillery enter the enemy only with other combat units")
    plan.battle = bool([u for u in enemy if kind(u) != "sapper"])
    if plan.battle and not called:
        if not data().zones[origin].fortress:  # §13.2: none needed out of a fortress
            lacking = [u for u in units if data().units[u].combat and not supply.attack_supplied(s, u)]
            if lacking:
                raise Illegal(R.ATTACK_SUPPLY, f"{', '.join(lacking)} lack attack supply for a field battle")
        if data().zones[dest].fortress and any(kind(u) == "artillery" for u in units):
            raise Illegal(R.BOMBARDMENT, "artillery does not move through a breach to fight (§8)")
    if not plan.battle:
        plan.lone_enemy = [u for u in units_in(s, dest) if data().faction(u) != seat]
    return plan


def do_move(ctx: Decision[MonferratoState], plan: Plan, seat: str) -> None:
    zones = plan.path[:-1] if plan.exits else plan.path
    if zones:
        ctx.emit(ev.UnitsMoved(units=tuple(sorted([*plan.units, *plan.left])), path=tuple(zones), rule=str(R.MOVEMENT),
                               left=tuple(f"{u}@{z}" for u, z in sorted(plan.left.items()))))
    else:  # straight off the map from where they stand: their one action (§5.3)
        ctx.emit(ev.UnitsActed(units=tuple(plan.units), action="leave the map", rule=str(R.ONE_ACTION)))
    if plan.exits:  # §6: "Tutte le unità che escono dalla mappa, volontariamente o meno, sono eliminate"
        ctx.emit(ev.Eliminated(units=tuple(plan.units), rule=str(R.MAP_EDGE),
                               reason=f"left the map from {zones[-1] if zones else plan.origin}"))
    if plan.lone_enemy:
        ctx.emit(ev.Eliminated(units=tuple(plan.lone_enemy), rule=str(R.LONE_ELIMINATED),
                               reason=f"alone in {plan.path[-1]} when the enemy entered"))
    prudence(ctx, plan)


def entered_enemy(s: MonferratoState, seat: str, group: str | None) -> Plan | None:
    """monferrato §16.5: the group a chit just brought in, if its entry zone holds enemy combat units."""
    if group is None:
        return None
    g = data().groups[group]
    units = [u for u in g.units if s.units[u].zone == g.entry]
    if not units or not [u for u in enemy_combat_in(s, g.entry, seat) if kind(u) != "sapper"]:
        return None
    return Plan(units=units, path=[g.entry], origin="", battle=True)


def battle_after(s: MonferratoState, seat: str, plan: Plan) -> bool:
    """monferrato §11: after a raid, a field battle if both sides are in the zone (the raiders attacking)."""
    zone = plan.path[-1] if plan.path else plan.origin
    return bool([u for u in plan.units if s.units[u].zone == zone]) and bool(
        [u for u in enemy_combat_in(s, zone, seat) if kind(u) != "sapper"])


def prudence(ctx: Decision[MonferratoState], plan: Plan) -> None:
    """scenario, special rules 2-3: the first French unit in the Duchy of Milan gives Pro-Spain 8 VP; the first
    Spanish unit in the Republic of Venice gives Pro-France 2."""
    d = data()
    for rule in d.scenario.prudence:
        if rule.rule in ctx.state.prudence:
            continue
        if any(d.units[u].nation == rule.nation for u in plan.units) and any(
                d.zones[z].region == rule.region for z in plan.path if z != OFF_MAP):
            ctx.emit(ev.VictoryPoints(seat=rule.vp_to, delta=rule.vp, rule=str(R.PRUDENCE),
                                      reason=f"special rule {rule.rule}: {rule.nation} entered {rule.region}",
                                      prudence=rule.rule))


def reachable(s: MonferratoState, seat: str, units: list[str], origin: str, *, called: bool = False
              ) -> dict[str, list[str]]:
    """Every zone the group may end in, with one path there (least cost, then by zone id): the listing's moves."""
    cap = 1 if any(kind(u) == "camp" for u in units) else min(points_left(s, u) for u in units)
    best: dict[str, tuple[int, list[str]]] = {origin: (0, [])}
    frontier = [origin]
    while frontier:
        nxt: list[str] = []
        for here in sorted(frontier):
            spent, path = best[here]
            if here != origin and enemy_in(s, here, seat):
                continue
            for zone in data().neighbours(here):
                if zone in path or zone == origin:
                    continue
                try:
                    cost = check_step(s, seat, units, here, zone, not path)
                except Illegal:
                    continue
                if here != origin and cost == ALL and reading(s, "river_crossing") == "whole_allowance":
                    continue
                total = cap if cost == ALL else spent + cost
                if total <= cap and (zone not in best or best[zone][0] > total):
                    best[zone] = (total, [*path, zone])
                    nxt.append(zone)
        frontier = nxt
    out = {}
    for zone, (_, path) in sorted(best.items()):
        if not path:
            continue
        try:
            check_path(s, seat, units, origin, path, called=called)
        except Illegal:
            continue
        out[zone] = path
    return out


def actors(s: MonferratoState, seat: str) -> list[tuple[str, list[str]]]:
    """Who may act now, zone by zone: the free units of each activated zone, and apart from them the raiders going
    on (monferrato §5.3, §11)."""
    act = s.activation
    if act is None or not act.zones:
        return []
    raiders = sorted({x.zone for u, x in s.units.items() if x.raiding and may_act(s, u, True)})
    out = [(zone, [u for u in units_in(s, zone, seat) if may_act(s, u)]) for zone in act.zones]
    out += [(zone, [u for u in units_in(s, zone, seat) if s.units[u].raiding and may_act(s, u, True)])
            for zone in raiders]
    return [(zone, units) for zone, units in out if units]


def exits(s: MonferratoState, seat: str, units: list[str], origin: str, reach: dict[str, list[str]]) -> list[list[str]]:
    """The moves that leave the map (§6): from the origin or a zone the group reaches, if on the map's edge, one
    path each (the least costly there, then the step off)."""
    out = []
    for zone, path in [(origin, []), *reach.items()]:
        if data().on_edge(zone):
            try:
                check_path(s, seat, units, origin, [*path, OFF_MAP])
            except Illegal:
                continue
            out.append([*path, OFF_MAP])
    return out


def move_options(s: MonferratoState, seat: str) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for zone, free in actors(s, seat):
        groups = [[u] for u in free] + ([free] if len(free) > 1 else [])
        for g in groups:
            reach = reachable(s, seat, g, zone)
            for path in [*reach.values(), *exits(s, seat, g, zone, reach)]:
                out.append({"type": "move", "units": sorted(g), "path": path})
    return out


# --- recovery (monferrato §7.4.3) -------------------------------------------------------------------
def check_recover(s: MonferratoState, seat: str, units: list[str]) -> None:
    check_actors(s, seat, units)
    for u in units:
        if not s.units[u].disorganised:
            raise Illegal(R.RECOVERY, f"{u} is not disorganised")
        if s.units[u].unsupplied:
            raise Illegal(R.OUT_OF_SUPPLY, f"{u} is out of supply and cannot recover")


def recover_options(s: MonferratoState, seat: str) -> list[dict[str, object]]:
    act = s.activation
    if act is None:
        return []
    out: list[dict[str, object]] = []
    for zone in act.zones:
        ready = [u for u in units_in(s, zone, seat) if may_act(s, u) and s.units[u].disorganised
                 and not s.units[u].unsupplied]
        if ready:
            out.append({"type": "recover", "units": ready})
    return out


def recover(ctx: Decision[MonferratoState], units: list[str]) -> None:
    ctx.emit(ev.Recovered(units=tuple(units), rule=str(R.RECOVERY)))
