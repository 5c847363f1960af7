"""Declaring an assault (caldiero §12.2, arrivano §12.2): who may attack, once a turn, and the enemy hexes an attack
must include (§12.2.1). Each game keeps its rejection messages and what only its book has (caldiero: river
hexsides, directions of attack §19.1, the charge in the plain §20.2; arrivano: open-order fire §16.3)."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Final

from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum.zoc import zoc_sources

# Both §12.2: under Attack a unit must attack, under Advance it may (after an "Attack?" test); no other order attacks.
ATTACKING_ORDERS: Final = frozenset({"attack", "advance"})


def fit_to_attack(w: World, u: str) -> bool:
    """Both books, whatever its order: a unit on the map, in good order (§15.1-§15.2: disordered and routed units
    never attack), not artillery (caldiero §11.0.1, arrivano §11.0.2: it takes part by bombarding), that has not
    attacked this turn (§12.2.3)."""
    return w.hex_of(u) is not None and w.status(u) == "good" and not w.is_artillery(u) and not w.attacked_this_turn(u)


def hexes_to_attack(w: World, side: str, attackers: Iterable[str]) -> list[str]:
    """§12.2.1 in both: the enemy hexes projecting a ZoC into an attacker's hex, less those already attacked this
    segment (§12.2.3), in hex order. A charging cavalry's is its charge target only, while enemies hold it
    (arrivano §14.2.1; caldiero §20.2.2: the charge ignores every other EZoC, its hex named when it attacks)."""
    attacked = w.attacked_hexes()
    out: set[str] = set()
    for u in attackers:
        if w.charging(u):
            target = w.charge_target(u)
            if target is not None and target not in attacked and w.side_at(target) not in (None, side):
                out.add(target)
            continue
        out |= {h for h in zoc_sources(w, w.hex_of(u) or "", side) if h not in attacked}
    return sorted(out)


def hex_sets(w: World, side: str, u: str, must: Iterable[str]) -> set[tuple[str, ...]]:
    """The sets of enemy hexes `u` may attack together as far as its place decides (§12.4.1 in both: each next to
    it; §12.2.3: none attacked this segment), each holding the hexes `must` it has to attack (§12.2.1, as the game
    reads it), in hex order: what the legal listings enumerate, the attackers being a template (issue 19 item 7)."""
    attacked = w.attacked_hexes()
    near = sorted(n for n in w.grid.neighbours(w.hex_of(u) or "")
                  if n not in attacked and w.side_at(n) not in (None, side))
    need = set(must)
    return {combo for k in range(1, len(near) + 1) for combo in combinations(near, k) if need <= set(combo)}
