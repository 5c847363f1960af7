"""The one decision mechanism (arbitro §S.3): a typed frame stack in the core state, one event vocabulary
(decision_opened / decision_revised / decision_resolved) folded once, and steps holding a prompt's options and
its answer. Proved with a duel whose guard is a ruleset frame, and with the engine's own three steps."""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.decisions import Step, close_frame, open_frame
from arbitro.adjudicator.engine import Adjudicator
from arbitro.adjudicator.errors import IllegalCommand, NotYourDecision
from arbitro.adjudicator.ruleset import Decision
from arbitro.adjudicator.service import Arbitro
from arbitro.events import core
from arbitro.events import random as rnd
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.decisions import StackMismatch, apply_decision
from arbitro.projections.fold import Replayer
from arbitro.projections.game import CoreState, GameState, awaited
from tests.foundation import duel

from .conftest import event_records, read_export, rechain, write_export
from arbitro.adjudicator.seat_numbers import events_of


# --- a ruleset on the stack: the duel's guard as a frame -----------------------------------------------------
class GuardAwaited(core.FrameContext, tag="duel_guard"):
    attacker: str
    aim: str


class GuardStep(Step[GuardAwaited]):
    kind = "guard"

    def options(self, state: GameState[Any], frame: core.Frame[GuardAwaited], seat: str) -> list[dict[str, Any]]:
        return [{"type": "guard", "stance": s} for s in ("high", "low")]

    def answer(self, ctx: Decision[Any], frame: core.Frame[GuardAwaited], command: Any) -> None:
        close_frame(ctx, frame)
        duel.DuelRuleset.decide(STACK_DUEL, ctx, command)


class StackDuel(duel.DuelRuleset):
    """The duel, its guard asked through the decision stack instead of `pending`."""

    name = "stackduel"
    Contexts = (GuardAwaited,)

    def pending(self, state: duel.DuelState) -> None:
        return None

    def steps(self) -> dict[str, Step[Any]]:
        return {GuardStep.kind: GuardStep()}

    def decide(self, ctx: Decision[duel.DuelState], command: Any) -> None:
        super().decide(ctx, command)
        if isinstance(command, duel.AttackCmd):
            defender = duel.other(ctx.seat)
            open_frame(ctx, GuardStep.kind, (defender,), str(duel.R_ATTACK), "choose a guard (high or low)",
                       GuardAwaited(attacker=ctx.seat, aim=command.aim))

    def redact_frame(self, frame: Any, seat: str, state: duel.DuelState) -> dict[str, Any]:
        data: dict[str, Any] = msgspec.to_builtins(frame)
        if seat != frame.ctx.attacker:  # the aim is the attacker's until the damage is rolled (a test of the hook)
            data["ctx"]["aim"] = None
        return data


STACK_DUEL = StackDuel()
registry.register("stackduel", "tests.foundation.test_decisions:StackDuel")


@pytest.fixture
def attacked(app: Arbitro) -> str:
    game = app.create("stackduel", "standard", game_id="s")
    app.submit(game, "red", {"type": "attack", "aim": "high"})
    return game


def test_a_ruleset_frame_is_typed_on_the_stack_and_its_options_are_legal(app: Arbitro, attacked: str) -> None:
    top = awaited(app.state_at(attacked).core)
    assert top is not None and top.kind == "guard" and top.seats == ("blue",)
    assert isinstance(top.ctx, GuardAwaited) and top.ctx.aim == "high"
    assert app.legal(attacked, "blue") == [{"type": "guard", "stance": "high"}, {"type": "guard", "stance": "low"}]
    assert app.legal(attacked, "red") == []  # only the awaited seat is offered anything
    assert msgspec.to_builtins(app.awaiting(attacked)) == {"seats": ["blue"], "kind": "guard", "rule": "duel §4",
                                      "prompt": "choose a guard (high or low)"}


