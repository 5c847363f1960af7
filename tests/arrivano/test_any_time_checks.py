"""What holds at any time (ruleset.any_time: march orders ending §17.1.5, the automatic victory §17.1.8, sightings
§11.3.2) is checked before a step ends by itself (sequence.NOTHING_LEFT), not only at the command's end: the steps
that follow run on it (rev-kernel2 finding 2). Lannes lost before a turn begins: the game ends in the first orders
sub-phase, which the chief has nothing to change in, before it ends into the other side's orders and the initiative
roll (no die is rolled)."""

from __future__ import annotations

from arbitro.events import core
from tests.arrivano.harness import Table, ev, position


def test_an_automatic_victory_is_declared_before_a_step_ends_by_itself() -> None:
    state = position({})
    state.leaders["lannes"].where = "lost"  # arrivano §17.1.8: "Lannes eliminato o catturato"
    t = Table(state)
    events = t.new_turn(3, dice=[1, 2, 3, 4, 5, 6])
    kinds = [type(e) for e in events]
    assert kinds[-2:] == [ev.StepBegan, ev.GameEnded], kinds
    assert events[-2].step == "orders" and events[-1].automatic
    assert not any(isinstance(e, core.DiceRolled) for e in events), "no initiative roll after the game was won"
    assert t.state.step == "over"
