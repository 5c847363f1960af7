"""The engine's own steps on the decision stack (arbitro §S.3): consent to an undo (arbitro §U.2), a roll or
draw to enter in a transcribed game (arbitro §R.4), and the seats' commit-reveal entropy round (arbitro §R.2); and
the checks of the umpire's rulings (arbitro §U.4) those steps and the engine read.

Each is an `adjudicator.decisions.Step`; the engine (adjudicator/engine.py) hands them what only it holds
(the game's context, its history, the suspended command's resumption) through the `Engine` protocol.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

import msgspec

from arbitro.adjudicator import core_commands as cc
from arbitro.adjudicator.decisions import Step, close_frame, open_frame, update_frame, waiting
from arbitro.adjudicator.disputes import DisputeStep
from arbitro.adjudicator.errors import IllegalCommand, NotYourDecision
from arbitro.adjudicator.randomness import BadEntry, DiceUnavailable, EnteredSupply, NeedRandom
from arbitro.adjudicator.results import Awaiting
from arbitro.adjudicator.ruleset import Decision, Ruleset
from arbitro.events import core
from arbitro.events.codec import canonical
from arbitro.events.records import EventBody
from arbitro.events.random import entropy_commitment, mix_round
from arbitro.projections.base import UMPIRE, rule_of
from arbitro.projections.game import GameState, awaited
from arbitro.projections.patch import PatchError, apply_patch

R_ENTROPY = "arbitro §R.2"
R_ENTER = "arbitro §R.4"
R_UNDO_CONSENT = "arbitro §U.2"
R_UNDO_RULING = "arbitro §U.5"
R_RULING = "arbitro §U.4"

COMMIT_PROMPT = ('commit to a private entropy ({"type": "commit_entropy", "commitment": "<SHA-256 hex of its UTF-8 '
                 'bytes>"}), kept to be revealed once every seat has committed')
REVEAL_PROMPT = 'reveal the entropy committed to ({"type": "reveal_entropy", "entropy": "..."})'
# What `legal` lists to the seat awaited in the entropy round: the shape to fill in (arbitro §R.2).
ENTROPY_TEMPLATES: dict[str, dict[str, Any]] = {
    "commit": {"type": "commit_entropy", "commitment": "<SHA-256 hex of your entropy's UTF-8 bytes>"},
    "reveal": {"type": "reveal_entropy", "entropy": "<the entropy you committed to>"},
}


class Engine(Protocol):
    """What the engine's steps need from the engine: resuming a suspended command, and the opening."""

    def resume(self, ctx: Decision[Any], command: str) -> None: ...
    def request_random(self, ctx: Decision[Any], command_seat: str, command: str, need: NeedRandom,
                       entered: tuple[tuple[str, ...], ...]) -> Decision[Any]: ...
    def fresh(self, ctx: Decision[Any], seat: str, supply: Any) -> Decision[Any]: ...
    def start(self, ctx: Decision[Any]) -> None: ...


# --- consent to an undo (arbitro §U.2) -----------------------------------------------------------------
def open_consent(ctx: Decision[Any], seat: str, to: int, cmd: int, others: tuple[str, ...]) -> None:
    """`seat` asks the others to take back everything after command `cmd`, whose last event is `to`: the prompt, which
    every seat reads, names the command (a seat's numbers, engine-rules §V.6); the context keeps both, and a seat is
    served the command's (views.redact_frame)."""
    ctx.emit(core.UndoRequested(seat=seat, to_seq=to, consent_from=others, rule=R_UNDO_CONSENT))
    open_frame(ctx, ConsentStep.kind, others, R_UNDO_CONSENT, f"{seat} asks to take back everything after command "
               f"#{cmd}: accept?", core.UndoConsent(undo_to=to, undo_cmd=cmd, requested_by=seat))


