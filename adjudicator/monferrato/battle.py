"""The field battle (monferrato §7): support called by the attacking commander (§7.1), the response chits the
defender may play (§5.1), minor and major battles in rounds (§7.2), terrain, forts and fortified towns (§7.2.1,
§9.4, §10), the owner's allocation of hits (§7.3), disorganisation and elimination (§7.4), the commanders' risk,
and the retreat (§7.5, §7.2.2 Valtellina).

A battle is a chain of decisions on the engine's stack, each frame carrying the battle (events.monferrato.Battle)
in its context: a decision's answer closes its frame, updates the battle and `advance` runs the rules until the
next decision, or the end. The decision kinds: support, response, take_hit, continue, retreat.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator.decisions import close_frame, open_frame
from arbitro.adjudicator.monferrato import rules as R
from arbitro.adjudicator.monferrato import supply
from arbitro.adjudicator.monferrato.common import OFF_MAP, data, enemy_in, is_combat, kind, line_step, morale_band, printed_fire, units_in
from arbitro.adjudicator.monferrato.movement import Plan, reachable
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import core
from arbitro.events import monferrato as ev
from arbitro.projections.monferrato import MonferratoState, other

SUPPORT, RESPONSE, TAKE_HIT, CONTINUE, RETREAT, SPOILS = "support", "response", "take_hit", "continue", "retreat", "spoils"
PLACE = "place"
KINDS = (SUPPORT, RESPONSE, TAKE_HIT, CONTINUE, RETREAT, SPOILS, PLACE)
MAJOR = 6  # monferrato §7.2
HOLD = "hold"  # a retreat answer: the defenders of a fortress take one more loss instead (§7.5)
STAY = "stay"  # a retreat answer after a bombardment: the targets stay where they are (§8.2)
PROMPTS = {SUPPORT: "call a supporting unit, or none", RESPONSE: "play a response chit, or none",
           TAKE_HIT: "allocate a hit to one of your units", CONTINUE: "fight another round, or end the battle",
           RETREAT: "choose the zone to retreat to", SPOILS: "convert or destroy the enemy forts taken",
           PLACE: "choose where the replacement commander appears"}
RULES = {SUPPORT: R.SUPPORT, RESPONSE: R.RESPONSE, TAKE_HIT: R.LOSSES, CONTINUE: R.FIRE, RETREAT: R.RETREAT,
         SPOILS: R.FORTS, PLACE: R.DISORGANISATION}


def side_units(s: MonferratoState, zone: str, seat: str) -> list[str]:
    return units_in(s, zone, seat)


def fighters(s: MonferratoState, zone: str, seat: str) -> list[str]:
    """Combat units other than sappers (what makes a battle, and a major one: §7.2)."""
    return [u for u in units_in(s, zone, seat) if is_combat(u) and kind(u) != "sapper"]


def defender(b: ev.Battle) -> str:
    return other(b.attacker)


# --- the start ---------------------------------------------------------------------------------------
def begin(ctx: Decision[MonferratoState], plan: Plan, seat: str, *, entering: bool = False) -> None:
    s = ctx.state
    zone = plan.path[-1] if plan.path else plan.origin  # raiders fight where they raided (§11)
    origin = plan.path[-2] if len(plan.path) > 1 else plan.origin if plan.path else ""
    lead = [u for u in plan.units if kind(u) == "commander"]
    nation = data().units[plan.units[0]].nation
    commander = lead[0] if lead else ""
    calls = supply.leadership(s, commander) if commander and morale_band(s, nation) == "high" else 0
    ctx.emit(ev.BattleBegan(zone=zone, attacker=seat, attackers=tuple(side_units(s, zone, seat)),
                            defenders=tuple(side_units(s, zone, other(seat))), major=False, rule=str(R.BATTLE)))
    b = ev.Battle(zone=zone, attacker=seat, origin=origin, commander=commander, calls=calls,
                  hits={seat: 0, other(seat): 0}, entering=entering)
    advance(ctx, b)


def ask(ctx: Decision[MonferratoState], b: ev.Battle, what: str, seat: str) -> None:
    open_frame(ctx, what, (seat,), str(RULES[what]), PROMPTS[what], ev.BattleAwaited(seat=seat, battle=b))


def advance(ctx: Decision[MonferratoState], b: ev.Battle) -> None:  # noqa: C901 - the battle's stages in order
    """Run the battle from its stage until a decision is asked or it ends."""
    while True:
        s = ctx.state
        if b.stage == SUPPORT:
            if b.calls > 0 and support_options(s, b):
                ask(ctx, b, SUPPORT, b.attacker)
                return
            b = msgspec.structs.replace(b, stage=RESPONSE)
        elif b.stage == RESPONSE:
            ask(ctx, b, RESPONSE, defender(b))  # always offered: its mere asking reveals no hand
            return
        elif b.stage == "fire":
            b = fire(ctx, b)
        elif b.stage == "losses":
            for seat in (b.attacker, defender(b)):
                b = allocate_forced(ctx, b, seat)
                if b.owed.get(seat, 0):
                    ask(ctx, b, TAKE_HIT, seat)
                    return
            b = msgspec.structs.replace(b, stage="commanders")
        elif b.stage == "commanders":
            replaced = commanders_at_risk(ctx, b)
            b = msgspec.structs.replace(b, stage=" ".join([PLACE, *replaced]) if replaced else "after")
        elif b.stage.startswith(PLACE):
            waiting = [u for u in b.stage.split()[1:] if len(place_options(s, u)) > 1]
            if waiting:  # §7.4.1: his owner says where each replacement appears, one at a time
                ask(ctx, msgspec.structs.replace(b, stage=" ".join([PLACE, *waiting])), PLACE,
                    data().faction(waiting[0]))
                return
            b = msgspec.structs.replace(b, stage="after")
        elif b.stage == "after":
            if b.bombardment:  # §8.2: the targets need not retreat, "anche se possono farlo se vogliono"
                if b.round_hits.get(defender(b)) and len(retreat_options(s, b, defender(b))) > 1:
                    ask(ctx, msgspec.structs.replace(b, stage="retreat"), RETREAT, defender(b))
                return
            if b.major and fighters(s, b.zone, b.attacker) and fighters(s, b.zone, defender(b)):
                att, dfn = b.round_hits.get(b.attacker, 0), b.round_hits.get(defender(b), 0)
                chooser = b.attacker if att <= dfn else defender(b)  # on a tie the attacker is asked first
                ask(ctx, msgspec.structs.replace(b, stage="continue:" + ("both" if att == dfn else "one")),
                    CONTINUE, chooser)
                return
            b = msgspec.structs.replace(b, stage="end")
        elif b.stage == "end":
            end(ctx, b)
            return
        elif b.stage == HOLD:
            hold(ctx, b)
            return
        else:
            raise AssertionError(f"unknown battle stage {b.stage}")


# --- support (monferrato §7.1) ------------------------------------------------------------------------
def support_options(s: MonferratoState, b: ev.Battle) -> list[dict[str, Any]]:
    if not b.commander or b.calls <= 0:
        return []
    d = data()
    radius = supply.in_radius(s, b.commander)
    out: list[dict[str, Any]] = []
    for u, x in sorted(s.units.items()):
        spec = d.units[u]
        if (x.zone not in radius or x.zone == b.zone or d.faction(u) != b.attacker or spec.kind == "camp"
                or x.activated or x.acted or spec.command in s.activated_commands):
            continue
        if b.zone in reachable(s, b.attacker, [u], x.zone, called=True):
            out.append({"type": "call_support", "unit": u})
    return out + [{"type": "call_support", "unit": None}] if out else []


def call(ctx: Decision[MonferratoState], b: ev.Battle, unit: str | None) -> None:
    if unit is None:
        advance(ctx, msgspec.structs.replace(b, stage=RESPONSE, calls=0))
        return
    s = ctx.state
    path = reachable(s, b.attacker, [unit], s.units[unit].zone, called=True)[b.zone]
    ctx.emit(ev.UnitsCalled(units=(unit,), path=tuple(path), rule=str(R.SUPPORT)))
    advance(ctx, msgspec.structs.replace(b, calls=b.calls - 1))


# --- response chits (monferrato §5.1) ------------------------------------------------------------------
def response_options(s: MonferratoState, b: ev.Battle) -> list[dict[str, Any]]:
    seat, d = defender(b), data()
    chits = sorted(c for c in s.hands.get(seat, []) if d.chits[c].response)
    if b.steady >= 2:  # "uno o due di questi chit"
        chits = []
    return [{"type": "respond", "chit": c} for c in chits] + [{"type": "respond", "chit": None}]


def respond(ctx: Decision[MonferratoState], b: ev.Battle, chit: str | None) -> None:
    if chit is None:
        advance(ctx, msgspec.structs.replace(b, stage="fire"))
        return
    spec = data().chits[chit]
    ctx.emit(ev.ChitPlayed(seat=defender(b), chit=chit, removed=spec.remove_if_used, rule=str(R.RESPONSE)))
    b = msgspec.structs.replace(b, steady=b.steady + 1)
    ask(ctx, b, RESPONSE, defender(b))  # a second may follow


# --- fire (monferrato §7.2, §7.2.1, §8, §14.2, §14.3) -----------------------------------------------------
def fire_value(s: MonferratoState, unit: str, attacking: bool, zone: str) -> int:
    d = data()
    spec = d.units[unit]
    if spec.kind == "commander":
        value = supply.leadership(s, unit)
    elif spec.kind == "artillery":  # §8: printed only with own sappers where it fires from
        sappers = [u for u in units_in(s, zone, d.faction(unit)) if kind(u) == "sapper"]
        value = printed_fire(s, unit) if sappers else 1
    else:
        value = printed_fire(s, unit) if attacking or spec.defence is None else spec.defence
    if s.units[unit].disorganised:  # the disorganised side's value: provisional, one less (data has no backs)
        value = max(1, value - 1)
    if attacking and d.zones[zone].terrain == "difficult" and value >= 3:  # §7.2.1, §7.2.2
        value -= 1
    return value


def shooters(s: MonferratoState, zone: str, seat: str) -> list[str]:
    """Every commander and combat unit but sappers fires (§7.2)."""
    return [u for u in units_in(s, zone, seat) if kind(u) not in ("sapper", "camp")]


def saved(s: MonferratoState, b: ev.Battle) -> int:
    """The hits forts, a fortified town and response chits take off the attackers' (§9.4, §10, §5.1)."""
    d = data()
    forts = sum(1 for owner in s.forts.get(b.zone, []) if owner == defender(b))
    town = 1 if d.zones[b.zone].town and b.zone not in s.towns_destroyed else 0
    return forts + town + b.steady


