"""Retreats (caricat §7.4: toward the lines of communication, enemy zones and friendly units cost morale, a
retreat ends in an empty hex), the winner's advance (§7.2.1; compulsory after a charge, §9.1), cavalry retreat
before combat (§9.2), reaction fire (§6.2). Each is a decision on the engine's stack, above the combat."""

from __future__ import annotations

from arbitro.adjudicator.caricat import losses as L
from arbitro.adjudicator.caricat import movement as MV
from arbitro.adjudicator.caricat import rules as R
from arbitro.adjudicator.caricat import scenario as SC
from arbitro.adjudicator.caricat.flow import Game
from arbitro.adjudicator.caricat.loader import MeleeBand
from arbitro.adjudicator.caricat.world import ELIMINATED, World
from arbitro.events import caricat as ev
from arbitro.projections.caricat import other


# --- retreat toward the lines (caricat §7.4) ------------------------------------------------------------------
def retreat_choices(w: World, unit: str) -> list[str]:
    """The hexes the next step of a retreat may enter: not an enemy unit's; those outside enemy zones if any
    ("non può ritirarsi attraverso una ZOC nemica, se possibile"), and among them the nearest to the lines."""
    u = w.state.units[unit]
    enemy = {e.hex for e in w.on_map(other(u.side)).values()}
    steps = [n for n in w.grid.neighbours(u.hex or "") if n not in enemy and not w.impassable(unit, u.hex or "", n)]
    if not steps:
        return []
    zone = w.zone(other(u.side))

    def key(h: str) -> tuple[int, int]:
        return (1 if h in zone else 0, w.loc_distance(u.side, h))
    best = min(key(h) for h in steps)
    return sorted(h for h in steps if key(h) == best)


def start_retreat(g: Game, unit: str, band: MeleeBand, rule: R.Rule) -> None:
    u = g.state.units[unit]
    if u.where != "map":
        return
    hexes = band.retreat
    if band.full_retreat:  # its full movement toward its lines (caricat §7.2.1), one hex a point (interpretation)
        hexes = g.data.system.movement.infantry if u.kind == "infantry" else g.data.system.movement.cavalry
    if hexes <= 0:
        return
    g.push("retreat", (u.side,), rule, f"choose the retreat of {unit}",
           ev.RetreatAwaited(unit=unit, hexes_left=hexes, path=(u.hex or "",), rule=str(rule)))
    settle_retreat(g)


def settle_retreat(g: Game) -> None:
    """Take the retreat's steps that have only one choice; end it when done (caricat §7.4)."""
    while True:
        top = g.top()
        if top is None or top.kind != "retreat":
            return
        r: ev.RetreatAwaited = top.ctx
        w = g.world()
        u = g.state.units[r.unit]
        if u.where != "map":
            g.pop()
            continue
        stacked = any(k != r.unit and x.hex == u.hex for k, x in w.on_map(u.side).items())
        if r.hexes_left <= 0 and not stacked:
            g.pop()
            continue
        choices = retreat_choices(w, r.unit)
        if not choices:  # nowhere to go: interpretation blocked_retreat
            g.pop()
            lost = ELIMINATED if stacked or w.readings.get("blocked_retreat") == "eliminated" else max(1, r.hexes_left)
            L.lose(g, r.unit, lost, "blocked retreat", R.RETREAT)
            continue
        if len(choices) > 1:
            return  # the owner chooses (RetreatStep)
        retreat_step(g, r, choices[0])


def retreat_step(g: Game, r: ev.RetreatAwaited, hex_id: str) -> None:
    w = g.world()
    u = g.state.units[r.unit]
    in_zone = hex_id in w.zone(other(u.side))
    friend = w.unit_at(hex_id)
    start = u.hex or ""
    g.revise(ev.RetreatAwaited(unit=r.unit, hexes_left=r.hexes_left - 1, path=(*r.path, hex_id), rule=r.rule))
    g.emit(ev.UnitRetreated(unit=r.unit, path=(start, hex_id), rule=str(R.RETREAT)))
    SC.after_placement(g, r.unit)
    if r.rule == str(R.CAVALRY_RETREAT):  # from one enemy zone into another: reaction fire (caricat §9.2, §6.2)
        MV.react(g, w, r.unit, [start, hex_id])
    before_combat = r.rule == str(R.CAVALRY_RETREAT)  # pays by reaction fire (interpretation retreat_before_zone)
    if in_zone and (not before_combat or w.readings.get("retreat_before_zone") == "reaction_and_level"):
        L.lose(g, r.unit, 1, "retreat through an enemy zone", R.RETREAT)
    if friend is not None and friend != r.unit:
        L.lose(g, friend, 1, f"{r.unit} retreated through it", R.RETREAT)


