"""The parts of Caricat's move and charge listings worked out once (issue 15) answer as the rules they stand for, on
positions of the shipped logs: the hexes a charge may cross (caricat §9.1, clear terrain only), the steps under a
set of firers' reaction fire (§6.2), and the reaction fire a path provokes whichever way the firers are given."""

from __future__ import annotations

from itertools import combinations

import pytest

from arbitro.adjudicator.caricat import movement as MV
from arbitro.adjudicator.maps import control
from tests.parabellum.log_positions import log_worlds


@pytest.mark.parametrize("log", ["caricat-montebello.jsonl", "caricat-pastrengo.jsonl"])
def test_the_listing_parts_answer_as_their_rules(log: str) -> None:
    fired = 0
    for i, w in log_worlds(log, 150):
        spec = w.system.charge
        assert MV.charge_ground(w) == {h for h in w.map.hexes()
                                       if w.map.hex(h).terrain == spec.terrain and not w.map.hex(h).other_terrain}
        steps = [(a, b) for a in w.map.hexes() for b in w.grid.neighbours(a)]
        for side in ("italian", "austrian"):
            zone, firers = w.zone(side), MV.reactors(w, side)
            for these in [c for n in (1, 2) for c in combinations(firers[:4], n)]:
                under = MV._fired_on(zone, these)
                assert [s for s in steps if under(*s)] == [
                    (a, b) for a, b in steps if any(f in zone.get(a, ()) and f in zone.get(b, ()) for f in these)], (i, these)
                fired += any(under(*s) for s in steps)
            paths = [[a, b, c] for a, b in steps[::7] for c in w.grid.neighbours(b) if c != a]
            assert [control.reactions(p, zone, frozenset(firers)) for p in paths] == [
                control.reactions(p, zone, list(firers)) for p in paths]
    assert fired, "the positions have steps under reaction fire"
