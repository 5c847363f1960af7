"""A commander's reach kept under the enemy-held hexes within his range only (issue 15): the line never leaves his
range (caldiero §4.3.3, arrivano §4.4.3), so the kept answer is the whole trace's, on positions of the shipped logs
of both games, with every enemy-held hex read; and an enemy moving beyond his range leaves it kept."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.maps.command import command_distances
from arbitro.adjudicator.parabellum.world import World
from tests.caldiero.harness import RULESET, position
from tests.parabellum.log_positions import log_worlds


@pytest.mark.parametrize("log", ["arrivano-montebello.jsonl", "caldiero-tempo-regge.jsonl"])
def test_a_kept_reach_is_the_trace_with_every_enemy_held_hex(log: str) -> None:
    traced, blocked = 0, 0
    for i, w in log_worlds(log, 25):
        for leader in sorted(w.state.leaders):
            start = w.leader_on_map(leader)
            if start is None:
                continue
            held = w.hexes_held(w.enemy(w.state.leaders[leader].side))
            whole = frozenset(command_distances(w.grid, start, w.command_range(leader), lambda h: h not in held,
                                                may_cross=lambda a, b: w.command_line_enters(a, b, w.leader_side(leader))))
            assert w.command_reach(leader) == whole, (i, leader)
            traced += 1
            blocked += any(w.grid.distance(start, h) <= w.command_range(leader) for h in held)
    assert traced and blocked, "the positions have commanders with enemy units within their range"


def test_an_enemy_moving_beyond_his_range_leaves_the_reach_kept() -> None:
    def reach(units: dict[str, str]) -> frozenset[str]:
        state = position(units, leaders={"massena": "1416"})
        return World(state, RULESET.battle, lambda name: "", None, variant=CALDIERO_VARIANT).command_reach("massena")

    first = reach({"au-colloredo": "2520"})
    assert RULESET.battle.map.grid.distance("1416", "2520") > 4
    assert reach({"au-colloredo": "2521"}) is first, "an enemy beyond his range moved: nothing the reach reads"
    assert "1415" not in reach({"au-colloredo": "1415"}), "an enemy within it blocks the line"