class ConsentStep(Step[core.UndoConsent]):
    kind = "consent"

    def __init__(self, voided: Any) -> None:
        self.voided = voided  # (history, to) -> the random indices an undo to `to` voids

    def options(self, state: GameState[Any], frame: core.Frame[core.UndoConsent], seat: str) -> list[dict[str, Any]]:
        if seat not in frame.seats:
            return []
        return [{"type": "consent", "accept": True}, {"type": "consent", "accept": False}]

    def answer(self, ctx: Decision[Any], frame: core.Frame[core.UndoConsent], command: cc.Consent) -> None:
        seat, request = ctx.seat, frame.ctx
        if seat not in frame.seats:  # not asked, or already answered
            raise IllegalCommand("there is no request to take back awaiting your answer", rule=R_UNDO_CONSENT)
        ctx.emit(core.UndoAnswered(seat=seat, accept=command.accept))
        if not command.accept:
            ctx.emit(core.UndoDeclined(seat=seat, rule=R_UNDO_CONSENT))
            close_frame(ctx, frame)
            return
        rest = tuple(s for s in frame.seats if s != seat)
        if rest:
            update_frame(ctx, frame, msgspec.structs.replace(request, accepted=(*request.accepted, seat)), seats=rest)
            return
        ruling = ruling_in(list(ctx.log.bodies(request.undo_to + 1, None)))
        if ruling is not None:  # the umpire ruled while the seats were asked (arbitro §S.3)
            raise IllegalCommand(f"the umpire ruled since this request (command #{ruling.cmd}): accepting would "
                                 "take the ruling back, which only the umpire may; decline, and ask the umpire",
                                 rule=R_UNDO_RULING)
        close_frame(ctx, frame)  # before the undo: the state it restores has its own stack
        voided = self.voided(ctx.log, request.undo_to)
        ctx.emit(core.Undone(to_seq=request.undo_to, by=request.requested_by,
                             reason="taken back with the other seats' consent", rule=R_UNDO_CONSENT,
                             voided_rolls=len(voided), voided_indices=voided))


def ruling_in(bodies: list[EventBody[Any]]) -> EventBody[Any] | None:
    """The first of the umpire's rulings among `bodies`: a ruling, or the umpire's own undo (a ruling too)."""
    for body in bodies:
        if isinstance(body.event, core.RulingMade) or (isinstance(body.event, core.Undone) and body.event.by == UMPIRE):
            return body
    return None


def ruling_reason(event: Any) -> str:
    return f"{'undo' if isinstance(event, core.Undone) else 'ruling'}: {event.reason}"


def ruling_patch(ruleset: Ruleset[Any], state: GameState[Any], command: cc.Ruling) -> tuple[dict[str, Any], ...]:
    """A ruling's patch as it is recorded, refused unless it gives a valid position. It may not touch the state's
    copy of the readings (`/interpretations`): the readings in force are the umpire's rulings in the core, the ones
    `status` lists, and the fold copies them into the state (Fold.initial, note_interpretations); a copy patched
    apart from them would play a reading nobody is told is in force (review rev-g G1). Refused, not re-noted, so
    that nothing an umpire commits changes silently: the refusal names the `interpretation` field instead."""
    patch = tuple(op.model_dump(mode="json", exclude_none=False) for op in command.patch)
    for op in patch:
        if op["path"].split("/")[1] == "interpretations":  # a path starts with "/" (PatchOperation)
            raise IllegalCommand(readings_patched(ruleset, op), rule=R_RULING)
    if patch:
        try:
            candidate = msgspec.convert(apply_patch(msgspec.to_builtins(state.rules), patch), ruleset.State)
        except (PatchError, msgspec.ValidationError) as e:
            where = str(e).replace("`$", "`state", 1)
            raise IllegalCommand(f"the ruling's patch does not give a valid state: {where}", rule=R_RULING) from None
        problems = ruleset.validate_position(candidate)
        if problems:
            raise IllegalCommand("the ruling's patch gives an invalid position: " + "; ".join(problems), rule=R_RULING)
    return patch


def readings_patched(ruleset: Ruleset[Any], op: dict[str, Any]) -> str:
    """The refusal of a patch operation on the state's copy of the readings, with the ruling that does it."""
    name = op["path"].split("/")[2] if op["path"].count("/") > 1 else ""
    known = ruleset.interpretations().get(name)
    if known is None:
        example = '{"NAME": "READING"}'
    else:
        value = op["value"] if op["op"] != "remove" and op["value"] in known.choices else known.default
        example = json.dumps({name: value})
    return (f"the ruling's patch {op['op']}s {op['path']}, the state's copy of the readings in force: those are the "
            f"umpire's rulings that `status` lists, set by the ruling's \"interpretation\" field (e.g. "
            f"\"interpretation\": {example}), never by a patch")


# --- a roll or draw to enter (arbitro §R.4) --------------------------------------------------------------
def random_prompt(need: core.RandomEntry) -> str:
    # a roll about places a seat may not examine is prompted by its rule alone (arbitro §V.4)
    return (f"enter {'the roll' if need.kind == 'roll' else 'the draw'} for: "
            f"{rule_of(need.purpose) if need.about else need.purpose}")


