"""Under the fog of war (arrivano §11.3.2, always in force) an activation's steps wait for their seat's end_step even
when he has nothing left to do in them (sequence.UNSEEN_WAITS): a step ending by itself (sequence.NOTHING_LEFT) would
tell the enemy what he may not know (rev-kernel2).

Two games differ only in a fact hidden from Austria (arrivano §11.3.2): whether a French unit of the activated
formation, in a stack out of Austria's sight, is routed (it may not move, §7.1.1 / movement.may_move) or in good
order. France makes the same move with another unit, out of Austria's sight too. Austria must be served the same
bytes: whether France still has a unit that may move is not Austria's to know."""

from __future__ import annotations

from tests.arrivano.harness import RULESET, at_step, position
from tests.arrivano.test_fog_served import AUSTRIAN, FAR, GRID, X, play


def movement_table(routed: bool):
    state = position({"6e-legere-i": X, "6e-legere-ii": FAR, **AUSTRIAN}, orders={"W": "advance"})
    if routed:
        state.units["6e-legere-ii"].status = "routed"
    assert RULESET.unexaminable(state, "austria", [X, FAR]) == {X, FAR}, "both stacks must be out of Austria's sight"
    return at_step(state, "W", "movement")


def test_whether_an_unseen_unit_may_still_move_is_not_served() -> None:
    to = GRID.neighbour(X, 1)
    games = []
    for routed in (True, False):
        t = movement_table(routed)
        assert RULESET.unexaminable(t.state, "austria", [to]) == {to}
        games.append(play(t, [({"type": "move", "unit": "6e-legere-i", "to": to, "column": False}, [])]))
        assert t.state.step == "movement", "the step waits for France's end_step"
    assert games[0][1] != games[1][1], "the umpire sees the hidden fact"
    assert games[0][0] == games[1][0], "Austria learns whether an unseen French unit may still move"
