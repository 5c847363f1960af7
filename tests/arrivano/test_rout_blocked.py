"""arrivano §15.2.2 with §12.6.3: a routed unit whose end-phase rout move has no hex to go to (surrounded, no edge)
is eliminated for good, without asking its owner (steps.settle_top: a rout move with no answer); no test reached
that branch (coverage of tests/parabellum, caldiero and arrivano, twenty-first session)."""

from __future__ import annotations

from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum.act import settle
from tests.arrivano.harness import RULESET, Table, ev, open_ground, position

X = open_ground()
GRID = RULESET.data.scenarios["montebello"].map.grid
RING = ["6e-legere-i", "6e-legere-ii", "6e-legere-iii", "22e-i", "22e-ii", "22e-iii"]


def rout_move_of(units: dict[str, str], uid: str) -> tuple[str, list[object]]:
    """`uid` routed, its end-phase rout move awaited (arrivano §3.1 C), the waits settled as the flow settles them:
    the decision then awaited ('' none) and the events."""
    state = position(units)
    state.units[uid].status = "routed"
    state.phase, state.step, state.seat = "end", "rout", ""
    t = Table(state).with_frame("rout_move", state.units[uid].side, str(R.ROUT_MOVE), {"unit": uid})
    ctx = t.decision("umpire")
    settle(RULESET.game(ctx))
    top = ctx.game.core.decisions[-1].kind if ctx.game.core.decisions else ""
    return top, list(ctx.events)


def test_a_surrounded_routed_unit_is_eliminated_for_good_without_a_question() -> None:
    top, events = rout_move_of({"ir18-i": X} | dict(zip(RING, sorted(GRID.neighbours(X)))), "ir18-i")
    assert top != "rout_move"
    gone = [e for e in events if isinstance(e, ev.UnitEliminated)]
    assert [(e.unit, e.permanent) for e in gone] == [("ir18-i", True)]
    assert gone[0].rule == str(ARRIVANO_VARIANT.rules.RETREAT_BLOCKED)
    assert gone[0].cause == f"{R.ROUT_MOVE}; {ARRIVANO_VARIANT.rules.RETREAT_BLOCKED}"


def test_a_routed_unit_with_a_way_out_is_asked_its_rout_move() -> None:
    top, events = rout_move_of({"ir18-i": X, "6e-legere-i": GRID.neighbour(X, 1)}, "ir18-i")
    assert top == "rout_move" and not [e for e in events if isinstance(e, ev.UnitEliminated)]
