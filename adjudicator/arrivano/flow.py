"""Arrivano i Francesi!: its frames on the engine's decision stack and the procedures every rule shares (efficiency
tests, losses, commanders, retreats and advances), on the kernel's decision context (parabellum/act.Act). The turn's frame is turn.py's, an activation activation.py's; both build on
this module.

Every handler validates (g.reject with the citation) and emits events; dice go through g.roll with the
table, hex and modifiers in `detail` (never a unit id: the hex is public, the stack's content may not be).
Multi-step procedures push frames on the engine's decision stack (`push`); steps.py lists and answers them, and settles the ones that
need no choice. This module is the lowest: the rule modules (assault, bombardment, movement, open order) and the
sequence (turn.py, activation.py) build on it, so it imports none of them.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.arrivano import retreats as RT
from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano.retreats import Line
from arbitro.adjudicator.arrivano.variant import ARRIVANO, ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.decisions import close_frame, update_frame
from arbitro.adjudicator.parabellum import advance, efficiency, elimination, retreat_ground, rout
from arbitro.adjudicator.parabellum.assault_frame import AssaultFrames
from arbitro.adjudicator.parabellum.retreat_ground import lines
from arbitro.events import arrivano as ev
from arbitro.events import core
from arbitro.events.core import FrameContext
from arbitro.projections.game import awaited


# --- pending decisions: frames on the engine's decision stack (arbitro §S.3), one context per kind
# (ev.ARRIVANO_CONTEXTS). The assault's decisions (ev.ASSAULT_KINDS) wait below the other kinds, as they did
# when they had a stack of their own: one opened while others wait above the assault's goes in under them.

def push(g: Act, kind: str, seat: str, rule: str, context: FrameContext) -> None:
    """Open a decision of `kind` for `seat` ("": nobody answers it; it waits below what is above it), an
    assault's below the other kinds (`frames`)."""
    frames(g).push(kind, (seat,) if seat else (), rule, prompt(kind, rule), context)


def frames(g: Act) -> AssaultFrames:
    """The stack as the assault uses it: its decisions (ev.ASSAULT_KINDS) wait below every other kind, as when
    they had a stack of their own; the assault in progress is one frame (kind ASSAULT) below them."""
    return AssaultFrames(g.ctx, ev.ASSAULT_KINDS, ev.ARRIVANO_CONTEXTS)


def top(g: Act) -> core.Frame[Any] | None:
    """This game's decision awaited now (its typed context: ev.ARRIVANO_CONTEXTS)."""
    frame = awaited(g.ctx.game.core)
    return frame if frame is not None and frame.kind in ev.ARRIVANO_CONTEXTS else None


def clear(g: Act, frame: core.Frame[Any]) -> None:
    """Close the decision on top (`frame`, as `top` gave it)."""
    on_top = top(g)
    assert on_top is not None and on_top.kind == frame.kind, f"{frame.kind} is not the decision on top"
    close_frame(g.ctx, on_top)


def waiting(g: Act, kind: str) -> core.Frame[Any] | None:
    """The topmost decision of `kind`, whatever waits above it."""
    return next((f for f in reversed(g.ctx.game.core.decisions) if f.kind == kind), None)


def revise(g: Act, kind: str, context: FrameContext) -> None:
    """Rewrite the context of the topmost decision of `kind`, wherever it waits (the DR test below its hexes'
    retreats and choices): the frames above it are lifted for the revision, as `push` lifts them."""
    stack = list(reversed(g.ctx.game.core.decisions))
    depth = next(i for i, frame in enumerate(stack) if frame.kind == kind)
    with frames(g).lifted(stack[:depth]):
        update_frame(g.ctx, stack[depth], context)


def prompt(kind: str, rule: str) -> str:
    return f"decide the {kind.replace('_', ' ')} ({rule})"


# ================================================================================================
# Losses, disorder, commanders
# ================================================================================================


