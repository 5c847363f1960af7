"""Combat (caricat §7): who may fire or attack (§3.1, §4.3, §7, §7.5.1), fire rounds (§7.1: dice per fire point,
a die at least the target's morale hits, a natural 6 always, morale after the round), melee (§7.2: defensive fire
first, 2d6 plus melee values, the bands of §7.2.1), the modifiers (§8), the charge (§9.1) and the optional morale
check (§12). A combat is one `combat` frame on the engine's stack, run stage by stage; the decisions it asks
(aim, cavalry retreat, retreats, advance) open above it (retreat.py)."""

from __future__ import annotations

from arbitro.adjudicator.caricat import losses as L
from arbitro.adjudicator.caricat import retreat as RT
from arbitro.adjudicator.caricat import rules as R
from arbitro.adjudicator.caricat import scenario as SC
from arbitro.adjudicator.caricat.flow import Game
from arbitro.adjudicator.caricat.world import BROKEN, ROUTED, World
from arbitro.adjudicator.maps import control
from arbitro.events import caricat as ev
from arbitro.projections.caricat import other


# --- who may take part ----------------------------------------------------------------------------------------
def across_blocked(w: World, a: str, b: str) -> bool:
    """No combat across an escarpment (caricat §13.2.3) nor a river without a bridge (terrain effects)."""
    features = w.map.hexside_features(a, b)
    table = w.data.combat.hexside
    for f in features:
        rule = table.get(f)
        if rule is not None and rule.prohibited and not any(c in features for c in rule.cancelled_by):
            return True
    return False


def attack_problem(w: World, unit: str, target: str, kind: str) -> tuple[R.Rule, str] | None:
    """Why `unit` may not fire at or attack `target` now, or None."""
    state = w.state
    u, t = state.units.get(unit), state.units.get(target)
    if u is None or u.where != "map" or u.side != w.state.seat:
        return R.COMBAT, f"{unit!r} is not one of your units on the map"
    if t is None or t.where != "map" or t.side == u.side:
        return R.COMBAT, f"{target!r} is not an enemy unit on the map"
    if state.activation_kind == "leader" and u.leader != state.activation or \
            state.activation_kind == "cavalry" and unit != state.activation:
        return R.ACTIVATION, f"{unit} is not part of the activation under way ({state.activation})"
    if u.fought:
        return R.COMBAT, f"{unit} already fought in this activation"
    if not w.grid.is_adjacent(u.hex or "", t.hex or ""):
        return R.COMBAT, f"{unit} is not adjacent to {target}"
    if across_blocked(w, u.hex or "", t.hex or ""):
        return R.ESCARPMENT, f"no combat across the hexside between {u.hex} and {t.hex}"
    if w.level(unit) == "reserve":
        return R.RESERVE, f"{unit}'s leader is at Reserve: no combat but defensive fire"
    if u.hits >= BROKEN:
        return R.MORALE_EFFECTS, f"{unit} is {'Routed' if u.hits >= ROUTED else 'Broken'}: no offensive fire, no melee"
    status = w.command(unit)
    if status == "beyond":
        return R.COMMAND_RANGE, f"{unit} is beyond twice its leader's command range: defensive fire only"
    if kind == "melee" and status == "double":
        return R.COMMAND_RANGE, f"{unit} is out of its leader's command range: it may not start a melee"
    if kind == "fire":
        if w.fire_value(unit) <= 0:
            return R.UNITS, f"{unit} has no fire value (cavalry does not fire)"
        if status == "double" and not w.in_enemy_zoc(unit):
            return R.COMMAND_RANGE, f"{unit} is out of command range: it fires only in an enemy zone of control"
    return None


def declare(g: Game, kind: str, units: list[str], target: str, charge: bool = False) -> None:
    state = g.state
    if state.phase != "activation" or not state.activation or g.ctx.seat != state.seat:
        g.reject(R.COMBAT, "combat is declared by the side whose activation is under way")
    if len(set(units)) != len(units):
        g.reject(R.COMBAT, "a unit is named twice")
    w = g.world()
    for unit in units:
        problem = attack_problem(w, unit, target, kind)
        if problem is not None:
            g.reject(*problem)
    attackers = tuple(sorted(units))
    g.emit(ev.CombatDeclared(kind=kind, attackers=attackers, target=target, charge=charge,
                             rule=str(R.CHARGE if charge else R.FIRE if kind == "fire" else R.MELEE)))
    g.push("combat", (), R.FIRE if kind == "fire" else R.MELEE, f"resolve the {kind} on {target}",
           ev.CombatUnderway(kind=kind, attackers=attackers, target=target, charge=charge))
    run(g)


