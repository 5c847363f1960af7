"""A seat's own copy of a game it plays by e-mail (issue 14 point 5; README "Play by e-mail").

The umpire's database holds the game; a remote seat is mailed its own export (`arbitro export GAME --as SEAT`)
and imports it into its own database. The export lacks what the seat may not see, so the copy cannot be
re-adjudicated; it is kept as it was sent, whole, and read as the seat was served it: its log (each event as
served, with the chain's hashes), its notes, and the status, view and legal commands the umpire's server served
it at the head (the export's last record, `seat_state`). From it the seat prepares its next command offline
(`arbitro submit --offline`), mails it back, and imports the umpire's next export over its copy: accepted only
when it continues the chain the seat already holds, so the umpire cannot rewrite what the seat was sent.

`SeatCopy` answers the read calls of `service.Arbitro` that a seat may make (game, games' kind, view, legal, log,
notes, status, awaiting, replay, verify), so the CLI reads a copy as it reads a game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from arbitro.adjudicator import exchange
from arbitro.adjudicator import verify as verification
from arbitro.adjudicator.errors import BadFile, BadInput
from arbitro.adjudicator.exchange import Loaded
from arbitro.adjudicator.results import Awaiting, Replayed, Status
from arbitro.events.records import GameRecord
from arbitro.events.store import Annotation, Store
from arbitro.projections.base import UMPIRE


def store_copy(store: Store, loaded: Loaded, text: str) -> str:
    """Keep a seat's export as that seat's copy of the game, after checking it (its chain, as far as a seat's
    export can be checked) and, when the database already holds a copy, that it continues that copy's chain."""
    seat, game_id = loaded.redacted_for, loaded.game.id
    assert seat is not None
    report = verification.verify(loaded)
    failed = [c for c in report.checks if c.status == "failed"]
    if failed:
        raise BadFile(f"{loaded.source}: {failed[0].name}: {failed[0].detail}; nothing imported")
    if loaded.seat_state is None:
        raise BadFile(f"{loaded.source}: {seat}'s export has no seat_state record (made by an older arbitro): ask "
                      f"the umpire to export it again (`arbitro export {game_id} --as {seat}`); nothing imported")
    held = store.seat_copy(game_id)
    if held is not None:
        _continues(SeatCopy.read(game_id, *held).loaded, loaded)
    store.put_seat_copy(game_id, seat, loaded.game.head_seq, text)
    return game_id


def delete_copy(store: Store, game_id: str, seat: str) -> dict[str, Any]:
    """Remove a seat's copy of a game from the seat's own database (`arbitro delete`), as its seat or the database's
    operator (the umpire's --as default); the game itself, in the umpire's database, is not touched."""
    copy = SeatCopy.find(store, game_id)
    assert copy is not None
    copy._check(game_id, seat)
    store.delete_seat_copy(game_id)
    return {"game": game_id, "deleted": True, "events": copy.head, "forks_kept": [], "copy_of": copy.seat}


def _continues(old: Loaded, new: Loaded) -> None:
    """Refuse an export that is not the held copy's chain carried on (another seat's, an older one, a rewrite)."""
    game = old.game.id
    if new.redacted_for != old.redacted_for:
        raise BadInput(f"this database holds {old.redacted_for}'s copy of {game}; {new.redacted_for}'s export goes "
                       "in its own database (--db)")
    held, sent = [e["hash"] for e in old.served], [e["hash"] for e in new.served]
    if len(sent) < len(held):
        raise BadFile(f"{new.source} ends at #{len(sent)}, before the copy you hold (#{len(held)}): an older "
                      "export; nothing imported")
    differs = next((i for i, (a, b) in enumerate(zip(held, sent), 1) if a != b), None)
    if differs is not None:
        raise BadFile(f"{new.source} does not continue the copy you hold: event #{differs} differs from the one you "
                      "were sent before (the umpire's log was changed, or this is another game); nothing imported. "
                      "Keep both files for the dispute")


