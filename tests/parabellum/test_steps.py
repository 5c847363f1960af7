"""The steps of play a seat acts in, one kernel table (parabellum/sequence.Steps; caldiero §3.1, arrivano §3.1): a
command is carried out only in the step that takes it, legal() is the step's lister then `end_step` when nothing keeps
it out, an owed obligation keeps `end_step` out and refuses it, a step is asked whether it offers anything by its
lister stopped at the first command, and a step whose seat has nothing left to do in it ends by itself, in both games
(sequence.NOTHING_LEFT); both games end a step with `end_step` and call the initiative winner's choice
`choose_activation` (Arrivano's `next` and `end_orders` of games up to 1.27.0 are read no more since 1.31.0)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pydantic
import pytest

from arbitro.adjudicator.arrivano import commands as arrivano_commands
from arbitro.adjudicator.arrivano import ruleset as arrivano_ruleset
from arbitro.adjudicator.caldiero import legal as caldiero_legal
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.parabellum import sequence
from arbitro.adjudicator.ruleset import CommandModel, Rule
from arbitro.events.parabellum import StepBegan
from tests.arrivano import harness as arrivano
from tests.caldiero import harness as caldiero

RULE, OWED, SEQUENCE = Rule("book", "1", "the step"), Rule("book", "2", "an obligation"), Rule("book", "3", "sequence")


class Position:
    """What the table reads of a World: its state's clock."""

    class state:  # noqa: N801  (the World's attribute)
        phase, step, seat = "action", "march", "france"


class Command(CommandModel):
    type: str
    where: str = ""


def table(listed: list[str], owed: str | None = None, asked: list[str] | None = None) -> tuple[sequence.Steps, list[str]]:
    """A one-step table: `march` takes `go`, lists `listed` (recording in `asked` how far it was read), is ended by
    `end_step` unless `owed` is still owed."""
    done: list[str] = []

    def lister(w: Any, seat: str) -> Iterator[dict[str, Any]]:
        for where in listed:
            (asked if asked is not None else []).append(where)
            yield {"type": "go", "where": where}

    step: sequence.Step[Any, Any] = sequence.Step(
        RULE, {"go": lambda game, seat, cmd: done.append(f"go {cmd.where}")}, lister,
        lambda game, seat: done.append("ended"), lambda w, seat: (OWED, owed) if owed else None)
    return sequence.Steps({"march": step}, SEQUENCE), done


def test_legal_is_the_listing_then_end_step_when_nothing_is_owed() -> None:
    steps, _ = table(["a", "b"])
    assert steps.legal("march", Position, "france") == [{"type": "go", "where": "a"}, {"type": "go", "where": "b"},
                                                         {"type": "end_step"}]
    owing, _ = table(["a"], owed="the units must move first")
    assert owing.legal("march", Position, "france") == [{"type": "go", "where": "a"}]
    assert steps.legal("elsewhere", Position, "france") == []


def test_end_step_is_refused_while_owed_and_ends_the_step_otherwise() -> None:
    owing, done = table(["a"], owed="the units must move first")
    with pytest.raises(IllegalCommand) as refused:
        owing.decide("march", None, Position, "france", Command(type="end_step"))
    assert (refused.value.rule, refused.value.message) == (str(OWED), "the units must move first") and done == []
    steps, done = table(["a"])
    steps.decide("march", None, Position, "france", Command(type="end_step"))
    steps.decide("march", None, Position, "france", Command(type="go", where="b"))
    assert done == ["ended", "go b"]


def test_a_command_outside_its_step_is_refused_naming_what_the_step_takes() -> None:
    steps, done = table(["a"])
    with pytest.raises(IllegalCommand) as refused:
        steps.decide("march", None, Position, "france", Command(type="fly"))
    assert (refused.value.rule, refused.value.message) == (str(SEQUENCE), (
        "fly is not possible now: the action phase is at step 'march', which takes go, end_step from france; fly "
        "answers a pending decision, and none is pending"))
    with pytest.raises(IllegalCommand) as outside:
        steps.decide("parade", None, Position, "france", Command(type="go"))
    assert (outside.value.rule, outside.value.message) == (str(RULE), (
        "go is not possible now: the action phase is at step 'march', which takes nothing from france; go is given "
        "in the march step (book §1)"))
    assert done == []