def volley(ctx: Decision[MonferratoState], b: ev.Battle, seat: str) -> int:
    s = ctx.state
    attacking = seat == b.attacker
    units = shooters(s, b.zone, seat)
    values = [fire_value(s, u, attacking, b.zone) for u in units]
    counts = [2 if data().units[u].major else 1 for u in units]  # §14.3
    rolled = ctx.roll(sum(counts), purpose=f"{R.FIRE} {seat} fire in {b.zone}",
                      detail={"units": " ".join(units), "fire": " ".join(map(str, values))}) if units else ()
    dice, i = [], 0
    for n in counts:
        dice.append(tuple(rolled[i:i + n]))
        i += n
    hits = sum(1 for v, ds in zip(values, dice) for x in ds if x <= v)
    off = saved(s, b) if attacking else 0
    ctx.emit(ev.Volley(zone=b.zone, seat=seat, units=tuple(units), fire=tuple(values), dice=tuple(dice), hits=hits,
                       saved=min(off, hits), rule=str(R.FIRE)))
    burst = tuple(u for u, ds in zip(units, dice) if kind(u) == "artillery" and 6 in ds)
    if burst:  # §8: a six destroys the gun
        ctx.emit(ev.Eliminated(units=burst, rule=str(R.BOMBARDMENT), reason="a six: the gun burst"))
    return max(0, hits - off)


