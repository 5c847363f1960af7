"""Under the fog of war (arrivano §11.3.2, always in force) an activation's steps wait for their seat's end_step even
when he has nothing left to do in them (sequence.UNSEEN_WAITS): a step ending by itself (sequence.NOTHING_LEFT) would
tell the enemy what he may not know (rev-kernel2).

Two games differ only in a fact hidden from Austria (arrivano §11.3.2): whether a French unit of the activated
formation, in a stack out of Austria's sight, is routed (it may not move, §7.1.1 / movement.may_move) or in good
order. France makes the same move with another unit, out of Austria's sight too. Austria must be served the same
bytes: whether France still has a unit that may move is not Austria's to know.

The orders sub-phase (arrivano §3.1 A-1, §5.2) waits too: what it offers (turn.chief_changes) hangs on whether a
general stands within his commander in chief's command range (§4.3, §5.2), that is on where leaders stand out of the
enemy's sight. At Campotenese (§17.2) Reynier, the French chief, is no formation's general, so with Verdier (general of
V) out of his range the French sub-phase offers nothing. Two games differ only in where Verdier stands, in Reynier's
range or not, both out of Naples's sight."""

from __future__ import annotations

from typing import Any

from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, Table, at_step, line, open_ground, position, world
from tests.arrivano.test_fog_served import AUSTRIAN, FAR, GRID, X, play

CAMPOTENESE = "campotenese"
REYNIER = open_ground(CAMPOTENESE)
IN_RANGE, OUT_OF_RANGE = line(REYNIER, CAMPOTENESE, 6)[2::3]  # 2 and 5 hexes off (his range reaches 3)
NEAPOLITAN = {"art-centro": "3721"}  # far off: none of the French leaders' hexes is in its sight


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


def orders_table(in_range: bool) -> Table:
    """The end of turn 2 at Campotenese: Reynier at REYNIER and Verdier (general of V) in his command range or out of
    it, Compère (general of C) off the map, all of them out of Naples's sight."""
    verdier = IN_RANGE if in_range else OUT_OF_RANGE
    state = position({"1e-leger-c1": REYNIER, **NEAPOLITAN}, leaders={"reynier": REYNIER, "verdier": verdier},
                     scenario=CAMPOTENESE)
    assert (verdier in world(state).command_reach("reynier")) == in_range, "Reynier may change V's order (§5.2)"
    places = [REYNIER, IN_RANGE, OUT_OF_RANGE]
    assert RULESET.unexaminable(state, "naples", places) == set(places), "out of Naples's sight"
    return Table(state)


def test_whether_an_unseen_general_is_in_his_chiefs_range_is_not_served() -> None:
    """Turn 3 begins (its events served as Naples's command that ended turn 2) and France, changing nothing, ends its
    orders sub-phase. Naples is served the same bytes: the sub-phase waits for France's end_step whether or not
    Reynier could change V's order (sequence.UNSEEN_WAITS), so its end tells Naples nothing."""
    games = []
    for in_range in (True, False):
        t = orders_table(in_range)
        before = FOLD.copy(t.game)
        made: list[tuple[str, list[Any]]] = [("naples", t.new_turn(3))]
        offered = [c for c in t.legal("france") if c["type"] == "change_order"]
        assert bool(offered) == in_range and all(c["formation"] == "V" for c in offered)
        if (t.state.step, t.state.seat) == ("orders", "france"):
            made.append(("france", t.send("france", {"type": "end_step"})))
        games.append((served(RULESET, FOLD, before, made, "naples"), served(RULESET, FOLD, before, made, UMPIRE)))
    assert games[0][1] != games[1][1], "the umpire sees the hidden fact"
    assert games[0][0] == games[1][0], "Naples learns whether an unseen French general is in his chief's range"


def test_the_orders_sub_phase_waits_for_its_seat_with_nothing_to_change() -> None:
    """Under the fog (always, §11.3.2) France's orders sub-phase with nothing to change waits for its end_step."""
    t = orders_table(False)
    t.new_turn(3)
    assert (t.state.step, t.state.seat) == ("orders", "france")
    assert t.legal("france") == [{"type": "end_step"}]
