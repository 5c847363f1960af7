"""The advance after combat (caldiero §12.7, arrivano §12.7), written once: who may go into a hex the combat left
empty, and in which groups.

§12.7.2 in both: one unit advances. §12.7.3 in both: "Tutte le unità presenti in un esagono possono avanzare se sono
in stacking con un Generale e anche il Generale avanza con loro": with its general in the stack, the units of a hex
*may* advance together, and the owner chooses which (issue 19 defect 3: any of them, not the whole stack or one).
Each game lists the groups as the options of its advance decision and says which hexes are vacated and who is
eligible (good order, not artillery, adjacent: §12.7.1 in both)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations


def groups(eligible: Sequence[str], hex_of: Callable[[str], str], with_general: Callable[[str], bool],
           fits: Callable[[tuple[str, ...]], bool] = lambda units: True) -> list[tuple[str, ...]]:
    """The groups that may advance, in the order `eligible` lists the units: each unit alone (§12.7.2), then, after
    the first unit of a hex whose general stands with it (`with_general`), every choice of two or more of that
    hex's eligible units, larger groups first (§12.7.3; the general goes with them); `fits`: the group may end in
    the hex (stacking, §7.1 in both)."""
    out: list[tuple[str, ...]] = []
    for u in eligible:
        if fits((u,)):
            out.append((u,))
        stack = [x for x in eligible if hex_of(x) == hex_of(u)]
        if len(stack) > 1 and u == stack[0] and with_general(u):
            out += [g for k in range(len(stack), 1, -1) for g in combinations(stack, k) if fits(g)]
    return out