# --- the winner's advance (caricat §7.2.1, §9.1) ---------------------------------------------------------------
def advance_choices(g: Game, a: ev.AdvanceAwaited) -> list[dict[str, str]]:
    w = g.world()
    out = []
    for unit in a.units:
        u = g.state.units[unit]
        if u.where != "map":
            continue
        if not a.path:
            if w.occupancy.free(a.vacated) and w.grid.is_adjacent(u.hex or "", a.vacated) and \
                    not w.impassable(unit, u.hex or "", a.vacated):
                out.append({"unit": unit, "hex": a.vacated})
        elif u.hex == a.path[-1]:
            out += [{"unit": unit, "hex": n} for n in w.grid.neighbours(u.hex) if w.occupancy.free(n)
                    and not w.impassable(unit, u.hex, n)]
    return out


def offer_advance(g: Game, c: ev.CombatUnderway) -> None:
    """The winner (the attackers or the defender, caricat §7.2.1 "il vincitore può avanzare") may advance into the
    hex its loser left (interpretation winner_advance); a charging cavalry must (caricat §9.1)."""
    if c.winner not in ("attacker", "defender") or c.advance <= 0 or not c.vacated:
        return
    if c.winner == "defender" and g.world().readings.get("winner_advance") == "attacker_only":
        return
    units = c.attackers if c.winner == "attacker" else (c.target,)
    compulsory = c.charge and c.winner == "attacker"
    context = ev.AdvanceAwaited(units=units, vacated=c.vacated, hexes=c.advance, compulsory=compulsory)
    if not advance_choices(g, context):
        return  # the loser did not leave, or no winner stands next to its hex
    g.push("advance", (g.state.units[units[0]].side,), R.CHARGE if compulsory else R.MELEE_RESULT,
           "choose whether to advance", context)


def advance(g: Game, a: ev.AdvanceAwaited, unit: str | None, hex_id: str | None) -> None:
    g.pop()
    if unit is None or hex_id is None:
        return
    start = g.state.units[unit].hex or ""
    g.emit(ev.UnitAdvanced(unit=unit, path=(start, hex_id), rule=str(R.CHARGE if a.compulsory else R.MELEE_RESULT)))
    SC.after_placement(g, unit)
    if a.hexes > 1 and not a.path:
        nxt = ev.AdvanceAwaited(units=(unit,), vacated=a.vacated, hexes=a.hexes - 1, path=(hex_id,))
        if advance_choices(g, nxt):
            g.push("advance", (g.state.units[unit].side,), R.MELEE_RESULT, "choose whether to advance a second hex", nxt)


# --- cavalry retreat before combat (caricat §9.2) ----------------------------------------------------------------
def may_retreat_before(w: World, target: str) -> bool:
    t = w.state.units[target]
    if t.kind != "cavalry" or t.where != "map":
        return False
    near = [w.state.units[e] for e in w.adjacent_enemies(target)]
    return bool(near) and all(e.kind == "infantry" for e in near) and bool(retreat_choices(w, target))


def try_retreat(g: Game, unit: str, attempt: bool) -> None:
    g.pop()  # the offer; the combat is on top again
    if not attempt:
        return
    w = g.world()
    morale = w.morale(unit)
    automatic = w.scenario.file.unit(unit).morale >= 6 and morale >= 6
    success = automatic or g.roll(1, R.CAVALRY_RETREAT, f"{unit} retreats before combat",
                                  {"needed": f"<= {morale}"})[0] <= morale
    if not success:
        return
    combat = g.top()
    fields = {f: getattr(combat.ctx, f) for f in combat.ctx.__struct_fields__}
    fields["stage"] = "done"
    g.revise(ev.CombatUnderway(**fields))  # the combat does not take place; no advance into the hex
    u = g.state.units[unit]
    g.push("retreat", (u.side,), R.CAVALRY_RETREAT, f"choose the retreat of {unit}",
           ev.RetreatAwaited(unit=unit, hexes_left=1, path=(u.hex or "",), rule=str(R.CAVALRY_RETREAT)))
    settle_retreat(g)
