"""Bombardment commands (caldiero §11.4; the system's bombardment step and defensive fire)."""

from __future__ import annotations


from arbitro.adjudicator.caldiero import commands as C
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.variant import CALDIERO, CALDIERO_VARIANT
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum import bombardment, rout
from arbitro.adjudicator.parabellum.retreat_frame import opened
from arbitro.adjudicator.parabellum.act import Act, refuse


def check_bombard(w: World, seat: str, cmd: C.Bombard) -> None:
    act = w.state.activation
    assert act is not None
    arts = list(cmd.artillery)
    hexes = set()
    for u in arts:
        s = w.state.units.get(u)
        if s is None or s.side != seat or s.arm != "artillery":
            refuse(R.BOMBARDMENT, f"{u} is not one of your artillery units")
        if u not in act.units:
            refuse(R.ACTION_PHASE, f"{u} is not in the active formation")
        if s.where != "map":
            refuse(R.BOMBARDMENT, f"{u} is not on the map")
        if s.art_moved:
            refuse(CALDIERO.ARTILLERY, f"{u} is on its Moved side and may not bombard (caldiero §11.0)")
        if u in act.fired:
            refuse(R.BOMBARDMENT, f"{u} has already fired (caldiero §11.4)")
        if s.status == "routed":
            refuse(CALDIERO.ROUT, f"{u} is routed")
        hexes.add(s.hex)
    if len(hexes) != 1:
        refuse(R.BOMBARD_STACK, "artillery combines its fire only when stacked in one hex (caldiero §11.4.1)")
    bombardment.weather_silences(w)  # boxes 2 and 3 as printed (caldiero §17.1.2, §17.1.3), a user's folder's as it says
    if cmd.target not in bombardment.targets(CALDIERO_VARIANT, w, arts):
        if w.grid.contains(cmd.target) and w.no_fire_into(cmd.target):
            refuse(R.MARSH, "artillery cannot bombard into a marsh (caldiero §10.2)")
        refuse(R.ARTILLERY_RANGE, f"{cmd.target} is not an enemy hex in range with a clear line of sight "
                                  f"({R.ARTILLERY_RANGE}, {w.scenario.los_rule})")


def do_bombard(a: Act, cmd: C.Bombard, defensive: bool = False) -> dict[str, int]:
    """Fire, and its effects; the retreats it causes are queued now, or (defensive fire, caldiero §11.4.5)
    returned for the assault to queue once it has withdrawn the attackers the fire hit."""
    side = a.state.units[cmd.artillery[0]].side
    result = bombardment.fire(a, CALDIERO_VARIANT, a.data.bombardment, cmd.artillery, cmd.target, defensive).result
    hit = a.world().enemy_units_at(cmd.target, side)
    if result == "-" or not hit:
        return {}
    moves: dict[str, int] = {}
    for u in hit:
        if not a.world().is_artillery(u) and rout.disorder(a, CALDIERO_VARIANT, u, R.BOMBARD_PROCEDURE):
            moves[u] = rout.RETREAT_HEXES  # routed: two hexes at once (§15.2.1)
        if result == "R" and a.state.units[u].where == "map" and u not in moves:
            moves[u] = 1  # caldiero §11.1: artillery retreats normally after a bombardment
    if moves and not defensive:
        opened(a, moves, R.BOMBARD_PROCEDURE)
    return moves