def disorder_by_combat(g: Act, units: list[str], rule: Any, assault: bool = True) -> None:
    """One disorder level from a combat result (`rule`); a unit it routs (the kernel's rout.disorder, §15.1.1) must
    retreat two hexes at once, enemy ZoC ignored, or is eliminated if it cannot (arrivano §15.2.1: "si deve
    immediatamente ritirare di 2 esagoni"; issue 19 defect 2), stack by stack. After an `assault` the guns stacked
    with it are eliminated (§11.1); the advance into a hex the retreats leave empty (§12.7) is the assault's stage."""
    routed = [u for u in units if rout.disorder(g, ARRIVANO_VARIANT, u, rule)]
    rout_retreats(g, routed, f"{rule}; {ARRIVANO.ROUT_COMBAT}", guns=assault)


def rout_retreats(g: Act, routed: list[str], because: str, hexes: int = rout.RETREAT_HEXES, guns: bool = True) -> None:
    """Units a combat routed retreat `hexes` hexes at once, enemy ZoC ignored (arrivano §15.2.1), stack by stack;
    when an assault forced it (`guns`) the artillery stacked with them is eliminated first, citing `because`
    (§11.1: "forzate a ritirarsi a seguito di un assalto")."""
    if guns:
        for gun in rout.guns_with(g.world(), routed):
            elimination.eliminate(g, ARRIVANO_VARIANT, gun, ARRIVANO.ARTILLERY_STACKED, because=because)
    for _, stack in efficiency.stacks(g.world(), sorted(routed)):
        push_retreat(g, stack, hexes, ARRIVANO.ROUT_COMBAT)


def after_leader_lost(g: Act, lid: str) -> None:
    fc = g.data.scenario.victory.flag_capture
    if fc is not None and lid in fc.leaders:  # arrivano §17.2.12: a flag on 4-6
        (die,) = g.roll(f"{R.CT_VICTORY} flag of a lost Maggiore", {"table": "flag capture", "needs": fc.die_min},
                        about=(g.state.leaders[lid].hex,))
        if die >= fc.die_min:
            g.emit(ev.FlagCaptured(leader=lid, rule=str(R.CT_VICTORY)))


# ================================================================================================
# Retreats and advances (arrivano §12.6-§12.7, §15.2)
# ================================================================================================


def do_retreat(g: Act, units: list[str], line: Line, rule: Any, rout_move: bool = False) -> None:
    """Move `units` along a permitted line (arrivano §12.6; the kernel's retreat_ground.take), or off the map
    (§12.8.1, `leave_map`); a unit §12.6.1's disorder level routs retreats two hexes at once (§15.2.1); then the routed
    enemies next to its end test as §15.2 reads a retreat (`retreat_ground.arrived`), or as after any move where it
    was a `rout_move` (§15.2.2: "devono muovere")."""
    if line.off_map:
        start = g.state.units[units[0]].hex
        for u in units if line.path else ():
            g.emit(ev.UnitRetreated(unit=u, path=line.path, rule=retreat_ground.cited(ARRIVANO, line, str(rule))))
        leave_map(g, units, line.to, start, because=rule, carried=bool(line.path))
        return
    routed = retreat_ground.take(g, ARRIVANO_VARIANT, units, line, str(rule))
    if routed:
        rout_retreats(g, routed, f"{ARRIVANO.RETREAT_EZOC}; {ARRIVANO.ROUT_COMBAT}", guns=False)
    if rout_move:
        rout.checks(g, ARRIVANO_VARIANT, line.to)
    else:
        retreat_ground.arrived(g, ARRIVANO_VARIANT, line)


