"""The four orders (caldiero §5.1, arrivano §5.1) and what each allows."""

from __future__ import annotations

from arbitro.adjudicator.parabellum.world import World


def ooc_test_after_moves(w: World) -> bool:
    """The reading `ooc_order_test`: out-of-command units test "Nel momento in cui viene attivata la sua formazione"
    (§5.3.1, at_activation: in the orders sub-phase), or "Una volta eseguito il movimento di tutte le unità in
    comando" (§3.1 B-3, after_in_command_moves: in the movement sub-phase, which then ends for the in-command units)."""
    return w.reading("ooc_order_test") == "after_in_command_moves"


def in_command_moves_over(w: World) -> bool:
    """Under §3.1 B-3's reading, once an out-of-command stack has tested the in-command units have done moving."""
    act = w.state.activation
    return act is not None and ooc_test_after_moves(w) and bool(act.ooc_tested)