def random_entry(command_seat: str, command: str, need: NeedRandom,
                 entered: tuple[tuple[str, ...], ...]) -> core.RandomEntry:
    return core.RandomEntry(command_seat=command_seat, command=command, kind=need.kind, count=need.count,
                            sides=need.sides, population=need.population, purpose=need.purpose, entered=entered,
                            about=need.about)


def suspended_form(command: dict[str, Any]) -> str:
    """A suspended command as a frame stores it: its canonical JSON, typed text rather than an untyped dict."""
    return canonical(command).decode()


def suspended_command(text: str) -> dict[str, Any]:
    return json.loads(text)  # type: ignore[no-any-return]


OPENING = suspended_form({"type": "open_scenario"})  # the scenario's opening, suspended like a command


class RandomStep(Step[core.RandomEntry]):
    kind = "random"
    complete = False  # any values of the stated shape (see `status`): checked against the shape by the supply

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def options(self, state: GameState[Any], frame: core.Frame[core.RandomEntry], seat: str) -> list[dict[str, Any]]:
        """An answer of the shape asked for, so that `legal` shows the awaited seat (the umpire) what to send:
        any values of that shape are accepted (those rolled or drawn on the table), so it is an example."""
        request = frame.ctx
        if seat not in frame.seats or request.count < 1:
            return []
        values = [1] * request.count if request.kind == "roll" else list(request.population[:request.count])
        return [{"type": "enter_random", "values": values}]

    def answer(self, ctx: Decision[Any], frame: core.Frame[core.RandomEntry], command: cc.EnterRandom) -> Decision[Any]:
        if ctx.seat not in frame.seats:
            raise NotYourDecision(waiting(frame), rule=R_ENTER)
        request = frame.ctx
        entered = (*request.entered, tuple(str(v) for v in command.values))
        resumed = self.engine.fresh(ctx, request.command_seat, EnteredSupply(entered))
        close_frame(resumed, frame)
        try:
            self.engine.resume(resumed, request.command)
        except BadEntry as e:
            raise IllegalCommand(str(e), rule=R_ENTER) from None
        except NeedRandom as need:
            return self.engine.request_random(ctx, request.command_seat, request.command, need, entered)
        return resumed


# --- the seats' commit-reveal round (arbitro §R.2) --------------------------------------------------------
def round_frame(round_: core.EntropyRound) -> tuple[core.EntropyRound, tuple[str, ...], str]:
    """The round's phase, who it awaits and its prompt: every required seat commits, then (once all have)
    each reveals. A seat the umpire proceeded without is no longer required."""
    uncommitted = tuple(s for s in round_.required if s not in round_.commitments)
    phase = "commit" if uncommitted else "reveal"
    awaited = uncommitted or tuple(s for s in round_.required if s not in round_.entropies)
    round_ = core.EntropyRound(phase=phase, required=round_.required, commitments=round_.commitments,
                               entropies=round_.entropies, opening=round_.opening)
    return round_, awaited, COMMIT_PROMPT if phase == "commit" else REVEAL_PROMPT


def open_round(ctx: Decision[Any], seats: tuple[str, ...], opening: bool) -> None:
    ctx.emit(core.EntropyRequested(seats=seats, opening=opening, rule=R_ENTROPY))
    round_, awaited, prompt = round_frame(core.EntropyRound(phase="commit", required=seats, opening=opening))
    open_frame(ctx, EntropyStep.kind, awaited, R_ENTROPY, prompt, round_)


