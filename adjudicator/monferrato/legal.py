"""Every command a seat may send now (monferrato §5, §6, §7.4.3, §16), built from the same checks `decide` runs.
The decisions on the engine's stack list their own answers (steps.py)."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.monferrato import chits, movement, raids, replacements, siege
from arbitro.adjudicator.monferrato.common import Illegal
from arbitro.adjudicator.monferrato.readings import reading
from arbitro.projections.monferrato import MonferratoState


def legal(s: MonferratoState, seat: str) -> list[dict[str, Any]]:
    act = s.activation
    if s.phase == "over" or act is None or act.seat != seat or act.drew:
        return []
    hand = sorted(s.hands.get(seat, []))
    mandatory = chits.mandatory_in_hand(s, seat)
    out: list[dict[str, Any]] = []
    for c in hand:
        try:
            chits.check_play(s, seat, c)
        except Illegal:
            continue
        out.append({"type": "play_chit", "chit": c})
    if act.chits == 0 and mandatory:
        return out  # monferrato §16.1: the mandatory chit first
    try:
        chits.check_draw(s, seat, lambda name: reading(s, name))
        out.append({"type": "draw_chit"})
    except Illegal:
        pass
    if not act.zones:
        out += movement.activation_options(s)
    out += movement.move_options(s, seat)
    out += movement.recover_options(s, seat)
    out += replacements.camp_options(s, seat)
    for zone, free in movement.actors(s, seat):
        out += siege.bombard_options(s, seat, free, zone)
        out += siege.siege_options(s, seat, free, zone)
        out += siege.fort_options(s, seat, free)
        out += raids.raid_options(s, seat, free, zone)
    out.append({"type": "end_activation"})
    return out
