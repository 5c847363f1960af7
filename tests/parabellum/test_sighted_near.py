"""Sightings asked only of the pieces near enough (issue 15): `sight.sighted` looks at an unknown piece's hex from
the side's pieces within sight range of it, and answers exactly as looking from every piece of the side does
(`in_view` from `observers`, caldiero §20.4.1, arrivano §11.3.2), on positions of the shipped logs of both games:
Arrivano's lines kept across positions (units never block, §11.3.1) and Caldiero's traced in each (units block,
§11.3.1)."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.parabellum import sight
from tests.parabellum.log_positions import log_worlds


@pytest.mark.parametrize("log", ["arrivano-montebello.jsonl", "caldiero-tempo-regge.jsonl"])
def test_sighted_from_the_pieces_near_enough_is_sighted_from_every_piece(log: str) -> None:
    asked, seen = 0, 0
    for i, w in log_worlds(log, 40):
        for side in w.sides:
            enemy = {u: s.hex for u, s in w.state.units.items() if s.side != side and s.where == "map" and s.hex}
            enemy |= {c: s.hex for c, s in w.state.leaders.items() if s.side != side and s.where == "map" and s.hex}
            for reach in (None, 1, 0):
                limit = w.sight_range() if reach is None else reach
                everyone = sight.observers(w, side)
                whole = sorted(p for p, h in enemy.items() if sight.in_view(w, everyone, h, limit))
                assert sight.sighted(w, side, enemy, reach) == whole, (i, side, reach)
                asked, seen = asked + len(enemy), seen + len(whole)
    assert 0 < seen < asked, "the positions have pieces in sight and pieces out of it"
