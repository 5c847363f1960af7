"""Under Caldiero's fog of war (caldiero §20.4, an optional rule) a step waits for its seat's end_step even when he has
nothing left to do in it (sequence.UNSEEN_WAITS): a step ending by itself (sequence.NOTHING_LEFT) would tell the enemy
what he may not know (rev-kernel2; Arrivano's twin is tests/arrivano/test_fog_steps_wait.py).

Two games differ only in a fact hidden from Austria: whether fr-40-ligne, of the activated formation, in a stack out
of Austria's sight, is routed (it may not move, caldiero §15.2) or in good order. France moves another unit, out of
Austria's sight too, then ends the step. Austria must be served the same bytes (its log, one item per command; its
view; what status tells it is awaited and its notices): whether France still has a unit that may move is not Austria's
to know. Without the fog the step still ends by itself once nothing is left to do in it."""

from __future__ import annotations

from typing import Any

from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.caldiero.harness import FOLD, RULESET, Table, activate, position
from tests.caldiero.test_fog_served import FOG

MOVER, STILL = "fr-18-ligne", "fr-40-ligne"
FROM, TO, OTHER = "2518", "2618", "2718"  # all out of Austria's sight from 1917


def movement_table(routed: bool, options: tuple[str, ...]) -> Table:
    """Massena activated at his movement step, MOVER at FROM, STILL at OTHER (routed or in good order)."""
    state = position({MOVER: FROM, STILL: OTHER, "au-colloredo": "1917"}, leaders={"massena": "2418"},
                     orders={"massena": "manoeuvre"}, options=options)
    if routed:
        state.units[STILL].status = "routed"
    if options:
        assert RULESET.unexaminable(state, "austria", [FROM, TO, OTHER]) == {FROM, TO, OTHER}, "out of Austria's sight"
    return activate(state, "massena")


def play(t: Table, commands: list[dict[str, Any]]) -> tuple[bytes, bytes]:
    """Austria's bytes and the umpire's for France's `commands` from `t`'s state."""
    before = FOLD.copy(t.game)
    made = [t.send("france", command) for command in commands]
    sent = [("france", events) for events in made]
    return served(RULESET, FOLD, before, sent, "austria"), served(RULESET, FOLD, before, sent, UMPIRE)


def test_whether_an_unseen_unit_may_still_move_is_not_served() -> None:
    games = []
    for routed in (True, False):
        t = movement_table(routed, FOG)
        move = {"type": "move", "units": [MOVER], "to": TO}
        assert move | {"path": None, "column": False, "charge": False} in RULESET.legal(t.state, "france")
        games.append(play(t, [move, {"type": "end_step"}]))
        assert t.state.step == "leaders", "France's end_step ended the movement step"
    assert games[0][1] != games[1][1], "the umpire sees the hidden fact"
    assert games[0][0] == games[1][0], "Austria learns whether an unseen French unit may still move"


def test_under_the_fog_the_step_waits_for_its_seat_with_nothing_left() -> None:
    t = movement_table(True, FOG)
    t.send("france", {"type": "move", "units": [MOVER], "to": TO})
    assert (t.state.step, t.state.seat) == ("movement", "france")
    assert RULESET.legal(t.state, "france") == [{"type": "end_step"}]


def test_without_the_fog_the_step_ends_by_itself() -> None:
    """sequence.NOTHING_LEFT: with nothing left to move and nothing owed, the movement step ends without a command
    and the leaders' step begins (Massena may move)."""
    t = movement_table(True, ())
    t.send("france", {"type": "move", "units": [MOVER], "to": TO})
    assert (t.state.step, t.state.seat) == ("leaders", "france")
