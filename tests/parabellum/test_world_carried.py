"""The World one command's procedure made, taken over by the next where it reads the very same state object (issue 15:
a verify decides every command on one state, and what the end of a command worked out is what the next asks first):
what it worked out stays only while no event has been folded into the state since, whichever procedure folded it;
another state object, data or variant is read by a World of its own (parabellum/act.Act.world, World.read_for)."""

from __future__ import annotations

from arbitro.adjudicator.parabellum import zoc
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.ruleset import Decision
from tests.caldiero import harness as caldiero
from tests.hex.harness import Dice


def _next(table: caldiero.Table, before: Decision) -> Decision:
    """The next command's context on the same game state object, as a verify (engine `consume`) gives it."""
    return Decision(table.ruleset, table.engine.fold, before.game, "france", before.game.core.seq + 1,
                    Dice([]), table.context.options)


def test_the_next_command_takes_the_world_over_with_what_it_worked_out() -> None:
    table = caldiero.Table(caldiero.fresh())
    first = Act(table.decision(), caldiero.RULESET)
    w = first.world()
    ezoc = zoc.enemy_zoc(w, "france")
    second = Act(_next(table, first.ctx), caldiero.RULESET)
    assert second.world() is w and w.known(("enemy_zoc", "france")) is ezoc
    assert w.reading("dr_rout_retreat") == second.reading("dr_rout_retreat")


def test_an_event_folded_since_clears_what_it_worked_out() -> None:
    table = caldiero.Table(caldiero.fresh())
    first = Act(table.decision(), caldiero.RULESET)
    w = first.world()
    zoc.enemy_zoc(w, "france")
    first.ctx.emit(caldiero.ev.WeatherChanged(box=2, rule="caldiero §17.1"))  # folded, not asked of the World since
    second = Act(_next(table, first.ctx), caldiero.RULESET)
    assert second.world() is w and w.known(("enemy_zoc", "france")) is None
    assert w.weather_box() is not None and w.weather_box().box == 2


def test_another_state_is_read_by_a_world_of_its_own() -> None:
    table = caldiero.Table(caldiero.fresh())
    first = Act(table.decision(), caldiero.RULESET)
    w = first.world()
    other = Act(table.decision(), caldiero.RULESET)  # a copy of the same position: another object
    assert other.world() is not w and other.world().state is other.state
    assert Act(_next(table, first.ctx), caldiero.RULESET).world() is w  # each state object keeps its own (rev-h H4)