def fire(ctx: Decision[MonferratoState], b: ev.Battle) -> ev.Battle:
    s = ctx.state
    if b.round == 1:
        major = len(fighters(s, b.zone, b.attacker)) >= MAJOR and len(fighters(s, b.zone, defender(b))) >= MAJOR
        b = msgspec.structs.replace(b, major=major)
    on_defender = volley(ctx, b, b.attacker)
    on_attacker = volley(ctx, b, defender(b))
    rh = {b.attacker: on_attacker, defender(b): on_defender}
    hits = {k: b.hits.get(k, 0) + v for k, v in rh.items()}
    return msgspec.structs.replace(b, stage="losses", round_hits=rh, hits=hits, owed=dict(rh))


# --- losses (monferrato §7.3, §7.4) -----------------------------------------------------------------
def targets(s: MonferratoState, zone: str, seat: str) -> list[str]:
    return [u for u in units_in(s, zone, seat) if is_combat(u)]


def capacity(s: MonferratoState, u: str) -> int:
    """Hits a unit can take: two in good order with a disorganised side, else one (§7.4, §14.6)."""
    return 1 if s.units[u].disorganised or kind(u) == "garrison" else 2


def take(ctx: Decision[MonferratoState], unit: str, rule: str = "") -> None:
    s = ctx.state
    if s.units[unit].disorganised or kind(unit) == "garrison":
        ctx.emit(ev.HitsTaken(unit=unit, result="eliminated", rule=rule or str(R.ELIMINATION)))
    else:
        ctx.emit(ev.HitsTaken(unit=unit, result="disorganised", rule=rule or str(R.DISORGANISATION)))


