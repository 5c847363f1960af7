"""Reinforcements and the return of eliminated units (caldiero §12.8, §15.4; arrivano §12.8, §15.4), written once:
whether an eliminated unit comes back, and on which turn.

A unit eliminated on its full side, if it has a reduced one, goes on the turn track and returns reduced; one
already reduced, or without a reduced side, or eliminated by a rule that says so, is gone for good (§12.8 in both).
It returns the next turn if it was within command range of its general, or of an officer of its formation (D21:
only Arrivano has officers, arrivano §4.2), and two turns later otherwise. Where it may be placed (§12.8.2) and
how reinforcements enter (D22) are still each game's."""

from __future__ import annotations

from collections.abc import Callable

from arbitro.adjudicator.parabellum.world import World

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
