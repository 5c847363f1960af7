"""A Caricat! position checked against the scenario's data: every problem at once (docs/rulesets/caricat.md)."""

from __future__ import annotations

from arbitro.adjudicator.caricat.loader import CaricatData
from arbitro.adjudicator.caricat.world import LEVELS
from arbitro.adjudicator.maps.control import Occupancy
from arbitro.projections.caricat import SIDES, CaricatState


def problems(data: CaricatData, state: CaricatState) -> list[str]:
    if state.scenario not in data.scenarios:
        return [f"scenario {state.scenario!r} is not one of {', '.join(sorted(data.scenarios))}"]
    s = data.scenarios[state.scenario]
    found: list[str] = []
    units = {u.id for u in s.file.units}
    leaders = {le.id for le in s.file.leaders}
    if set(state.units) != units:
        found.append(f"units must be exactly the scenario's: missing {sorted(units - set(state.units))}, "
                     f"unknown {sorted(set(state.units) - units)}")
    if set(state.leaders) - leaders:
        found.append(f"unknown leaders {sorted(set(state.leaders) - leaders)}")
    if state.phase not in ("commitment", "activation", "recovery", "over"):
        found.append(f"phase {state.phase!r} is not commitment, activation, recovery or over")
    if state.seat not in SIDES:
        found.append(f"seat {state.seat!r} is not italian or austrian")
    for k, u in sorted(state.units.items()):
        if u.where not in ("map", "off", "gone"):
            found.append(f"unit {k}: where {u.where!r} is not map, off or gone")
        if u.where == "map" and (u.hex is None or not s.map.grid.contains(u.hex)):
            found.append(f"unit {k}: hex {u.hex!r} is not on the {state.scenario} map")
        if not 0 <= u.hits <= 5:
            found.append(f"unit {k}: hits {u.hits} must be 0..5 (caricat §7.5)")
    for k, le in sorted(state.leaders.items()):
        if le.level not in LEVELS:
            found.append(f"leader {k}: level {le.level!r} is not one of {', '.join(LEVELS)}")
        if le.unit is not None and le.unit not in state.units:
            found.append(f"leader {k}: unit {le.unit!r} does not exist")
    occupancy = Occupancy((k, u.hex) for k, u in state.units.items() if u.where == "map")
    for hex_id, first, second in occupancy.clashes:
        found.append(f"hex {hex_id} holds {first} and {second}: one combat unit per hex (caricat §5)")
    return found
