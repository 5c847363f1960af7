"""The application: games over a store. Every CLI command is one call here (sqlite-utils style).

`Arbitro` loads a game's state from the store (snapshots + fold), asks the adjudicator, appends the
command and its events in one transaction (expected head + idempotency key), writes snapshots at
checkpoints, and returns what the seat may see.
"""

from __future__ import annotations

import contextlib
import copy
import datetime
import json
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import partial
from typing import Any

import msgspec

from arbitro.adjudicator import overrides, registry, seatcopy
from arbitro.adjudicator.admission import (
    as_first_cited, cited_notes, known_type, pinned, seat_signature, sign_receipt, stale, umpire_only,
)
from arbitro.adjudicator.creation import POSITION_FORMAT, checked_game_id, fresh_game_id, genesis, mark_own_data
from arbitro.adjudicator.creation import roll_key_commitment
from arbitro.adjudicator.engine import Adjudicator, GameContext, NoHistory
from arbitro.adjudicator.engine_steps import awaiting_in
from arbitro.adjudicator.errors import BadInput, IllegalCommand, KeyReused, UnknownSeat, check_position
from arbitro.adjudicator.signing_keys import key_change, one_key, with_withdrawal
from arbitro.adjudicator.ledger import Ledger
from arbitro.adjudicator.randomness import EnteredSupply, NoSeedSupply, SeededSupply, Supply, audit_dice, commits_to_keys, roll_keys
from arbitro.adjudicator.results import Awaiting, Revealed, Status, SubmitResult
from arbitro.adjudicator.reveal import EXPOSES, as_first_proven, exposure, unproven, with_proof
from arbitro.adjudicator.ruleset import Ruleset, naming
from arbitro.adjudicator.undo import R_UNDO_POINT, middle_of_command
from arbitro.adjudicator.seat_numbers import Command, CommandNumbers, audited, events_of, per_command
from arbitro.adjudicator.service_exchange import ExchangeCalls
from arbitro.adjudicator.service_keys import KeyCalls
from arbitro.adjudicator.service_reading import ReadingCalls
from arbitro.events import core, random as rnd
from arbitro.events.codec import canonical, sha256_hex, to_builtins
from arbitro.events.records import GENESIS, CommandRecord, GameRecord, StoredCommand, StoredEvent, seal_events
from arbitro.events.store import DuplicateKey, GameNotFound, Snapshot, StaleSequence, Store
from arbitro.projections.base import UMPIRE
from arbitro.projections.disputes import open_in
from arbitro.projections.fold import Replayer
from arbitro.projections.game import GameState, awaited, salting_key_public, state_bytes
from arbitro.projections.views import serve_event, served_origin

__all__ = ["POSITION_FORMAT", "Arbitro", "awaiting_in", "now"]


