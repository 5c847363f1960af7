"""Retreats: which lines of retreat are permitted and what happens at their end (arrivano §12.6-§12.6.3, §12.8.1,
§15.2, §15.2.2; Campotenese retreat flags §17.2.1; artillery with bombarded units §11.1).

The permitted lines, in order of the rules that narrow them (docs/rulesets/arrivano.md §0, interpretations
`off_map_retreat`, `neapolitan_retreat_flags`, `rout_stop_general`):
1. every path of the retreat's length through hexes free of enemy units (§12.6), ranked by retreat_options
   (ending farther from every enemy if possible, then farthest from the nearest);
2. an end where stacking allows (§12.6.2, "comprese le EZoC": a fitting end in EZoC beats going on); if none fits,
   the retreat goes on one more hex from the ends it would take, and so on (at most retreat.BY_END_EXTRA hexes);
3. among those, the ones that avoid EZoC if any (§12.6.1), then the best-ranked; one line per end hex, the owner
   choosing among them (§12.6);
4. off the map (§12.8.1, reading `off_map_retreat`): `only_way` - only when no line of the full length stays on the
   map, through any map-edge hex reached with hexes still to go; `farthest` - leaving counts as the farthest end,
   so an exit, when one exists, is the only permitted retreat.
Steps 1-4 are the kernel's `parabellum.retreat.by_end` (Arrivano's `retreat_lines`, D34).
The owner also splits a stack (§12.6 "Due unità in stack insieme possono ritirarsi in esagoni differenti"): an
answer names the units that take the line (`ArrivanoVariant.retreat_parts`); the rest of the stack then answers again
(the pending retreat is the kernel's, parabellum/retreat_frame.py).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano.variant import ARRIVANO, ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum.before_combat import still_here
from arbitro.adjudicator.parabellum.retreat import Line
from arbitro.adjudicator.parabellum.retreat_frame import RETREAT
from arbitro.adjudicator.parabellum.retreat_ground import before_combat_lines, lines
from arbitro.adjudicator.parabellum.sight import unexaminable
from arbitro.adjudicator.parabellum.stacking import fits
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import core


# --- the pending retreat: its answers ------------------------------------------------------------------------


def asks_owner(w: World, frame: core.Frame[Any]) -> bool:
    """Whether a retreat or rout move left with one answer still waits for its owner (arrivano §11.3.2): every seat
    is served which seat the game awaits, and the lines end only where the stack fits (§7.1, §12.6.2), on the
    owner's stacks the enemy may not examine; so it waits wherever more than one line starts whatever the stacks,
    and a rout wherever it might stop in a hex the enemy may not examine (a friendly general's, §15.2.2), as
    retreat_ground.before_combat_asked does for §14.1. A retreat asks one stack at a time (the first part listed)."""
    if frame.kind == RETREAT:
        moves = {u: n for u, n in frame.ctx.moves.items() if w.on_map(u)}
        stack = (ARRIVANO_VARIANT.retreat_parts(w, moves) or [[]])[0]
        return any(len(lines(ARRIVANO_VARIANT, w, [u], moves[u], stacking=False)) > 1 for u in stack)
    uid = frame.ctx.unit
    blind = lines(ARRIVANO_VARIANT, w, [uid], 2, ignore_ezoc=True, stacking=False)
    stops = {w.state.units[uid].hex} | {ln.path[0] for ln in blind if ln.path}
    return len(blind) > 1 or bool(unexaminable(w, w.enemy(w.side_of(uid)), stops, ARRIVANO_VARIANT.fog_reach(w)))


def _ends(opts: list[dict[str, Any]]) -> str:
    return ", ".join(sorted({o["to"] + (" off the map" if o.get("off_map") else "") for o in opts})) or "none"


# --- the pending retreats before combat (§14.1, §16.3.5) ----------------------------------------------------------


def light_answers(w: World, frame: core.Frame[Any]) -> list[dict[str, Any]]:
    """Every accepted answer to a pending light retreat (§16.3.5): a V unit still in the hex and one of its lines,
    or none (`unit` null: the step ends)."""
    out = [{"type": "light_retreat", "unit": u, "to": ln.to, "off_map": ln.off_map}
           for u in still_here(w, frame) for ln in before_combat_lines(ARRIVANO_VARIANT, w, [u])]
    return out + [{"type": "light_retreat", "unit": None, "to": None, "off_map": False}]


# --- the pending rout move (§15.2.2) -----------------------------------------------------------------------------


def stop_reason(w: World, uid: str, h: str) -> str | None:
    """Why a routed unit may stop its end-phase rout in `h` (arrivano §15.2.2): a village ("Villaggio": farms,
    "cascine", are not named there), a redoubt, or a friendly general (interpretation rout_stop_general:
    generals_and_chief - any friendly general or the commander in chief, not officers; own_general - its own)."""
    stop = _terrain_stop(w, h)
    if stop is not None:
        return stop
    unit = w.state.units[uid]
    own = w.reading("rout_stop_general") == "own_general"
    for lid in w.leaders_at(h):
        le = w.state.leaders[lid]
        if le.side != unit.side:
            continue
        if own and lid == w.state.formations[unit.formation].general:
            return f"its general {lid}"
        if not own and le.role in ("general", "commander_in_chief"):
            return f"friendly {le.role.replace('_', ' ')} {lid}"
    return None


def _terrain_stop(w: World, h: str) -> str | None:
    """The name a rout stop in `h` is given by its terrain (the table's `rout_stop`), or None. In a hex with two such
    terrains (a village with a redoubt: no shipped map has one) the first in the terrain table's own order names it,
    "village" before "redoubt" as the table lists them, whatever order the map lists the hex's terrains in."""
    here = w.hexmap.hex(h).terrains
    return next((e.rout_stop for name, e in w.terrain_table.terrain.items() if name in here and e.rout_stop is not None),
                None)


def rout_stops(w: World, uid: str, moves: list[Line]) -> dict[str, str]:
    """Where the rout may stop: the unit's own hex, or the first hex of a permitted line, if it qualifies (and, for
    the first hex, stacking allows: a routed unit stands alone, §7.1.1)."""
    start = w.state.units[uid].hex
    out: dict[str, str] = {}
    why = stop_reason(w, uid, start)
    if why is not None:
        out[start] = why
    for ln in moves:
        if ln.path and ln.path[0] not in out and fits(w, ln.path[0], [uid]):
            why = stop_reason(w, uid, ln.path[0])
            if why is not None:
                out[ln.path[0]] = why
    return out


def rout_answers(w: World, frame: core.Frame[Any]) -> list[dict[str, Any]]:
    uid = frame.ctx.unit
    unit = w.state.units[uid]
    if unit.where != "map" or unit.status != "routed":
        return []
    moves = lines(ARRIVANO_VARIANT, w, [uid], 2, ignore_ezoc=True)
    out = [{"type": "rout_move", "to": ln.to, "off_map": ln.off_map} for ln in moves]
    ends = {ln.to for ln in moves if not ln.off_map}
    out += [{"type": "rout_move", "to": h, "off_map": False} for h in sorted(rout_stops(w, uid, moves)) if h not in ends]
    return out


def rout_refusal(w: World, frame: core.Frame[Any], answer: dict[str, Any], opts: list[dict[str, Any]]) -> tuple[Rule, str]:
    return R.ROUT_MOVE, (f"{answer['to']} is neither the end of a permitted two-hex rout away from the enemy nor a "
                         f"village, redoubt or friendly general's hex where the rout may stop; permitted: {_ends(opts)}")


# --- the §11.1 artillery choice ----------------------------------------------------------------------------------


def artillery_answers(w: World, frame: core.Frame[Any]) -> list[dict[str, Any]]:
    guns = list(frame.ctx.artillery)
    return [{"type": "artillery_retreat", "units": list(part)}
            for k in range(len(guns), -1, -1) for part in combinations(guns, k)]


def artillery_refusal(w: World, frame: core.Frame[Any], answer: dict[str, Any], opts: list[dict[str, Any]]) -> tuple[Rule, str]:
    guns = ", ".join(frame.ctx.artillery)
    return ARRIVANO.ARTILLERY_STACKED, f"only the guns stacked with the bombarded units may go with them: {guns}"


__all__ = ["Line", "artillery_answers", "artillery_refusal", "light_answers", "rout_answers",
           "rout_refusal", "rout_stops", "stop_reason"]
