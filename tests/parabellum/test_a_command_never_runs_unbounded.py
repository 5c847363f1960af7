"""A command never runs unbounded (review rev-kernel-t 1): the kernel's `act.settle` refuses a command that sets
going more automatic steps than any game needs (`Unsettled`, naming turn, phase and step; nothing recorded); a
position, a ruling or a data folder cannot make a game longer than its scenario (`last_turn`, `turns` <= MAX_TURNS),
so a command with nothing to decide runs at most a scenario's turns; and Arrivano begins its turns in a loop, not
each inside the last (a RecursionError, an HTTP 500, once a position had many turns nobody decides)."""

from __future__ import annotations

import json
import shutil
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.arrivano import turn as arrivano_turn
from arbitro.adjudicator.arrivano.data_model import ARRIVANO_DATA
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.errors import BadPosition, IllegalCommand, Unsettled
from arbitro.adjudicator.parabellum import act
from arbitro.adjudicator.parabellum.act import SETTLE_ROUNDS, settle
from arbitro.adjudicator.parabellum.data import MAX_TURNS
from arbitro.adjudicator.service import POSITION_FORMAT, Arbitro
from arbitro.events.sqlite import SQLiteStore
from tests.arrivano.harness import position as arrivano_position
from tests.caldiero.harness import position as caldiero_position


class Hung(Exception):
    """The call did not return within its time: the server would hang on it."""


@contextmanager
def within(seconds: int) -> Iterator[None]:
    def expired(signum: int, frame: Any) -> None:
        raise Hung(f"still running after {seconds} s")
    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


class Clock:
    turn, phase, step = 4, "action", "initiative"


class Endless:
    """A procedure's context (act.Act) whose game's sequence always has an automatic step to run (a defect, a ruling,
    a hand-written position)."""

    variant, state = CALDIERO_VARIANT, Clock()

    def __init__(self) -> None:
        self.game = self

    def decision_waiting(self) -> bool:
        return False

    def settle_decision(self) -> bool:
        return False

    def settle_step(self, a: Any) -> bool:
        return True


def test_a_settle_that_never_reaches_a_choice_is_refused_naming_turn_phase_and_step() -> None:
    with within(5):
        with pytest.raises(Unsettled) as raised:
            settle(Endless())  # type: ignore[arg-type]
    message = str(raised.value)
    assert f"{SETTLE_ROUNDS} automatic steps" in message
    assert "turn 4, action phase, step initiative" in message
    assert raised.value.rule == str(CALDIERO_VARIANT.rules.SEQUENCE)


def _game(ruleset: str, scenario: str, state: Any) -> tuple[Arbitro, str]:
    app = Arbitro(SQLiteStore(":memory:"))
    file = {"format": POSITION_FORMAT, "ruleset": ruleset, "scenario": scenario, "state": msgspec.to_builtins(state)}
    return app, app.create(ruleset, position=file)


def _empty(ruleset: str, turn: int, last_turn: int) -> Any:
    """Nobody on the map: nobody has anything to decide, so one command runs the game to its end."""
    state = (caldiero_position if ruleset == "caldiero" else arrivano_position)({})
    state.phase, state.step, state.seat, state.turn, state.last_turn = "command", "orders", "france", turn, last_turn
    return state


def test_a_command_that_settles_too_long_is_refused_and_records_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Caldiero, nobody on the map, ten turns to run: with the bound lowered below them France's end_step is refused
    by the engine, where it stands when the bound is reached, and the game is as it was."""
    app, game = _game("caldiero", "historical", _empty("caldiero", 2, 10))
    before = app.state_at(game).core.seq
    monkeypatch.setattr(act, "SETTLE_ROUNDS", 20)
    with pytest.raises(Unsettled, match=r"now at turn \d+, \w+ phase, step \w+"):
        app.submit(game, "france", {"type": "end_step"})
    assert app.state_at(game).core.seq == before
    monkeypatch.undo()
    app.submit(game, "france", {"type": "end_step"})  # with the real bound the same command runs the game to its end
    assert app.state_at(game).rules.phase == "over"


@pytest.mark.parametrize(("ruleset", "scenario", "turns"), [("caldiero", "historical", 10),
                                                             ("arrivano", "montebello", 16)])
def test_a_position_past_the_scenarios_last_turn_is_refused(ruleset: str, scenario: str, turns: int) -> None:
    """last_turn 10**9 with nobody on the map: Caldiero's end_step ran turn after turn for hours, Arrivano's second
    end_orders died of RecursionError. The position is refused, naming the field and the scenario's length."""
    with pytest.raises(BadPosition, match=rf"last_turn {10**9} is outside 1\.\.{turns}"):
        _game(ruleset, scenario, _empty(ruleset, 2, 10**9))


@pytest.mark.parametrize(("ruleset", "scenario", "turns"), [("caldiero", "historical", 10),
                                                             ("arrivano", "montebello", 16)])
def test_a_ruling_that_runs_the_game_past_its_last_turn_is_refused(ruleset: str, scenario: str, turns: int) -> None:
    app, game = _game(ruleset, scenario, _empty(ruleset, 2, turns))
    before = app.state_at(game).core.seq
    patch = [{"op": "replace", "path": "/last_turn", "value": turns + 1}]
    with pytest.raises(IllegalCommand, match=rf"last_turn {turns + 1} is outside 1\.\.{turns}"):
        app.submit(game, "umpire", {"type": "ruling", "reason": "a longer game", "patch": patch})
    assert app.state_at(game).core.seq == before


def test_a_data_folder_with_a_scenario_longer_than_max_turns_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "data"
    shutil.copytree(ARRIVANO_DATA.folder, copy)
    target = copy / "montebello" / "scenario.json"
    doc = json.loads(target.read_text(encoding="utf-8"))
    doc["turns"] = MAX_TURNS + 1
    target.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        ARRIVANO_DATA.load(copy)
    problems = [str(p) for p in caught.value.problems]
    assert any("turns" in p and str(MAX_TURNS) in p for p in problems), problems


def test_arrivano_begins_its_turns_in_a_loop_not_each_inside_the_last(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody on the map from turn 1 of 16: the turns run to the end of the game in at most two commands, and every
    turn begins at the same depth of the stack (each begun inside the last: ten frames more a turn). Under option
    §16.1 (`hq_orders`) a turn has no orders sub-phase, which since 1.38.0 waits for each side's end_step under the
    fog (sequence.UNSEEN_WAITS): the two commands end turn 1's, and the turns after run on with nothing to decide."""
    depths: list[int] = []
    start_turn = arrivano_turn.start_turn

    def recorded(g: Any, turn: int) -> None:
        frame, depth = sys._getframe(), 0
        while frame is not None:
            frame, depth = frame.f_back, depth + 1
        depths.append(depth)
        start_turn(g, turn)
    monkeypatch.setattr(arrivano_turn, "start_turn", recorded)
    state = _empty("arrivano", 1, 16)
    state.options = ["hq_orders"]
    app, game = _game("arrivano", "montebello", state)
    for _ in range(2):
        if app.state_at(game).rules.result is None:
            app.submit(game, app.state_at(game).rules.seat, {"type": "end_step"})
    assert app.state_at(game).rules.result is not None
    assert len(depths) == 15 and len(set(depths)) == 1, depths
