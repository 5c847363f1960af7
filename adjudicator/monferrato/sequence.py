"""The sequence of play (monferrato §4, §4.1): set-up, the command marker drawn from the cup, the activation's end,
the end of the turn (stacking §12, the timeline, raids, camps, Morale -1, reinforcement arrivals §16.3, the cup
refilled, the red chits of March 1629 §16.4) and the end of the game (§17)."""

from __future__ import annotations

from arbitro.adjudicator.monferrato import chits, supply
from arbitro.adjudicator.monferrato import rules as R
from arbitro.adjudicator.monferrato.common import Illegal, army_units, data, kind, printed_fire, unchanged, units_in
from arbitro.adjudicator.monferrato.readings import reading
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import monferrato as ev
from arbitro.projections.monferrato import ELIMINATED, SEATS, MonferratoState, Unit

STACK_LIMIT = 6  # monferrato §12
Interp = chits.Interp


def new_state() -> MonferratoState:
    """The scenario's set-up (monferrato scenario, §4): units, forts, morale, the red chits set aside, the blue in
    the cup (the hands are dealt by `start`, from the game's random source)."""
    d = data()
    sc = d.scenario
    s = MonferratoState(turn=d.turn_index[sc.first_turn], last_turn=d.turn_index[sc.last_turn])
    s.units = {u.id: Unit() for u in d.oob.units}
    for where in sc.setup.values():
        for zone, units in where.items():
            for u in units:
                s.units[u].zone = zone
    s.forts = {z: list(owners) for z, owners in sorted(sc.forts.items())}
    s.fort_counters = {seat: n - sum(o.count(seat) for o in s.forts.values()) for seat, n in sc.fort_counters.items()}
    s.morale = {nation: sc.morale for nations in d.oob.factions.values() for nation in nations}
    s.vp = {seat: 0 for seat in SEATS}
    s.walls = {f"{b.zones[0]}/{b.zones[1]}" if d.zones[b.zones[0]].fortress else f"{b.zones[1]}/{b.zones[0]}":
               b.wall.level for b in d.map.borders if b.wall}
    s.red_aside = sorted(c.id for c in d.chit_table.chits if c.colour == "red")
    s.chit_cup = sorted(c.id for c in d.chit_table.chits if c.colour == "blue")
    s.cup = sorted(sc.initial_commands)
    return s


def start(ctx: Decision[MonferratoState]) -> None:
    """monferrato §4, scenario: four chits to each player, the first player first (Pro-France with chit 5 and three
    drawn); then the first command marker is drawn."""
    sc = data().scenario
    order = (sc.first_player, *(x for x in SEATS if x != sc.first_player))
    for seat in order:
        opening = tuple(sc.opening_chits.get(seat, ()))  # type: ignore[call-overload]
        cup = [c for c in ctx.state.chit_cup if c not in opening]
        drawn = ctx.draw(cup, sc.hand - len(opening), purpose=f"{R.SETUP} chits dealt to {seat}",
                           visible_to=(seat,))
        ctx.emit(ev.ChitsDealt(seat=seat, chits=(*opening, *drawn), public=opening, rule=str(R.SETUP)))
    next_activation(ctx)


def next_activation(ctx: Decision[MonferratoState]) -> None:
    """monferrato §4.1 a-c: draw the next marker; once the cup is empty, end the turn (d-e) and draw again."""
    s = ctx.state
    if s.phase == "over":
        return
    if not s.cup:
        end_turn(ctx)
        if ctx.state.phase == "over" or not ctx.state.cup:
            return
    s = ctx.state
    command = ctx.draw(sorted(s.cup), 1, purpose=f"{R.DRAW_COMMAND} command marker")[0]
    seat = data().faction_of_nation(data().army(command))
    ctx.emit(ev.CommandDrawn(command=command, seat=seat, rule=str(R.DRAW_COMMAND)))
    supply.check_command(ctx, command)


def end_activation(ctx: Decision[MonferratoState]) -> None:
    """monferrato §4.1 b.3, §5.2: the marker to the activated box; then the next one is drawn."""
    act = ctx.state.activation
    if act is None:
        return
    ctx.emit(ev.ActivationEnded(command=act.command, rule=str(R.ACTIVATE_UNITS)))
    next_activation(ctx)


