"""The adjudicator proper: (state, seat, command) -> events, or a rejection. Pure: it never touches the
store and never mutates the state it is given (unless its caller gives that state up: `decide`'s `consume`);
dice come from the Supply it is handed.

Order of checks (after boardgame.io's reducer): the seat exists -> the command parses -> the engine's own
pending decision (consent to an undo, a roll to enter, the entropy round: the engine's steps on the decision
stack) -> engine commands -> the game is not over -> the decision on top of the stack (its seats, its listed
options; then its step answers) or the ruleset's turn -> the ruleset decides. Then the engine adds what every game gets:
the seed and salt key revealed when the game ends (adjudicator/reveal.py), and a checkpoint (state hash) after a
ruleset checkpoint event or every CHECKPOINT_EVERY events.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from arbitro.adjudicator import core_commands as cc
from arbitro.adjudicator import disputes
from arbitro.adjudicator.decisions import Step, open_frame, update_frame, waiting
from arbitro.adjudicator.engine_steps import (
    ANSWERS, ENGINE_KINDS, OPENING, R_ENTER, R_ENTROPY, R_RULING, R_UNDO_CONSENT, ConsentStep, EntropyStep, RandomStep,
    open_round, random_entry, random_prompt, ruling_patch, suspended_command, suspended_form,
)
from arbitro.adjudicator.errors import (
    GameOver, IllegalCommand, MalformedCommand, NotUmpire, NotYourDecision, NotYourTurn, Rejected, RulesetDefect,
    UnknownSeat,
)
from arbitro.adjudicator.signing_keys import register_key, withdraw_key
from arbitro.adjudicator.log_points import History
from arbitro.adjudicator.randomness import DiceUnavailable, EnteredSupply, NeedRandom, Supply, roll_keys
from arbitro.adjudicator.reveal import R_REVEAL, prove_roll, record_fork, reveal_at_end, reveal_seed
from arbitro.adjudicator.ruleset import Decision, Ruleset, malformed, naming
from arbitro.adjudicator.undo import UndoRule, voided_rolls
from arbitro.events import core
from arbitro.events.random import mix_entropy
from arbitro.events.records import EventBody
from arbitro.projections.base import UMPIRE
from arbitro.projections.fold import Fold
from arbitro.projections.game import GameState, awaited, dice_public, may_reveal, state_bytes, state_hash

CHECKPOINT_EVERY = 200
# The umpire's acts that are not answers to anything: allowed while another decision is pending.
UMPIRE_ANYTIME = (cc.Ruling, cc.Undo, cc.RevealSeed, cc.ProveRoll, cc.RecordFork, cc.WithdrawKey)
# Any seat's, at any time (a pending decision, the game's end): a dispute changes nothing until the umpire rules, and
# a seat's key registration (arbitro §L.6) changes only who may send in its name.
DISPUTING = (cc.OpenDispute, cc.ReplyDispute, cc.RuleDispute)
ANYTIME = (*DISPUTING, cc.RegisterKey)

# The engine's own rules, cited like a rulebook's (docs/engine-rules.md); R_ENTROPY, R_ENTER and
# R_UNDO_CONSENT are its steps' (adjudicator/engine_steps.py), R_UNDO_FREE and R_UNDO_POINT its undo rule's (undo.py).
R_TURN = "arbitro §S.2"
R_BEHALF = "arbitro §S.5"
R_EVENTFUL = "arbitro §L.8"


class NoHistory:
    """The history of a game being created: nothing before it."""

    def state_at(self, seq: int) -> GameState[Any]:
        raise LookupError(f"a game being created has no event #{seq} yet")

    def bodies(self, first: int = 1, last: int | None = None) -> list[EventBody[Any]]:
        return []


NO_SEED = "this database does not hold the game's seed"


class GameContext(msgspec.Struct, kw_only=True):
    """What adjudication needs to know about the game beyond its state."""

    seats: tuple[str, ...]
    kind: str  # "generated" | "transcribed"
    options: tuple[str, ...]
    seed: str | None  # the secret seed, when the adjudicator holds it and may reveal it
    no_seed_reason: str = NO_SEED
    entropy_seats: tuple[str, ...] = ()  # the seats whose commit-reveal entropy protects the dice (arbitro §R.2)
    game_id: str = "GAME"  # named in messages only (the fork command a refusal suggests)
    salt_key: str | None = None  # the secret salt key, when held: revealed at the game's end only (arbitro §R.3)
    salted_by_seed: bool = False  # a game made before the salt key: its seed opens its salts (reveal.EXPOSES)
    dice_public: bool = False  # a fork replaying its parent's revealed seed: anyone can predict its rolls (§R.3)
    # A provable game's (arbitro-random/2, §R.5): the Merkle root over its roll keys and how many; None: arbitro-random/1
    roll_key_root: str | None = None
    roll_keys: int | None = None

    @classmethod
    def of(cls, created: core.GameCreated, *, seed: str | None, salt_key: str | None, game_id: str) -> GameContext:
        """The context of the game `created` begins, as the service (creating, playing) and verify (replaying) both
        build it, so that a log is judged again exactly as it was judged: everything but the secrets and the id is
        read from the genesis. `seed`, `salt_key`: the secrets as the caller holds them (None: not held). A fork
        that kept the dice of a parent not yet revealed never reveals the seed it shares (`may_reveal`)."""
        if not may_reveal(created):
            seed = None
            reason = (f"this fork kept the dice of game {created.origin.get('fork')}: its seed is that game's, "
                      "revealed with that game, never by the fork")
        else:
            reason = NO_SEED
        return cls(seats=created.seats, kind=created.kind, options=created.options, seed=seed, no_seed_reason=reason,
                   entropy_seats=created.entropy_seats, game_id=game_id, salt_key=salt_key,
                   salted_by_seed=not created.salted_by_key(), dice_public=dice_public(created),
                   roll_key_root=str(created.roll_key_root) if created.provable() else None,
                   roll_keys=roll_keys(created))


class Adjudicated(msgspec.Struct, kw_only=True):
    command: dict[str, Any]  # the command as validated and normalised (what is stored)
    events: list[Any]
    # states_after[i]: the state after events[i], as decide computed it (asked for with keep_states; else empty)
    states_after: list[GameState[Any]]
    checkpoints: list[tuple[int, bytes]]  # (seq, state bytes) before each Checkpoint event: snapshots
    state: GameState[Any]  # the state after the events


class Adjudicator:
    def __init__(self, ruleset: Ruleset[Any]) -> None:
        self.ruleset = ruleset
        self.fold = Fold(ruleset)
        self.undo = UndoRule(ruleset, self.fold)  # arbitro §U: a take-back judged, freely or with consent
        self.steps: dict[str, Step[Any]] = {
            ConsentStep.kind: ConsentStep(voided_rolls), RandomStep.kind: RandomStep(self),
            EntropyStep.kind: EntropyStep(self), disputes.DisputeStep.kind: disputes.DisputeStep(),
        }
        for kind, step in ruleset.steps().items():
            if kind in self.steps:
                raise ValueError(f"{ruleset.name}: step kind {kind!r} is the engine's own; choose another name")
            self.steps[kind] = step

    # --- entry point ----------------------------------------------------------------------------
    def decide(
        self, state: GameState[Any], seat: str, raw: Any, game: GameContext, history: History, supply: Supply,
        *, keep_states: bool = False, consume: bool = False, before: Callable[[], GameState[Any]] | None = None,
    ) -> Adjudicated:
        """`keep_states`: also return the state after each event (Adjudicated.states_after), for a caller that
        serves the events (the service) and would otherwise fold them again.
        `consume`: the caller gives `state` up and never reads it again (re-adjudication; the service's private
        copy of its head). A ruleset command then works on `state` itself rather than on a copy of it, which was a
        tenth of a verify (issue 15); refused, it leaves `state` part-way, to be dropped. The engine's own commands
        and commands entered on a seat's behalf read the state they were given while they emit: they work on a
        copy whatever the caller says. `before`, with `consume`: `state` as it is now, made again by the caller from
        what it holds (the service's head bytes, verification's log), for the rare refusal or random entry that
        decides again from it; without it the engine encodes `state` before each command (issue 15)."""
        if seat != UMPIRE and seat not in game.seats:
            raise UnknownSeat(f"unknown seat {seat!r}: this game's seats are {', '.join((*game.seats, UMPIRE))}")
        command, normalised = self.parse(raw)
        was_over = self.ruleset.outcome(state.rules) is not None
        stored, prelude = normalised, ()  # what is recorded; who entered it, if not the seat judged
        if isinstance(command, cc.OnBehalf):  # judged as the seat's, stored as the umpire's (arbitro §S.5)
            acting = command.seat
            command, normalised = self._on_behalf(seat, command, game)
            stored = {"type": "on_behalf", "seat": acting, "command": normalised}
            prelude: tuple[core.Event, ...] = (core.EnteredOnBehalf(by=seat, seat=acting, rule=R_BEHALF),)
            seat = acting
        in_place = consume and not prelude and normalised["type"] not in cc.CORE_COMMAND_TYPES
        ctx = self._context(state, seat, supply, game, history, keep_states, consume=in_place, before=before)
        for event in prelude:
            ctx.emit(event)
        if normalised["type"] in cc.CORE_COMMAND_TYPES:
            ctx = self._engine_command(ctx, state, command, game, history)
        else:
            self._check_turn(ctx, state, seat, normalised)
            try:
                self._dispatch(ctx, command)
            except NeedRandom as need:
                # A transcribed game: suspend the command until the transcribing seat enters the value.
                ctx = self.request_random(ctx, seat, suspended_form(normalised), need, (), prelude)
            except DiceUnavailable as e:
                raise IllegalCommand(e.explained(game.game_id, ctx.head_before), rule=e.rule) from None
        return self._finish(ctx, was_over, stored, game)

    def _on_behalf(self, seat: str, command: cc.OnBehalf, game: GameContext) -> tuple[Any, dict[str, Any]]:
        """The command the umpire enters for a seat, parsed: only the umpire, only in a transcribed game (in a
        generated game every seat sends its own), only a playing seat's ruleset command (arbitro §S.5)."""
        if seat != UMPIRE:
            raise NotUmpire(f"only the umpire enters a command on a seat's behalf, not {seat}", rule=R_BEHALF)
        if game.kind != "transcribed":
            raise IllegalCommand("a command is entered on a seat's behalf only in a transcribed game (a game played "
                                 "on a table); in this game each seat sends its own", rule=R_BEHALF)
        if command.seat not in game.seats:
            raise UnknownSeat(f"unknown seat {command.seat!r} to act for: this game's playing seats are "
                              f"{', '.join(game.seats)}")
        inner, normalised = self.parse(command.command)
        if normalised["type"] in cc.CORE_COMMAND_TYPES:
            raise IllegalCommand(f"{normalised['type']!r} is the engine's own command: the umpire sends it as "
                                 "itself, and a seat answers its own requests; on_behalf carries the game's "
                                 "commands only", rule=R_BEHALF)
        return inner, normalised

    def _dispatch(self, ctx: Decision[Any], command: Any) -> None:
        """A ruleset command: the answer to the ruleset's frame on top of the stack, else the ruleset's own."""
        top = awaited(ctx.game.core)
        if top is not None:
            self.steps[top.kind].answer(ctx, top, command)
        else:
            self.ruleset.decide(ctx, command)

    def parse(self, raw: Any) -> tuple[Any, dict[str, Any]]:
        """A command parsed (the engine's own or the ruleset's), and its stored, normalised form."""
        if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
            raise MalformedCommand('a command is a JSON object with a "type" field, e.g. {"type": "pass"}')
        if raw["type"] not in cc.CORE_COMMAND_TYPES:
            command = self.ruleset.parse_command(raw)
            return command, self.ruleset.dump_command(command)
        try:
            command = cc.core_commands.validate_python(raw)
        except Exception as e:  # pydantic.ValidationError
            raise malformed(e, raw) from None  # type: ignore[arg-type]
        return command, cc.core_commands.dump_python(command, mode="json")

    def open(self, created: core.GameCreated, supply: Supply, game: GameContext, history: History) -> list[Any]:
        """The events that make a game: `game_created`, then the scenario's opening (e.g. a hidden random
        draw). A fork or a position already holds the opening's result; a transcribed game suspends the
        opening until the umpire enters the draws made on the table."""
        state = self.fold.apply_event(None, 1, created)
        ctx = self._context(state, UMPIRE, supply, game, history)
        if created.entropy_seats:  # nothing rolls, the opening included, until the seats have revealed
            opening = "scenario" in created.origin
            top = awaited(state.core)
            if top is not None and top.kind == EntropyStep.kind:
                # A fork made mid-round starts it afresh, with a new seed: the parent's round is withdrawn.
                ctx.emit(core.DecisionResolved(kind=top.kind, rule=top.rule))
                opening = opening or top.ctx.opening
            open_round(ctx, created.entropy_seats, opening)
            return [created, *ctx.events]
        if "scenario" not in created.origin:
            return [created]
        try:
            self.ruleset.start(ctx)
        except NeedRandom as need:
            ctx = self.request_random(ctx, UMPIRE, OPENING, need, ())
        return [created, *ctx.events]

    def _context(
        self, state: GameState[Any], seat: str, supply: Supply, game: GameContext, history: History,
        keep_states: bool = False, *, consume: bool = False, before: Callable[[], GameState[Any]] | None = None,
    ) -> Decision[Any]:
        """The context a command is decided in: its own copy of `state`, or `state` itself if `consume` (see
        `decide`); either way `state` as it was is kept (`before` where given), for a random entry or a refusal to
        decide again from."""
        working, before = (state, before or self.fold.kept(state)) if consume else (self.fold.copy(state), self._copier(state))
        ctx = Decision(self.ruleset, self.fold, working, seat, state.core.seq + 1, supply, game.options,
                       history.state_at)
        ctx.log, ctx.context, ctx.before = history, game, before
        ctx.states_after = [] if keep_states else None
        return ctx

    def fresh(self, ctx: Decision[Any], seat: str, supply: Supply) -> Decision[Any]:
        """A new context for the same command from the same state: what `ctx` did so far is discarded."""
        assert ctx.before is not None, "a context this engine made"
        return self._context(ctx.before(), seat, supply, ctx.context, ctx.log, ctx.states_after is not None,
                             consume=True, before=ctx.before)

    def _copier(self, state: GameState[Any]) -> Callable[[], GameState[Any]]:
        """Private copies of `state`, which its caller keeps unchanged."""
        return lambda: self.fold.copy(state)

    def start(self, ctx: Decision[Any]) -> None:
        self.ruleset.start(ctx)

    def resume(self, ctx: Decision[Any], command: str) -> None:
        """Decide a suspended command again (its roll or draw now entered): the opening, or a ruleset command."""
        if command == OPENING:
            self.ruleset.start(ctx)
        else:
            self._dispatch(ctx, self.ruleset.parse_command(suspended_command(command)))

    # --- ruleset commands -----------------------------------------------------------------------
    def _check_turn(self, ctx: Decision[Any], state: GameState[Any], seat: str, command: dict[str, Any]) -> None:
        top = awaited(state.core)
        if top is not None and top.kind in ENGINE_KINDS:
            raise NotYourDecision(waiting(top), rule=top.rule)
        outcome = self.ruleset.outcome(state.rules)
        if outcome is not None:
            raise GameOver(f"the game is over: {outcome.reason}", rule=outcome.rule)
        if top is not None:
            self._check_answer(ctx, state, top, seat, command)
            return
        pending = self.ruleset.pending(state.rules)
        if pending is not None and seat != pending.seat:
            raise NotYourDecision(f"waiting for {pending.seat} to {pending.prompt}", rule=pending.rule)
        if pending is not None and pending.options is not None and command not in self._normalised(pending.options):
            # A listed decision is answered with one of its options, and nothing else happens meanwhile.
            raise NotYourDecision(f"first {pending.prompt}", rule=pending.rule, allowed=pending.options)
        if pending is None and seat not in self.ruleset.active_seats(state.rules):
            active = self.ruleset.active_seats(state.rules)
            raise NotYourTurn(f"it is not {seat}'s turn: waiting for {', '.join(active) or 'nobody'}", rule=R_TURN)

    def _check_answer(
        self, ctx: Decision[Any], state: GameState[Any], top: core.Frame[Any], seat: str, command: dict[str, Any]
    ) -> None:
        """The ruleset's frame on top is answered by one of its seats, with one of its listed options (arbitro
        §S.3): anything else is refused, saying who is awaited and for what."""
        if seat not in top.seats:
            raise NotYourDecision(waiting(top), rule=top.rule)
        step = self.steps[top.kind]
        if step.complete:
            options = step.options(state, top, seat)
            if command not in self._normalised(options):
                raise self._unlisted_answer(ctx, top, command, options)

    def _unlisted_answer(
        self, ctx: Decision[Any], top: core.Frame[Any], command: dict[str, Any], options: list[dict[str, Any]]
    ) -> Rejected:
        """The refusal of an answer that is not among the frame's options. A command of another kind (a type neither
        listed nor in the step's `takes`) is told what is awaited (NotYourDecision: the decision comes first). An
        answer of the kind awaited, from the seat awaited, is the seat's own decision answered wrongly: an
        IllegalCommand citing the frame's rule, with the step's own reason where it gives one (which unit, which hex,
        which rule: what a player needs to correct it): its `refusal`, else found by letting the step judge it on a
        scratch copy that rolls nothing. Only a refusal the step makes before it has done anything is its reason: one
        raised later in the procedure the answer set going would be worded from a position the game never reaches."""
        kind = command.get("type")
        if kind not in {option.get("type") for option in options} | self.steps[top.kind].takes:
            return NotYourDecision(f"first {top.prompt}", rule=top.rule, allowed=options)
        reason = self.steps[top.kind].refusal(ctx.game, top, command, options)
        if reason is not None:
            return IllegalCommand(reason[1], rule=str(reason[0]), allowed=options)
        scratch = self.fresh(ctx, ctx.seat, EnteredSupply(()))
        try:
            self.steps[top.kind].answer(scratch, top, self.ruleset.parse_command(command))
        except Rejected as refusal:
            if not scratch.events and not isinstance(refusal, NotYourDecision):
                refusal.allowed = options if refusal.allowed is None else refusal.allowed
                return refusal
        except Exception:  # noqa: BLE001 - the reason is a courtesy: the answer is refused either way
            pass
        return IllegalCommand(f"this {kind} is not one of the answers listed: {top.prompt}", rule=top.rule,
                              allowed=options)

    def _normalised(self, options: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Options in the stored form of commands (defaults filled in), so an answer that omits a default
        matches the option that spells it out, and the other way round."""
        return [self.ruleset.dump_command(self.ruleset.parse_command(option)) for option in options]

    def request_random(self, ctx: Decision[Any], command_seat: str, command: str, need: NeedRandom,
                       entered: tuple[tuple[str, ...], ...], prelude: tuple[Any, ...] = ()) -> Decision[Any]:
        """Discard what the suspended command did so far but its `prelude` (who entered it); record what must be
        entered, as a random frame on the stack (a new one, or the one being answered, updated with what was
        entered so far)."""
        resumed = self.fresh(ctx, command_seat, EnteredSupply(()))
        for event in prelude:
            resumed.emit(event)
        request = random_entry(command_seat, command, need, entered)
        resumed.emit(core.RandomRequested(
            seat=UMPIRE, command_seat=command_seat, command=suspended_command(command),
            kind=need.kind, count=need.count, sides=need.sides, population=need.population, purpose=need.purpose,
            entered=entered, about=need.about,
        ))
        top = awaited(resumed.game.core)
        if top is not None and top.kind == RandomStep.kind:
            update_frame(resumed, top, request, prompt=random_prompt(request))
        else:
            open_frame(resumed, RandomStep.kind, (UMPIRE,), R_ENTER, random_prompt(request), request)
        return resumed

    # --- engine commands ------------------------------------------------------------------------
    def _engine_command(
        self, ctx: Decision[Any], state: GameState[Any], command: Any, game: GameContext, history: History
    ) -> Decision[Any]:
        top, seat = awaited(state.core), ctx.seat
        kind = ANSWERS.get(type(command))
        if kind is not None:  # an answer to one of the engine's own steps
            if top is None or top.kind != kind:
                raise self._nothing_awaited(kind, command, seat)
            return self.steps[kind].answer(ctx, top, command) or ctx
        match command:
            case _ if top is not None and top.kind in ENGINE_KINDS and not isinstance(command, ANYTIME) and not (
                    seat == UMPIRE and isinstance(command, UMPIRE_ANYTIME)):
                raise NotYourDecision(waiting(top), rule=top.rule)
            case cc.AddEntropy():
                if seat == UMPIRE:
                    raise IllegalCommand("only the playing seats add entropy; the umpire's seed is committed", rule=R_ENTROPY)
                if game.entropy_seats:
                    # The host sees entropy sent in the open before accepting it, and could drop it to choose
                    # between two rolls; this game's seats contributed theirs by commit-reveal instead.
                    raise IllegalCommand("this game's dice are protected by the seats' committed entropy; entropy "
                                         "sent in the open would let the host choose a roll by dropping it",
                                         rule=R_ENTROPY)
                if state.core.seed is not None or game.dice_public:
                    # A seat that knows the seed picks entropy offline until the next roll is the one it wants
                    # (rev-p P5): a public seed's dice may be predicted (for analysis), never steered.
                    raise IllegalCommand("this game's seed is public, so entropy sent now would choose the next "
                                         "rolls, not hide them; play on in a fork with fresh dice "
                                         f"(arbitro fork {game.game_id} --at N)", rule=R_REVEAL)
                ctx.emit(core.EntropyAdded(seat=seat, entropy=command.entropy,
                                           mix=mix_entropy(state.core.mix, seat, command.entropy)))
            case cc.RevealSeed():
                reveal_seed(ctx, state, command, game.seed, game.no_seed_reason, game.salted_by_seed)
            case cc.ProveRoll():
                prove_roll(ctx, state, command, game.roll_key_root, game.roll_keys, history, self.ruleset, game.seats)
            case cc.RecordFork():
                record_fork(ctx, state, command)
            case cc.RegisterKey():
                register_key(ctx, command)
            case cc.WithdrawKey():
                withdraw_key(ctx, command, game.seats)
            case cc.Ruling():
                self._ruling(ctx, state, command)
            case cc.Undo():
                self.undo.take_back(ctx, state, command, game.seats, history)
            case cc.OpenDispute():
                disputes.open_dispute(ctx, command, history, game.seats)
            case cc.ReplyDispute():
                disputes.reply(ctx, command, history, game.seats)
            case cc.RuleDispute():
                self._rule_dispute(ctx, state, command, game, history)
        return ctx

    def _rule_dispute(self, ctx: Decision[Any], state: GameState[Any], command: cc.RuleDispute, game: GameContext,
                      history: History) -> None:
        """The umpire's ruling on a dispute (arbitro §D.3): its effect made by the undo or ruling rules, first,
        then the outcome recorded."""
        evidence = disputes.check_ruling(ctx, command, history, game.seats)
        if command.undo_to is not None:
            self.undo.take_back(ctx, state, cc.Undo(type="undo", to=command.undo_to, reason=command.text), game.seats,
                                history)
        elif command.patch or command.interpretation:
            self._ruling(ctx, state, cc.Ruling(type="ruling", reason=command.text, patch=command.patch,
                                               interpretation=command.interpretation, public_patch=command.public_patch))
        disputes.record_ruling(ctx, command, evidence)

    @staticmethod
    def _nothing_awaited(kind: str, command: Any, seat: str) -> IllegalCommand:
        """The refusal of an answer to an engine step that is not awaited now."""
        if kind == ConsentStep.kind:
            return IllegalCommand("there is no request to take back awaiting your answer", rule=R_UNDO_CONSENT)
        if kind == RandomStep.kind:
            return IllegalCommand("no roll or draw is waiting to be entered", rule=R_ENTER)
        if isinstance(command, cc.ProceedWithoutEntropy):
            if seat != UMPIRE:
                return IllegalCommand("only the umpire rules to proceed without a seat's entropy", rule=R_ENTROPY)
            return IllegalCommand("no entropy round is open", rule=R_ENTROPY)
        return IllegalCommand("no entropy round is open: the seats' entropy is committed and revealed once, "
                              "before the first roll", rule=R_ENTROPY)

    def _ruling(self, ctx: Decision[Any], state: GameState[Any], command: cc.Ruling) -> None:
        if ctx.seat != UMPIRE:
            raise IllegalCommand("only the umpire makes rulings", rule=R_RULING)
        known = self.ruleset.interpretations()
        for name, value in sorted(command.interpretation.items()):
            if name not in known:
                raise IllegalCommand(f"no interpretation {name!r}; known: {', '.join(sorted(known)) or 'none'}", rule=R_RULING)
            if value not in known[name].choices:
                raise IllegalCommand(f"interpretation {name} has no reading {value!r}; choose one of {', '.join(known[name].choices)}", rule=R_RULING)
        patch = ruling_patch(self.ruleset, state, command)
        if not patch and not command.interpretation:
            raise IllegalCommand("a ruling changes the state (patch) or an interpretation", rule=R_RULING)
        ctx.emit(core.RulingMade(reason=command.reason, patch=patch, interpretation=dict(command.interpretation),
                                 public_patch=command.public_patch))

    # --- what every command gets ------------------------------------------------------------------
    def _finish(self, ctx: Decision[Any], was_over: bool, normalised: dict[str, Any], game: GameContext) -> Adjudicated:
        """`was_over`: whether the game was over before the command (read before the command changed anything)."""
        if not ctx.events:  # recorded, it would be a command no seat is served: a gap in the commands' numbers
            raise RulesetDefect(f"the {self.ruleset.name} ruleset gave a {normalised['type']!r} command no event, which "
                                "no ruleset may do: a defect of this build, not of your command; nothing recorded. Tell "
                                "the umpire, who reports it with the game's log", rule=R_EVENTFUL)
        checkpoints: list[tuple[int, bytes]] = []
        outcome = self.ruleset.outcome(ctx.game.rules)
        if outcome is not None and not was_over:
            reveal_at_end(ctx, game.seed, game.salt_key, f"the game is over: {outcome.reason}")
        marks = [e for e in ctx.events if type(e) not in core.CORE_EVENT_TYPES and self.ruleset.is_checkpoint(e)]
        due = ctx.game.core.seq - ctx.game.core.last_checkpoint >= CHECKPOINT_EVERY
        if ctx.events and (marks or due or (outcome is not None and not was_over)):
            reason = "end of game" if outcome is not None and not was_over else (
                f"after {getattr(marks[-1], 'type', type(marks[-1]).__name__)}" if marks else core.periodic_reason(CHECKPOINT_EVERY))
            data = state_bytes(ctx.game)
            checkpoints.append((ctx.game.core.seq, data))
            ctx.emit(core.Checkpoint(state_hash=state_hash(ctx.game), reason=reason))
        return Adjudicated(command=normalised, events=list(ctx.events), states_after=list(ctx.states_after or ()),
                           checkpoints=checkpoints, state=ctx.game)

    # --- listings ------------------------------------------------------------------------------
    def legal(self, state: GameState[Any], seat: str, *, for_seats: Sequence[str] = (),
              piece: str | None = None) -> list[dict[str, Any]]:
        """Commands `seat` may send now: the engine's awaited answers, else the ruleset's listing. `for_seats`
        (the umpire of a transcribed game): also each of those seats' ruleset commands, wrapped as the umpire
        enters them on the seat's behalf (arbitro §S.5), so that the umpire's listing holds what it may send.
        `piece`: only the commands naming it (`ruleset.pieces_named`), the ruleset's worked out for it alone."""
        own = self._legal(state, seat, piece)
        if seat != UMPIRE:
            return own
        return own + [{"type": "on_behalf", "seat": acting, "command": command}
                      for acting in for_seats for command in self._legal(state, acting, piece)
                      if command.get("type") not in cc.CORE_COMMAND_TYPES]

    def _legal(self, state: GameState[Any], seat: str, piece: str | None = None) -> list[dict[str, Any]]:
        top = awaited(state.core)
        if top is not None and top.kind in ENGINE_KINDS:
            return naming(self.steps[top.kind].options(state, top, seat), piece)
        if self.ruleset.outcome(state.rules) is not None:
            return []
        if top is not None:  # the ruleset's decision: its step's options are the legal commands
            return naming(self.steps[top.kind].options(state, top, seat), piece) if seat in top.seats else []
        pending = self.ruleset.pending(state.rules)
        if pending is not None and pending.seat != seat:
            return []
        if pending is None and seat not in self.ruleset.active_seats(state.rules):
            return []
        return self.ruleset.legal(state.rules, seat) if piece is None else self.ruleset.legal_of(state.rules, seat, piece)

