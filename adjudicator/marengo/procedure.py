"""The procedure driver: after every command, advance the nested procedures (losses inside retreats inside
manoeuvres or assaults) until a seat must decide; and `pending()`, which names that decision.

Innermost first: a loss task, then a retreat, then an attack manoeuvre or an assault. The loss queue, the retreat,
the manoeuvre and the bombardment's target choice are frames on the engine's decision stack (steps.py),
which the engine reads before `pending()`; while a choice is open there nothing advances here.
When nothing is under way, the blocks revealed only for a procedure are hidden again
(marengo §9, §10, §11, §12: "tornerà ad essere nascosto").
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator.marengo import assault, losses, manoeuvre, retreat
from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.common import Interp, by_content, hide, on_map
from arbitro.adjudicator.ruleset import Pending, Rule
from arbitro.projections.marengo import MarengoState, other

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
        s = ctx.state
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
        if s.assault is not None:
            if assault.step(ctx, interp):
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


def pending(state: MarengoState, interp: Interp) -> Pending | None:
    p = _pending(state, interp)
    if p is not None and p.options:
        # option order by content (tokens), never by internal id
        p = msgspec.structs.replace(p, options=by_content(p.options))
    return p


def _pending(state: MarengoState, interp: Interp) -> Pending | None:
    if state.assault is not None:
        a = state.assault
        kinds = {"defensive_artillery": (other(a.side), R.DEF_ARTILLERY, "decide whether the defending artillery fires"),
                 "defending_leaders": (other(a.side), R.DEF_LEADERS, "choose the defending leaders (0 to the limit)"),
                 "pursuit": (a.winner, R.PURSUIT, "choose the pursuing cavalry (none: no pursuit)"),
                 "advance": (a.side, R.CONQUEST, "advance into the conquered zone, or stay")}
        if a.stage in kinds:
            seat, rule, prompt = kinds[a.stage]
            return Pending(seat=seat, kind=a.stage, rule=str(rule), prompt=prompt,
                           options=assault.options(state, seat, interp))
    return None
