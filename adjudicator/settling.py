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
from arbitro.adjudicator.errors import BadInput, IllegalCommand, Rejected, check_position
from arbitro.adjudicator.randomness import Supply
from arbitro.adjudicator.results import SubmitResult
from arbitro.adjudicator.seat_numbers import CommandNumbers, held, numbered_disputes
from arbitro.adjudicator.service import Arbitro
from arbitro.events.records import GameRecord, StoredCommand
from arbitro.events.sqlite import SQLiteStore
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
    def numbers(self, game: GameRecord) -> CommandNumbers: ...
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
    umpire's only, arbitro §D.4), in the order they were opened: the umpire's numbered by the log's events, a seat's
    by its commands (engine-rules §V.6)."""
    game = app.game(game_id)
    app.check_seat(game, seat)
    records = dispute_records(app.replayer(game_id).bodies(), seat)
    return fold_disputes(records if seat == UMPIRE else numbered_disputes(app.numbers(game), records))


class Knowledge(msgspec.Struct, kw_only=True):
    """What `seat` had been served up to point `at`: the facts its view showed then, each since the point from which
    it showed it without a break; with `about`, only the facts that mention it, and every change of them up to `at`
    (when each came into sight, changed, or went out of it, and what, as served, did it). Its points are in its
    reader's numbers (engine-rules §V.6): a seat's are its commands (it is served a view after each), the umpire's
    the log's events."""

    game: str
    seat: str
    at: int
    about: str | None
    events: int  # events served up to `at` (a seat: commands, #0 to `at`)
    hidden: int  # of which served as a bare envelope: the seat was told only that something happened (a seat: 0)
    facts: list[Fact]
    changes: list[Change]


def knowledge(app: App, game_id: str, seat: str, at: int | None = None, about: str | None = None) -> Knowledge:
    """Who knew what, when (arbitro §D.6): computed from `seat`'s served views and events only; `at` a seat's command
    (its items hold each command's events: seat_numbers.held), the umpire's event, refused in those numbers."""
    game = app.game(game_id)
    app.check_seat(game, seat)
    if seat == UMPIRE:
        at = game.head_seq if at is None else at
        check_position(at, 1, game.head_seq, f"game {game_id}")
        last = at
    else:
        numbers = app.numbers(game)
        at = numbers.head if at is None else at
        check_position(at, 0, numbers.head, f"game {game_id}", "command")
        last = numbers.last_event(at)
    replayer = Replayer(app.adjudicator(game.ruleset).fold, app.store, game_id, head=game.head_seq)
    found = timeline(registry.get(game.ruleset), replayer.bodies(1, last),
                     lambda state, body: replayer.fold.apply(state, body, replayer.state_at), seat, about,
                     None if seat == UMPIRE else held)
    return Knowledge(game=game_id, seat=seat, at=at, about=about, events=found.served, hidden=found.hidden,
                     facts=found.facts, changes=found.changes)


# --- amendment (arbitro §D.5) ------------------------------------------------------------------------------------
R_AMEND = "arbitro §D.5"
# The parent's own records, not play; a key's registration and withdrawal too: the fork's seats register their keys
# afresh (§L.6, §R.3)
NOT_REPLAYED = ("fork", "register_key", "withdraw_key", "dispute_open", "dispute_reply", "dispute_rule")


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
    skipped: int  # the parent's forks, key withdrawals and disputes: records about the game, not play
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
    child = app.fork(game_id, original.first_seq - 1, keep_dice=keep_dice, new_id=new_id, by=UMPIRE)
    head = _submitted(app, child, original.record.seat, replacement)
    done = replay_after(app, game_id, child, later, original.first_seq, {original.first_seq - 1: 1, original.last_seq: head})
    if dispute is not None:
        app.submit(game_id, UMPIRE, {"type": "dispute_rule", "dispute": dispute, "outcome": "amended", "fork": child,
                                     "text": reason or f"amended: command {original.record.cmd} replaced in {child}"})
    return Amendment(game=game_id, fork=child, cmd=original.record.cmd,
                     seat=_sender(original.record.command, original.record.seat),
                     replaced=original.record.command, command=replacement, replayed=done.replayed,
                     skipped=done.skipped, changed=done.changed, refused=done.refused, head=done.head, dispute=dispute)


class Replayed(msgspec.Struct, kw_only=True):
    replayed: int
    skipped: int
    changed: list[Changed]
    refused: Refusal | None
    head: int


