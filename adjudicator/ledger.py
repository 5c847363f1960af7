"""The few events of a game that its status reads, kept per game (issue 15): `status` audits the dice (the events
randomness.AUDITED_EVENTS names) and lists the open disputes (projections/disputes.RECORD_EVENTS), and it read and
decoded the whole log for them at every call, 27 ms at 3,581 events and growing with the game. A `Ledger` keeps those
events of each game, as far as it has read its log, and reads the store only past there; both functions give the same
answer on them as on the whole log, since they read nothing else.

So status checks the hashes and links of the events it has not read before, and that they end at the head the game's
record names; an event edited below a head already read goes unnoticed by status for as long as the process keeps it.
`verify` is the checker of a whole log (adjudicator/verify.py)."""

from __future__ import annotations

import threading
from typing import Any

from arbitro.adjudicator.randomness import AUDITED_EVENTS
from arbitro.adjudicator.reveal import PROOF_EVENTS
from arbitro.events.records import GENESIS, EventBody, GameRecord
from arbitro.events.store import Store
from arbitro.projections.disputes import RECORD_EVENTS
from arbitro.projections.fold import Fold, check_head

# what audit_dice and dispute_records read, and reveal.unproven for the umpire's legal() in a provable game (§R.5)
STATUS_EVENTS = tuple(dict.fromkeys((*AUDITED_EVENTS, *RECORD_EVENTS, *PROOF_EVENTS)))


class Ledger:
    """Each game's status events up to a head (its number and hash: a game deleted and imported again under its id is
    read afresh, since the event kept as its head is then not the store's)."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[int, str, tuple[EventBody[Any], ...]]] = {}
        self._lock = threading.Lock()

    def events(self, fold: Fold, store: Store, game: GameRecord) -> list[EventBody[Any]]:
        """The status events of `game` up to the head its record was read at, in order."""
        seq, digest, kept = self._kept.get(game.id, (0, "", ()))
        if (seq, digest) == (game.head_seq, game.head_hash):
            return list(kept)
        if seq > game.head_seq:  # a record read before the one kept: read from the start, keep nothing
            seq, kept = 0, ()
        found = list(kept)
        rows = iter(store.events(game.id, max(seq, 1), game.head_seq))
        prev = GENESIS
        if seq:  # from the head kept, if it is still this game's event there
            first = next(rows, None)
            if first is None or (first.seq, first.hash) != (seq, digest):
                return self._afresh(fold, store, game)
            prev = first.hash
        last = seq
        for stored in rows:
            body = fold.decode(stored, game.id, prev)  # its hash and its link to the one before checked
            prev, last = stored.hash, stored.seq
            if isinstance(body.event, STATUS_EVENTS):
                found.append(body)
        check_head(game.id, last, prev, game.head_seq, game.head_hash)  # nothing kept under a head not read
        with self._lock:
            if self._kept.get(game.id, (0,))[0] <= game.head_seq:
                self._kept[game.id] = (game.head_seq, game.head_hash, tuple(found))
        return found

    def forget(self, game_id: str) -> None:
        """Drop what is kept of a game (deleted: its events are no longer anyone's)."""
        with self._lock:
            self._kept.pop(game_id, None)

    def _afresh(self, fold: Fold, store: Store, game: GameRecord) -> list[EventBody[Any]]:
        self.forget(game.id)
        return self.events(fold, store, game)