def test_anything_but_an_awaited_answer_is_refused_saying_who_and_what(app: Arbitro, attacked: str) -> None:
    with pytest.raises(NotYourDecision, match="waiting for blue to choose a guard") as wrong_seat:
        app.submit(attacked, "red", {"type": "end_turn"})
    assert wrong_seat.value.rule == "duel §4"
    with pytest.raises(NotYourDecision, match="first choose a guard") as unlisted:
        app.submit(attacked, "blue", {"type": "end_turn"})
    assert unlisted.value.allowed == [{"type": "guard", "stance": "high"}, {"type": "guard", "stance": "low"}]
    answered = app.submit(attacked, "blue", {"type": "guard", "stance": "low"})
    assert [e["type"] for e in answered.events][:2] == ["decision_resolved", "guard_chosen"]
    assert app.state_at(attacked).core.decisions == ()
    assert app.verify(attacked).passed  # re-adjudication gives the same frames, byte for byte


class BarredGuardStep(GuardStep):
    """Only the high guard is listed; the step says why the low one is not (a reason a player can act on)."""

    def options(self, state: GameState[Any], frame: core.Frame[GuardAwaited], seat: str) -> list[dict[str, Any]]:
        return [{"type": "guard", "stance": "high"}]

    def answer(self, ctx: Decision[Any], frame: core.Frame[GuardAwaited], command: Any) -> None:
        if command.stance == "low":
            raise IllegalCommand("a low guard is barred against this aim", rule="duel §4.1")
        super().answer(ctx, frame, command)


class TrustingGuardStep(BarredGuardStep):
    """Only the high guard is listed, and the step itself would take any (it trusts the engine's check)."""

    def answer(self, ctx: Decision[Any], frame: core.Frame[GuardAwaited], command: Any) -> None:
        GuardStep.answer(self, ctx, frame, command)


class BarredDuel(StackDuel):
    name = "barredduel"

    def steps(self) -> dict[str, Step[Any]]:
        return {GuardStep.kind: BarredGuardStep()}


class TrustingDuel(StackDuel):
    name = "trustingduel"

    def steps(self) -> dict[str, Step[Any]]:
        return {GuardStep.kind: TrustingGuardStep()}


class LateRefusingGuardStep(BarredGuardStep):
    """Only the high guard is listed; the step refuses the low one only after it has begun the procedure."""

    def answer(self, ctx: Decision[Any], frame: core.Frame[GuardAwaited], command: Any) -> None:
        close_frame(ctx, frame)
        if command.stance == "low":
            raise IllegalCommand("refused from a position the game never reaches", rule="duel §4.2")
        duel.DuelRuleset.decide(STACK_DUEL, ctx, command)


class LateDuel(StackDuel):
    name = "lateduel"

    def steps(self) -> dict[str, Step[Any]]:
        return {GuardStep.kind: LateRefusingGuardStep()}


class ReasonedGuardStep(BarredGuardStep):
    """Only the high guard is listed; the step gives its reason for the low one beside its options, and its answer
    trusts the options (it would take the low guard)."""

    answered: list[str] = []

    def answer(self, ctx: Decision[Any], frame: core.Frame[GuardAwaited], command: Any) -> None:
        self.answered.append(command.stance)
        GuardStep.answer(self, ctx, frame, command)

    def refusal(self, state: GameState[Any], frame: core.Frame[GuardAwaited], command: dict[str, Any],
                options: list[dict[str, Any]]) -> tuple[str, str] | None:
        return "duel §4.3", f"a {command['stance']} guard is barred against a {frame.ctx.aim} aim; listed: {options}"


class ReasonedDuel(StackDuel):
    name = "reasonedduel"

    def steps(self) -> dict[str, Step[Any]]:
        return {GuardStep.kind: ReasonedGuardStep()}


registry.register("lateduel", "tests.foundation.test_decisions:LateDuel")
registry.register("reasonedduel", "tests.foundation.test_decisions:ReasonedDuel")
registry.register("barredduel", "tests.foundation.test_decisions:BarredDuel")
registry.register("trustingduel", "tests.foundation.test_decisions:TrustingDuel")


