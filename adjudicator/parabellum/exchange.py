"""The Ex result (caldiero §12.5.4 Ex, arrivano §12.5.4 EX): who may be lost on each side. The two books
differ on it (D26): the variant's hooks `ex_attacker_losses` / `ex_defender_losses` choose between the rules
written here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbitro.adjudicator.parabellum.world import World


def best_units(w: World, units: Sequence[str], sp: Mapping[str, int]) -> list[str]:
    """The units on the map with the highest efficiency, among them the highest strength `sp` (arrivano §12.5.4
    EX); several on an exact tie, among which the owner chooses."""
    live = [u for u in units if w.on_map(u)]
    if not live:
        return []
    best = max((w.efficiency(u), sp[u]) for u in live)
    return sorted(u for u in live if (w.efficiency(u), sp[u]) == best)


def covering_sets(units: Sequence[str], sp: Mapping[str, int], need: int) -> list[list[str]]:
    """The sets of `units` (sorted) losing at least `need` strength points, none of them spare: no unit could be
    left out and still cover `need` (caldiero §12.5.4 Ex, "almeno uguale", minimal sets). Every unit when
    together they cannot cover it; none when there is none."""
    ordered = sorted(units)
    if sum(sp[u] for u in ordered) <= need:
        return [ordered] if ordered else []
    sets: list[list[str]] = []
    for mask in range(1, 1 << len(ordered)):
        chosen = [ordered[i] for i in range(len(ordered)) if mask >> i & 1]
        lost = sum(sp[u] for u in chosen)
        if lost < need or any(lost - sp[u] >= need for u in chosen):
            continue
        sets.append(chosen)
    return sorted(sets)


def sufficient_sets(units: Sequence[str], sp: Mapping[str, int], need: int) -> list[list[str]]:
    """Every set of `units` (id order within a set) whose strength `sp` reaches `need`, spare units allowed
    (caldiero §12.5.4 Ex, "almeno uguale", read as any sufficient set: a defender may give up more than needed).
    Every unit when together they cannot reach it; none when there is none. Sorted."""
    ordered = sorted(units)
    if sum(sp[u] for u in ordered) <= need:
        return [ordered] if ordered else []
    chosen = ([ordered[i] for i in range(len(ordered)) if mask >> i & 1] for mask in range(1, 1 << len(ordered)))
    return sorted(s for s in chosen if sum(sp[u] for u in s) >= need)
