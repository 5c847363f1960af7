"""`reachable(settle=...)` and `reachable(stop_at=...)` (issue 15) give the whole search's own answers.

A move to a given hex searches only as far as that hex's cheapest arrival (`settle`), and a listing asking only
whether anything is left stops at the first hex it accepts (`stop_at`). Both are prefixes of the whole search,
so these tests compare them with it, hex by hex, on both books' real maps and tables: same cost, same stop, same
path (the "path" tie-break included), for every hex the prefix answers; and `stop_at` finds a hex exactly when
the whole search reaches one."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import arbitro.adjudicator.arrivano as arrivano_package
import arbitro.adjudicator.caldiero as caldiero_package
from arbitro.adjudicator.maps.costs import MovementTable, load_movement_table, step_cost
from arbitro.adjudicator.maps.hexgrid import HexId
from arbitro.adjudicator.maps.hexmap import HexMap, load_map
from arbitro.adjudicator.maps.movement import MoveRules, Reach, ZocRules, cached_step_cost, reachable
from tests.hex.test_hexmap import TABLE, make_map

CALDIERO = Path(caldiero_package.__file__).parent / "data"
ARRIVANO = Path(arrivano_package.__file__).parent / "data"
MAPS = {
    "caldiero": (CALDIERO / "caldiero" / "map.json", CALDIERO / "tables" / "movement.json", ("unit",)),
    "montebello": (ARRIVANO / "montebello" / "map.json", ARRIVANO / "tables" / "movement.json", None),
}


def loaded(name: str) -> tuple[HexMap, MovementTable, tuple[str, ...]]:
    map_path, table_path, classes = MAPS[name]
    hexmap = load_map(map_path)
    table = load_movement_table(table_path, hexmap=hexmap)
    return hexmap, table, classes or table.unit_classes


def random_rules(rng: random.Random, hexmap: HexMap, start: HexId, classes: tuple[str, ...]) -> MoveRules:
    """Rules with what a real move has: a budget, enemy units (never entered), an enemy ZoC whose entry stops,
    is prohibited or is allowed only beside friends, hexes where the move may not end, a march column."""
    near = sorted(hexmap.grid.within(start, 6))
    enemy = frozenset(h for h in near if h != start and rng.random() < 0.04)
    zoc = frozenset(n for e in enemy for n in hexmap.grid.neighbours(e))
    friends = frozenset(h for h in near if rng.random() < 0.2)
    entry = rng.choice(["stop", "stop", "prohibited", "continue"])
    full = frozenset(h for h in near if rng.random() < 0.1)
    return MoveRules(
        unit_class=rng.choice(classes), budget=rng.choice([2, 4, 6, 8, 10, 12]), march_column=rng.random() < 0.3,
        minimum_move=rng.random() < 0.7, can_enter=lambda h: h not in enemy, can_end=lambda h: h not in full,
        zoc=ZocRules(hexes=zoc, entry=entry, may_enter=friends.__contains__ if rng.random() < 0.5 else None,
                     may_leave=rng.random() < 0.5, zoc_to_zoc=rng.random() < 0.5))


def answer(reach: Reach, h: HexId) -> tuple[object, ...]:
    return reach.costs[h], reach.stops[h], reach.path(h), h in reach.endable


@pytest.mark.parametrize("name", sorted(MAPS))
@pytest.mark.parametrize("tie_break", ["first", "path"])
def test_a_settled_search_answers_as_the_whole_search(name: str, tie_break: str) -> None:
    hexmap, table, classes = loaded(name)
    rng = random.Random(f"settle {name} {tie_break}")
    hexes = sorted(hexmap.hexes())
    checked = 0
    for _ in range(25):
        start = rng.choice(hexes)
        rules = random_rules(rng, hexmap, start, classes)
        whole = reachable(hexmap, table, start, rules, tie_break=tie_break)  # type: ignore[arg-type]
        asked = [h for h in whole.hexes() if rng.random() < 0.4] + rng.sample(hexes, 2)  # some unreachable
        for h in asked:
            part = reachable(hexmap, table, start, rules, tie_break=tie_break, settle=h)  # type: ignore[arg-type]
            assert (h in part.costs) == (h in whole.costs)
            for k in part.costs:  # every hex it answers, answered as the whole search does
                assert answer(part, k) == answer(whole, k), (start, h, k)
            if h in whole.costs:
                assert set(part.costs) == {k for k in whole.costs if whole.costs[k] <= whole.costs[h]}
                checked += 1
            else:  # searched to the end: the whole answer, which may be kept as such
                assert part.whole and set(part.costs) == set(whole.costs)
            if part.whole:
                assert {k: answer(part, k) for k in part.costs} == {k: answer(whole, k) for k in whole.costs}
    assert checked > 50


@pytest.mark.parametrize("name", sorted(MAPS))
def test_a_search_stopped_at_an_accepted_hex_finds_one_exactly_when_the_whole_search_does(name: str) -> None:
    hexmap, table, classes = loaded(name)
    rng = random.Random(f"stop_at {name}")
    hexes = sorted(hexmap.hexes())
    found = missed = 0
    for _ in range(60):
        start = rng.choice(hexes)
        rules = random_rules(rng, hexmap, start, classes)
        accepted = frozenset(h for h in hexmap.grid.within(start, 6) if rng.random() < 0.05)
        whole = reachable(hexmap, table, start, rules, tie_break="path")
        part = reachable(hexmap, table, start, rules, tie_break="path", stop_at=accepted.__contains__)
        hit = [h for h in part.costs if h in accepted]
        assert bool(hit) == any(h in accepted for h in whole.costs)
        assert part.whole == (not hit)  # found none: it searched everything, the whole answer
        if part.whole:
            assert {k: answer(part, k) for k in part.costs} == {k: answer(whole, k) for k in whole.costs}
        assert set(part.costs) <= set(whole.costs)
        found, missed = found + bool(hit), missed + (not hit)
    assert found and missed  # both answers were met


@pytest.mark.parametrize("tie_break", ["first", "path"])
def test_a_settled_search_is_whole_where_steps_cost_nothing(tie_break: str) -> None:
    """Free steps (a cost of 0, which a loaded table may no longer give: `costs.FREE_STEP`, but the search does not
    rely on it) reach hexes at the same cost as the one settled: the search goes on until every state that cheap is
    expanded, so those hexes and their paths are the whole search's."""
    hexmap = make_map(hexes={f"0{c}0{r}": {"terrain": "village"} for c in range(1, 7) for r in range(1, 7) if (c + r) % 3})
    free = {**TABLE, "terrain": {**TABLE["terrain"], "village": {"cost": {"default": 0}}}}
    table = MovementTable.model_validate_json(json.dumps(free))  # the model alone: the loader's checks refuse it
    for start in ("0101", "0303", "0606"):
        rules = MoveRules(unit_class="inf", budget=4, minimum_move=False)
        whole = reachable(hexmap, table, start, rules, tie_break=tie_break)  # type: ignore[arg-type]
        for h in whole.hexes():
            part = reachable(hexmap, table, start, rules, tie_break=tie_break, settle=h)  # type: ignore[arg-type]
            assert {k: answer(part, k) for k in part.costs} == \
                {k: answer(whole, k) for k in whole.costs if whole.costs[k] <= whole.costs[h]}


@pytest.mark.parametrize("name", sorted(MAPS))
def test_the_searchs_kept_step_costs_are_step_cost(name: str) -> None:
    """The search prices a step once per kind of step (`costs.step_kind`): every step of the map, for every unit
    class, formation and weather multiplier, costs what `step_cost` says, whichever step of its kind came first."""
    hexmap, table, classes = loaded(name)
    steps = [(a, b) for a in sorted(hexmap.hexes()) for b in hexmap.grid.neighbours(a)]
    for unit_class in classes:
        for column in (False, True):
            for multiplier in (1, 2):
                rules = MoveRules(unit_class=unit_class, budget=0, march_column=column, terrain_multiplier=multiplier)
                for a, b in steps:
                    assert cached_step_cost(hexmap, table, a, b, rules) == step_cost(
                        hexmap, table, a, b, unit_class, march_column=column, terrain_multiplier=multiplier), (a, b)
