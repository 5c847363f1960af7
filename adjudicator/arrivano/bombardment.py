"""Artillery fire (arrivano §11, §11.4; redoubt batteries §17.2.6; weather §17.2.7)."""

from __future__ import annotations

from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano.flow import push
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.arrivano.variant import ARRIVANO, ARRIVANO_VARIANT
from arbitro.adjudicator.arrivano.world import acts_now
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum import bombardment as kernel_bombardment
from arbitro.adjudicator.parabellum import orders, retreat_frame, rout
from arbitro.events import arrivano as ev


def can_fire(w: World, uid: str) -> bool:
    """Not on its Moved side (§11), not a damaged battery, weather permitting (§17.2.7); a redoubt battery only
    stacked with units in Defence (§17.2.6)."""
    unit = w.state.units[uid]
    data = w.counters.unit(uid)
    if unit.where != "map" or unit.arm != "artillery" or unit.art_moved or unit.damaged or unit.status != "good":
        return False
    if not w.artillery_fires():  # §17.2.7
        return False
    if data.redoubt_battery:
        others = [u for u in w.units_at(unit.hex) if u != uid and w.state.units[u].arm != "artillery"]
        return any(orders.order_of(w, u) == "defence" for u in others)
    return True


def fire_groups(w: World, side: str, formation: str | None) -> list[list[str]]:
    """Single batteries and stacked pairs that may fire (§11.4.1). Artillery bombards whatever its formation's
    order (§11.0.2); in B-3 only the active formation's artillery fires."""
    ready = [u for u in w.units_of(side) if can_fire(w, u) and (formation is None or acts_now(w, u))]
    groups = [[u] for u in ready]
    for i, a in enumerate(ready):
        for b in ready[i + 1:]:
            if w.state.units[a].hex == w.state.units[b].hex:
                groups.append([a, b])
    return groups


def bombard(g: Act, units: list[str], target: str, defensive: bool) -> str:
    """One bombardment (the kernel's fire: the table, its modifiers, a natural 6's commander tests), the guns turned
    to Moved (§11; §17.2.6 redoubt batteries never), then its result here; returns the result code."""
    result = kernel_bombardment.fire(g, ARRIVANO_VARIANT, g.data.bombardment, units, target, defensive).result
    flip = [u for u in units if not g.data.unit(u).redoubt_battery]
    if flip:
        g.emit(ev.ArtilleryTurned(units=sorted(flip), moved=True, rule=str(ARRIVANO.ARTILLERY)))
    apply_bombard_result(g, target, result)
    return result


def apply_bombard_result(g: Act, target: str, result: str) -> None:
    """'D': every non-artillery unit takes a disorder level (one it routs retreats two hexes at once, §15.2.1); 'R': the stack retreats one hex with a disorder level
    (routed units two, §15.2.1); the guns stacked with the units that retreat one hex may stay or go with them,
    turned to Moved (§11.1: the owner's choice, a pending decision first); a redoubt battery never retreats and is
    damaged by either (§17.2.6, interpretation redoubt_battery_adverse: `defender_result`), or by neither
    (`loss_results_only`: a bombardment never eliminates or displaces an ordinary artillery)."""
    if result == "-":
        return
    w = g.world()
    units = w.units_at(target)
    adverse = w.reading("redoubt_battery_adverse") == "defender_result"
    batteries = [u for u in units if adverse and g.data.unit(u).redoubt_battery and not w.state.units[u].damaged]
    for b in batteries:
        damage_battery(g, b)
    movers = kernel_bombardment.hit(w, target)
    if result == "D":  # a unit it routs retreats at once (§15.2.1); no assault: the guns stay (§11.1)
        retreat_frame.disordered(g, movers, R.BOMBARD_TABLE, assault=False)
        return
    for u in movers:
        rout.disorder(g, ARRIVANO_VARIANT, u, R.BOMBARD_TABLE)
    if result == "R" and movers:
        w = g.world()
        movers = [u for u in movers if w.state.units[u].where == "map"]
        routed = [u for u in movers if w.state.units[u].status == "routed"]
        others = [u for u in movers if u not in routed]
        guns = [u for u in w.units_at(target) if w.state.units[u].arm == "artillery" and not g.data.unit(u).redoubt_battery]
        if others and guns:  # a routed unit stands alone (§7.1.1): guns go only with the others
            push(g, "artillery_retreat", w.state.units[others[0]].side, str(ARRIVANO.ARTILLERY_STACKED),
                   ev.ArtilleryRetreatAwaited(units=tuple(others), artillery=tuple(guns), hex=target))
        elif others:
            retreat_frame.opened(g, dict.fromkeys(others, 1), R.BOMBARD_TABLE)
        if routed:
            retreat_frame.opened(g, dict.fromkeys(routed, 2), ARRIVANO.ROUT_COMBAT)


def damage_battery(g: Act, uid: str) -> None:
    g.emit(ev.StatusChanged(unit=uid, status="damaged", rule=str(R.CT_REDOUBTS)))


__all__ = ["bombard", "can_fire", "fire_groups"]
