"""The straight submit path (kernel-design "Engine and service boundaries"): one read of the game record per
submit, every appended event folded once (by the engine, whose states the service serves from), the game's
genesis decoded once per process."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import randomness, registry
from arbitro.adjudicator.engine import Adjudicator, GameContext, NoHistory
from arbitro.adjudicator.randomness import SeededSupply
from arbitro.adjudicator.service import Arbitro
from arbitro.events import core
from arbitro.projections.game import may_reveal, state_bytes


CORE_TAGS = {t.__struct_config__.tag for t in core.CORE_EVENT_TYPES}


class Counted:
    """Counts the calls to chosen methods of an object, passing them through."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, target: Any, *names: str) -> None:
        self.calls: Counter[str] = Counter()
        for name in names:
            monkeypatch.setattr(target, name, self._wrap(name, getattr(target, name)))

    def _wrap(self, name: str, method: Any) -> Any:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return method(*args, **kwargs)
        return counted


def test_a_submit_reads_the_record_once_and_folds_each_new_event_once(
    app: Arbitro, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "attack", "aim": "high"})  # the head cache now holds the head
    store = Counted(monkeypatch, app.store, "game", "events")
    evolve = Counted(monkeypatch, registry.get("duel"), "apply")
    result = app.submit("g", "blue", {"type": "guard", "stance": "low"})
    reads, folds = store.calls["game"], evolve.calls["apply"]
    monkeypatch.undo()
    appended = app.log("g", first=app.numbers(app.game("g")).events(result.cmd, result.cmd)[0])
    ruleset_events = [e for e in appended if e["type"] not in CORE_TAGS]
    assert len(ruleset_events) >= 2  # a guard rolls and deals damage: several ruleset events
    assert reads == 1
    assert store.calls["events"] == 0  # neither event #1 nor the head's events are read back
    assert folds == len(ruleset_events)

def test_a_cold_submit_decodes_the_genesis_once_and_later_ones_never(app: Arbitro, monkeypatch: pytest.MonkeyPatch) -> None:
    app.create("duel", "standard", game_id="g")
    cold = Arbitro(app.store)  # a new process: nothing cached
    events = Counted(monkeypatch, app.store, "events", "game")
    cold.submit("g", "red", {"type": "attack", "aim": "high"})
    first_reads = events.calls["events"]
    assert events.calls["game"] == 1 and first_reads >= 1  # genesis and the head's state from the log
    cold.submit("g", "blue", {"type": "guard", "stance": "low"})
    assert events.calls["game"] == 2 and events.calls["events"] == first_reads


def test_the_engine_returns_the_state_after_each_event(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    game = app.game("g")
    adj = Adjudicator(registry.get("duel"))
    before = app.state_at("g")
    context = GameContext(seats=game.seats, kind=game.kind, options=(), seed=game.seed)
    done = adj.decide(before, "blue", {"type": "guard", "stance": "low"}, context, NoHistory(), SeededSupply(game.seed),
                      keep_states=True)
    assert len(done.states_after) == len(done.events) > 1
    state = adj.fold.copy(before)
    for seq, (event, after) in enumerate(zip(done.events, done.states_after, strict=True), before.core.seq + 1):
        state = adj.fold.apply_event(state, seq, event)
        assert after.core.seq == seq and state_bytes(after) == state_bytes(state)
    assert state_bytes(done.state) == state_bytes(state)
    # each state is its own copy: altering one leaves the others as they were
    done.states_after[0].core.rolls = 999
    assert done.states_after[1].core.rolls != 999 and done.state.core.rolls != 999
    # a caller that does not ask for them pays no copies
    assert adj.decide(before, "blue", {"type": "guard", "stance": "low"}, context, NoHistory(),
                      SeededSupply(game.seed)).states_after == []


def test_a_retried_submit_reads_the_record_once(app: Arbitro, monkeypatch: pytest.MonkeyPatch) -> None:
    app.create("duel", "standard", game_id="g")
    first = app.submit("g", "red", {"type": "attack", "aim": "high"}, key="k1")
    app.submit("g", "blue", {"type": "guard", "stance": "low"})  # the head moves on past the first command
    store = Counted(monkeypatch, app.store, "game")
    again = app.submit("g", "red", {"type": "attack", "aim": "high"}, key="k1")
    reads = store.calls["game"]
    monkeypatch.undo()
    assert again.duplicate and again.cmd == first.cmd and again.head == first.head
    assert again.events == first.events and again.awaiting == first.awaiting and again.receipt == first.receipt
    assert reads == 1


def test_a_retry_that_read_the_record_before_its_twin_landed_gets_the_twins_result(
    app: Arbitro, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.create("duel", "standard", game_id="g")
    before = app.game("g")  # the record as a racer read it, before its twin appended the same keyed command
    first = app.submit("g", "red", {"type": "attack", "aim": "high"}, key="k1")
    reads = iter([before])
    real = app.store.game
    monkeypatch.setattr(app.store, "game", lambda game_id: next(reads, None) or real(game_id))
    again = app.submit("g", "red", {"type": "attack", "aim": "high"}, key="k1")
    assert again.duplicate and again.head == first.head and again.events == first.events
    assert again.awaiting == first.awaiting


def test_whether_a_seed_may_be_revealed_is_a_function_of_the_genesis_alone(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    created = app._created(app.game("g"))
    kept = {"fork": "p", "at": 3, "hash": "h", "keep_dice": True}
    assert may_reveal(created)  # a game of its own seed
    assert may_reveal(msgspec.structs.replace(created, origin={**kept, "keep_dice": False}))  # a fork, new seed
    assert may_reveal(msgspec.structs.replace(created, origin={**kept, "seed_public": True}))  # parent revealed first
    assert not may_reveal(msgspec.structs.replace(created, origin=kept))  # an older fork: the parent's seed, secret
    assert not hasattr(randomness, "may_reveal")  # one place for it: projections/game.py (kernel-design)


def test_a_result_is_read_by_attribute_only(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    result = app.submit("g", "red", {"type": "attack", "aim": "high"})
    assert result.awaiting.seats == ["blue"] and result.events
    with pytest.raises(TypeError):  # no dict-style second way to read a field (kernel-design: typed results)
        result["events"]  # type: ignore[index]
    assert not hasattr(result, "get")


def test_a_seats_submit_after_a_submit_reads_no_command_back(app: Arbitro, monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat's result names its command (engine-rules §V.6), numbered through the game's CommandNumbers, which the
    submit carries on past its own command (Arbitro.numbers_after) instead of reading every command again (issue 15):
    once read, the seats' submits that follow, with or without an expected head, and their status, read none."""
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "attack", "aim": "high"}, expected_seq=app.status("g", "red").head)
    store = Counted(monkeypatch, app.store, "commands")
    guard = app.submit("g", "blue", {"type": "guard", "stance": "low"})
    status = app.status("g", "blue")
    again = app.submit("g", "blue", {"type": "end_turn"}, expected_seq=status.head)
    assert (guard.head, status.head, again.head) == (2, 2, 3)
    assert store.calls["commands"] == 0