def allocate_forced(ctx: Decision[MonferratoState], b: ev.Battle, seat: str, rule: str = "") -> ev.Battle:
    """Hits no choice can place differently are placed at once: none left to hit (the excess is lost), or enough
    to take every unit's every hit. Otherwise the owner chooses (a take_hit decision)."""
    owed = b.owed.get(seat, 0)
    units = targets(ctx.state, b.zone, seat)
    if owed and len(units) == 1:
        for _ in range(min(owed, capacity(ctx.state, units[0]))):
            take(ctx, units[0], rule)
        return msgspec.structs.replace(b, owed={**b.owed, seat: 0})
    if owed and (not units or owed >= sum(capacity(ctx.state, u) for u in units)):
        for u in units:
            for _ in range(capacity(ctx.state, u)):
                take(ctx, u, rule)
        owed = 0
    return msgspec.structs.replace(b, owed={**b.owed, seat: owed})


def take_options(s: MonferratoState, b: ev.Battle, seat: str) -> list[dict[str, Any]]:
    return [{"type": "take_hit", "unit": u} for u in targets(s, b.zone, seat)]


def take_hit(ctx: Decision[MonferratoState], b: ev.Battle, seat: str, unit: str) -> None:
    take(ctx, unit, str(R.RETREAT) if b.stage == HOLD else "")
    advance(ctx, msgspec.structs.replace(b, owed={**b.owed, seat: b.owed[seat] - 1}))


