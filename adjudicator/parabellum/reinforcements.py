"""Reinforcements and the return of eliminated units (caldiero §12.8, §15.4; arrivano §12.8, §15.4), written once:
whether an eliminated unit comes back, and on which turn.

A unit eliminated on its full side, if it has a reduced one, goes on the turn track and returns reduced; one
already reduced, or without a reduced side, or eliminated by a rule that says so, is gone for good (§12.8 in both).
It returns the next turn if it was within command range of its general, or of an officer of its formation (D21:
only Arrivano has officers, arrivano §4.2), and two turns later otherwise. Where it may be placed (caldiero §12.8,
arrivano §12.8.2) is written once too (`return_hexes`), next to the commanders each game names for it; how the
placement is asked (Caldiero's replacements step, Arrivano's decision per unit) is each game's.

A reinforcement coming onto the map (§15.4 in both, D22) is written once too: which units enter in this activation
(the World's `entering`), whether they are in command whatever the range (arrivano §15.4.1 "in comando"; the variant's
`reinforcements_in_command`, read by parabellum/command.in_command), and the orders table's `reinforcement_order` given
them as their own for the activation (`enter_with_order`: caldiero §15.4.2, arrivano §15.4.1 with the reading
`reinforcement_order` `always_advance`). When and where a group comes (Caldiero's units due off the map, Arrivano's
groups placed on their entry hex, §3.1 B-1) is each game's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.stacking import fits
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum.zoc import enemy_zoc
from arbitro.events.parabellum import UnitOrderSet

# Whether a commander's command range reaches a hex, as each game measures it for §12.8 until the command area's
# kernel rule answers it (caldiero traces the range, §4.3.3; arrivano counts hexes).
InRange = Callable[[str, str], bool]


def eliminated_for_good(forced: bool, reduced: bool, has_reduced_side: bool) -> bool:
    """§12.8 in both books: gone for good when a rule says so (`forced`: a rout, a retreat off the map...), when
    the unit already shows its reduced side, or when it has none."""
    return forced or reduced or not has_reduced_side


def return_turn(w: World, u: str, turn: int, in_range: InRange) -> int:
    """§12.8 in both books (D21): the turn an eliminated unit returns: the next one if, where it was eliminated,
    it was within command range of its general or of an officer of its formation; two turns later otherwise."""
    h = w.hex_of(u)
    commanders = [c for c in (w.general_of(u), *w.officers_of(u)) if c is not None]
    near = h is not None and any(in_range(c, h) for c in commanders)
    return turn + (1 if near else 2)


def due(w: World, side: str | None = None) -> list[str]:
    """The eliminated units on the turn track whose return turn has come (§12.8 in both books), in id order;
    `side`: only that side's."""
    return sorted(u for u, s in w.state.units.items() if s.where == "track" and s.return_turn <= w.state.turn
                  and (side is None or s.side == side))


def return_hexes(variant: Variant, w: World, u: str) -> list[str]:
    """Where a returning unit may be placed (caldiero §12.8 "rientrano con il proprio Generale o adiacenti, non in
    ZoC nemica"; arrivano §12.8.2 "entro un esagono dal loro Generale di formazione, rispettando le regole dello
    stacking e non in Ezoc"), in hex order: the hex of one of the commanders the variant names for it
    (`return_commanders`: the formation's general; caldiero §15.4.3's reserve with either French general, arrivano's
    reading lost_general_replacements) on the map, or one next to it, in no enemy ZoC, within the stacking limits
    (which keep out a hex the enemy holds), and not closed to the unit's side (`closed_to`, caldiero §9.2.1: never the
    10xx row for the Austrians)."""
    side = w.side_of(u)
    ezoc = enemy_zoc(w, side)
    out: set[str] = set()
    for commander in variant.return_commanders(w, u):
        where = w.leader_on_map(commander)
        if where is not None:
            out.update(h for h in w.grid.within(where, 1) if h not in ezoc
                       and variant.closed_to(w, side, h) is None and fits(w, h, [u]))
    return sorted(out)


def enter_with_order(a: Act[Any], units: Sequence[str]) -> None:
    """caldiero §15.4.2 "I rinforzi entrano sulla mappa con un Ordine di Manovra", arrivano §15.4.1 "con un Ordine di
    Avanzata" (reading `reinforcement_order`: `always_advance`): each of `units`, coming onto the map in this
    activation, takes the orders table's `reinforcement_order` (D6) as its own for it, whatever its formation's."""
    order, rule = a.world().orders.reinforcement_order, str(a.variant.rules.REINFORCEMENT_ORDER)
    for u in units:
        a.emit(UnitOrderSet(unit=u, order=order, rule=rule))