def now() -> str:
    """Wall-clock time, for metadata only (when a command arrived); nothing decides on it."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


class Arbitro(ReadingCalls, ExchangeCalls, KeyCalls):
    def __init__(self, store: Store, wall_clock: Callable[[], str] | None = None) -> None:
        self.store = store
        # When a command arrived, as metadata; a re-adjudication passes the times it read from the log it replays.
        # `now` is looked up when the clock is read, not bound here: the tests that fix it (service.now) hold.
        # Named `wall_clock`, not `clock`: this class also carries every reading call, and a game's clock (turn,
        # phase) is one of them (`game_clock`); an attribute named like a method hides it at call time.
        self.wall_clock = wall_clock or (lambda: now())
        self._adjudicators: dict[str, Adjudicator] = {}
        # The state at each game's head, as canonical bytes, keyed by the head's hash: a read checks the
        # store's head first, so another process's append is never missed; a hit skips the fold.
        self._heads: dict[str, tuple[str, bytes]] = {}
        # legal() per (game, seat) at a head hash: a pure function of the state, asked again and again by clients
        # that list, choose and list again; stored encoded so no caller can alter the cached answer
        self._legal: dict[tuple[str, str], tuple[str, bytes]] = {}
        self._numbers: dict[str, tuple[str, CommandNumbers]] = {}  # per game, at a head hash (seat_numbers.py)
        # Each game's genesis facts (options, entropy seats, origin), which never change: keyed by what names the
        # game's genesis in its record, so a game deleted and imported again under its id is read afresh.
        self._genesis: dict[str, tuple[tuple[str, str], core.GameCreated]] = {}
        self._ledger = Ledger()  # the events status reads, per game, read from the store past where they were last

    # --- plumbing -------------------------------------------------------------------------------
    def adjudicator(self, ruleset: str) -> Adjudicator:
        if ruleset not in self._adjudicators:
            self._adjudicators[ruleset] = Adjudicator(registry.get(ruleset))
        return self._adjudicators[ruleset]

    def game(self, game_id: str) -> GameRecord:
        return self.store.game(game_id)

    @contextlib.contextmanager
    def reading(self) -> Iterator[Arbitro]:
        """This application over its store as of one moment (Store.read_transaction), for a call that reads a game in
        several queries (export, replay, status): a command committed meanwhile is in none of its answer. Its caches
        are this one's (each keyed by the head it was read at)."""
        with self.store.read_transaction() as moment:
            app = copy.copy(self)
            app.store = moment
            yield app

    def games(self) -> list[dict[str, Any]]:
        """Every game in the store, as `arbitro games` and the server's host list them."""
        games = [{"game": g.id, "ruleset": g.ruleset, "scenario": g.scenario, "kind": g.kind, "head": g.head_seq,
                  "parent": g.parent, "parent_seq": g.parent_seq} for g in self.store.games()]
        copies = (seatcopy.SeatCopy.read(game, seat, text) for game, seat, text in self.store.seat_copies())
        return games + [c.listing() for c in copies]  # a seat's copies of games it plays by e-mail

    def replayer(self, game_id: str) -> Replayer:
        return Replayer(self.adjudicator(self.game(game_id).ruleset).fold, self.store, game_id)

    def state_at(self, game_id: str, seq: int | None = None) -> GameState[Any]:
        """The state after event `seq` (default: the head); always a private copy."""
        return self._state_at(self.game(game_id), seq)

    def _state_at(self, game: GameRecord, seq: int | None = None) -> GameState[Any]:
        """The state after event `seq` of `game` as its record was read (default: that head); a private copy."""
        if seq is not None:
            check_position(seq, 1, game.head_seq, f"game {game.id}")
        if seq is None or seq == game.head_seq:
            return self._head_state(game)
        return Replayer(self.adjudicator(game.ruleset).fold, self.store, game.id, head=game.head_seq,
                        head_hash=game.head_hash).state_at(seq)

    def _head_state(self, game: GameRecord) -> GameState[Any]:
        """The state at the head `game` was read with (not at the store's head now, which another writer may
        have moved since); a private copy."""
        return self.adjudicator(game.ruleset).fold.decode_state(self._head_bytes(game))

    def _head_bytes(self, game: GameRecord) -> bytes:
        """`_head_state` encoded: from the head cache, else the newest snapshot and a short fold."""
        cached = self._heads.get(game.id)
        if cached is not None and cached[0] == game.head_hash:
            return cached[1]
        # folded only if the log ends at that head, with that hash (fold.check_head): nothing cached under a head unread
        history = Replayer(self.adjudicator(game.ruleset).fold, self.store, game.id, head=game.head_seq,
                           head_hash=game.head_hash)
        data = state_bytes(history.state_at(game.head_seq))
        self._heads[game.id] = (game.head_hash, data)
        return data

    def _created(self, game: GameRecord) -> core.GameCreated:
        """The game's genesis (event #1), decoded once per game and process: its facts never change."""
        identity = (game.seed_commitment, game.created_at)
        cached = self._genesis.get(game.id)
        if cached is not None and cached[0] == identity:
            return cached[1]
        body = next(iter(Replayer(self.adjudicator(game.ruleset).fold, self.store, game.id).bodies(1, 1)))
        assert isinstance(body.event, core.GameCreated)
        self._genesis[game.id] = (identity, body.event)
        return body.event

    def context(self, game: GameRecord, created: core.GameCreated | None = None) -> GameContext:
        created = created or self._created(game)
        return GameContext.of(created, seed=game.seed, salt_key=game.salt_key, game_id=game.id)

    def supply(self, game: GameRecord) -> Supply:
        if game.kind == "transcribed":
            return EnteredSupply(())
        if game.seed is None:
            return NoSeedSupply(game.id)
        return SeededSupply(game.seed, roll_keys(self._created(game)))

    # --- creating games -----------------------------------------------------------------------
    def create(
        self, ruleset_name: str, scenario: str | None = None, options: Iterable[str] = (), *,
        position: dict[str, Any] | None = None, transcribed: bool = False, game_id: str | None = None,
        seat_entropy: bool = False, data: Mapping[str, str] | None = None, seed: str | None = None,
        salt_key: str | None = None, provable_rolls: bool = False,
    ) -> str:
        """A new game. `seat_entropy`: every playing seat commits entropy, then reveals it, before anything is
        rolled (arbitro §R.2); without it the dice rest on the server's seed alone (not protected against the
        host: fine for hot-seat play, and what the tests' fixed logs use). A transcribed game rolls nothing.
        `seed` and `salt_key` (64 hex digits each) are the host's own secrets, for sample games made again byte for
        byte; by default fresh ones are drawn, each on its own (events.random: the salt key is never the seed's).
        `provable_rolls`: each roll keyed on its own (arbitro-random/2), so that one can be proven (arbitro §R.5)."""
        ruleset = registry.get(ruleset_name)
        game_id = checked_game_id(game_id) if game_id is not None else None
        seed = rnd.new_seed() if seed is None else rnd.checked_seed(seed)
        salt_key = rnd.new_salt_key() if salt_key is None else rnd.checked_seed(salt_key, "salt key")
        created = genesis(ruleset, seed, scenario, options, salt_key=salt_key, position=position,
                          transcribed=transcribed, seat_entropy=seat_entropy, data=data,
                          provable_rolls=provable_rolls)
        return self._start_game(ruleset, created, seed, game_id or fresh_game_id(ruleset.name), salt_key=salt_key)

    def start_recorded(self, created: core.GameCreated, seed: str, game_id: str, *, salt_key: str | None = None) -> str:
        """A recorded game started again, so that its commands can be submitted again (relog, the benchmarks, tests):
        from its genesis `created` (a log's `game_created`, which relog may bring up to this build's set-up) and the
        secrets it commits to, as the log's game record holds them: `seed`, and `salt_key` for a game made since the
        salt key (none for an older one, salted by its seed: arbitro §V.3). Secrets that are not the committed ones
        are refused: the game would be salted and rolled otherwise than its log. A fork's genesis names its parent
        (origin), recorded as the game's parent, which verify checks against it."""
        if not rnd.commits_to(seed, created.seed_commitment):
            raise BadInput(f"the seed given is not the one game {game_id}'s genesis commits to")
        if created.salted_by_key() != (salt_key is not None):
            raise BadInput(f"game {game_id}'s genesis " + (
                "commits to a salt key: give the one its log's game record holds" if created.salted_by_key() else
                "commits to no salt key (a game made before it, salted by its seed): give none"))
        if salt_key is not None and not rnd.commits_to(salt_key, created.salt_key_commitment):
            raise BadInput(f"the salt key given is not the one game {game_id}'s genesis commits to")
        if created.provable() and not commits_to_keys(seed, created):
            raise BadInput(f"game {game_id}'s genesis commits to roll keys that are not its seed's (arbitro §R.5)")
        origin = created.origin
        parent = (origin["fork"], origin["at"], origin["hash"]) if "fork" in origin else None
        return self._start_game(registry.get(created.ruleset), created, seed, checked_game_id(game_id), parent,
                                salt_key=salt_key)

    def _start_game(
        self, ruleset: Ruleset[Any], created: core.GameCreated, seed: str, game_id: str,
        parent: tuple[str, int, str] | None = None, *, salt_key: str | None = None,
    ) -> str:
        """Store a game from its genesis `created`, which commits to `seed` and (a game made since the salt key)
        `salt_key`; a recorded log's genesis played again (relog) may be an older one, salted by its seed."""
        adj = self.adjudicator(ruleset.name)
        record = GameRecord(
            id=game_id, ruleset=ruleset.name, version=ruleset.version, scenario=created.scenario, kind=created.kind,
            seed=seed, seed_commitment=created.seed_commitment, seats=created.seats, created_at=self.wall_clock(),
            parent=parent[0] if parent else None, parent_seq=parent[1] if parent else None,
            parent_hash=parent[2] if parent else None, salt_key=salt_key,
        )
        game = GameContext.of(created, seed=seed, salt_key=salt_key, game_id=game_id)
        supply: Supply = EnteredSupply(()) if created.kind == "transcribed" else SeededSupply(seed, roll_keys(created))
        events = adj.open(created, supply, game, NoHistory())
        key = record.salting_key(created.salted_by_key())
        command = CommandRecord(game=game_id, cmd=0, seat=UMPIRE, key=f"create:{game_id}",
                                salt=rnd.command_salt(key, game_id, 0), command={"type": "create", "origin": created.origin}, expected_seq=0, received_at=self.wall_clock())
        _, stored = seal_events(record.id, key, command, events, first_seq=1, prev=GENESIS)
        self.store.create_game(record, command, stored)
        self._genesis[game_id] = ((record.seed_commitment, record.created_at), created)
        return game_id

    # --- commands -------------------------------------------------------------------------------
    def submit(
        self, game_id: str, seat: str, command: Any, *, expected_seq: int | None = None, key: str | None = None,
        signature: str | None = None,
    ) -> SubmitResult:
        # The record is read once: the expected head is checked against it, the command judged in its state and
        # appended only if it is still the head (the append's transaction checks), so a loser of a race is told
        # "stale", never judged against a state its --expect did not name (issue 9.12). Each new event is folded
        # once, by the engine, and served from the state it left (Adjudicated.states_after).
        game = self.game(game_id)
        ruleset = registry.get(game.ruleset)
        known_type(ruleset, command)
        # The seat's signature first: a retry's answer (the seat's events as served to it) and a reused key's refusal
        # (the seat's first command) are the seat's own, never told to an unsigned caller in its name (arbitro §L.6).
        # Its keys are read after the head: a registration landing between the two moves the head, so this command,
        # judged unsigned, is stale at its append (test_key_registration: read the other way round, it would pass).
        one_key(command, seat, partial(self.store.seat_keys, game_id))  # a second registration: told so, signed or not
        signed = seat_signature(self.store, game, seat, command, expected_seq, key, signature)
        if key is not None:
            prior = self.store.command_by_key(game_id, seat, key)
            if prior is not None:
                return self._retried(game, prior, seat, as_first_proven(command, prior.record.command))
        if expected_seq is not None:  # in the sender's numbers: a seat's is its last command's (engine-rules §V.6)
            expected = self.expected_event(game, seat, expected_seq)
            if expected is None or stale(self.store, game, expected, command, seat):
                raise self.stale(game, seat, expected_seq)
        adj = self.adjudicator(game.ruleset)
        created = self._created(game)
        pinned(game, created, adj.ruleset, command, seat)
        # once the seat is known: it answers with the seat's notes
        command = cited_notes(self.store, game, seat, command, signed=signed is not None,
                              numbers=lambda: self.numbers(game))
        history = Replayer(adj.fold, self.store, game_id, head=game.head_seq, head_hash=game.head_hash)
        head = self._head_bytes(game)  # decoded, a private copy given up to the engine, which works on it (issue 15)
        state = adj.fold.decode_state(head)
        command = with_proof(command, seat, game.seed, roll_keys(created), state.core.rolls)  # stored with the command
        command = with_withdrawal(command, seat, partial(self.store.seat_keys, game_id), game.head_cmd)  # and this
        salting = game.salting_key(created.salted_by_key(), salting_key_public(created, state.core))  # read first
        done = adj.decide(state, seat, command, self.context(game, created), history,
                          self.supply(game), keep_states=True, consume=True, before=partial(adj.fold.decode_state, head))
        cmd = game.head_cmd + 1
        record = CommandRecord(game=game_id, cmd=cmd, seat=seat, key=key or secrets.token_hex(16),
                               salt=rnd.command_salt(salting, game_id, cmd), command=done.command,
                               # the head its seat saw and signed, in its numbers (a seat's: a command's); behind
                               # the head only for crossed entropy answers; unsent: the head it was judged at, in the
                               # same numbers (the log's would tell a seat's own export every event count, §V.6)
                               expected_seq=self.recorded_head(game, seat, command, expected_seq),
                               received_at=self.wall_clock())
        bodies, stored = seal_events(game_id, salting, record, done.events, first_seq=game.head_seq + 1,
                                     prev=game.head_hash)
        snapshots = [Snapshot(seq, data, sha256_hex(data)) for seq, data in done.checkpoints]
        try:  # the snapshots in the append's transaction: one commit per submit (issue 15)
            self.store.append(game_id, game.head_seq, record, stored, signed, snapshots, key_change(record.command, seat))
        except StaleSequence:  # a racer appended first: refused in the sender's numbers, against the new head
            sent = self.head_of(game, seat) if expected_seq is None else expected_seq
            raise self.stale(self.game(game_id), seat, sent) from None
        except DuplicateKey:  # the same key raced us: the first one won; answer as it did
            prior = self.store.command_by_key(game_id, seat, record.key)
            assert prior is not None
            return self._retried(game, prior, seat, as_first_proven(command, prior.record.command))
        head_seq, head_hash = (stored[-1].seq, stored[-1].hash) if stored else (game.head_seq, game.head_hash)
        receipt = sign_receipt(self.store, game_id, cmd, record.digest(), head_hash)
        if stored:
            self._heads[game_id] = (stored[-1].hash, state_bytes(done.state))
        served = [event for body, sealed, after in zip(bodies, stored, done.states_after, strict=True)
                  if (event := serve_event(ruleset, body, sealed.hash, seat, after)) is not None]
        made = Command(cmd, seat, record.digest(), stored[0].seq if stored else 0, stored[-1].seq if stored else 0)
        numbers = self.numbers_after(game, made, head_hash, read=seat != UMPIRE)
        head, served = self._submitted(numbers, seat, made, head_seq, served)
        result = SubmitResult(game=game_id, cmd=cmd, duplicate=False, head=head, events=served,
                              awaiting=awaiting_in(ruleset, done.state), receipt=receipt)
        return self._revealed(result, created) if done.command["type"] == "reveal_seed" else result

    def _revealed(self, result: SubmitResult, created: core.GameCreated) -> Revealed:
        """A reveal's answer (arbitro §R.3), however it was sent (`reveal`, a plain command, mail): what it exposed to
        every seat, in the words of reveal.EXPOSES, the refusal's."""
        salted_by = exposure(not created.salted_by_key())  # GameContext.of's salted_by_seed, without the context
        return Revealed(**msgspec.structs.asdict(result), salted_by=salted_by, exposed=EXPOSES[salted_by])

    def _retried(self, game: GameRecord, prior: StoredCommand, seat: str, raw: Any) -> SubmitResult:
        """A key the seat already used: the same command gets the original result again (a retry, or a
        concurrent duplicate); another command is refused, since the key names the first."""
        try:
            normalised: Any = self.adjudicator(game.ruleset).parse(as_first_cited(raw, prior.record.command, seat))[1]
        except BadInput:
            normalised = raw
        if sha256_hex(canonical(normalised)) != sha256_hex(canonical(prior.record.command)):
            raise KeyReused(f"game {game.id}: {seat} already used idempotency key {prior.record.key!r} for command "
                            f"{prior.record.cmd}, {json.dumps(prior.record.command, sort_keys=True)}; a different "
                            "command needs a new key (a key makes retrying the same command safe)")
        # The original result: its events as this seat was served them, the head and who was awaited after it,
        # all read against the record this submit already holds (one read of it per submit, retries included).
        if prior.record.cmd > game.head_cmd:  # a racer appended it after this submit read the record: read the one it left
            game = self.game(game.id)
        head = self._end_of(game, prior)
        served = self._log(game, seat, prior.first_seq, prior.last_seq) if prior.first_seq else []
        made = Command(prior.record.cmd, prior.record.seat, prior.hash, prior.first_seq, prior.last_seq)
        awaiting = awaiting_in(registry.get(game.ruleset), self._state_at(game, head))
        numbers = self.numbers(game) if seat != UMPIRE else None
        head, served = self._submitted(numbers, seat, made, head, served)
        return SubmitResult(game=game.id, cmd=prior.record.cmd, duplicate=True, head=head, events=served,
                            awaiting=awaiting, receipt=self._receipt(game, prior))

    def _end_of(self, game: GameRecord, stored: StoredCommand) -> int:
        """The log's number of the last event command `stored` made, or of the last before it for a command recorded
        before §L.8 that made none (never its `expected_seq`: a seat's is in its own numbers, a command's)."""
        return stored.last_seq or self.numbers(game).last_event(stored.record.cmd)

    @staticmethod
    def _submitted(numbers: CommandNumbers | None, seat: str, made: Command, head: int,
                   served: list[dict[str, Any]]) -> tuple[int, list[dict[str, Any]]]:
        """A submit's head and events in the submitter's numbers: to the umpire the log's head and the command's events
        one by one; to a seat its command's number and what its one item holds (seat_numbers.per_command, opened by
        events_of: each event its `type` and `event`, numbered by the command; the item's link is the receipt's
        `head`), since how many events the command made, and where a hidden one lay, can be a hidden fact
        (engine-rules §V.6). `numbers`: the game's, `made` among them (None: the umpire's, who needs none)."""
        if seat == UMPIRE or numbers is None:
            return head, served
        return made.cmd, events_of(per_command(numbers, served, made.cmd, made.cmd))

    # --- reading --------------------------------------------------------------------------------
    def awaiting(self, game_id: str, state: GameState[Any] | None = None) -> Awaiting:
        """Who the game waits for, and for what."""
        return awaiting_in(registry.get(self.game(game_id).ruleset), state or self.state_at(game_id))

    def awaiting_at(self, game_id: str, at: int | None = None, seat: str = UMPIRE) -> Awaiting:
        """Who was awaited after `at`: an event's number to the umpire, a command's to a seat (engine-rules §V.6)."""
        return self.awaiting(game_id, self.state_at(game_id, self.event_number(self.game(game_id), seat, at)))

    def check_seat(self, game: GameRecord, seat: str) -> None:
        if seat != UMPIRE and seat not in game.seats:
            raise UnknownSeat(f"unknown seat {seat!r}: this game's seats are {', '.join((*game.seats, UMPIRE))}")

    def legal(self, game_id: str, seat: str, piece: str | None = None) -> list[dict[str, Any]]:
        """Every command `seat` may send now; `piece`: only those naming it (a piece id; any other string, such as an
        enemy piece the seat may not know of, has none), worked out for that piece alone where the ruleset can (the
        lazy listing, issue 15: "where may this unit go" without every other unit's destinations)."""
        game = self.game(game_id)
        self.check_seat(game, seat)
        cached = self._legal.get((game_id, seat))
        if cached is not None and cached[0] == game.head_hash:  # the whole listing is known: the piece's is in it
            return naming(msgspec.json.decode(cached[1]), piece)
        acting_for = game.seats if seat == UMPIRE and game.kind == "transcribed" else ()  # arbitro §S.5
        listed = self.adjudicator(game.ruleset).legal(self.state_at(game_id), seat, for_seats=acting_for, piece=piece)
        if seat == UMPIRE and piece is None:  # a proof names no piece
            listed += self._proofs(game)
        encoded = msgspec.json.encode(listed)
        if piece is None:  # a piece's listing is not kept: any string may be asked
            self._legal[(game_id, seat)] = (game.head_hash, encoded)
        return msgspec.json.decode(encoded)  # the same plain JSON values as every later (cached) answer

    def _proofs(self, game: GameRecord) -> list[dict[str, Any]]:
        """The umpire's proofs of a provable game (arbitro §R.5): one prove_roll for each roll made and not yet proven,
        as the umpire sends it (the server fills in its key and path); none in a game rolling by arbitro-random/1, or
        whose seed this database does not hold. Read from the events status keeps (the ledger), not the whole log."""
        if game.seed is None or not self._created(game).provable():
            return []
        bodies = self._ledger.events(self.adjudicator(game.ruleset).fold, self.store, game)
        return [{"type": "prove_roll", "index": index} for index in unproven(bodies)]

    def played_data(self, game_id: str, at: int | None = None) -> dict[str, str]:
        """The data files the game plays on after event `at` where it carries its own (a user's folder, data an
        override wrote: Ruleset.carried_data), else {}: what the umpire's picture is drawn on. Every other seat's is
        drawn on the shipped data (render.render), since these files' values are the umpire's (views.served_origin)."""
        return registry.get(self.game(game_id).ruleset).carried_data(self.state_at(game_id, at).rules)

    rulesets = staticmethod(registry.rulesets)

    def status(self, game_id: str, seat: str = UMPIRE) -> Status:
        """The game at its head; `notices` are the ruleset's, as `seat` may read them."""
        game = self.game(game_id)
        self.check_seat(game, seat)
        created = self._created(game)
        state = self._head_state(game)
        outcome = registry.get(game.ruleset).outcome(state.rules)
        # to the head read with the record (the log is append-only: all of it is of the record's moment)
        bodies = self._ledger.events(self.adjudicator(game.ruleset).fold, self.store, game)
        return Status(
            game=game.id, ruleset=game.ruleset, version=game.version, scenario=game.scenario,
            options=list(created.options), kind=game.kind, seats=list(game.seats),
            head=self.head_of(game, seat),
            origin=served_origin(created.origin, seat), parent=game.parent, seed_revealed=state.core.seed is not None,
            awaiting=awaiting_in(registry.get(game.ruleset), state), outcome=outcome,
            provisional=list(created.provisional), non_standard=list(overrides.named(created.origin)),
            interpretations=dict(sorted(state.core.interpretations.items())),
            dice=audit_dice(bodies) if seat == UMPIRE else audited(self.numbers(game), audit_dice(bodies)),
            notices=registry.get(game.ruleset).notices(state.rules, seat),
            open_disputes=open_in(bodies),
        )

    def position(self, game_id: str, at: int | None = None, *, seat: str) -> dict[str, Any]:
        """The game's state at `at` as a position file: it holds everything, so only the umpire may have it
        (arbitro §A.1)."""
        game = self.game(game_id)
        umpire_only(seat, "a position file holds the whole state, hidden facts included")
        created = self._created(game)
        state = self.state_at(game_id, at)
        return {"format": POSITION_FORMAT, "ruleset": game.ruleset, "version": game.version,
                "scenario": game.scenario, "options": list(created.options), "from": {"game": game_id, "seq": state.core.seq},
                "interpretations": dict(sorted(state.core.interpretations.items())), "state": to_builtins(state.rules)}

    def rebuild_snapshots(self, game_id: str) -> int:
        """Replay the whole game once, storing a snapshot before every checkpoint (after an import)."""
        replayer = self.replayer(game_id)
        fold = replayer.fold
        state: GameState[Any] | None = None
        written = 0
        for body in replayer.bodies():
            if isinstance(body.event, core.Checkpoint) and state is not None:
                data = state_bytes(state)
                if sha256_hex(data) == body.event.state_hash:
                    self.store.put_snapshot(game_id, Snapshot(state.core.seq, data, body.event.state_hash))
                    written += 1
            state = fold.apply(state, body, replayer.state_at)
        return written

    # --- fork, undo, reveal, annotate -------------------------------------------------------------
    def fork(
        self, game_id: str, at: int, *, keep_dice: bool = False, new_id: str | None = None, by: str = UMPIRE
    ) -> str:
        """The umpire's fork (arbitro §R.3): a new game from event `at`, recorded in the parent's log as
        `game_forked`. With `keep_dice` the fork replays the parent's seed, which must already be revealed."""
        new_id = checked_game_id(new_id, "the fork's id") if new_id is not None else None
        parent = self.game(game_id)
        self.check_seat(parent, by)
        umpire_only(by, "a fork is played from a position the players may not see whole, and with --keep-dice "
                        "replays this game's dice (arbitro §R.3)")
        ruleset = registry.get(parent.ruleset)
        created = self._created(parent)
        check_position(at, 1, parent.head_seq, f"game {game_id}", then=f"cannot fork at #{at}")
        state = self.state_at(game_id, at)
        around = list(self.store.events(game_id, at, at + 1))
        parent_hash = around[0].hash
        if len(around) == 2 and _cmd_of(around[0]) == _cmd_of(around[1]):
            # the same refusal, citation and exit status as an undo to the middle of a command
            cmd = _cmd_of(around[0])
            before, end = (self.store.command(game_id, cmd - 1) if cmd else None), self.store.command(game_id, cmd)
            raise IllegalCommand(middle_of_command(at, cmd, before.last_seq if before else None,
                                                   end.last_seq if end else at, "fork at"), rule=R_UNDO_POINT)
        child = new_id or fresh_game_id(ruleset.name)
        if self._exists(child):
            raise BadInput(f"a game {child!r} already exists in this database: choose another id")
        # The parent records the fork first (the engine refuses a seat, and kept dice before the reveal).
        self.submit(game_id, by, {"type": "fork", "child": child, "at": at, "hash": parent_hash, "keep_dice": keep_dice})
        revealed = self.state_at(game_id).core.seed
        # Kept dice replay the parent's public seed; the salt key is the fork's own, fresh, always: the public seed
        # opens nothing the fork hides (arbitro §V.3).
        seed = revealed if keep_dice and revealed is not None else rnd.new_seed()
        salt_key = rnd.new_salt_key()
        initial_core: dict[str, Any] = {"interpretations": state.core.interpretations}
        if state.core.decisions:  # e.g. a roll still to be entered carries over
            initial_core["decisions"] = to_builtins(state.core.decisions)
        if keep_dice:
            initial_core.update(rolls=state.core.rolls, mix=state.core.mix)
        # `at` is the parent's event, `cmd` the command it ends: what a seat of the fork is told (views.served_origin)
        origin: dict[str, Any] = {"fork": game_id, "at": at, "cmd": self.numbers(parent).command_of(at),
                                  "hash": parent_hash, "keep_dice": keep_dice}
        for carried in ("data", "overrides"):  # a user's data folder, a position's overrides: the fork's too
            if created.origin.get(carried):
                origin[carried] = created.origin[carried]
        mark_own_data(origin, ruleset, state.rules)  # a ruling may have changed the data since the parent's
        if keep_dice:
            origin["seed_public"] = True  # the parent's seed was revealed before this fork (arbitro §R.3)
        fork = core.GameCreated(
            ruleset=ruleset.name, version=ruleset.version, scenario=created.scenario, options=created.options,
            kind=created.kind, seats=created.seats, seed_commitment=rnd.commitment(seed),
            data_hash=ruleset.played_hash(state.rules, origin.get("data")), origin=origin, initial=to_builtins(state.rules), initial_core=initial_core, provisional=created.provisional,
            # A new seed gets a new round from the same seats; kept dice are public already (arbitro §R.2, §R.3).
            entropy_seats=() if keep_dice else created.entropy_seats, salt_key_commitment=rnd.commitment(salt_key),
            **roll_key_commitment(seed, created.provable()),  # a provable game's forks are too, with their seed's keys
        )
        return self._start_game(ruleset, fork, seed, child, (game_id, at, parent_hash), salt_key=salt_key)

    def _exists(self, game_id: str) -> bool:
        try:
            self.store.game(game_id)
        except GameNotFound:
            return False
        return True

    def undo(self, game_id: str, seat: str, to: int, reason: str = "") -> SubmitResult:
        return self.submit(game_id, seat, {"type": "undo", "to": to, "reason": reason})

    def reveal(self, game_id: str, reason: str = "revealed by the umpire", *, seat: str,
               expose_hidden: bool = False) -> Revealed:
        """Reveal the dice seed, as `seat`: the engine refuses it from anyone but the umpire, and without
        `expose_hidden` (it shows every seat every hidden roll and draw so far, in a game salted by its seed every
        hidden fact: arbitro §R.3). The answer says which (reveal.EXPOSES), as the refusal did."""
        result = self.submit(game_id, seat, {"type": "reveal_seed", "reason": reason, "expose_hidden": expose_hidden})
        assert isinstance(result, Revealed)  # submit answers every reveal so
        return result

    def entropy(self, game_id: str, seat: str, entropy: str) -> SubmitResult:
        """Answer the seats' entropy round (arbitro §R.2) with `entropy`: its SHA-256 while the round awaits
        commitments, the entropy itself once it awaits reveals."""
        top = awaited(self.state_at(game_id).core)
        if top is not None and isinstance(top.ctx, core.EntropyRound) and top.ctx.phase == "reveal":
            return self.submit(game_id, seat, {"type": "reveal_entropy", "entropy": entropy})
        return self.submit(game_id, seat, {"type": "commit_entropy", "commitment": rnd.entropy_commitment(entropy)})

def _cmd_of(stored: StoredEvent) -> int:
    return int(msgspec.json.decode(stored.body)["cmd"])