def commanders_at_risk(ctx: Decision[MonferratoState], b: ev.Battle) -> list[str]:
    """monferrato §7.3, §7.4.1: a side that suffered a hit rolls for each of its commanders there: 1-2, hit (turned
    to his replacement, or eliminated). The commanders turned to their replacement are returned."""
    replaced = []
    for seat in (b.attacker, defender(b)):
        if not b.round_hits.get(seat):
            continue
        for u in [x for x in units_in(ctx.state, b.zone, seat) if kind(x) == "commander"]:
            die = ctx.roll(1, purpose=f"{R.LOSSES} is {u} hit", detail={"hit_on": "1-2"})[0]
            if die <= 2 and commander_hit(ctx, u):
                replaced.append(u)
    return replaced


def commander_hit(ctx: Decision[MonferratoState], unit: str) -> bool:
    """Turned to his replacement (True) or, with none or being one, eliminated (§7.4.1)."""
    s = ctx.state
    if data().units[unit].replacement and not s.units[unit].replaced:
        ctx.emit(ev.CommanderReplaced(unit=unit, zone=s.units[unit].zone, rule=str(R.DISORGANISATION)))
        return True
    ctx.emit(ev.Eliminated(units=(unit,), rule=str(R.DISORGANISATION), reason="commander hit"))
    return False


def place_options(s: MonferratoState, unit: str) -> list[str]:
    """§7.4.1 "nella stessa zona o in un'altra zona contenente unità amiche": his zone, or any zone holding friendly
    units (a camp is a marker, not a unit: §14.5)."""
    d = data()
    seat = d.faction(unit)
    friends = {x.zone for u, x in s.units.items()
               if u != unit and x.zone in d.zones and d.faction(u) == seat and kind(u) != "camp"}
    return sorted(friends | {s.units[unit].zone})


def place(ctx: Decision[MonferratoState], b: ev.Battle, unit: str, zone: str) -> None:
    if zone != ctx.state.units[unit].zone:
        ctx.emit(ev.CommanderPlaced(unit=unit, zone=zone, rule=str(R.DISORGANISATION)))
    rest = [u for u in b.stage.split()[1:] if u != unit]
    advance(ctx, msgspec.structs.replace(b, stage=" ".join([PLACE, *rest])))


# --- more rounds (monferrato §7.2 major battle) ------------------------------------------------------
def go_on(ctx: Decision[MonferratoState], b: ev.Battle, seat: str, go: bool) -> None:
    if go and b.stage == "continue:both" and seat == b.attacker:
        ask(ctx, b, CONTINUE, defender(b))  # on a tie both must want it
        return
    if go:
        advance(ctx, msgspec.structs.replace(b, stage="fire", round=b.round + 1))
    else:
        advance(ctx, msgspec.structs.replace(b, stage="end"))


# --- the end and the retreat (monferrato §7.3, §7.5, §7.2.2, §9.4, §10) ---------------------------------
def winner(s: MonferratoState, b: ev.Battle) -> str:
    att, dfn = b.attacker, defender(b)
    if not targets(s, b.zone, att):
        return dfn
    if not targets(s, b.zone, dfn):
        return att
    return att if b.hits.get(att, 0) < b.hits.get(dfn, 0) else dfn  # a tie: the attacker loses


def retreat_options(s: MonferratoState, b: ev.Battle, loser: str) -> list[str]:
    d = data()
    whence = loser == b.attacker and bool(b.origin)  # raiders who entered no zone retreat as defenders do
    zones = [b.origin] if whence else list(d.neighbours(b.zone))
    ok = [z for z in sorted(zones) if line_step(b.zone, z) is not None and not enemy_in(s, z, loser)]
    if not whence and d.on_edge(b.zone):  # §6: off the map, "volontariamente o meno", and eliminated
        ok.append(OFF_MAP)
    if b.bombardment:  # §8.2: a choice, not an obligation
        return [*ok, STAY] if side_units(s, b.zone, loser) else []
    if loser != b.attacker and d.zones[b.zone].fortress:
        ok.append(HOLD)
    return ok


