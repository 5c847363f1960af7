"""rev-h H4: the World carried from one procedure to the next (parabellum/act.carried_world) is kept on the state
object it reads, not in a process-wide slot: it dies with that state, and it keeps no procedure alive (an Act's
Decision holds the game's seed supply and a copy of the state after each event)."""

from __future__ import annotations

import gc
import weakref

import pytest

from arbitro.adjudicator.parabellum.act import Act, carried_world
from arbitro.adjudicator.ruleset import Decision
from tests.parabellum.test_rout_after_retreat import GAMES
from tests.parabellum.test_world_shared_check import READING


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_carried_world_dies_with_its_state_and_holds_no_procedure(game: str) -> None:
    t, *_ = GAMES[game](READING)
    t.legal("austria")  # the lister's World, which the answer's procedure takes over
    t.send("austria", t.legal("austria")[0], dice=[6])
    w = carried_world(t.ruleset, t.game, t.ruleset.scenario_on(t.game.rules), t.ruleset.variant)
    closed_over = [c.cell_contents for f in (w._reading, w._position) for c in f.__closure__ or ()]
    assert not any(isinstance(c, (Act, Decision)) for c in closed_over), closed_over
    kept = weakref.ref(w)
    del w, closed_over, t
    gc.collect()
    assert kept() is None, "a World outlives the state it reads"