def test_a_step_is_asked_whether_it_offers_anything_by_its_first_command() -> None:
    asked: list[str] = []
    steps, done = table(["a", "b", "c"], asked=asked)
    assert steps.has_options("march", Position, "france") and asked == ["a"]
    assert not steps.ends_by_itself("march", Position, "france")
    empty, done = table([])
    assert empty.ends_by_itself("march", Position, "france")
    empty.end("march", None, "france")
    assert done == ["ended"]
    assert not table([], owed="owed")[0].ends_by_itself("march", Position, "france")  # an obligation keeps it


@pytest.mark.parametrize("steps", [caldiero_legal.CALDIERO_STEPS, arrivano_ruleset.ARRIVANO_STEPS],
                         ids=["caldiero", "arrivano"])
def test_both_games_choose_the_next_activation_in_the_kernels_step(steps: sequence.Steps) -> None:
    """caldiero §6.2, arrivano §6.1: the winner chooses what to activate; no command ends that step, and every
    other step of each game a seat acts in is ended by `end_step` (an automatic one, the weather, the initiative, by
    no command)."""
    choose = steps.rows[sequence.CHOOSE_ACTIVATION]
    assert "activate" in choose.takes and choose.advance is None
    assert all(row.ended != (row.run is not None) for step, row in steps.rows.items()
               if step != sequence.CHOOSE_ACTIVATION)


class Recorder:
    """A game's procedure context as the sequence asks it: the events emitted."""

    def __init__(self) -> None:
        self.events: list[Any] = []

    def emit(self, event: Any) -> None:
        self.events.append(event)


def test_a_row_says_as_data_which_step_begins_next_and_for_whom() -> None:
    """A step's end as data (sequence.Step.then, seats): the same step for the next of its seats (caldiero §3.1 A:
    France, then Austria), then the row it names begins (its phase, shown name and rule) for its first seat, or the
    same seat, and only then the row's own `advance`."""
    after: list[str] = []
    nothing = lambda w, seat: []  # noqa: E731
    steps: sequence.Steps[Any, Any] = sequence.Steps({
        "orders": sequence.Step(RULE, {}, nothing, phase="command", seats=("france", "austria"), then="march"),
        "march": sequence.Step(OWED, {}, nothing, lambda game, seat: after.append(seat), phase="action",
                               name="movement", then="fight"),
        "fight": sequence.Step(SEQUENCE, {}, nothing, phase="action", then="orders"),
    }, SEQUENCE)
    game = Recorder()
    steps.end("orders", game, "france")
    steps.end("orders", game, "austria")
    steps.decide("march", game, Position, "austria", Command(type="end_step"))
    steps.end("fight", game, "austria")
    assert game.events == [StepBegan(phase="command", step="orders", seat="austria", rule=str(RULE)),
                           StepBegan(phase="action", step="movement", seat="austria", rule=str(OWED)),
                           StepBegan(phase="action", step="fight", seat="austria", rule=str(SEQUENCE)),
                           StepBegan(phase="command", step="orders", seat="france", rule=str(RULE))]
    assert after == ["austria"] and steps.takes("fight") == ["end_step"]
    with pytest.raises(AssertionError):
        sequence.Steps({"a": sequence.Step(RULE, {}, nothing, then="nowhere")}, SEQUENCE)