def end(ctx: Decision[MonferratoState], b: ev.Battle) -> None:
    s = ctx.state
    win = winner(s, b)
    ctx.emit(ev.BattleEnded(zone=b.zone, winner=win, hits=dict(b.hits), rule=str(R.RETREAT)))
    loser = other(win)
    left = side_units(ctx.state, b.zone, loser)
    if not left:
        return aftermath(ctx, b, win)
    if b.zone == "valtellina" or (b.entering and loser == b.attacker):  # §7.2.2; §16.5
        rule = R.VALTELLINA if b.zone == "valtellina" else R.NEW_UNITS
        ctx.emit(ev.Eliminated(units=tuple(left), rule=str(rule), reason=f"defeated in {b.zone}"))
        return aftermath(ctx, b, win)
    options = retreat_options(ctx.state, b, loser)
    if len(options) > 1:
        ask(ctx, msgspec.structs.replace(b, stage="retreat"), RETREAT, loser)
        return
    retreat(ctx, b, loser, options[0] if options else "")


def retreat(ctx: Decision[MonferratoState], b: ev.Battle, loser: str, to: str) -> None:
    s = ctx.state
    left = side_units(s, b.zone, loser)
    if b.bombardment:  # §8.2: the targets of a bombardment retreat only if they choose to
        if to != STAY:
            move_out(ctx, left, to)
        return
    if to == HOLD:  # §7.5: one more loss, and the attacker retreats instead
        return hold(ctx, msgspec.structs.replace(b, stage=HOLD, owed={**b.owed, loser: 1}))
    move_out(ctx, left, to)
    aftermath(ctx, b, other(loser))


def hold(ctx: Decision[MonferratoState], b: ev.Battle) -> None:
    """§7.5 "può decidere di subire una perdita aggiuntiva": the defenders of the fortress take the extra loss on
    the unit their owner chooses (a take_hit decision, unless one unit is left), then the attacker retreats."""
    loser = defender(b)
    b = allocate_forced(ctx, b, loser, str(R.RETREAT))
    if b.owed.get(loser, 0):
        open_frame(ctx, TAKE_HIT, (loser,), str(R.RETREAT), "choose the unit that takes the extra loss of holding "
                   "the fortress", ev.BattleAwaited(seat=loser, battle=b))
        return
    back = b.origin if not enemy_in(ctx.state, b.origin, b.attacker) else ""
    move_out(ctx, side_units(ctx.state, b.zone, b.attacker), back)
    aftermath(ctx, b, loser)


def move_out(ctx: Decision[MonferratoState], units: list[str], to: str) -> None:
    """The retreat itself: the camp never retreats (§14.5); with nowhere to go, units are eliminated (§7.5)."""
    stay = tuple(u for u in units if kind(u) == "camp" or not to)
    go = tuple(u for u in units if u not in stay)
    if go and to == OFF_MAP:  # §6: units that leave the map are eliminated
        ctx.emit(ev.Eliminated(units=go, rule=str(R.MAP_EDGE), reason="retreated off the map"))
    elif go:
        ctx.emit(ev.Retreated(units=go, to=to, rule=str(R.RETREAT)))
    if stay:
        ctx.emit(ev.Eliminated(units=stay, rule=str(R.RETREAT), reason="could not retreat"))


def aftermath(ctx: Decision[MonferratoState], b: ev.Battle, win: str) -> None:
    """After the battle: lone commanders, sappers and camps left with the enemy are eliminated (§6, §14.1, §14.5);
    the winner, holding the zone, takes the loser's forts there and may destroy a fortified town (§10, §9.4)."""
    for seat in (b.attacker, defender(b)):
        mine = side_units(ctx.state, b.zone, seat)
        if mine and not [u for u in mine if is_combat(u) and kind(u) != "sapper"] and targets(ctx.state, b.zone, other(seat)):
            ctx.emit(ev.Eliminated(units=tuple(mine), rule=str(R.LONE_ELIMINATED), reason="alone with the enemy"))
    if targets(ctx.state, b.zone, win) and spoils_options(ctx.state, b.zone, win, win == b.attacker):
        ask(ctx, msgspec.structs.replace(b, stage="spoils:" + win), SPOILS, win)


