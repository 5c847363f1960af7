"""The hexes Caldiero's scenario closes to a moving group (caldiero §9.2.1 the Austrians' 10xx row, §19.1 a
formation's direction), kept for every position of the same map, scenario, side, formation and §19.1 release
(issue 15): on positions of both shipped Caldiero logs, the kept answer is each hex's own rule read afresh."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.caldiero import map_rules
from arbitro.adjudicator.caldiero.system_movement import _closed, make_group
from tests.parabellum.log_positions import log_worlds


@pytest.mark.parametrize("log", ["caldiero-tempo-regge.jsonl", "caldiero-full.jsonl"])
def test_the_kept_closed_hexes_are_each_hex_read_afresh(log: str) -> None:
    shut = 0
    for i, w in log_worlds(log, 80):
        for u in w.on_map_units()[::5]:
            g = make_group(w, (u,), "attack", False)
            closed = _closed(w, g)
            for h in w.hexmap.hexes():
                fresh = bool(w.closed_to(g.side, h) or map_rules.formation_hex_problem(w, g.formation, h))
                assert closed(h) == fresh, (i, u, h)
                shut += fresh
    assert shut > 0, "some hexes are closed to some group"


def test_a_roads_rows_are_worked_out_once_whoever_names_its_ends() -> None:
    """§19.1's side of a road (`north_south_of_road`) reads the road's rows, kept per map and road: a caller names the
    road by a tuple made at each call, which keyed the rows by its identity and missed at every ask (issue 15)."""
    _, w = next(iter(log_worlds("caldiero-tempo-regge.jsonl", 1)))
    road = next(d.road for d in w.scenario.attack_directions)  # type: ignore[attr-defined]
    worked = []
    original = map_rules._rows_of
    try:
        map_rules._rows_of = lambda hexes: worked.append(1) or original(hexes)  # type: ignore[assignment]
        sides = [map_rules.north_south_of_road(w, (road[0], road[1]), h) for h in sorted(w.hexmap.hexes())[:40]]
    finally:
        map_rules._rows_of = original  # type: ignore[assignment]
    assert len(worked) <= 1 and set(sides) <= {"north", "south", "road"}
