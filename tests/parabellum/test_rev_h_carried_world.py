"""rev-h (review of bb67f39, one World for the engine's check of an answer and the answer): the carried World
(parabellum/act.carried_world) is taken over wherever the state object and its seq are the same. Since bb67f39 the
pending decision's listers (ParaBellumRuleset.world_at) take it over too; the test harness edits positions in place
without an event (tests/hex/harness Table.state, caldiero harness `activate`'s step jump, tests setting a unit's hex
or status), so a listing after such an edit is read from the World the last command left: the options listed, and the
check of an answer (engine._check_answer), are those of the position before the edit."""

from __future__ import annotations

import pytest

from tests.parabellum.test_rout_after_retreat import GAMES
from tests.parabellum.test_world_shared_check import READING


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_position_edited_in_place_is_listed_as_it_now_stands(game: str) -> None:
    t, *_ = GAMES[game](READING)
    before = t.legal("austria")
    enemy = next(u for u, s in t.state.units.items() if s.where == "map" and s.side == "france" and s.status != "routed")
    t.state.units[enemy].where, t.state.units[enemy].hex = "eliminated", ""  # a harness edit: no event, no seq
    listed = t.legal("austria")
    fresh = t.engine.legal(t.engine.fold.copy(t.game), "austria")  # a World of its own
    assert fresh != before, "the edit changed the retreat's lines"
    assert listed == fresh, "listed from the World the last listing left (stale)"