def test_an_unlisted_answer_is_refused_with_the_steps_own_reason_and_leaves_nothing(app: Arbitro) -> None:
    game = app.create("barredduel", "standard", game_id="b")
    app.submit(game, "red", {"type": "attack", "aim": "high"})
    head, state = app.game(game).head_seq, app.state_at(game)
    with pytest.raises(IllegalCommand, match="a low guard is barred against this aim") as refused:
        app.submit(game, "blue", {"type": "guard", "stance": "low"})
    assert refused.value.rule == "duel §4.1" and refused.value.allowed == [{"type": "guard", "stance": "high"}]
    assert app.game(game).head_seq == head and app.state_at(game) == state  # the step judged it on a scratch copy
    with pytest.raises(NotYourDecision, match="first choose a guard"):  # another kind of command: what is awaited
        app.submit(game, "blue", {"type": "end_turn"})


def test_a_reason_the_step_gives_after_it_began_is_not_served(app: Arbitro) -> None:
    """A refusal raised once the scratch answer has done something is worded from a position the game never
    reaches: the player is told the answer is not one listed, citing the frame's rule, instead."""
    game = app.create("lateduel", "standard", game_id="l")
    app.submit(game, "red", {"type": "attack", "aim": "high"})
    with pytest.raises(IllegalCommand, match="not one of the answers listed: choose a guard") as refused:
        app.submit(game, "blue", {"type": "guard", "stance": "low"})
    assert "never reaches" not in str(refused.value) and refused.value.allowed == [{"type": "guard", "stance": "high"}]


def test_a_steps_refusal_words_an_unlisted_answer_its_answer_never_sees(app: Arbitro) -> None:
    """A step that gives its reasons beside its options (`Step.refusal`) is asked for them: its answer, which trusts
    the options, is not run on an unlisted command, not even on a scratch copy."""
    game = app.create("reasonedduel", "standard", game_id="r")
    app.submit(game, "red", {"type": "attack", "aim": "high"})
    ReasonedGuardStep.answered.clear()
    with pytest.raises(IllegalCommand, match="a low guard is barred against a high aim") as refused:
        app.submit(game, "blue", {"type": "guard", "stance": "low"})
    assert refused.value.rule == "duel §4.3" and refused.value.allowed == [{"type": "guard", "stance": "high"}]
    assert ReasonedGuardStep.answered == []
    app.submit(game, "blue", {"type": "guard", "stance": "high"})
    assert ReasonedGuardStep.answered == ["high"]


def test_an_unlisted_answer_the_step_would_take_is_still_refused(app: Arbitro) -> None:
    """The options are the whole contract (arbitro §S.3): a step that trusts them never sees an unlisted answer. An
    answer of the kind awaited from the seat awaited is the seat's own decision answered wrongly: an IllegalCommand
    citing the frame's rule (it was NotYourDecision, which says the decision is another's or comes first)."""
    game = app.create("trustingduel", "standard", game_id="t")
    app.submit(game, "red", {"type": "attack", "aim": "high"})
    with pytest.raises(IllegalCommand, match="this guard is not one of the answers listed: choose a guard") as refused:
        app.submit(game, "blue", {"type": "guard", "stance": "low"})
    assert refused.value.allowed == [{"type": "guard", "stance": "high"}] and refused.value.rule == "duel §4"
    assert not isinstance(refused.value, NotYourDecision)
    assert app.state_at(game).core.decisions[-1].kind == "guard"


def test_frames_decode_typed_from_the_log_and_from_snapshots(app: Arbitro, attacked: str) -> None:
    """Replayed from the events, and from a snapshot (a stored state): the context is its Struct, never a dict."""
    for _ in range(3):  # a round ends: checkpoint and snapshot
        app.submit(attacked, "blue", {"type": "guard", "stance": "low"})
        app.submit(attacked, "blue", {"type": "attack", "aim": "low"})
        app.submit(attacked, "red", {"type": "guard", "stance": "high"})
        app.submit(attacked, "red", {"type": "attack", "aim": "high"})
    replayer = Replayer(app.adjudicator("stackduel").fold, app.store, attacked)
    assert app.store.snapshot_at_or_before(attacked, app.game(attacked).head_seq) is not None
    for state in (replayer.state_at(), replayer.state_at(use_snapshots=False)):
        (frame,) = state.core.decisions
        assert type(frame.ctx) is GuardAwaited


