"""rev-m (sixteenth session): arrivano §3.1 C turns every gun on its Moved side back in the end phase, in one
`artillery_turned` listing them (turn.end_phase_rest). Under the fog (arrivano §11.3.2) an event naming a unit out of
the seat's sight is served as a stub (parabellum/ruleset.hides), so the enemy is served a stub where an unseen gun is
listed and nothing where none moved: two games differing only in whether a French battery out of Austria's sight moved
this turn (its Moved side, §11 "Quando una unità di artiglieria muove o Bombarda si gira sul lato \"Moved\"") serve
Austria different bytes. Whether an unseen gun moved is what rev-k K6 found told of cavalry (fixed by 7a8abff8)."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.arrivano.turn import end_phase
from arbitro.adjudicator.parabellum.act import settle

from tests.arrivano.harness import FOLD, RULESET, Table, position
from tests.parabellum.served_status import served

GUNS, AUSTRIA = "1004", "3914"  # far apart: neither side sees the other


def end_phase_served(moved: bool) -> bytes:
    state = position({"art-watrin": GUNS, "6e-legere-i": GUNS, "ir18-i": AUSTRIA}, leaders={"watrin": GUNS},
                     turn=3)
    state.units["art-watrin"].art_moved = moved
    assert RULESET.unexaminable(state, "austria", [GUNS]) == {GUNS}
    t = Table(state)
    before = FOLD.copy(t.game)
    ctx = t.decision()
    g = RULESET.game(ctx)
    end_phase(g)
    settle(g)
    made: list[tuple[str, list[Any]]] = [("france", list(ctx.events))]
    return served(RULESET, FOLD, before, made, "austria")


def test_whether_an_unseen_gun_moved_is_not_told_by_the_end_phase() -> None:
    assert end_phase_served(True) == end_phase_served(False), "Austria learns an unseen French gun moved this turn"
