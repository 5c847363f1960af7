"""Rout (caldiero §15.1-§15.2, arrivano §15.1-§15.2): a second disorder level routs a unit
(projections.parabellum.STATUS_WORSE, `worsened`), and a unit routed by combat retreats two hexes at once (§15.2.1
in both), the guns stacked with it eliminated (§11.1 in both, `guns_with`); routed units next to a hex where an enemy unit arrives test their
efficiency: those that pass retreat two hexes, enemy ZoC ignored (§15.2, §15.2.1 in both), those that fail are
eliminated - for good where the variant says a failed test is a surrender (D19: `rout_failure_permanent`).
Arrivano's rout movement in the End phase (arrivano §15.2.2, D19) has no Caldiero counterpart and stays Arrivano's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.elimination import eliminate
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.events.parabellum import StatusChanged
from arbitro.projections.parabellum import STATUS_WORSE

RETREAT_HEXES: Final = 2  # §15.2 in both: a routed unit that passes its test retreats two hexes; §15.2.1 one routed by combat


@dataclass(frozen=True)
class Worsened:
    """What more disorder levels do to a unit (§15.1 in both)."""

    status: str  # its condition after them
    routed: bool  # they routed it (a second level: caldiero §15.1, arrivano §15.1.1); by combat it retreats at once


def worsened(status: str, levels: int = 1) -> Worsened:
    """`status` after `levels` more disorder levels: good, disordered, routed; routed stays routed."""
    after = status
    for _ in range(levels):
        after = STATUS_WORSE[after]
    return Worsened(after, after == "routed" and status != "routed")


def disorder(game: Act[Any], variant: Variant, unit: str, rule: object, levels: int = 1,
             routs: object = None) -> bool:
    """`levels` more disorder levels for `unit` (`worsened`), recorded citing `rule`, or where they rout it `routs`
    (by default the book's second disorder, caldiero §15.1, arrivano §15.1.1); True when they routed it: routed by a
    combat result (an assault's, a bombardment's, the level a retreat into enemy ZoC adds, §12.6.1) it must retreat
    RETREAT_HEXES at once, enemy ZoC ignored (§15.2.1 in both, "si deve immediatamente ritirare di 2 esagoni"): the
    caller opens it (parabellum/retreat_frame.opened, or `disordered` there)."""
    status = game.world().status(unit)
    worse = worsened(status, levels)
    if worse.status != status:
        game.emit(StatusChanged(unit=unit, status=worse.status,
                                rule=str((routs or variant.rules.SECOND_DISORDER) if worse.routed else rule)))
    return worse.routed


def guns_with(w: World, units: list[str]) -> list[str]:
    """The artillery stacked with `units` (their side's, in their hexes, hex order then id order): what an assault
    that eliminates them or forces them to retreat eliminates too (§11.1 in both: "L'artiglieria in stacking con
    unità da combattimento che siano eliminate o forzate a ritirarsi a seguito di combattimenti è eliminata")."""
    out: list[str] = []
    for h in sorted({h for u in units if (h := w.hex_of(u)) is not None}):
        sides = {w.side_of(u) for u in units if w.hex_of(u) == h}
        out += [g for g in w.units_at(h) if w.is_artillery(g) and w.side_of(g) in sides and g not in units]
    return out


def routed_near(w: World, h: str, side: str) -> list[tuple[str, list[str]]]:
    """The hexes next to `h` holding routed units of `side`'s enemy, each with those units (id order), in the
    grid's direction order: the units a unit of `side` arriving in `h` makes test (§15.2 in both books)."""
    out = []
    for n in w.grid.neighbours(h):
        routed = [u for u in w.units_at(n) if w.side_of(u) != side and w.status(u) == "routed"]
        if routed:
            out.append((n, routed))
    return out


@dataclass(frozen=True)
class RoutOutcome:
    """What the rout test of one stack does (§15.2 in both)."""

    retreating: list[str]  # passed: retreat RETREAT_HEXES hexes, enemy ZoC ignored
    eliminated: list[str]  # failed
    permanent: bool  # a failed test is a surrender, never returning (arrivano §15.2; caldiero §12.8 decides)


def outcome(variant: Variant, routed: list[str], passed: Mapping[str, bool]) -> RoutOutcome:
    """The stack's outcome from each unit's test result, in the order `routed` lists them."""
    return RoutOutcome(retreating=[u for u in routed if passed[u]], eliminated=[u for u in routed if not passed[u]],
                       permanent=variant.rout_failure_permanent)


def checks(game: Act, variant: Variant, h: str) -> None:
    """§15.2 in both: a unit arrived in `h` (a move, an advance, a retreat, an entry); each stack of enemy routed
    units next to it tests (`routed_near`, in the grid's direction order or, by the variant, in hex order): those that
    pass retreat, those that fail are eliminated citing §15.2 (`elimination.eliminate`), for good where the variant
    says (D19; `outcome`)."""
    w = game.world()
    here = w.units_at(h)
    if not here:
        return
    near = routed_near(w, h, w.side_of(here[0]))
    for n, routed in sorted(near) if variant.rout_tests_in_hex_order else near:
        result = outcome(variant, routed, game.rout_test(n, routed))
        for u in result.eliminated:
            eliminate(game, variant, u, variant.rules.ROUT, permanent=result.permanent)
        if result.retreating:
            game.rout_retreat(result.retreating)