def leave_map(g: Act, units: list[str], edge: str, start: str, because: Any, carried: bool) -> None:
    """arrivano §12.8.1: units forced off the map are eliminated for good - unless they leave through one of their
    side's retreat flags (§17.2.1) and the reading neapolitan_retreat_flags is exit_not_eliminated: then they are
    out of play without counting as eliminated. Commanders left alone do not follow them off the map: they test
    once (§4.5.4), in the elimination that empties the hex, or here where no elimination emptied `start` (the last
    unit exited, or the units were `carried` along a path to the edge first)."""
    w = g.world()
    rules = g.data.scenario
    side = w.state.units[units[0]].side
    flag = next((k for k, f in sorted(rules.retreat_hexes.items()) if f.hex == edge), None)
    exited_last = False
    for u in units:
        exited_last = flag is not None and rules.retreat_hexes_side == w.state.units[u].side \
            and w.reading("neapolitan_retreat_flags") == "exit_not_eliminated"
        if exited_last:
            g.emit(ev.UnitExited(unit=u, hex=edge, flag=flag, rule=f"{R.CT_RETREAT_FLAGS}; {ARRIVANO.OFF_MAP}"))
        else:
            elimination.eliminate(g, ARRIVANO_VARIANT, u, ARRIVANO.OFF_MAP, permanent=True, because=because)
    if exited_last or carried:
        elimination.leaders_left_alone(g, ARRIVANO_VARIANT, start, side)


def push_retreat(g: Act, units: list[str], n: int, rule: Any) -> None:
    push(g, "retreat", g.state.units[units[0]].side, str(rule), ev.RetreatAwaited(moves={u: n for u in sorted(units)}))


def commander_checks(g: Act, arrived: str) -> None:
    """An enemy combat unit ended its move or advance at `arrived`: a commander in that hex must flee or is lost
    (arrivano §8.2.3); one adjacent may flee his full allowance (§4.5.6, interpretation commander_escape_scope:
    any_commander). Each is a decision of the commander's owner."""
    w = g.world()
    side = w.side_at(arrived)
    if side is None:
        return
    for lid in sorted(w.state.leaders):
        le = w.state.leaders[lid]
        if le.side == side or le.where != "map":
            continue
        if le.hex == arrived:
            push(g, "escape", le.side, str(R.COMMANDER_ZOC_ESCAPE), ev.EscapeAwaited(leader=lid, forced=True))
        elif w.grid.is_adjacent(le.hex, arrived) and not (
                g.reading("commander_escape_scope") == "lone_only" and w.units_at(le.hex)):
            push(g, "escape", le.side, str(R.COMMANDER_ESCAPE), ev.EscapeAwaited(leader=lid, forced=False))


def advance_into(g: Act, movers: list[str], h: str) -> None:
    """arrivano §12.7: the kernel's advance (parabellum/advance.advanced; one unit alone, §12.7.2, or several of a
    stack with the commanders of their formation, §12.7.3), then what the arrival causes: rout tests (§15.2), the
    enemy commanders' escape (§4.5.6, §8.2.3)."""
    advance.advanced(g, ARRIVANO_VARIANT, movers, h)
    rout.checks(g, ARRIVANO_VARIANT, h)
    commander_checks(g, h)


def rout_move(g: Act, uid: str, to: str, off_map: bool) -> None:
    """Carry out an accepted rout move: a permitted line, or a stop in a village, redoubt or friendly general's hex
    (its own hex: no move) (arrivano §15.2.2)."""
    w = g.world()
    line = next((ln for ln in lines(ARRIVANO_VARIANT, w, [uid], 2, ignore_ezoc=True) if ln.to == to and ln.off_map == off_map), None)
    if line is not None:
        do_retreat(g, [uid], line, R.ROUT_MOVE, rout_move=True)
        return
    start = w.state.units[uid].hex
    reason = RT.stop_reason(w, uid, to) or ""
    if to != start:
        do_retreat(g, [uid], Line(path=(to,), to=to), R.ROUT_MOVE, rout_move=True)
    g.emit(ev.RoutStopped(unit=uid, hex=to, reason=reason, rule=str(R.ROUT_MOVE)))
