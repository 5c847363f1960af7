"""Units coming back into play: replacements (monferrato §16.6) and the camp's return (§14.5).

Replacements are spent when their chit is played, one unit at a time (a decision on the stack): eliminated units of
the activated command, of the kinds the chit names, back in good order in zones holding units of that command, at
most four a zone; what is not spent is lost. An eliminated camp comes back at a supply source of its army holding
friendly units, during an activation of any command of that army.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.decisions import close_frame, open_frame, update_frame
from arbitro.adjudicator.monferrato import rules as R
from arbitro.adjudicator.monferrato.common import Illegal, command_units, data, kind, units_in
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import core
from arbitro.events import monferrato as ev
from arbitro.projections.monferrato import ELIMINATED, MonferratoState

KIND = "replacements"
PER_ZONE = 4  # monferrato §16.6


def begin(ctx: Decision[MonferratoState], seat: str, command: str, kinds: tuple[str, ...], count: int) -> None:
    context = ev.ReplacementsAwaited(seat=seat, command=command, kinds=kinds, left=count, placed=())
    if count > 0 and options(ctx.state, context)[:-1]:
        open_frame(ctx, KIND, (seat,), str(R.REPLACEMENTS), "bring back an eliminated unit, or no more", context)


def options(s: MonferratoState, c: ev.ReplacementsAwaited) -> list[dict[str, Any]]:
    d = data()
    dead = sorted(u for u, x in s.units.items()
                  if x.zone == ELIMINATED and d.units[u].command == c.command and d.units[u].kind in c.kinds)
    zones = sorted({s.units[u].zone for u in command_units(s, c.command)} - {z for z in c.placed
                                                                            if c.placed.count(z) >= PER_ZONE})
    out = [{"type": "replace", "unit": u, "zone": z} for u in dead for z in zones] if c.left > 0 else []
    return out + [{"type": "replace", "unit": None, "zone": None}]


def answer(ctx: Decision[MonferratoState], frame: core.Frame[ev.ReplacementsAwaited], unit: str | None,
           zone: str | None) -> None:
    c = frame.ctx
    if unit is None or zone is None:
        close_frame(ctx, frame)  # §16.6: what is not spent now is lost
        return
    ctx.emit(ev.Replaced(unit=unit, zone=zone, rule=str(R.REPLACEMENTS)))
    rest = ev.ReplacementsAwaited(seat=c.seat, command=c.command, kinds=c.kinds, left=c.left - 1,
                                  placed=(*c.placed, zone))
    if rest.left and options(ctx.state, rest)[:-1]:
        update_frame(ctx, frame, rest)
    else:
        close_frame(ctx, frame)


# --- the camp (monferrato §14.5) ---------------------------------------------------------------------
def camp_options(s: MonferratoState, seat: str) -> list[dict[str, Any]]:
    act, d = s.activation, data()
    if act is None or act.seat != seat:
        return []
    nation = d.army(act.command)
    sources = d.scenario.supply_sources.get(act.command, ())
    out = []
    for u, x in sorted(s.units.items()):
        if kind(u) == "camp" and d.units[u].nation == nation and x.zone == ELIMINATED:
            out += [{"type": "return_camp", "unit": u, "zone": z} for z in sources if units_in(s, z, seat)]
    return out


def check_camp(s: MonferratoState, seat: str, unit: str, zone: str) -> None:
    if {"type": "return_camp", "unit": unit, "zone": zone} not in camp_options(s, seat):
        raise Illegal(R.CAMP, "a camp comes back only once eliminated, at a supply source of the activated "
                              "command's army that holds friendly units")


def return_camp(ctx: Decision[MonferratoState], unit: str, zone: str) -> None:
    ctx.emit(ev.Replaced(unit=unit, zone=zone, rule=str(R.CAMP)))