def replay_after(app: App, parent: str, child: str, later: list[StoredCommand | None], first: int,
                 ends: dict[int, int]) -> Replayed:
    """Play `later` commands of `parent` again in `child` (made from `parent` before event `first`), in order, until
    one is refused; name each whose events differ. `ends` maps a parent's command end to the same command's end in
    the child, so far (an undo's target moves with it)."""
    head = app.game(child).head_seq
    outcomes = {e.seq: _outcome(e.body) for e in app.store.events(parent, first)}
    replayed = skipped = 0
    changed: list[Changed] = []
    for stored in (s for s in later if s is not None):
        record = stored.record
        if record.command.get("type") in NOT_REPLAYED:
            skipped += 1
            continue
        try:
            end = _submitted(app, child, record.seat,
                             _moved_undo(app, parent, child, record.seat, record.command, ends))
        except (Rejected, BadInput) as e:
            payload = e.to_dict()
            refused = Refusal(cmd=record.cmd, seat=_sender(record.command, record.seat), command=record.command,
                              error=payload["error"], rule=payload.get("rule", ""), message=payload["message"])
            return Replayed(replayed=replayed, skipped=skipped, changed=changed, refused=refused, head=head)
        replayed += 1
        ends[stored.last_seq] = end
        was = [outcomes[n] for n in range(stored.first_seq, stored.last_seq + 1)]
        if [_outcome(e.body) for e in app.store.events(child, head + 1, end)] != was:
            changed.append(Changed(cmd=record.cmd, seat=_sender(record.command, record.seat),
                                   parent=(stored.first_seq, stored.last_seq), fork=(head + 1, end)))
        head = end
    return Replayed(replayed=replayed, skipped=skipped, changed=changed, refused=None, head=head)


def _submitted(app: App, game_id: str, seat: str, command: Any) -> int:
    """Submit `command` as `seat` (as the seat sent it in the parent); the log's head after it, which the umpire's
    replay compares in the log's numbers (a seat's result names its command, not the log's head: engine-rules §V.6)."""
    app.submit(game_id, seat, command)
    return app.game(game_id).head_seq


class Reinterpretation(msgspec.Struct, kw_only=True):
    """The game judged again with other readings in force from its start: identical, or the commands whose events
    changed and the first one refused (the game itself is not changed)."""

    game: str
    readings: dict[str, str]
    identical: bool
    replayed: int
    skipped: int
    changed: list[Changed]
    refused: Refusal | None


def reinterpret(app: Arbitro, game_id: str, seat: str, readings: dict[str, str]) -> Reinterpretation:
    """`arbitro readjudicate GAME --ruling NAME=READING` (arbitro §D.5): the whole command log judged again, in a
    private copy of the game (its dice replayed from its seed), with `readings` ruled in force after its creation
    (or after its seats' entropy round); reported as an amendment is. The umpire's: the copy holds everything."""
    umpire_only(seat, "a re-adjudication replays the whole log, hidden facts and dice included")
    known = registry.get(app.game(game_id).ruleset).interpretations()
    for name, value in readings.items():
        if name not in known or value not in known[name].choices:
            raise BadInput(f"{name}={value}: not a reading of this ruleset (`arbitro interpretations "
                           f"{app.game(game_id).ruleset}` lists them)")
    copy = Arbitro(SQLiteStore(":memory:"))
    game = copy.import_lines(app.export(game_id, UMPIRE, with_seed=True), "the game", seat=UMPIRE)
    record = copy.game(game)
    commands = list(copy.store.commands(game))
    start = max([0, *(c.record.cmd for c in commands if any(
        b'"entropy_mixed"' in e.body for e in copy.store.events(game, c.first_seq, c.last_seq)))])
    if record.kind == "generated" and copy.state_at(game).core.seed is None:
        copy.reveal(game, "a private re-adjudication", seat=UMPIRE, expose_hidden=True)  # the umpire's copy only: its dice are replayed
    end = commands[start].last_seq
    child = copy.fork(game, end, keep_dice=record.kind == "generated", by=UMPIRE)
    head = copy.submit(child, UMPIRE, {"type": "ruling", "interpretation": readings,
                                       "reason": f"re-adjudicated with {readings}"}).head
    done = replay_after(copy, game, child, [c for c in commands if c.record.cmd > start], end + 1, {end: head})
    return Reinterpretation(game=game_id, readings=readings, identical=not done.changed and done.refused is None,
                            replayed=done.replayed, skipped=done.skipped, changed=done.changed, refused=done.refused)


def _command_at(app: App, game: GameRecord, at: int) -> StoredCommand:
    """The command whose events include event `at`."""
    check_position(at, 1, game.head_seq, f"game {game.id}")
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


def _moved_undo(app: App, parent: str, child: str, seat: str, command: dict[str, Any],
                ends: dict[int, int]) -> dict[str, Any]:
    """An undo sent to the parent, aimed at the same point of the fork: a command's end maps to where that command
    ended there (the fork's numbers start again at its genesis); another point is sent as it was, and judged so. A
    seat's point is a command (engine-rules §V.6): the same command's end, by the fork's number for it."""
    if command.get("type") != "undo":
        return command
    if seat == UMPIRE:
        return {**command, "to": ends.get(command["to"], command["to"])}
    end = ends.get(app.numbers(app.game(parent)).last_event(command["to"]))
    return command if end is None else {**command, "to": app.numbers(app.game(child)).command_of(end)}


def _outcome(body: bytes) -> Any:
    """What an event says happened, to compare across the parent and the amended game: a checkpoint's state hash
    covers the event's number too, which differs between them, so it is left out."""
    event = json.loads(body)["event"]
    return {**event, "state_hash": ""} if event.get("type") == "checkpoint" else event


def _sender(command: dict[str, Any], seat: str) -> str:
    """The seat a command was played for: the one the umpire entered it for (arbitro §S.5), else its sender."""
    return str(command["seat"]) if command.get("type") == "on_behalf" else seat