def test_the_ruleset_redacts_its_own_frames(app: Arbitro, attacked: str) -> None:
    opened = [e for e in events_of(app.log(attacked, "blue")) if e["type"] == "decision_opened"]
    assert opened and opened[-1]["event"]["frame"]["ctx"] == {"ctx": "duel_guard", "attacker": "red", "aim": None}
    mine = [e for e in events_of(app.log(attacked, "red")) if e["type"] == "decision_opened"]
    assert mine[-1]["event"]["frame"]["ctx"]["aim"] == "high"


def test_a_frame_edited_into_an_untyped_dict_does_not_decode(app: Arbitro, attacked: str, tmp_path: Path) -> None:
    """A forger re-hashes the chain after turning the stored context into a bare dict (no tag): the log no
    longer decodes, since a frame's context is one of the declared tagged Structs."""
    path = tmp_path / "s.jsonl"
    path.write_text("".join(line if line.endswith("\n") else line + "\n" for line in app.export(attacked, "umpire")),
                    encoding="utf-8")
    records = read_export(path)
    opened = next(r for r in event_records(records) if r["body"]["event"]["type"] == "decision_opened")
    del opened["body"]["event"]["frame"]["ctx"]["ctx"]
    rechain(records)
    write_export(path, records)
    other = Arbitro(SQLiteStore(":memory:"))
    with pytest.raises(Exception, match="ctx") as refused:
        other.import_lines(path.read_text(encoding="utf-8").splitlines(), str(path), seat="umpire")
    assert "decision_opened" in str(refused.value) or "#" in str(refused.value)


def test_a_step_kind_may_not_shadow_the_engines() -> None:
    class Shadow(StackDuel):
        def steps(self) -> dict[str, Step[Any]]:
            return {"consent": GuardStep()}

    with pytest.raises(ValueError, match="'consent' is the engine's own"):
        Adjudicator(Shadow())


# --- the fold: push / revise / pop, nothing else -----------------------------------------------------------
def frame(kind: str, seats: tuple[str, ...] = ("red",)) -> core.Frame[Any]:
    return core.Frame(kind=kind, seats=seats, rule="duel §4", prompt="p",
                      ctx=GuardAwaited(attacker="red", aim="high"))


def test_the_fold_pushes_revises_and_pops_only_the_top_frame() -> None:
    stack = apply_decision((), core.DecisionOpened(frame=frame("outer")))
    stack = apply_decision(stack, core.DecisionOpened(frame=frame("inner")))
    stack = apply_decision(stack, core.DecisionRevised(kind="inner", seats=("blue",), prompt="q",
                                                       ctx=GuardAwaited(attacker="blue", aim="low")))
    assert [f.kind for f in stack] == ["outer", "inner"] and stack[-1].seats == ("blue",)
    assert stack[-1].ctx.aim == "low" and stack[-1].rule == "duel §4"
    with pytest.raises(StackMismatch):  # closing a frame that is not on top is a defect, never silent
        apply_decision(stack, core.DecisionResolved(kind="outer", rule="duel §4"))
    with pytest.raises(StackMismatch):
        apply_decision((), core.DecisionRevised(kind="x", seats=(), prompt="", ctx=GuardAwaited(attacker="", aim="")))
    assert [f.kind for f in apply_decision(stack, core.DecisionResolved(kind="inner", rule="duel §4"))] == ["outer"]


# --- no untyped payload for a decision, in events or state ---------------------------------------------
def _untyped(tp: Any, seen: set[Any], where: str) -> list[str]:
    """Every place under `tp` where a value of unchecked shape could sit (Any, or a dict/list of it)."""
    if tp is Any:
        return [where]
    origin = typing.get_origin(tp)
    if origin is not None:
        return [p for i, arg in enumerate(typing.get_args(tp)) for p in _untyped(arg, seen, f"{where}[{i}]")]
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct) and tp not in seen:
        seen.add(tp)
        hints = typing.get_type_hints(tp)
        return [p for name, hint in hints.items() for p in _untyped(hint, seen, f"{tp.__name__}.{name}")]
    return []