# --- the end of the turn (monferrato §4.1 d-e) -----------------------------------------------------
def stacking(ctx: Decision[MonferratoState]) -> None:
    """monferrato §12: more than six infantry and cavalry in a zone: as many in good order as the excess are
    disorganised (those of the lowest fire first, then by id: interpretation `stacking_choice`)."""
    s, d = ctx.state, data()
    with unchanged(s):  # every zone's stack in one pass over the units (a disorganisation moves nobody)
        stacks = {zone: [u for u in units_in(s, zone) if kind(u) in ("infantry", "cavalry")] for zone in sorted(d.zones)}
    for zone, foot in stacks.items():
        excess = len(foot) - STACK_LIMIT
        if excess <= 0:
            continue
        strongest = reading(s, "stacking_choice") == "strongest_first"
        fresh = sorted((u for u in foot if not s.units[u].disorganised),
                       key=lambda u: (-printed_fire(s, u) if strongest else printed_fire(s, u), u))
        if fresh[:excess]:
            ctx.emit(ev.StackingChecked(zone=zone, units=tuple(fresh[:excess]), rule=str(R.STACKING)))


def end_turn(ctx: Decision[MonferratoState], interp: Interp | None = None) -> None:
    """monferrato §4.1 d-e."""
    stacking(ctx)
    s, d = ctx.state, data()
    nxt = s.turn + 1
    if nxt > s.last_turn:  # monferrato §17: the turn marker passes the end marker
        finish(ctx)
        return
    new_year = d.turn(nxt).year != d.turn(s.turn).year
    cup = tuple(sorted({d.units[u].command for u in s.units if s.units[u].zone in d.zones and kind(u) != "camp"}))
    moved = tuple(sorted(u for u, x in s.units.items() if x.moved and kind(u) == "camp"))
    if moved:
        ctx.emit(ev.CampFlipped(units=moved, rule=str(R.CAMP)))
    ctx.emit(ev.TurnBegan(turn=nxt, name=d.turn(nxt).name, cup=cup, raids_cleared=new_year, rule=str(R.END_OF_TURN)))
    if d.turn(nxt).morale_minus:
        for nation in sorted(ctx.state.morale):
            chits.change_morale(ctx, nation, -1, R.MORALE, "Morale -1 on the timeline")
    for nation in sorted(ctx.state.morale):
        if camp_out_of_play(ctx.state, nation):
            chits.change_morale(ctx, nation, -1, R.CAMP, "its camp is out of play")
    chits.arrival_rolls(ctx)
    if d.turn(nxt).id == d.scenario.red_chits_from:
        chits.red_chits(ctx)


def camp_out_of_play(s: MonferratoState, nation: str) -> bool:
    """monferrato §14.5: an army whose camp has been eliminated (not one whose camp has not yet arrived)."""
    return any(kind(u) == "camp" and s.units[u].zone == ELIMINATED for u in army_units(s, nation))


def finish(ctx: Decision[MonferratoState]) -> None:
    """monferrato §17, scenario: the geographic objectives go to the player whose units occupy them; the more
    victory points win; a tie is a draw."""
    s, d = ctx.state, data()
    for zone, points in sorted(d.scenario.victory_zones.items()):
        holders = {d.faction(u) for u in units_in(s, zone)}
        if len(holders) == 1:
            seat = holders.pop()
            ctx.emit(ev.VictoryPoints(seat=seat, delta=points, rule=str(R.END), reason=f"occupies {zone}"))
    vp = dict(ctx.state.vp)
    a, b = SEATS
    winner = a if vp[a] > vp[b] else b if vp[b] > vp[a] else ""
    ctx.emit(ev.GameEnded(winner=winner, vp=vp, rule=str(R.END)))


def require_activation(s: MonferratoState, seat: str) -> None:
    act = s.activation
    if s.phase == "over":
        raise Illegal(R.END, "the game is over")
    if act is None or act.seat != seat:
        whose = act.seat if act else "nobody"
        raise Illegal(R.SEQUENCE, f"it is {whose}'s activation ({act.command if act else 'none'})")
