"""Replay: decode stored events, check each against its hash and its predecessor, fold them into state.

`Fold` knows one ruleset's event types. `Replayer` reads one game from a store, starts from the newest
snapshot at or before the target (a snapshot is checked against the state hash recorded in the chained
checkpoint event after it, not trusted), and folds forward. Undo (`Undone`) restores the state at an
earlier sequence number, so the fold asks the replayer for that state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Union

import msgspec

from arbitro.events import core
from arbitro.events.codec import sha256_hex, to_builtins
from arbitro.events.records import GENESIS, EventBody, StoredEvent
from arbitro.events.store import Snapshot, Store
from arbitro.projections.base import RulesetProjection
from arbitro.projections.decisions import apply_decision
from arbitro.projections.game import (
    CoreState, GameState, copy_state, kept_state, state_bytes, state_hash, state_type,
)
from arbitro.projections.patch import apply_patch

History = Callable[[int], GameState[Any]]


class ChainBroken(Exception):
    """A stored event does not match its hash, or does not follow its predecessor."""

    code = "log/chain-broken"

    def __init__(self, game: str, seq: int, message: str) -> None:
        super().__init__(f"game {game}, event #{seq}: {message}")
        self.game, self.seq, self.detail = game, seq, message


def check_head(game: str, seq: int, digest: str, head_seq: int, head_hash: str) -> None:
    """The rows read end at the head the game's record names: the last one is #`head_seq` and its hash `head_hash`.
    `decode` checks each row and its link to the one before, never that the chain ends where the record says: a last
    row edited (its link re-made or not) or deleted, or a record naming a head past the log, is caught only here. The
    one check of a log's end against its record, for whatever keeps something under that head (Replayer.state_at,
    adjudicator/ledger.py): one comparison of hashes, no read."""
    if seq != head_seq:
        raise ChainBroken(game, seq + 1, "is missing (the log ends early)")
    if digest != head_hash:
        raise ChainBroken(game, seq, "is not the head its game's record names (edited, or the game replaced)")


class Fold:
    """Decoding and folding for one ruleset."""

    def __init__(self, ruleset: RulesetProjection[Any]) -> None:
        self.ruleset = ruleset
        # Frames are typed: the decision events and the state decode their context as one of the engine's or
        # this ruleset's declared contexts (a tagged union), never as a dict.
        self.contexts: Any = Union[(*core.ENGINE_CONTEXTS, *ruleset.Contexts)]  # type: ignore[valid-type]
        typed = {core.DecisionOpened: core.DecisionOpened[self.contexts],  # type: ignore[name-defined]
                 core.DecisionRevised: core.DecisionRevised[self.contexts]}  # type: ignore[name-defined]
        # Union flattens: the ruleset's Event, a Union of its events or a single one, joins the engine's members.
        members = (*(typed.get(t, t) for t in core.CORE_EVENT_TYPES), ruleset.Event)
        self.event_type: Any = Union[members]  # type: ignore[valid-type]
        self.body_type: Any = EventBody[self.event_type]  # type: ignore[valid-type]
        self._decoder = msgspec.json.Decoder(self.body_type)
        self.state_type: Any = state_type(ruleset.State, self.contexts)
        self._state_decoder = msgspec.json.Decoder(self.state_type)

    # --- decoding -----------------------------------------------------------------------------
    def decode(self, stored: StoredEvent, game: str, prev: str | None) -> EventBody[Any]:
        """Decode one stored event, checking its hash, its sequence number and (if known) its link."""
        if sha256_hex(stored.body) != stored.hash:
            raise ChainBroken(game, stored.seq, "its content does not match its hash (edited or corrupted)")
        try:
            body: EventBody[Any] = self._decoder.decode(stored.body)
        except msgspec.DecodeError as e:
            raise ChainBroken(game, stored.seq, f"cannot be decoded: {e}") from e
        if body.seq != stored.seq or body.game != game:
            raise ChainBroken(game, stored.seq, f"claims to be game {body.game} #{body.seq} (moved or reordered)")
        if prev is not None and body.prev != prev:
            raise ChainBroken(game, stored.seq, "does not follow the event before it (deleted, inserted or reordered)")
        return body

    def decode_checked(self, data: bytes) -> EventBody[Any]:
        """An event's body read again, its hash and link already checked (verification reads a log more than once)."""
        return self._decoder.decode(data)  # type: ignore[no-any-return]

    def decode_state(self, data: bytes) -> GameState[Any]:
        return self._state_decoder.decode(data)  # type: ignore[no-any-return]

    def copy(self, state: GameState[Any]) -> GameState[Any]:
        return copy_state(state, self.state_type)

    def kept(self, state: GameState[Any]) -> Callable[[], GameState[Any]]:
        """`state` as it is now, for private copies of it later (projections.game.kept_state)."""
        return kept_state(state, self.state_type)

    def initial(self, created: core.GameCreated) -> GameState[Any]:
        rules = msgspec.convert(created.initial, self.ruleset.State)
        core_state = msgspec.convert(created.initial_core, CoreState[self.contexts])  # type: ignore[name-defined]
        # One source for the readings in force: the core's (the umpire's rulings, what `status` lists). The state's
        # copy (what legal() and the procedures read) is made from them whatever the genesis' state carries: a
        # position file's `state.interpretations` is not a ruling (review rev-g G1).
        rules = self.ruleset.note_interpretations(rules, dict(core_state.interpretations))
        return GameState(core=core_state, rules=rules)

    # --- folding ------------------------------------------------------------------------------
    def apply(self, state: GameState[Any] | None, body: EventBody[Any], history: History) -> GameState[Any]:
        return self.apply_event(state, body.seq, body.event, history)

    def apply_event(
        self, state: GameState[Any] | None, seq: int, event: Any, history: History | None = None
    ) -> GameState[Any]:
        if isinstance(event, core.GameCreated):
            state = self.initial(event)
        else:
            assert state is not None, "a game's log must start with game_created"
            if isinstance(event, core.Event) and type(event) in _CORE_SET:
                state = self._apply_core(state, event, history)
            else:
                state.rules = self.ruleset.apply(state.rules, event)
        state.core.seq = seq
        return state

    def _apply_core(self, state: GameState[Any], event: core.Event, history: History | None) -> GameState[Any]:
        c = state.core
        match event:
            case core.EntropyAdded(mix=mix):
                c.mix = mix
            case core.DiceRolled(index=index) | core.ItemsDrawn(index=index):
                c.rolls = index + 1
            case core.EntropyMixed(mix=mix):
                c.mix = mix
            case core.DecisionOpened() | core.DecisionRevised() | core.DecisionResolved():
                c.decisions = apply_decision(c.decisions, event)
            case core.SeedRevealed(seed=seed):
                c.seed = seed
            case core.SaltKeyRevealed(salt_key=key):
                c.salt_key = key
            case core.RulingMade():
                if event.patch:
                    patched = apply_patch(to_builtins(state.rules), event.patch)
                    state.rules = msgspec.convert(patched, self.ruleset.State)
                if event.interpretation:
                    c.interpretations = dict(sorted({**c.interpretations, **event.interpretation}.items()))
                # the state's copy the core's again, whatever a patch of a log older than its refusal wrote (rev-g G1)
                state.rules = self.ruleset.note_interpretations(state.rules, dict(c.interpretations))
            case core.Undone(to_seq=to_seq):
                assert history is not None, "undo needs the earlier states"
                earlier = self.copy(history(to_seq))
                state.rules = earlier.rules
                c.interpretations = earlier.core.interpretations
                c.decisions = earlier.core.decisions  # e.g. a roll still to be entered at that point
            case core.Checkpoint():
                c.last_checkpoint = state.core.seq + 1
            case core.GameCreated() | core.EnteredOnBehalf():
                pass
        return state

    def fold(self, bodies: list[EventBody[Any]]) -> GameState[Any]:
        """Fold a whole in-memory log (used by verification and tests)."""
        states: dict[int, bytes] = {}  # kept only at the sequence numbers an undo returns to
        undo_targets = {b.event.to_seq for b in bodies if isinstance(b.event, core.Undone)}

        def history(seq: int) -> GameState[Any]:
            return self.decode_state(states[seq])

        state: GameState[Any] | None = None
        for body in bodies:
            state = self.apply(state, body, history)
            if body.seq in undo_targets:
                states[body.seq] = state_bytes(state)
        assert state is not None, "empty log"
        return state


