"""fogv: a spent V marker taken off a unit the enemy may not examine tells him nothing (arrivano §16.3.4 with
§11.3.2 "si può esaminare uno stack nemico solo se si ha una LoS"). The V lies under the stack's marker as its
status does; its removal (turn.remove_spent_markers: after the unit's combat sub-phase of the next turn, or in the end
phase for a unit not activated, interpretation open_order_marker_removal) is made only where a unit acted in open
order last turn, so its stub told the enemy that an unseen unit had. Two games differing only in that marker serve
Austria the same bytes; the umpire's differ (the premise)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, at_step, end_phase_made, position

FRENCH, AUSTRIA = "1004", "3914"  # far apart: neither side sees the other
OPTIONS = ["open_order", "physical_exhaustion"]


def marked(state: Any, spent: bool) -> Any:
    """6e Légère I at FRENCH with a V placed last turn (`spent`), or no marker; out of Austria's sight either way."""
    state.options = list(OPTIONS)
    if spent:
        state.units["6e-legere-i"].open_order, state.units["6e-legere-i"].marker_turn = "V", state.turn - 1
    assert RULESET.unexaminable(state, "austria", [FRENCH]) == {FRENCH}
    return state


def end_phase_served(spent: bool) -> tuple[bytes, bytes]:
    """The end phase of turn 3 (the unit not activated): Austria's bytes and the umpire's."""
    state = marked(position({"6e-legere-i": FRENCH, "ir18-i": AUSTRIA}, leaders={"watrin": FRENCH}, turn=3), spent)
    before, made, after = end_phase_made(state)
    assert after.units["6e-legere-i"].open_order == ""
    return served(RULESET, FOLD, before, made, "austria"), served(RULESET, FOLD, before, made, UMPIRE)


def not_told(play: Callable[[bool], tuple[bytes, bytes]]) -> None:
    """`play` with the spent V and without: the umpire's bytes differ (the premise), Austria's must not."""
    spent, fresh = play(True), play(False)
    assert spent[1] != fresh[1], "the premise: the umpire's log holds the V taken off"
    assert spent[0] == fresh[0], "Austria learns an unseen French unit acted in open order last turn"


def test_an_unseen_units_spent_v_is_not_told_by_the_end_phase() -> None:
    not_told(end_phase_served)


def combat_closed(spent: bool) -> tuple[bytes, bytes]:
    """W's combat step (Defence: no assault) ends: the V of its units placed last turn goes (§16.3.4)."""
    state = marked(position({"6e-legere-i": FRENCH, "ir18-i": AUSTRIA}, leaders={"watrin": FRENCH},
                            orders={"W": "defence"}), spent)
    t = at_step(state, "W", "combat")
    before = FOLD.copy(t.game)
    made: list[tuple[str, list[Any]]] = [("france", t.send("france", {"type": "end_step"}))]
    assert t.state.units["6e-legere-i"].open_order == ""
    return served(RULESET, FOLD, before, made, "austria"), served(RULESET, FOLD, before, made, UMPIRE)


def test_an_unseen_units_spent_v_is_not_told_by_its_combat_step_ending() -> None:
    not_told(combat_closed)
