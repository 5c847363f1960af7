"""What every Monferrato rule module asks of a position: whose a unit is, who holds a zone, how a border is crossed
(monferrato §2.3, §6), and the one refusal every check raises."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from arbitro.adjudicator.monferrato.data import MonferratoData, current
from arbitro.adjudicator.ruleset import Rule
from arbitro.projections.monferrato import ELIMINATED, POOL, MonferratoState

T = TypeVar("T")

ALL = 99  # the cost of a crossing that takes the whole allowance (an unbridged river, a long passage: §6, §2.3.1)
FOOT = ("garrison", "infantry", "artillery", "sapper")
ESCORTED = ("commander", "sapper", "camp", "artillery")  # enter the enemy only with other combat units (§6)
OFF_MAP = "off_map"  # the last step of a move, or a retreat, that leaves the map from an edge zone (§6)


class Illegal(Exception):
    def __init__(self, rule: Rule, message: str) -> None:
        super().__init__(message)
        self.rule, self.message = rule, message


def data() -> MonferratoData:
    """The data in force: the game's own data folder while the ruleset works on that game, else the shipped."""
    return current()


def printed_fire(s: MonferratoState, unit: str) -> int:
    """The counter's fire value: as printed, or as its side chose it at the set-up (scenario, "a scelta: 3 o 4")."""
    return s.chosen_fire.get(unit, data().units[unit].fire)


def on_map(s: MonferratoState, unit: str) -> bool:
    return s.units[unit].zone not in (POOL, ELIMINATED)


# What is worked out of a position while it is held unchanged (`unchanged`): who is in each zone (a listing asks
# it of every zone a move or a line passes through, thousands of times a position), the lines traced from it.
_held: ContextVar[tuple[MonferratoState, dict[Any, Any]] | None] = ContextVar("monferrato_held", default=None)


@contextmanager
def unchanged(s: MonferratoState) -> Iterator[None]:
    """While `s` is not changed (a listing; a check before any event): what is asked of it is worked out once."""
    by_zone: dict[str, list[str]] = {}
    for u in sorted(s.units):
        by_zone.setdefault(s.units[u].zone, []).append(u)
    token = _held.set((s, {"by_zone": by_zone}))
    try:
        yield
    finally:
        _held.reset(token)


def remembered(s: MonferratoState, key: tuple[Any, ...], work: Callable[[], T]) -> T:
    """`work()`, kept for the position while `s` is held unchanged (else worked out each time)."""
    held = _held.get()
    if held is None or held[0] is not s:
        return work()
    if key not in held[1]:
        held[1][key] = work()
    return held[1][key]  # type: ignore[no-any-return]


def _in_zone(s: MonferratoState, zone: str) -> Iterable[str]:
    """The units in `zone`, in id order when the position is held."""
    held = _held.get()
    if held is not None and held[0] is s:
        return held[1]["by_zone"].get(zone, ())  # type: ignore[no-any-return]
    return (u for u, x in s.units.items() if x.zone == zone)


def units_in(s: MonferratoState, zone: str, seat: str | None = None) -> list[str]:
    d = data()
    return sorted(u for u in _in_zone(s, zone) if seat is None or d.faction(u) == seat)


def kind(unit: str) -> str:
    return data().units[unit].kind


def is_combat(unit: str) -> bool:
    return data().units[unit].combat


def enemy_in(s: MonferratoState, zone: str, seat: str) -> bool:
    """Any enemy counter in the zone (monferrato §5, §13: lines never cross one)."""
    d = data()
    return any(d.faction(u) != seat for u in _in_zone(s, zone))


def enemy_zones(s: MonferratoState, seat: str) -> frozenset[str]:
    """The zones holding any enemy counter: `enemy_in` of every zone at once, for a line traced through many."""
    d = data()
    return frozenset(x.zone for u, x in s.units.items() if d.faction(u) != seat)


def enemy_combat_in(s: MonferratoState, zone: str, seat: str) -> list[str]:
    d = data()
    return sorted(u for u in _in_zone(s, zone) if d.faction(u) != seat and d.units[u].combat)


def army_units(s: MonferratoState, nation: str) -> list[str]:
    d = data()
    return sorted(u for u in s.units if d.units[u].nation == nation)


def command_units(s: MonferratoState, command: str) -> list[str]:
    d = data()
    return sorted(u for u in s.units if d.units[u].command == command and on_map(s, u))


def line_step(a: str, b: str) -> int | None:
    """A supply line or command radius crosses a border at 1, never an impassable one nor an unbridged river
    (monferrato §6, §13); bridges and the special passages (§2.3.1) carry it."""
    border = data().border(a, b)
    if border.kind == "impassable" or (border.kind == "river" and not border.bridge):
        return None
    return 1


def move_step(a: str, b: str, unit_kind: str) -> int | None:
    """The movement cost of crossing from a into b (monferrato §6, §2.3.1): 1, 2 into difficult terrain, the whole
    allowance (ALL) across an unbridged river or the long passages; None where the unit may not cross."""
    d = data()
    border = d.border(a, b)
    if border.kind == "impassable":
        return None
    if border.kind == "passage":
        return ALL if border.cost == "all" else 1
    if border.kind == "river" and not border.bridge:
        return None if unit_kind in ("artillery", "camp") else ALL
    return 2 if d.zones[b].terrain == "difficult" else 1


def morale_band(s: MonferratoState, nation: str) -> str:
    bands = data().scenario.morale_bands
    value = s.morale.get(nation, 0)
    return "high" if value >= bands.high else "medium" if value >= bands.medium else "low"


def turn_id(s: MonferratoState) -> str:
    return data().turn(s.turn).id