_CORE_SET = frozenset(core.CORE_EVENT_TYPES)


class Replayer:
    """State at any sequence number of a stored game, fast: snapshots plus a short fold."""

    def __init__(self, fold: Fold, store: Store, game_id: str, head: int | None = None,
                 head_hash: str | None = None) -> None:
        """`head` and `head_hash`: the game's head as the caller read it with its record (one submit reads the record
        once); the state at that head is given only if the rows end there, with that hash (`check_head`). None reads
        both from the store's record at each `state_at`; a `head` without its hash (a point in the log, not a
        record's head) bounds the log without that check."""
        self.fold, self.store, self.game_id, self.head, self.head_hash = fold, store, game_id, head, head_hash

    def bodies(self, first: int = 1, last: int | None = None, *, head_hash: str | None = None
               ) -> Iterator[EventBody[Any]]:
        """Decoded, hash-checked events; the chain is checked from `first` (its link to `first - 1` too). With
        `head_hash`, once read to the end, the rows must end at #`last` with that hash (`check_head`); without it, a
        gap at the end (a deleted last event) is found by comparing with the head in verification."""
        prev: str | None = GENESIS if first <= 1 else None
        start = max(1, first - 1)
        seq = start - 1
        for stored in self.store.events(self.game_id, start, last):
            body = self.fold.decode(stored, self.game_id, prev)
            prev, seq = stored.hash, stored.seq
            if stored.seq >= first:
                yield body
        if head_hash is not None and last is not None:
            check_head(self.game_id, seq, prev or "", last, head_hash)

    def state_at(self, seq: int | None = None, *, use_snapshots: bool = True) -> GameState[Any]:
        """The state after event `seq` (default: the head); at the head, only if the log ends there (`check_head`)."""
        if self.head is not None:
            head, head_hash = self.head, self.head_hash
        else:
            record = self.store.game(self.game_id)
            head, head_hash = record.head_seq, record.head_hash
        target = head if seq is None else seq
        if not 1 <= target <= head:
            raise ValueError(f"game {self.game_id} has events #1 to #{head}; there is no #{target}")
        state: GameState[Any] | None = None
        first = 1
        if use_snapshots:
            snap = self.store.snapshot_at_or_before(self.game_id, target)
            if snap is not None and self._snapshot_ok(snap):
                state, first = self.fold.decode_state(snap.state), snap.seq + 1
        for body in self.bodies(first, target, head_hash=head_hash if target == head else None):
            state = self.fold.apply(state, body, self._history)
        if state is None or state.core.seq != target:
            raise ChainBroken(self.game_id, state.core.seq + 1 if state else first, "is missing (the log ends early)")
        return state

    def _history(self, seq: int) -> GameState[Any]:
        return self.state_at(seq)

    def _snapshot_ok(self, snap: Snapshot) -> bool:
        """A snapshot is used only if its hash is the one recorded by the chained checkpoint after it."""
        digest = sha256_hex(snap.state)
        if digest != snap.state_hash:
            return False
        nxt = next(iter(self.store.events(self.game_id, snap.seq + 1, snap.seq + 1)), None)
        if nxt is None:
            return False
        try:
            body = self.fold.decode(nxt, self.game_id, None)
        except ChainBroken:
            return False
        return isinstance(body.event, core.Checkpoint) and body.event.state_hash == digest


def snapshot_of(state: GameState[Any]) -> Snapshot:
    data = state_bytes(state)
    return Snapshot(state.core.seq, data, sha256_hex(data))


__all__ = ["ChainBroken", "Fold", "check_head", "Replayer", "snapshot_of", "state_hash"]
