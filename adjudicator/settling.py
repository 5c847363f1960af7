"""Settling disputes from the log (issue 16; docs/engine-rules.md §D): the disputes of a game as a seat may read
them, what a seat had been served up to an event (who knew what, when), and an amendment that replays the log with
one command replaced. Functions over the application (`Arbitro`), which they take as their first argument, so the
service keeps to playing and reading a game."""

from __future__ import annotations

import json
from typing import Any, Protocol

import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.admission import known_type, umpire_only
from arbitro.adjudicator.engine import Adjudicator, GameContext
from arbitro.adjudicator.errors import BadInput, IllegalCommand, Rejected
from arbitro.adjudicator.randomness import Supply
from arbitro.adjudicator.results import SubmitResult
from arbitro.events.records import GameRecord, StoredCommand
from arbitro.events.store import Store
from arbitro.projections.base import UMPIRE
from arbitro.projections.game import GameState
from arbitro.projections.disputes import Dispute, dispute_records, fold_disputes
from arbitro.projections.fold import Replayer
from arbitro.projections.knowledge import Change, Fact, timeline


class App(Protocol):
    """What these functions ask of the application (adjudicator/service.Arbitro)."""

    def game(self, game_id: str) -> GameRecord: ...
    def check_seat(self, game: GameRecord, seat: str) -> None: ...
    def adjudicator(self, ruleset: str) -> Adjudicator: ...
    def replayer(self, game_id: str) -> Replayer: ...
    def state_at(self, game_id: str, seq: int | None = None) -> GameState[Any]: ...
    def context(self, game: GameRecord) -> GameContext: ...
    def supply(self, game: GameRecord) -> Supply: ...
    def submit(self, game_id: str, seat: str, command: Any) -> SubmitResult: ...
    def fork(self, game_id: str, at: int, *, keep_dice: bool = False, new_id: str | None = None,
             by: str = UMPIRE) -> str: ...

    @property
    def store(self) -> Store: ...


def disputes(app: App, game_id: str, seat: str) -> list[Dispute]:
    """The game's disputes, as `seat` is served their events (a private message's text is its writer's and the
    umpire's only, arbitro §D.4), in the order they were opened."""
    app.check_seat(app.game(game_id), seat)
    return fold_disputes(dispute_records(app.replayer(game_id).bodies(), seat))


class Knowledge(msgspec.Struct, kw_only=True):
    """What `seat` had been served up to event `at`: the facts its view showed then, each since the event from which
    it showed it without a break; with `about`, only the facts that mention it, and every change of them up to
    `at` (when each came into sight, changed, or went out of it, and the event, as served, that did it)."""

    game: str
    seat: str
    at: int
    about: str | None
    events: int  # events served to the seat up to `at`
    hidden: int  # of which served as a bare envelope: the seat was told only that something happened
    facts: list[Fact]
    changes: list[Change]


def knowledge(app: App, game_id: str, seat: str, at: int | None = None, about: str | None = None) -> Knowledge:
    """Who knew what, when (arbitro §D.6): computed from `seat`'s served views and events only."""
    game = app.game(game_id)
    app.check_seat(game, seat)
    at = game.head_seq if at is None else at
    if not 1 <= at <= game.head_seq:
        raise BadInput(f"game {game_id} has events #1 to #{game.head_seq}; there is no #{at}")
    replayer = Replayer(app.adjudicator(game.ruleset).fold, app.store, game_id, head=game.head_seq)
    found = timeline(registry.get(game.ruleset), replayer.bodies(1, at),
                     lambda state, body: replayer.fold.apply(state, body, replayer.state_at), seat, about)
    return Knowledge(game=game_id, seat=seat, at=at, about=about, events=found.served, hidden=found.hidden,
                     facts=found.facts, changes=found.changes)


# --- amendment (arbitro §D.5) ------------------------------------------------------------------------------------
R_AMEND = "arbitro §D.5"
NOT_REPLAYED = ("fork", "dispute_open", "dispute_reply", "dispute_rule")  # the parent's own records, not play


class Refusal(msgspec.Struct, kw_only=True):
    """The first later command the amended game refuses: the parent's command, and the rules' refusal of it."""

    cmd: int
    seat: str
    command: dict[str, Any]
    error: str
    rule: str
    message: str


class Changed(msgspec.Struct, kw_only=True):
    """A later command whose events differ in the amended game: its events there and in the parent."""

    cmd: int
    seat: str
    parent: tuple[int, int]  # first and last event in the parent
    fork: tuple[int, int]  # first and last event in the amended game


class Amendment(msgspec.Struct, kw_only=True):
    """What an amendment did: the fork that holds the amended game, the command replaced, how many later commands
    it played again, those whose events changed, and the first one refused (the fork ends before it)."""

    game: str
    fork: str
    cmd: int  # the command replaced
    seat: str
    replaced: dict[str, Any]
    command: dict[str, Any]
    replayed: int
    skipped: int  # the parent's forks and disputes: records about the game, not play
    changed: list[Changed]
    refused: Refusal | None
    head: int  # the amended game's last event
    dispute: int | None = None


