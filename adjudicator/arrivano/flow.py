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
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.decisions import close_frame, update_frame
from arbitro.adjudicator.parabellum import advance, escape, retreat_ground, rout
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
    assault's below the other kinds (Act.assault_frames)."""
    g.assault_frames().push(kind, (seat,) if seat else (), rule, prompt(kind, rule), context)


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
    with g.assault_frames().lifted(stack[:depth]):
        update_frame(g.ctx, stack[depth], context)


def prompt(kind: str, rule: str) -> str:
    return f"decide the {kind.replace('_', ' ')} ({rule})"


# ================================================================================================
# Losses, commanders (disorder and the retreats it forces: the kernel's parabellum/retreat_frame.py)
# ================================================================================================


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
            push(g, escape.ESCAPE, le.side, str(R.COMMANDER_ZOC_ESCAPE), ev.EscapeAwaited(leader=lid, forced=True))
        elif w.grid.is_adjacent(le.hex, arrived) and not (
                g.reading("commander_escape_scope") == "lone_only" and w.units_at(le.hex)):
            push(g, escape.ESCAPE, le.side, str(R.COMMANDER_ESCAPE), ev.EscapeAwaited(leader=lid, forced=False))


def advance_into(g: Act, movers: list[str], h: str) -> None:
    """arrivano §12.7: the kernel's advance (parabellum/advance.advanced; one unit alone, §12.7.2, or several of a
    stack with the commanders of their formation, §12.7.3), then what the arrival causes: rout tests (§15.2), the
    enemy commanders' escape (§4.5.6, §8.2.3)."""
    advance.advanced(g, ARRIVANO_VARIANT, movers, h)
    rout.checks(g, ARRIVANO_VARIANT, h)
    commander_checks(g, h)


def rout_move(g: Act, uid: str, to: str, off_map: bool) -> None:
    """Carry out an accepted rout move: a permitted line, or a stop in a village, redoubt or friendly general's hex
    (its own hex: no move) (arrivano §15.2.2); the routed enemies next to its end then test as after any move
    ("devono muovere"; off the map, §12.8.1, the kernel's retreat_ground.take)."""
    w = g.world()
    line = next((ln for ln in lines(ARRIVANO_VARIANT, w, [uid], 2, ignore_ezoc=True) if ln.to == to and ln.off_map == off_map), None)
    stop, reason = line is None, RT.stop_reason(w, uid, to) or ""
    if stop and to != w.state.units[uid].hex:
        line = Line(path=(to,), to=to)
    if line is not None:
        retreat_ground.take(g, ARRIVANO_VARIANT, [uid], line, R.ROUT_MOVE)  # enemy ZoC ignored: it routs nobody
        if not line.off_map:
            rout.checks(g, ARRIVANO_VARIANT, line.to)
    if stop:
        g.emit(ev.RoutStopped(unit=uid, hex=to, reason=reason, rule=str(R.ROUT_MOVE)))