class EntropyStep(Step[core.EntropyRound]):
    kind = "entropy"
    complete = False  # the options are the shapes to fill in

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def options(self, state: GameState[Any], frame: core.Frame[core.EntropyRound], seat: str) -> list[dict[str, Any]]:
        if seat == UMPIRE:  # the umpire's way past a seat that never answers
            return [{"type": "proceed_without_entropy", "seats": list(frame.seats), "reason": "<why>"}]
        return [ENTROPY_TEMPLATES[frame.ctx.phase]] if seat in frame.seats else []

    def answer(self, ctx: Decision[Any], frame: core.Frame[core.EntropyRound], command: Any) -> None:
        if isinstance(command, cc.ProceedWithoutEntropy):
            return self._proceed_without(ctx, frame, command)
        seat, round_ = ctx.seat, frame.ctx
        phase = "commit" if isinstance(command, cc.CommitEntropy) else "reveal"
        if seat not in frame.seats or round_.phase != phase:
            raise NotYourDecision(waiting(frame), rule=R_ENTROPY)
        if isinstance(command, cc.CommitEntropy):
            ctx.emit(core.EntropyCommitted(seat=seat, commitment=command.commitment))
            self._update(ctx, frame, commitments={**round_.commitments, seat: command.commitment})
            return None
        committed = round_.commitments[seat]
        if entropy_commitment(command.entropy) != committed:
            raise IllegalCommand(f"this entropy does not match {seat}'s commitment {committed[:12]}...: reveal exactly "
                                 "the text whose SHA-256 you committed", rule=R_ENTROPY)
        ctx.emit(core.EntropyRevealed(seat=seat, entropy=command.entropy))
        self._update(ctx, frame, entropies={**round_.entropies, seat: command.entropy})
        return None

    def _proceed_without(self, ctx: Decision[Any], frame: core.Frame[core.EntropyRound],
                         command: cc.ProceedWithoutEntropy) -> None:
        if ctx.seat != UMPIRE:
            raise IllegalCommand("only the umpire rules to proceed without a seat's entropy", rule=R_ENTROPY)
        late = [s for s in command.seats if s not in frame.seats]
        if late:
            raise IllegalCommand(f"{', '.join(late)} {'is' if len(late) == 1 else 'are'} not awaited (awaited: "
                                 f"{', '.join(frame.seats)}); the umpire may proceed only without seats that "
                                 "have not answered", rule=R_ENTROPY)
        waived = tuple(sorted(set(command.seats)))
        ctx.emit(core.EntropyWaived(seats=waived, reason=command.reason, rule=R_ENTROPY))
        self._update(ctx, frame, required=tuple(s for s in frame.ctx.required if s not in waived))

    def _update(self, ctx: Decision[Any], frame: core.Frame[core.EntropyRound], **changes: Any) -> None:
        """The round after an answer; once no seat is awaited, the revealed entropy is mixed in (in the order of
        the required seats), the round closes, and what waited for it (the opening) is made."""
        current = frame.ctx
        fields = {"required": current.required, "commitments": current.commitments, "entropies": current.entropies,
                  **changes}
        round_, awaited, prompt = round_frame(core.EntropyRound(phase=current.phase, opening=current.opening, **fields))
        if awaited:
            update_frame(ctx, frame, round_, seats=awaited, prompt=prompt)
            return
        revealed = [(s, round_.entropies[s]) for s in round_.required if s in round_.entropies]
        ctx.emit(core.EntropyMixed(seats=tuple(s for s, _ in revealed), mix=mix_round(ctx.game.core.mix, revealed),
                                   rule=R_ENTROPY))
        close_frame(ctx, frame)
        if round_.opening:
            seat, ctx.seat = ctx.seat, UMPIRE  # the opening is the umpire's, as at creation
            try:
                self.engine.start(ctx)
            except DiceUnavailable as e:
                raise IllegalCommand(e.explained("GAME", ctx.head_before), rule=e.rule) from None
            ctx.seat = seat


ENGINE_KINDS: tuple[str, ...] = (ConsentStep.kind, RandomStep.kind, EntropyStep.kind, DisputeStep.kind)
ANSWERS: dict[type, str] = {cc.Consent: ConsentStep.kind, cc.EnterRandom: RandomStep.kind,
                            cc.CommitEntropy: EntropyStep.kind, cc.RevealEntropy: EntropyStep.kind,
                            cc.ProceedWithoutEntropy: EntropyStep.kind}


def awaiting_in(ruleset: Ruleset[Any], state: GameState[Any]) -> Awaiting:
    """Who a game in `state` waits for, and for what: the engine's own step first, then the end of the game, the
    ruleset's decision on top of the stack, its pending decision, else the seats whose turn it is."""
    top = awaited(state.core)
    if top is not None and top.kind in ENGINE_KINDS:
        return Awaiting(seats=list(top.seats), kind=top.kind, rule=top.rule, prompt=top.prompt)
    outcome = ruleset.outcome(state.rules)
    if outcome is not None:
        return Awaiting(seats=[], kind="game_over", rule=outcome.rule, prompt=outcome.reason, winner=outcome.winner)
    if top is not None:
        return Awaiting(seats=list(top.seats), kind=top.kind, rule=top.rule, prompt=top.prompt)
    pending = ruleset.pending(state.rules)
    if pending is not None:
        return Awaiting(seats=[pending.seat], kind=pending.kind, rule=pending.rule, prompt=pending.prompt)
    return Awaiting(seats=list(ruleset.active_seats(state.rules)), kind="turn", rule="", prompt="command")