def amend(app: App, game_id: str, seat: str, at: int, command: dict[str, Any], *, dispute: int | None = None,
          reason: str = "", new_id: str | None = None) -> Amendment:
    """The umpire replaces the command whose events include event `at` with `command`, in a fork made before it,
    and judges every later command again there, in order, until one is refused (arbitro §D.5). `dispute`: this is
    also the ruling of that open dispute (outcome amended, naming the fork)."""
    umpire_only(seat, "an amendment forks the game from a position the seats may not see whole (arbitro §R.3)")
    game = app.game(game_id)
    keep_dice = game.kind == "generated"
    if keep_dice and app.state_at(game_id).core.seed is None:
        raise IllegalCommand(
            "an amendment plays the later commands again with the same dice, which in a generated game needs its "
            f"seed revealed (`arbitro reveal {game_id}`, which ends the dice here); a transcribed game's entered rolls "
            "are entered again as they were", rule=R_AMEND)
    original = _command_at(app, game, at)
    replacement = _as_entered(original, command)
    known_type(registry.get(game.ruleset), replacement)
    if dispute is not None and dispute not in [d.number for d in disputes(app, game_id, UMPIRE) if d.status == "open"]:
        raise IllegalCommand(f"game {game_id} has no open dispute #{dispute} (`arbitro disputes {game_id}`)", rule=R_AMEND)
    _judge_before(app, game, original, replacement)
    later = [app.store.command(game_id, n) for n in range(original.record.cmd + 1, game.head_cmd + 1)]
    parent_events = {e.seq: _outcome(e.body) for e in app.store.events(game_id, original.last_seq + 1)}
    child = app.fork(game_id, original.first_seq - 1, keep_dice=keep_dice, new_id=new_id, by=UMPIRE)
    head = app.submit(child, original.record.seat, replacement).head
    replayed = skipped = 0
    changed: list[Changed] = []
    refused: Refusal | None = None
    ends = {original.last_seq: head}  # a parent's command end -> the same command's end here (undo targets)
    for stored in (s for s in later if s is not None):
        record = stored.record
        if record.command.get("type") in NOT_REPLAYED:
            skipped += 1
            continue
        try:
            result = app.submit(child, record.seat, _moved_undo(record.command, ends, original.first_seq))
        except (Rejected, BadInput) as e:
            payload = e.to_dict()
            refused = Refusal(cmd=record.cmd, seat=_sender(record.command, record.seat), command=record.command,
                              error=payload["error"],
                              rule=payload.get("rule", ""), message=payload["message"])
            break
        replayed += 1
        ends[stored.last_seq] = result.head
        parent = [parent_events[n] for n in range(stored.first_seq, stored.last_seq + 1)]
        if [_outcome(e.body) for e in app.store.events(child, head + 1, result.head)] != parent:
            changed.append(Changed(cmd=record.cmd, seat=_sender(record.command, record.seat),
                                   parent=(stored.first_seq, stored.last_seq),
                                   fork=(head + 1, result.head)))
        head = result.head
    if dispute is not None:
        app.submit(game_id, UMPIRE, {"type": "dispute_rule", "dispute": dispute, "outcome": "amended", "fork": child,
                                     "text": reason or f"amended: command {original.record.cmd} replaced in {child}"})
    return Amendment(game=game_id, fork=child, cmd=original.record.cmd,
                     seat=_sender(original.record.command, original.record.seat),
                     replaced=original.record.command, command=replacement, replayed=replayed, skipped=skipped,
                     changed=changed, refused=refused, head=head, dispute=dispute)


def _command_at(app: App, game: GameRecord, at: int) -> StoredCommand:
    """The command whose events include event `at`."""
    if not 1 <= at <= game.head_seq:
        raise BadInput(f"game {game.id} has events #1 to #{game.head_seq}; there is no #{at}")
    cmd = json.loads(next(iter(app.store.events(game.id, at, at))).body)["cmd"]
    if cmd == 0:
        raise IllegalCommand(f"#{at} is the game's creation, which an amendment cannot replace: start a new game",
                             rule=R_AMEND)
    found = app.store.command(game.id, cmd)
    assert found is not None, f"event #{at} names command {cmd}, which the store lacks"
    return found


def _as_entered(original: StoredCommand, command: dict[str, Any]) -> dict[str, Any]:
    """The replacement as the original was sent: a command the umpire entered for a seat is replaced by one
    entered for the same seat (arbitro §S.5)."""
    if not isinstance(command, dict) or not isinstance(command.get("type"), str):
        raise BadInput('the replacement is a command: a JSON object with a "type", e.g. {"type": "end_turn"}')
    sent = original.record.command
    if sent.get("type") == "on_behalf" and command["type"] != "on_behalf":
        return {"type": "on_behalf", "seat": sent["seat"], "command": command}
    return command


def _judge_before(app: App, game: GameRecord, original: StoredCommand, replacement: dict[str, Any]) -> None:
    """Judge the replacement where the original was judged, before anything is recorded: a replacement the rules
    refuse is refused as any command is (nothing is forked)."""
    at = original.first_seq - 1
    adjudicator = app.adjudicator(game.ruleset)
    history = Replayer(adjudicator.fold, app.store, game.id, head=at)
    adjudicator.decide(app.state_at(game.id, at), original.record.seat, replacement, app.context(game), history,
                       app.supply(game))


def _moved_undo(command: dict[str, Any], ends: dict[int, int], first: int) -> dict[str, Any]:
    """An undo sent to the parent, aimed at the same point of the amended game: a command's end maps to where
    that command ended here; a point before the amendment is the same event in both."""
    if command.get("type") != "undo" or command["to"] < first:
        return command
    return {**command, "to": ends.get(command["to"], command["to"])}


def _outcome(body: bytes) -> Any:
    """What an event says happened, to compare across the parent and the amended game: a checkpoint's state hash
    covers the event's number too, which differs between them, so it is left out."""
    event = json.loads(body)["event"]
    return {**event, "state_hash": ""} if event.get("type") == "checkpoint" else event


def _sender(command: dict[str, Any], seat: str) -> str:
    """The seat a command was played for: the one the umpire entered it for (arbitro §S.5), else its sender."""
    return str(command["seat"]) if command.get("type") == "on_behalf" else seat
