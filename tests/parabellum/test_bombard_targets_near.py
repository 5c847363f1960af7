"""A gun's targets looked for among the enemy's hexes within its range only (issue 15): the same hexes as every hex
within range looked at, on positions of both games' shipped logs, for every gun and every pair of guns stacked
together (caldiero §11.2-§11.4.1, arrivano §11.2-§11.4.1: in range, in sight, holding enemy units, not closed to
fire, not artillery alone where the book forbids it)."""

from __future__ import annotations

from itertools import combinations

import pytest

from arbitro.adjudicator.parabellum import bombardment, sight
from arbitro.adjudicator.parabellum.world import World
from tests.parabellum.log_positions import log_worlds


def every_hex_in_range(w: World, guns: list[str]) -> list[str]:
    origin, side = w.hex_of(guns[0]), w.side_of(guns[0])
    if origin is None or not w.artillery_fires():
        return []
    reach = min(bombardment.fire_range(w, u) for u in guns)
    found = []
    for h in w.grid.within(origin, reach):
        arms = [w.arm(u) for u in w.units_at(h) if w.side_of(u) != side]
        if h == origin or not arms or w.no_fire_into(h):
            continue
        if not w.variant.bombard_artillery_alone and all(a == "artillery" for a in arms):
            continue
        if sight.sees(w, origin, h, reach):
            found.append(h)
    return sorted(found)


@pytest.mark.parametrize("log", ["caldiero-tempo-regge.jsonl", "arrivano-montebello.jsonl"])
def test_targets_among_the_enemy_hexes_are_those_among_every_hex(log: str) -> None:
    asked = found = 0
    for i, w in log_worlds(log, 60):
        guns = [u for u in w.on_map_units() if w.arm(u) == "artillery"]
        stacked = [list(p) for p in combinations(guns, 2) if w.hex_of(p[0]) == w.hex_of(p[1])]
        for group in [[g] for g in guns] + stacked:
            targets = bombardment.targets(w.variant, w, group)
            assert targets == every_hex_in_range(w, group), (i, group)
            asked, found = asked + 1, found + len(targets)
    assert asked and found, "the positions have guns with targets"
