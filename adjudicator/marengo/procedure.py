"""The procedure driver: after every command, advance the nested procedures (losses inside retreats inside
manoeuvres or assaults) until a seat must decide.

Every procedure under way is a frame on the engine's decision stack (steps.py), innermost on top: a loss task,
then a retreat, then an attack manoeuvre or an assault; the top one moves on until a seat must answer it.
When nothing is under way, the blocks revealed only for a procedure are hidden again
(marengo §9, §10, §11, §12: "tornerà ad essere nascosto").
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.marengo import assault, losses, manoeuvre, retreat
from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.common import Interp, hide, on_map
from arbitro.adjudicator.ruleset import Rule

# reveal reason -> the rule that hides it again when its procedure is over
TEMPORARY: dict[str, Rule] = {
    "loss": R.LOSSES,
    "retreat": R.RETREAT,
    "manoeuvre_infantry": R.MANOEUVRE,
    "road_cavalry": R.MANOEUVRE,
    "assault_leader": R.ASSAULT,
    "defensive_artillery": R.ASSAULT,
    "defending_leader": R.ASSAULT,
    "pursuit": R.ASSAULT,
}


def run(ctx: Any, interp: Interp) -> None:
    for _ in range(1000):
        if losses.frame(ctx.game) is not None:
            if losses.process(ctx):
                return
            continue
        top = retreat.frame(ctx.game)
        if top is not None:
            if retreat.step(ctx, top):
                return
            continue
        m = manoeuvre.frame(ctx.game)
        if m is not None:
            if manoeuvre.step(ctx, m, interp):
                return
            continue
        a = assault.frame(ctx.game)
        if a is not None:
            if assault.step(ctx, a, interp):
                return
            continue
        if ctx.game.core.decisions:  # a decision on the stack (e.g. the bombardment's target) is under way
            return
        cleanup(ctx, interp)
        return
    raise RuntimeError("marengo: runaway procedure")


def cleanup(ctx: Any, interp: Interp) -> None:
    s = ctx.state
    reasons = dict(TEMPORARY)
    if interp("continuation_face_up") == "end_of_move":
        reasons["continuation"] = R.CONTINUATION
    for reason in sorted(reasons):
        ids = [b for b, x in s.blocks.items() if x.face_up and on_map(x) and x.reveal == reason]
        if ids:
            hide(ctx, ids, f"end of {reason.replace('_', ' ')}", reasons[reason])