def spoils_options(s: MonferratoState, zone: str, seat: str, won_attacking: bool) -> list[dict[str, Any]]:
    """§10: convert up to the enemy forts there (within the seat's counters), the rest destroyed; §9.4: a town
    may be destroyed by the attacker who won there, unless the defenders had a fort (then only the fort goes)."""
    enemy = [o for o in s.forts.get(zone, []) if o != seat]
    town = (won_attacking and data().zones[zone].town and zone not in s.towns_destroyed and not enemy)
    if not enemy and not town:
        return []
    most = min(len(enemy), max(0, s.fort_counters.get(seat, 0)))
    return [{"type": "take_forts", "convert": n, "destroy_town": t}
            for n in range(most + 1) for t in ((False, True) if town else (False,))]


def take_forts(ctx: Decision[MonferratoState], zone: str, seat: str, convert: int, destroy_town: bool) -> None:
    enemy = [o for o in ctx.state.forts.get(zone, []) if o != seat]
    ctx.emit(ev.FortsTaken(zone=zone, seat=seat, converted=convert, destroyed=len(enemy) - convert,
                           town_destroyed=destroy_town, rule=str(R.TOWNS if destroy_town else R.FORTS)))


def forts_alone(ctx: Decision[MonferratoState], plan: Plan, seat: str) -> None:
    """§10: combat units entering a zone where enemy forts stand alone take them."""
    zone = plan.path[-1] if plan.path else plan.origin
    s = ctx.state
    if (plan.path and targets(s, zone, seat) and not side_units(s, zone, other(seat))
            and spoils_options(s, zone, seat, False)):
        b = ev.Battle(zone=zone, attacker=seat, origin=plan.origin, stage="spoils:" + seat)
        ask(ctx, b, SPOILS, seat)


def answer(ctx: Decision[MonferratoState], frame: core.Frame[ev.BattleAwaited], command: Any) -> None:
    """The one handler of the battle's decisions: closes the frame, then the battle goes on."""
    close_frame(ctx, frame)
    b, seat = frame.ctx.battle, frame.ctx.seat
    match frame.kind:
        case "support":
            call(ctx, b, command.unit)
        case "response":
            respond(ctx, b, command.chit)
        case "take_hit":
            take_hit(ctx, b, seat, command.unit)
        case "continue":
            go_on(ctx, b, seat, command.go)
        case "retreat":
            retreat(ctx, b, seat, command.to)
        case "spoils":
            take_forts(ctx, b.zone, seat, command.convert, command.destroy_town)
        case "place":
            place(ctx, b, command.unit, command.zone)


def options(s: MonferratoState, frame: core.Frame[ev.BattleAwaited], seat: str) -> list[dict[str, Any]]:
    b = frame.ctx.battle
    if seat != frame.ctx.seat:
        return []
    match frame.kind:
        case "support":
            return support_options(s, b)
        case "response":
            return response_options(s, b)
        case "take_hit":
            return take_options(s, b, seat)
        case "continue":
            return [{"type": "continue_battle", "go": True}, {"type": "continue_battle", "go": False}]
        case "retreat":
            return [{"type": "retreat", "to": z} for z in retreat_options(s, b, seat)]
        case "spoils":
            won_attacking = seat == b.attacker and b.stage == "spoils:" + seat and bool(b.hits)
            return spoils_options(s, b.zone, seat, won_attacking)
        case "place":
            unit = b.stage.split()[1]
            return [{"type": "place_commander", "unit": unit, "zone": z} for z in place_options(s, unit)]
    return []