def test_no_decision_event_or_frame_holds_an_untyped_payload(app: Arbitro) -> None:
    fold = app.adjudicator("stackduel").fold
    contexts = fold.contexts
    types = [core.DecisionOpened[contexts], core.DecisionRevised[contexts], core.DecisionResolved,
             CoreState[contexts]]
    for ruleset in registry.available().values():  # every ruleset's declared contexts too
        types += list(getattr(ruleset, "Contexts", ()))
    assert GuardAwaited in typing.get_args(contexts) and core.RandomEntry in typing.get_args(contexts)
    found = [p for tp in types for p in _untyped(tp, set(), getattr(tp, "__name__", str(tp)))]
    assert found == [], f"untyped decision payloads: {found}"


def test_the_untyped_payload_check_finds_one() -> None:
    class Loose(core.FrameContext, tag="loose"):
        data: dict[str, Any]

    assert _untyped(core.DecisionOpened[Loose], set(), "opened") == ["Loose.data[1]"]


# --- the engine's own steps ---------------------------------------------------------------------------
def test_undo_consent_is_a_frame_its_answers_are_legal_and_it_pops(app: Arbitro) -> None:
    game = app.create("duel", "standard", game_id="g")
    created = app.game(game).head_seq
    app.submit(game, "red", {"type": "attack", "aim": "high"})
    app.submit(game, "blue", {"type": "guard", "stance": "low"})  # dice: red's undo needs blue's consent
    app.undo(game, "red", 0)  # a seat's numbers are commands: 0, the creation, whose last event is #created
    top = awaited(app.state_at(game).core)
    assert top is not None and top.kind == "consent" and isinstance(top.ctx, core.UndoConsent)
    assert top.ctx.undo_to == created and top.ctx.undo_cmd == 0 and top.ctx.requested_by == "red"
    assert top.seats == ("blue",) and top.prompt == "red asks to take back everything after command #0: accept?"
    assert app.legal(game, "blue") == [{"type": "consent", "accept": True}, {"type": "consent", "accept": False}]
    assert app.legal(game, "red") == []
    with pytest.raises(NotYourDecision, match="waiting for blue to red asks to take back"):
        app.submit(game, "red", {"type": "attack", "aim": "low"})
    with pytest.raises(IllegalCommand, match="no request to take back awaiting your answer"):
        app.submit(game, "red", {"type": "consent", "accept": True})  # the requester does not consent to itself
    app.submit(game, "blue", {"type": "consent", "accept": True})
    after = app.state_at(game)
    assert after.core.decisions == () and after.rules.attack is None and after.rules.hp == {"red": 10, "blue": 10}
    assert app.verify(game).passed


def test_a_roll_to_enter_is_revised_in_place_while_values_are_entered(app: Arbitro) -> None:
    """A transcribed duel's opening needs two draws: after the first is entered the same frame stays on top,
    revised with what was entered (no second frame is pushed), and the last entry pops it."""
    game = app.create("duel", "standard", transcribed=True, game_id="t")
    (first,) = app.state_at(game).core.decisions
    assert first.kind == "random" and first.seats == ("umpire",) and first.ctx.entered == ()
    # legal shows the umpire an answer of the stated shape (issue 14.11); any values of that shape are accepted
    assert app.legal(game, "umpire") == [{"type": "enter_random", "values": [duel.DECKS["red"][0]]}]
    app.submit(game, "umpire", {"type": "enter_random", "values": [duel.DECKS["red"][0]]})
    (again,) = app.state_at(game).core.decisions
    assert again.ctx.entered == ((duel.DECKS["red"][0],),) and json.loads(again.ctx.command) == {"type": "open_scenario"}
    app.submit(game, "umpire", {"type": "enter_random", "values": [duel.DECKS["blue"][0]]})
    assert app.state_at(game).core.decisions == ()
    assert app.verify(game).passed