class SeatCopy:
    """One seat's copy, read as that seat was served it."""

    def __init__(self, loaded: Loaded) -> None:
        assert loaded.redacted_for is not None and loaded.seat_state is not None
        self.loaded = loaded
        self.seat: str = loaded.redacted_for
        self.state: dict[str, Any] = loaded.seat_state

    @classmethod
    def read(cls, game_id: str, seat: str, text: str) -> "SeatCopy":
        return cls(exchange.read_lines(text.splitlines(), f"{seat}'s copy of {game_id}"))

    @classmethod
    def find(cls, store: Store, game_id: str) -> "SeatCopy | None":
        held = store.seat_copy(game_id)
        return cls.read(game_id, *held) if held is not None else None

    def listing(self) -> dict[str, Any]:
        """The copy as `arbitro games` lists it."""
        g = self.loaded.game
        return {"game": g.id, "ruleset": g.ruleset, "scenario": g.scenario, "kind": f"{self.seat}'s copy",
                "head": g.head_seq, "parent": g.parent, "parent_seq": g.parent_seq}

    @property
    def head(self) -> int:
        return self.loaded.game.head_seq

    def _check(self, game_id: str, seat: str) -> None:
        """A copy serves its own seat only (the default umpire's reading is the copy's seat's: all it holds)."""
        if game_id != self.loaded.game.id:
            raise BadInput(f"this is {self.seat}'s copy of {self.loaded.game.id}, not of {game_id}")
        if seat not in (self.seat, UMPIRE):
            raise BadInput(f"this database holds {self.seat}'s copy of {game_id}: it holds only what {self.seat} was "
                           f"served, so it shows {self.seat}'s view alone (--as {self.seat})")

    def _at_head(self, at: int | None) -> None:
        if at is not None and at != self.head:
            raise BadInput(f"{self.seat}'s copy holds the view at its head (#{self.head}) only; `arbitro log "
                           f"{self.loaded.game.id} --as {self.seat} --to {at}` shows each event to #{at} as served")

    # --- the read calls of service.Arbitro, as the copy's seat -------------------------------------------------
    def game(self, game_id: str) -> GameRecord:
        self._check(game_id, self.seat)
        return self.loaded.game

    def view(self, game_id: str, seat: str, at: int | None = None) -> dict[str, Any]:
        self._check(game_id, seat)
        self._at_head(at)
        return {**self.state["view"], "game": game_id}

    def legal(self, game_id: str, seat: str) -> list[dict[str, Any]]:
        self._check(game_id, seat)
        return list(self.state["legal"])

    def status(self, game_id: str, seat: str = UMPIRE) -> Status:
        self._check(game_id, seat)
        return msgspec.convert(self.state["status"], Status)

    def awaiting_at(self, game_id: str, at: int | None = None) -> Awaiting:
        self._at_head(at)
        return self.status(game_id).awaiting

    def log(self, game_id: str, seat: str = UMPIRE, first: int = 1, last: int | None = None) -> list[dict[str, Any]]:
        self._check(game_id, seat)
        last = self.head if last is None else last
        return [dict(e) for e in self.loaded.served if first <= e["seq"] <= last]

    def notes(self, game_id: str, seat: str = UMPIRE, first: int = 1, last: int | None = None) -> list[Annotation]:
        self._check(game_id, seat)
        last = self.head if last is None else last
        return [n for n in self.loaded.annotations if first <= n.seq <= last]

    def replay(self, game_id: str, to: int | None = None, seat: str = UMPIRE) -> Replayed:
        return Replayed(game=game_id, seq=self.head, view=self.view(game_id, seat, to),
                        notes=self.notes(game_id, seat))

    def verify(self, game_id: str, progress: Callable[[int, int], None] | None = None) -> Any:
        self._check(game_id, self.seat)
        return verification.verify(self.loaded, progress)