# --- the stages ---------------------------------------------------------------------------------------------------
def run(g: Game) -> None:
    """Run the combat on top of the stack until it asks a decision or ends."""
    while True:
        if SC.offer_transfer(g):
            return  # a leader's new unit is chosen before the combat goes on (caricat §7.3)
        top = g.top()
        if top is None or top.kind != "combat":
            return
        c: ev.CombatUnderway = top.ctx
        before = len(g.ctx.game.core.decisions)
        STAGES[c.stage](g, c)
        if len(g.ctx.game.core.decisions) > before:
            return  # a decision opened above the combat


def _to(g: Game, c: ev.CombatUnderway, stage: str, **changes: object) -> None:
    fields = {f: getattr(c, f) for f in c.__struct_fields__}
    fields.update(changes, stage=stage)
    g.revise(ev.CombatUnderway(**fields))  # type: ignore[arg-type]


def _declared(g: Game, c: ev.CombatUnderway) -> None:
    w = g.world()
    if RT.may_retreat_before(w, c.target):
        _to(g, c, "retreat_offered")
        owner = g.state.units[c.target].side
        g.push("cavalry_retreat", (owner,), R.CAVALRY_RETREAT, f"choose whether {c.target} retreats before combat",
               ev.CavalryRetreatOffered(unit=c.target))
        return
    _to(g, c, "aim")


def _retreat_offered(g: Game, c: ev.CombatUnderway) -> None:
    _to(g, c, "aim")  # the cavalry stayed (a retreat that got away sets the stage to done, retreat.py)


def can_fire_back(w: World, target: str, kind: str) -> bool:
    u = w.state.units[target]
    if u.where != "map" or u.hits >= ROUTED or w.fire_value(target) <= 0:
        return False
    if u.defended == w.state.serial:
        return False  # one defensive fire an activation (caricat §7.1)
    return kind == "melee" or w.level(target) != "reserve"  # Reserve fires back only at a melee (caricat §3.1)


def _aim(g: Game, c: ev.CombatUnderway) -> None:
    w = g.world()
    alive = tuple(a for a in c.attackers if g.state.units[a].where == "map")
    if not alive:
        _to(g, c, "done")
        return
    if not can_fire_back(w, c.target, c.kind):
        _to(g, c, "fire", aim="")
        return
    if len(alive) == 1:
        _to(g, c, "fire", aim=alive[0])
        return
    _to(g, c, "aiming")
    g.push("aim", (g.state.units[c.target].side,), R.FIRE, f"choose which attacker {c.target} fires at",
           ev.AimAwaited(target=c.target, attackers=alive))


def _fire(g: Game, c: ev.CombatUnderway) -> None:
    w = g.world()
    hits: dict[str, int] = {}
    if c.kind == "fire":
        hits[c.target] = fire_round(g, w, list(c.attackers), c.target, defensive=False)
    if c.aim:
        hits[c.aim] = hits.get(c.aim, 0) + fire_round(g, w, [c.target], c.aim, defensive=True)
    struck = L.apply_hits(g, hits, "fire", R.FIRE_ROUND, defer=deferred(g))
    L.attacked(g, c.target)
    _to(g, c, "melee" if c.kind == "melee" else "done", struck=c.struck + struck)


def _melee(g: Game, c: ev.CombatUnderway) -> None:
    state = g.state
    attackers = [a for a in c.attackers if state.units[a].where == "map" and state.units[a].hits < BROKEN]
    if "morale_check" in state.options:  # caricat §12
        kept = []
        w = g.world()
        for a in attackers:
            morale = w.morale(a)
            passed = g.roll(1, R.MORALE_CHECK, f"{a} before melee", {"needed": f"<= {morale}"})[0] <= morale
            g.emit(ev.MoraleChecked(unit=a, passed=passed, rule=str(R.MORALE_CHECK)))
            if passed:
                kept.append(a)
        attackers = kept
    if not attackers or state.units[c.target].where != "map":
        _to(g, c, "done")
        return
    resolve_melee(g, c, attackers)


