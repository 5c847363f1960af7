"""Supply (monferrato §13), attack supply (§13.2) and the command radius (§5): lines traced on the area graph.

A supply line runs any length from the unit's zone to a source of its command, never across an impassable border
or an unbridged river, never through a zone holding enemy units; the command radius is such a line of at most two
zones; attack supply is such a line of at most three zones (difficult terrain counting 2) to a camp of the army,
and from the camp on to a source.
"""

from __future__ import annotations

from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.monferrato.common import (
    data, enemy_zones, line_step, morale_band, remembered, unchanged, units_in,
)
from arbitro.events import monferrato as ev
from arbitro.adjudicator.monferrato import rules as R
from arbitro.adjudicator.ruleset import Decision
from arbitro.projections.monferrato import MonferratoState

RADIUS = 2  # monferrato §5 3: "al massimo una zona intramezzata"
ATTACK_REACH = 3  # monferrato §13.2


def _clear(s: MonferratoState, seat: str):  # type: ignore[no-untyped-def]
    blocked = remembered(s, ("enemy_zones", seat), lambda: enemy_zones(s, seat))  # not once per zone reached
    return lambda zone: zone not in blocked


def line_to(s: MonferratoState, seat: str, zone: str, targets: set[str]) -> bool:
    """Whether a supply line runs from `zone` to one of `targets` (monferrato §13): a step from `zone` into a zone
    fed by them (a line may start in a zone holding the enemy, never pass through one)."""
    if zone in targets:
        return True
    blocked = remembered(s, ("enemy_zones", seat), lambda: enemy_zones(s, seat))
    fed = _FED.get((data(),), (blocked, frozenset(targets)), lambda: _fed(blocked, targets))
    return any(n in fed and line_step(zone, n) is not None for n in data().neighbours(zone))


def _fed(blocked: frozenset[str], targets: set[str]) -> frozenset[str]:
    """The zones free of the enemy from which a line runs through such zones to one of `targets` free of the
    enemy: worked out once from the sources rather than from each unit's zone (a line crosses a border either way
    alike: both sides of a border are one record, monferrato/data.approaches). Issue 15: a command's check traced
    the whole map from each of its units' zones."""
    d = data()
    fed = {t for t in targets if t not in blocked and t in d.zones}
    todo = list(fed)
    while todo:
        zone = todo.pop()
        for n in d.neighbours(zone):
            if n not in fed and n not in blocked and line_step(n, zone) is not None:
                fed.add(n)
                todo.append(n)
    return frozenset(fed)


_FED = Memo(64)  # per data, enemy-held zones and sources: a position's enemy stays put over many activations


def supplied(s: MonferratoState, unit: str) -> bool:
    """monferrato §13 with its exceptions: in an own source; Pro-French units in Casale; a single garrison alone
    in a fortified town (§14.6)."""
    d = data()
    spec, zone = d.units[unit], s.units[unit].zone
    seat = d.faction(unit)
    if zone in d.scenario.always_supplied.get(seat, ()):  # type: ignore[call-overload]
        return True
    if spec.kind == "garrison" and units_in(s, zone, seat) == [unit] and d.zones[zone].town \
            and zone not in s.towns_destroyed:
        return True
    return line_to(s, seat, zone, set(d.scenario.supply_sources.get(spec.command, ())))


def check_command(ctx: Decision[MonferratoState], command: str) -> None:
    """monferrato §4.1 b.1, §13.1: the drawn command's units are checked; the marker goes on or comes off."""
    s, d = ctx.state, data()
    out, back = [], []
    with unchanged(s):  # no event until every unit is checked: one position throughout
        for u in sorted(x for x, st in s.units.items() if d.units[x].command == command and st.zone in d.zones):
            if d.units[u].kind == "camp":
                continue
            ok = supplied(s, u)
            if ok and s.units[u].unsupplied:
                back.append(u)
            elif not ok and not s.units[u].unsupplied:
                out.append(u)
    if out or back:
        ctx.emit(ev.SupplyChecked(command=command, out=tuple(out), back=tuple(back), rule=str(R.SUPPLY)))


def camps_of(s: MonferratoState, nation: str) -> list[str]:
    d = data()
    return sorted(u for u, x in s.units.items()
                  if d.units[u].kind == "camp" and d.units[u].nation == nation and x.zone in d.zones)


def attack_supplied(s: MonferratoState, unit: str) -> bool:
    """monferrato §13.2: not in low morale (§15), not out of supply (§13.1); inside a fortress it is not needed;
    else a line of at most three zones (difficult 2; the camp's zone counted, the unit's not) to a camp of its
    army that itself traces a supply line to a source of the unit's command."""
    return remembered(s, ("attack_supplied", unit), lambda: _attack_supplied(s, unit))  # asked per destination


def _attack_supplied(s: MonferratoState, unit: str) -> bool:
    d = data()
    spec, zone = d.units[unit], s.units[unit].zone
    seat = d.faction(unit)
    if d.zones[zone].fortress:
        return True
    if morale_band(s, spec.nation) == "low" or s.units[unit].unsupplied:
        return False

    def step(a: str, b: str) -> int | None:
        base = line_step(a, b)
        return None if base is None else (2 if d.zones[b].terrain == "difficult" else 1)

    reached = d.trace(zone, step, limit=ATTACK_REACH, through=_clear(s, seat))
    sources = set(d.scenario.supply_sources.get(spec.command, ()))
    for camp in camps_of(s, spec.nation):
        where = s.units[camp].zone
        if where in reached and line_to(s, seat, where, sources):
            return True
    return False


def leadership(s: MonferratoState, commander: str) -> int:
    """monferrato §13.1: out of supply, a commander's leadership is 1 for all purposes."""
    return 1 if s.units[commander].unsupplied else data().units[commander].leadership


def in_radius(s: MonferratoState, commander: str) -> dict[str, int]:
    """The zones within the command radius of `commander` (monferrato §5 3, §7.1), with their distance."""
    seat = data().faction(commander)
    return data().trace(s.units[commander].zone, line_step, limit=RADIUS, through=_clear(s, seat))
