"""Sightings asked only of the pieces near enough (issue 15): `sight.sighted` looks at an unknown piece's hex from
the side's pieces within sight range of it, and answers exactly as looking from every piece of the side does
(`in_view` from `observers`, caldiero §20.4.1, arrivano §11.3.2), on positions of the shipped logs of both games:
Arrivano's lines kept across positions (units never block, §11.3.1) and Caldiero's traced in each (units block,
§11.3.1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.exchange import read_lines
from arbitro.adjudicator.parabellum import sight
from arbitro.projections.fold import Fold

LOGS = Path(__file__).resolve().parents[2] / "logs"


@pytest.mark.parametrize("log", ["arrivano-montebello.jsonl", "caldiero-tempo-regge.jsonl"])
def test_sighted_from_the_pieces_near_enough_is_sighted_from_every_piece(log: str) -> None:
    loaded = read_lines((LOGS / log).read_text(encoding="utf-8").splitlines(), log)
    ruleset = registry.get(loaded.game.ruleset)
    fold = Fold(ruleset)
    bodies = [fold.decode_checked(e.body) for e in loaded.events]
    state, asked, seen = None, 0, 0
    for i, body in enumerate(bodies):
        state = fold.apply(state, body, lambda seq: fold.fold(bodies[:seq]))
        if i % 40:
            continue
        w = ruleset.world(state.rules)
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
