"""marengo §13 demoralisation (the +5 bonus; the effects live where they apply: assault declaration,
defence strength, mid-assault) and §14 victory."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.common import Interp, data
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import marengo as ev
from arbitro.projections.marengo import SIDES, MarengoState, other

BONUS = 5


def start_of_turn(ctx: Any, interp: Interp) -> None:
    """marengo §13: the army not demoralised, facing a demoralised one, gains five morale (interpretation
    morale_bonus: once, or at the start of every round)."""
    s = ctx.state
    for side in SIDES:
        if s.demoralised.get(side) or not s.demoralised.get(other(side)):
            continue
        if interp("morale_bonus") == "once":
            if not s.bonus_given.get(side):
                ctx.emit(ev.MoraleBonus(side=side, amount=BONUS, rule=str(R.DEMORALISATION)))
        elif s.phasing == "austria":
            ctx.emit(ev.MoraleBonus(side=side, amount=BONUS, rule=str(R.DEMORALISATION)))


def star_zones_held(state: MarengoState, side: str) -> list[str]:
    d = data()
    return sorted(z for z, spec in d.zones.items()
                  if spec.star and any(b.side == side and b.zone == z for b in state.blocks.values()))


def victory(state: MarengoState) -> tuple[str, str, Rule]:
    """marengo §14: demoralisation first; else Austria needs two star zones of two colours."""
    a, f = bool(state.demoralised.get("austria")), bool(state.demoralised.get("france"))
    if a != f:
        winner = "france" if a else "austria"
        return winner, f"{other(winner)} is demoralised and {winner} is not", R.VICTORY
    held = star_zones_held(state, "austria")
    colours = sorted({data().zones[z].star or "" for z in held})
    if len(held) >= 2 and len(colours) >= 2:
        return "austria", f"Austria holds star zones {', '.join(held)} ({', '.join(colours)})", R.VICTORY
    return "france", (f"Austria holds {len(held)} star zone(s) of {len(colours)} colour(s): "
                      "it needs two of two colours"), R.VICTORY
