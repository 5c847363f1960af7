"""A line of sight on Arrivano's real maps is clear from a to b exactly when it is clear from b to a (arrivano §11.3.1:
the line joins the two hexes' centres, whichever piece looks). The fog of war relies on it (issue 15: a side's
sightings are looked for from the unknown pieces' hexes, parabellum/sight.sighted), so a tracing that came to depend
on its direction (heights, hexside lines, map edges) would change what each seat is shown."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.arrivano.ruleset import ArrivanoRulesetImpl


@pytest.mark.parametrize("scenario", ["montebello", "campotenese"])
def test_every_line_within_sight_range_on_the_real_map_is_clear_both_ways_or_neither(scenario: str) -> None:
    rules = ArrivanoRulesetImpl()
    world = rules.world(rules.new_state(scenario, ()))
    hexes = sorted(world.hexmap.hexes())
    sample = hexes[::5]
    pairs = [(a, b) for a in sample for b in hexes if a < b and world.grid.distance(a, b) <= 4]
    blocked = [(a, b) for a, b in pairs if not world.clear_line(a, b)]
    assert blocked and len(blocked) < len(pairs), "the map has lines blocked and lines clear"
    assert [(a, b) for a, b in pairs if world.clear_line(a, b) != world.clear_line(b, a)] == []