def test_automatic_rows_closing_begins_and_seats_as_the_game_stands_are_data() -> None:
    """The rest of the turn table as data: an automatic row (`run`: the weather, the initiative) is no seat's and
    takes no `end_step`; settle carries it out as it comes, then its `then` begins (for nobody where it names no
    seats); `closing` runs before the next step begins (an activation ended); `begins` is what a beginning cites
    where a step's refusals cite another rule; `seats` may be the game's (arrivano §5.2: the scenario's first)."""
    ran: list[str] = []
    nothing = lambda w, seat: []  # noqa: E731
    steps: sequence.Steps[Any, Any] = sequence.Steps({
        "orders": sequence.Step(RULE, {}, nothing, phase="command", seats=lambda game: game.order, then="roll",
                                begins=SEQUENCE),
        "roll": sequence.Step(OWED, {}, nothing, run=lambda game, seat: ran.append(f"roll {seat!r}"),
                              phase="command", then="fight"),
        "fight": sequence.Step(RULE, {}, nothing, phase="action", seats=("france",),
                               closing=lambda game, seat: ran.append(f"closed {seat}"), then="roll"),
    }, SEQUENCE)
    game = Recorder()
    game.order = ("austria", "france")  # type: ignore[attr-defined]
    steps.begin("orders", game)
    steps.end("orders", game, "austria")
    steps.end("orders", game, "france")
    assert steps.takes("roll") == [] and steps.legal("roll", Position, "") == []
    assert not steps.ends_by_itself("roll", Position, "")
    assert steps.settle("roll", game, Position, "")
    steps.end("fight", game, "france")
    assert ran == ["roll ''", "closed france"]
    assert game.events == [StepBegan(phase="command", step="orders", seat="austria", rule=str(SEQUENCE)),
                           StepBegan(phase="command", step="orders", seat="france", rule=str(SEQUENCE)),
                           StepBegan(phase="command", step="roll", seat="", rule=str(OWED)),
                           StepBegan(phase="action", step="fight", seat="france", rule=str(RULE)),
                           StepBegan(phase="command", step="roll", seat="", rule=str(OWED))]
    with pytest.raises(IllegalCommand):
        steps.decide("roll", game, Position, "", Command(type="end_step"))


def test_caldiero_lists_and_takes_end_step_in_an_activation_and_names_the_choice_as_arrivano() -> None:
    state = caldiero.fresh()
    state.phase, state.step, state.seat = "action", sequence.CHOOSE_ACTIVATION, "france"
    t = caldiero.activate(state, "massena", step="bombardment")
    assert t.legal("france")[-1] == {"type": "end_step"}
    t.refuse("france", {"type": "activate", "formation": "augereau"}, rule="caldiero §6.2")  # where it is given
    events = t.send("france", {"type": "end_step"}, dice=[(6, 1)])  # the initiative's dice: france wins
    began = [e.step for e in events if isinstance(e, StepBegan)]  # no attack to make: the combat step ends by itself
    assert began == ["combat", "initiative", sequence.CHOOSE_ACTIVATION]
    assert t.state.step == sequence.CHOOSE_ACTIVATION and "end_step" not in [c["type"] for c in t.legal(t.state.seat)]


def test_arrivano_ends_its_steps_with_end_step_and_its_old_words_are_refused() -> None:
    t = arrivano.at_step(arrivano.fresh(), "W", "bombardment")
    listed = t.legal("france")
    assert listed[-1] == {"type": "end_step"} and not any(c["type"] in ("next", "end_orders") for c in listed)
    for word in ("next", "end_orders"):  # games up to 1.27.0 (read until 1.30.0): malformed now
        with pytest.raises(pydantic.ValidationError):
            pydantic.TypeAdapter(arrivano_commands.ArrivanoCommand).validate_python({"type": word})
    refused = t.refuse("france", {"type": "assault", "attackers": ["x"], "targets": ["0101"]})
    assert "at step 'bombardment', which takes try_order_change, bombard, end_step from france" in str(refused)


def test_under_the_fog_arrivano_waits_for_end_step_in_a_step_with_nothing_left() -> None:
    """sequence.UNSEEN_WAITS (arrivano §11.3.2, the fog always in force): Montebello's first activation has no enemy
    in reach, so its combat step offers nothing but `end_step`; it waits for it all the same (ending it by itself
    would tell Austria what France's unseen units may still do). Its end_step then ends the activation."""
    t = arrivano.at_step(arrivano.fresh(), "W", "movement")
    assert arrivano_ruleset.ARRIVANO_STEPS.legal("combat", arrivano.world(t.state), "france") == [{"type": "end_step"}]
    events = t.send("france", {"type": "end_step"})
    assert [e.step for e in events if isinstance(e, StepBegan)] == ["combat"]
    assert t.state.step == "combat"
    events = t.send("france", {"type": "end_step"}, dice=[6, 1])  # the initiative's dice
    assert [e.step for e in events if isinstance(e, StepBegan)] == [sequence.CHOOSE_ACTIVATION]
    assert t.state.step == sequence.CHOOSE_ACTIVATION and t.state.activation is None