def _advance(g: Game, c: ev.CombatUnderway) -> None:
    _to(g, c, "done")
    RT.offer_advance(g, c)


def _done(g: Game, c: ev.CombatUnderway) -> None:
    if c.charge and g.state.units[c.attackers[0]].where == "map":  # caricat §9.1: a level lost after the charge
        L.lose(g, c.attackers[0], g.data.system.charge.extra_loss, "charge", R.CHARGE)
    g.pop()
    L.leader_loss(g, list(dict.fromkeys(c.struck)))  # reading leader_loss=end_of_combat: each leader once


def deferred(g: Game) -> bool:
    """Whether a leader's loss is rolled once at the end of the combat rather than after each round of it (caricat
    §7.3 "Alla fine del combattimento di fuoco o combattimento di mischia"; reading leader_loss)."""
    return g.world().readings.get("leader_loss", "each_round") == "end_of_combat"


STAGES = {"declared": _declared, "retreat_offered": _retreat_offered, "aim": _aim, "aiming": _aim, "fire": _fire,
          "melee": _melee, "advance": _advance, "done": _done}


# --- fire (caricat §7.1, §8) --------------------------------------------------------------------------------------
def terrain_fire_dice(w: World, hex_id: str) -> int:
    """The defender chooses the terrain (caricat §6): the most favourable to it."""
    info = w.map.hex(hex_id)
    return min(w.data.combat.terrain[t].fire_dice for t in info.terrains)


def positional(w: World, attackers: list[str], target: str) -> bool:
    """caricat §8: two or more attackers and at least five of the six hexes around the target held by its attackers
    or in the attackers' zone of control."""
    if len(attackers) < 2:
        return False
    t = w.state.units[target]
    side = other(t.side)
    covered = set(w.zone(side)) | {w.state.units[a].hex or "" for a in attackers}
    return control.surrounded(w.grid, t.hex or "", covered) >= w.system.positional.hexes


def fire_round(g: Game, w: World, firers: list[str], target: str, *, defensive: bool,
               reaction: bool = False) -> int:
    """Roll one fire and return its hits (applied by the caller after the round, caricat §7.1.2). Reaction fire
    (caricat §6.2) is defensive; Hold's +1 applies to it under the interpretation reaction_hold."""
    mods = w.system.modifiers
    t = w.state.units[target]
    dice = 0
    level = w.level(firers[0])
    fewer = level == "attack" and w.readings.get("attack_fire", "die_minus_one") == "one_die_fewer"
    for f in firers:
        n = w.fire_value(f) + terrain_fire_dice(w, t.hex or "")
        if w.level(f) == "reserve":
            n += mods.reserve_fire_dice
        dice += max(0, n + (mods.attack_fire_die if fewer else 0))
    if not defensive and positional(w, firers, target):
        if w.readings.get("positional_fire", "two_more_dice") == "two_more_dice":
            dice += mods.positional_fire_dice
        else:
            dice = mods.positional_fire_dice * len(firers)
    drm = mods.attack_fire_die if level == "attack" and not fewer else 0
    hold_bonus = not reaction or w.readings.get("reaction_hold", "hold_bonus") == "hold_bonus"
    if defensive and level == "hold" and hold_bonus:
        drm += mods.hold_defensive_fire_die
    needed = w.morale(target)
    rolled = g.roll(dice, R.FIRE_RESOLUTION, f"{'+'.join(firers)} at {target}",
                    {"needed": f">= {needed}", "drm": drm, "natural_six": "hits"}) if dice else ()
    hits = sum(1 for d in rolled if d == 6 or d + drm >= needed)
    g.emit(ev.FireResolved(firers=tuple(firers), target=target, dice=dice, modifier=drm, needed=needed, hits=hits,
                           defensive=defensive, rule=str(R.FIRE_RESOLUTION)))
    return hits


