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