def test_another_seat_is_served_a_roll_frame_without_the_suspended_command(app: Arbitro) -> None:
    game = app.create("duel", "standard", transcribed=True, game_id="t")
    app.submit(game, "umpire", {"type": "enter_random", "values": [duel.DECKS["red"][1]]})
    app.submit(game, "umpire", {"type": "enter_random", "values": [duel.DECKS["blue"][1]]})
    app.submit(game, "red", {"type": "attack", "aim": "low"})
    app.submit(game, "blue", {"type": "guard", "stance": "high"})  # suspended until the damage roll is entered
    red = json.dumps([e for e in events_of(app.log(game, "red")) if e["type"].startswith("decision_")])
    assert "high" not in red and duel.DECKS["red"][1] not in red, "red was served blue's suspended guard"
    blue = [e for e in events_of(app.log(game, "blue")) if e["type"] == "decision_opened"][-1]
    assert json.loads(blue["event"]["frame"]["ctx"]["command"]) == {"type": "guard", "stance": "high"}


def test_the_entropy_round_is_one_frame_revised_until_the_mix(app: Arbitro) -> None:
    game = app.create("duel", "standard", seat_entropy=True, game_id="e")
    (round_,) = app.state_at(game).core.decisions
    assert round_.kind == "entropy" and round_.seats == ("red", "blue") and round_.ctx.phase == "commit"
    assert app.legal(game, "umpire") == [{"type": "proceed_without_entropy", "seats": ["red", "blue"],
                                          "reason": "<why>"}]
    app.submit(game, "red", {"type": "commit_entropy", "commitment": rnd.entropy_commitment("r")})
    (round_,) = app.state_at(game).core.decisions
    assert round_.seats == ("blue",) and round_.ctx.commitments == {"red": rnd.entropy_commitment("r")}
    with pytest.raises(NotYourDecision, match="waiting for blue to commit"):
        app.submit(game, "red", {"type": "commit_entropy", "commitment": rnd.entropy_commitment("again")})
    app.submit(game, "blue", {"type": "commit_entropy", "commitment": rnd.entropy_commitment("b")})
    (round_,) = app.state_at(game).core.decisions
    assert round_.ctx.phase == "reveal" and round_.seats == ("red", "blue")
    assert app.legal(game, "red") == [{"type": "reveal_entropy", "entropy": "<the entropy you committed to>"}]
    app.submit(game, "red", {"type": "reveal_entropy", "entropy": "r"})
    app.submit(game, "blue", {"type": "reveal_entropy", "entropy": "b"})
    assert app.state_at(game).core.decisions == ()
    assert app.legal(game, "red")  # the opening was made once the round closed: red's turn


def test_a_fork_mid_round_withdraws_the_parents_round_and_still_makes_the_opening(app: Arbitro) -> None:
    """The parent's round is carried in the fork's stack and withdrawn there (a new seed needs a new round); the
    opening it held back is made once the fork's own round is mixed."""
    game = app.create("duel", "standard", seat_entropy=True, game_id="p")
    app.submit(game, "red", {"type": "commit_entropy", "commitment": rnd.entropy_commitment("red")})
    fork = app.fork(game, app.game(game).head_seq, new_id="f")
    (round_,) = app.state_at(fork).core.decisions
    assert round_.kind == "entropy" and round_.ctx.commitments == {} and round_.ctx.opening
    assert [e["type"] for e in app.log(fork)][:3] == ["game_created", "decision_resolved", "entropy_requested"]
    for seat in ("red", "blue"):
        app.submit(fork, seat, {"type": "commit_entropy", "commitment": rnd.entropy_commitment(seat + "!")})
    for seat in ("red", "blue"):
        app.submit(fork, seat, {"type": "reveal_entropy", "entropy": seat + "!"})
    state = app.state_at(fork)
    assert state.core.decisions == () and set(state.rules.cards) == {"red", "blue"}
    assert app.verify(fork).passed
