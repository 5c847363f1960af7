"""What holds at any time (ruleset.any_time: march orders ending §17.1.5, the automatic victory §17.1.8, sightings
§11.3.2) is checked at the end of every command, and before a step ends by itself (sequence.NOTHING_LEFT): the steps
that follow run on it (rev-kernel2 finding 2). Since 1.38.0 no Arrivano step ends by itself (the fog of war is always in
force and every step a command ends waits for it, sequence.UNSEEN_WAITS), so the command's end is where it shows: Lannes
lost before a turn begins, the game ends in the first orders sub-phase, which the chief has nothing to change in, before
the command that began the turn is over; no initiative die is rolled."""

from __future__ import annotations

from arbitro.adjudicator.arrivano.ruleset import any_time
from arbitro.adjudicator.arrivano.turn import start_turn
from arbitro.adjudicator.parabellum.act import settle
from arbitro.events import core
from tests.arrivano.harness import RULESET, Table, ev, position


def test_an_automatic_victory_is_declared_before_any_seat_is_asked() -> None:
    state = position({})
    state.leaders["lannes"].where = "lost"  # arrivano §17.1.8: "Lannes eliminato o catturato"
    t = Table(state)
    ctx = t.decision("umpire", [1, 2, 3, 4, 5, 6])
    g = RULESET.game(ctx)
    start_turn(g, 3)  # as the end phase begins the next turn, then the command's end (ruleset._after)
    settle(g)
    assert (g.state.step, g.state.seat) == ("orders", "france"), "France's orders sub-phase waits (§11.3.2)"
    any_time(g)
    kinds = [type(e) for e in ctx.events]
    assert kinds[-2:] == [ev.StepBegan, ev.GameEnded], kinds
    assert ctx.events[-2].step == "orders" and ctx.events[-1].automatic
    assert not any(isinstance(e, core.DiceRolled) for e in ctx.events), "no initiative roll after the game was won"
    assert g.state.step == "over"