# --- melee (caricat §7.2, §8, §9.1) -----------------------------------------------------------------------------
def melee_terrain(w: World, attackers: list[str], target: str) -> int:
    t = w.state.units[target].hex or ""
    best = max(w.data.combat.terrain[x].melee for x in w.map.hex(t).terrains)
    side = 0
    for a in attackers:
        features = w.map.hexside_features(w.state.units[a].hex or "", t)
        side = max([side] + [w.data.combat.hexside[f].melee for f in features if f in w.data.combat.hexside])
    return best + side


def _assault(w: World, units: list[str]) -> int:
    hexes = {w.state.units[u].hex for u in units}
    side = w.state.units[units[0]].side
    return sum(w.scenario.file.leader(k).assault for k, le in sorted(w.state.leaders.items())
               if le.side == side and not le.gone and le.unit is not None and w.state.units[le.unit].hex in hexes)


def resolve_melee(g: Game, c: ev.CombatUnderway, attackers: list[str]) -> None:
    w = g.world()
    mods, target = w.system.modifiers, c.target
    t = w.state.units[target]
    best_a = max(w.morale(a) for a in attackers)
    best_d = w.morale(target)
    attack = sum(w.melee_value(a) for a in attackers) + _assault(w, attackers)
    if w.level(attackers[0]) == "attack" and g.state.units[attackers[0]].kind == "infantry":
        attack += mods.attack_melee
    if positional(w, attackers, target):
        attack += mods.positional_melee
    if c.charge and t.kind == "infantry":
        attack += mods.charge_melee
    defence = w.melee_value(target) + _assault(w, [target]) + melee_terrain(w, attackers, target)
    attack += mods.morale_melee if best_a > best_d else 0
    defence += mods.morale_melee if best_d > best_a else 0
    a_dice = g.roll(2, R.MELEE_RESULT, f"attack on {target}", {"base": attack}, about=(t.hex or "",))
    d_dice = g.roll(2, R.MELEE_RESULT, f"defence of {target}", {"base": defence}, about=(t.hex or "",))
    a_total, d_total = attack + sum(a_dice), defence + sum(d_dice)
    diff = abs(a_total - d_total)
    winner = "none" if diff == 0 else "attacker" if a_total > d_total else "defender"
    g.emit(ev.MeleeResolved(attackers=tuple(attackers), target=target, attack_total=a_total, defence_total=d_total,
                            difference=diff, winner=winner, rule=str(R.MELEE_RESULT)))
    band = next(b for b in w.system.melee_bands if b.low <= diff <= b.high)
    lead_a = max(attackers, key=lambda a: (w.morale(a), a)) if best_a > best_d else attackers[0]
    hexes_before = {u: g.state.units[u].hex for u in [*attackers, target]}
    if winner == "none":
        hits = spread(w, [lead_a, *[a for a in attackers if a != lead_a]], band.loser_losses) | \
            {target: band.loser_losses}
        struck = L.apply_hits(g, hits, "melee", R.MELEE_RESULT, defer=deferred(g))
        _to(g, c, "done", struck=c.struck + struck)
        return
    losers = [target] if winner == "attacker" else attackers
    winners = attackers if winner == "attacker" else [target]
    lead = lead_a if winner == "defender" else target
    struck = L.apply_hits(g, spread(w, [lead, *[x for x in losers if x != lead]], band.loser_losses), "melee",
                          R.MELEE_RESULT, defer=deferred(g))
    if band.recover:
        for u in winners:
            if 0 < g.state.units[u].hits < 5:
                g.emit(ev.MoraleRecovered(unit=u, hits=g.state.units[u].hits - 1, rule=str(R.MELEE_RESULT)))
    _to(g, c, "advance", winner=winner, advance=band.advance, vacated=hexes_before[losers[0]] or "",
        struck=c.struck + struck)
    for unit in reversed(losers):  # retreats run first to last: the frames are a stack
        RT.start_retreat(g, unit, band, R.MELEE_RESULT)


def spread(w: World, order: list[str], losses: int) -> dict[str, int]:
    """A side's losses, the first on the unit of the morale modifier (caricat §8), then one each in turn; or the
    whole loss on each unit (interpretation melee_losses)."""
    if w.readings.get("melee_losses", "in_turn") == "each_unit":
        return {unit: losses for unit in order}
    out: dict[str, int] = {}
    for i in range(losses):
        unit = order[i % len(order)]
        out[unit] = out.get(unit, 0) + 1
    return out
