"""The application's reading calls (`Arbitro` inherits them): what a seat or the umpire reads of a game, the view,
the log, a replay, the notes, and the one place where the numbers a seat gives or is given meet the log's.

The umpire reads the log's numbers: one per event. A seat reads command numbers only (engine-rules §V.6, design (a)):
how many events a command made, and where among them one was hidden, can be a hidden fact, so a seat is served one
item per command (seat_numbers.per_command), and every number it sends is mapped back here (`event_number`).
They read the game through `Arbitro`'s own calls (game, check_seat, state_at, the head-state cache), which is why
they live in a base class and not in free functions.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


from arbitro.adjudicator import registry
from arbitro.adjudicator.admission import may_read
from arbitro.adjudicator.errors import BadInput, NoSuchEvent, check_position
from arbitro.adjudicator.exchange import entered_for
from arbitro.adjudicator.results import Replayed
from arbitro.adjudicator.seat_numbers import Command, CommandNumbers, noted, per_command
from arbitro.events.records import GameRecord
from arbitro.events.store import Annotation, StaleSequence
from arbitro.projections.base import UMPIRE
from arbitro.projections.fold import Replayer
from arbitro.projections.game import GameState, state_hash
from arbitro.projections.views import clock_of, seat_view, serve_event


class ReadingCalls:
    """View, log, replay and notes, each in the reader's numbers: the log's to the umpire, its commands' to a seat."""

    def view(self, game_id: str, seat: str, at: int | None = None) -> dict[str, Any]:
        """The game as `seat` may see it after event `at` (the umpire) or command `at` (a seat, whose `engine.seq`
        is the command's number: engine-rules §V.6); default: the head."""
        game = self.game(game_id)
        self.check_seat(game, seat)
        ruleset = registry.get(game.ruleset)
        if seat == UMPIRE:
            view = seat_view(ruleset, self.state_at(game_id, at), seat)
        else:
            cmd = self.numbers(game).head if at is None else at
            view = seat_view(ruleset, self._state_at(game, self.event_number(game, seat, cmd)), seat)
            view["engine"]["seq"] = cmd
        view["game"] = game_id
        return view

    def game_clock(self, game_id: str, seat: str) -> dict[str, Any]:
        """Where the game stands now as `seat` may see it (turn, phase, ...: views.clock_of of its view): status's clock
        line, without sending the whole view (not the application's `wall_clock`, the metadata's time)."""
        return clock_of(self.view(game_id, seat)["state"])

    def log(self, game_id: str, seat: str = UMPIRE, first: int | None = None,
            last: int | None = None) -> list[dict[str, Any]]:
        """The umpire: the events from `first` to `last` (default: #1 to the head). A seat: one item per command from
        `first` to `last` (default: command 0, the game's creation, to the head; seat_numbers.per_command), so it
        learns neither how many events a command made nor where a hidden one lay (engine-rules §V.6)."""
        game = self.game(game_id)
        if seat == UMPIRE:
            return self._log(game, seat, 1 if first is None else first, last)
        first = 0 if first is None else first
        self.check_seat(game, seat)
        numbers = self.numbers(game)
        return per_command(numbers, self._log(game, seat, *numbers.events(first, last)), first, last)

    def event_number(self, game: GameRecord, seat: str, at: int | None) -> int | None:
        """The log's number of the event a seat's number `at` (a command's) stands for; the umpire's is the log's."""
        if seat == UMPIRE or at is None:
            return at
        return self.numbers(game).last_event(at)

    def head_of(self, game: GameRecord, seat: str) -> int:
        """The game's head in `seat`'s numbers: the log's last event (the umpire), its last command (a seat)."""
        return game.head_seq if seat == UMPIRE else game.head_cmd  # the commands are numbered 0 to head_cmd

    def recorded_head(self, game: GameRecord, seat: str, command: Any, expected: int | None) -> int:
        """The head a command record keeps, in the numbers of whoever holds its body: the sender's (a seat's: its last
        command), except a command the umpire entered for a seat (arbitro §S.5), whose body that seat holds in its
        export: the command it was judged after, since the log's number there would tell the seat every event count
        (engine-rules §V.6). The umpire's expected head was checked to be the game's head before it is recorded so."""
        if entered_for(command) is not None:
            return game.head_cmd
        return self.head_of(game, seat) if expected is None else expected

    def expected_event(self, game: GameRecord, seat: str, expected: int) -> int | None:
        """The log's head a sender's expected head stands for (`submit --expect`, a seat's: its command's last
        event, event_number); None for a command the game does not have, a head no seat was ever shown."""
        try:
            return self.event_number(game, seat, expected)
        except NoSuchEvent:
            return None

    def stale(self, game: GameRecord, seat: str, expected: int) -> StaleSequence:
        """The refusal of a command sent against `expected`, a head that is no longer the game's, in the sender's
        numbers: a seat is told its commands', never how many events lie between (engine-rules §V.6)."""
        return StaleSequence(game.id, expected, self.head_of(game, seat), commands=seat != UMPIRE)

    def numbers(self, game: GameRecord) -> CommandNumbers:
        """The game's commands and their events' numbers, as its record was read: every number a seat gives or is
        given goes through this (seat_numbers.py)."""
        cached = self._numbers.get(game.id)
        if cached is not None and cached[0] == game.head_hash:
            return cached[1]
        numbers = CommandNumbers(game.id, (Command(c.record.cmd, c.record.seat, c.hash, c.first_seq, c.last_seq)
                                           for c in self.store.commands(game.id) if c.record.cmd <= game.head_cmd))
        self._numbers[game.id] = (game.head_hash, numbers)
        return numbers

    def numbers_after(self, game: GameRecord, made: Command, head_hash: str, *, read: bool = True) -> CommandNumbers | None:
        """The game's numbers once command `made`, appended to the record `game` was read as, ends the log at
        `head_hash`; kept for the next reader, so that a seat's submit after a submit reads no command back (issue
        15). Without `read` (the umpire's submit, which serves no command number) only numbers already at hand are
        carried on: None where there are none."""
        cached = self._numbers.get(game.id)
        if not read and (cached is None or cached[0] != game.head_hash):
            return None
        numbers = self.numbers(game)
        after = numbers.then(made)
        self._numbers[game.id] = (head_hash, after)
        return after

    def log_by_event(self, game_id: str, seat: str, first: int = 1, last: int | None = None) -> list[dict[str, Any]]:
        """The events `first` to `last` of the log as `seat` is served them one by one (views.serve_event), numbered as
        in the log: what the umpire's tools and checks read (`arbitro roll`'s explainer, the conformance kit's leak
        checks); a seat is served `log`'s items, never this (engine-rules §V.6)."""
        return self._log(self.game(game_id), seat, first, last)

    def _log(self, game: GameRecord, seat: str, first: int = 1, last: int | None = None) -> list[dict[str, Any]]:
        """`log` over a record already read."""
        return [served for served, _ in self._serving(game, seat, first, last)]

    def _serving(self, game: GameRecord, seat: str, first: int = 1,
                 last: int | None = None) -> Iterator[tuple[dict[str, Any], GameState[Any]]]:
        """Each event from `first` to `last` as `seat` is served it, with the state after it."""
        self.check_seat(game, seat)
        adj = self.adjudicator(game.ruleset)
        replayer = Replayer(adj.fold, self.store, game.id, head=game.head_seq)
        last = game.head_seq if last is None else min(last, game.head_seq)
        if first > last:
            return
        state = replayer.state_at(first - 1) if first > 1 else None
        hashes = {e.seq: e.hash for e in self.store.events(game.id, first, last)}
        for body in replayer.bodies(first, last):
            state = adj.fold.apply(state, body, replayer.state_at)
            served = serve_event(adj.ruleset, body, hashes[body.seq], seat, state)
            if served is not None:
                yield served, state

    def replay(self, game_id: str, to: int | None = None, seat: str = UMPIRE) -> Replayed:
        """The game rebuilt from its log to `to` (default: the head), as `seat` may see it, with its notes: `to` and
        the result's `seq` are an event's number to the umpire, a command's to a seat (engine-rules §V.6); read as of
        one moment (`reading`), so that a command committed meanwhile is in none of it."""
        with self.reading() as app:
            return app._replay(game_id, to, seat)

    def _replay(self, game_id: str, to: int | None, seat: str) -> Replayed:
        view = self.view(game_id, seat, to)
        at = view["engine"]["seq"]
        replayed = Replayed(game=game_id, seq=at, view=view, notes=self.notes(game_id, seat, None, at))
        if seat == UMPIRE:  # the hash covers hidden faces: a seat could test candidate states against it (§V.3)
            replayed.state_hash = state_hash(self.state_at(game_id, at))
        return replayed

    def annotate(self, game_id: str, seat: str, at: int, text: str, *, private: bool = False) -> Annotation:
        """A note on event `at` (the umpire) or on command `at` (a seat, whose note is on the command's last event:
        engine-rules §V.6), returned as its writer reads it in `notes`."""
        game = self.game(game_id)
        self.check_seat(game, seat)
        if not text.strip():
            raise BadInput("an annotation needs some text")
        note = self.store.add_annotation(Annotation(game=game_id, id=0, seq=self._annotated(game, seat, at), seat=seat,
                                                    private=private, text=text, created_at=self.wall_clock()))
        return note if seat == UMPIRE else noted(self.numbers(game), [note])[0]

    def _annotated(self, game: GameRecord, seat: str, at: int) -> int:
        """The log's number of the event a note sent at `at`, in `seat`'s numbers, is on."""
        first, head, what = (1, game.head_seq, "event") if seat == UMPIRE else (0, self.numbers(game).head, "command")
        check_position(at, first, head, f"game {game.id}", what, then=f"cannot annotate #{at}")
        return at if seat == UMPIRE else self.numbers(game).last_event(at)

    def annotations(self, game_id: str, seat: str = UMPIRE) -> list[Annotation]:
        """Notes `seat` may read: public ones, and its own private ones; the umpire reads every note (may_read)."""
        return [a for a in self.store.annotations(game_id) if may_read(a, seat)]

    def notes(self, game_id: str, seat: str = UMPIRE, first: int | None = None,
              last: int | None = None) -> list[Annotation]:
        """The notes `seat` may read on events `first` to `last` (the umpire), or on commands `first` to `last` (a
        seat: each note numbered by the command whose event it is on, without the chain digests that cover the log's
        number, seat_numbers.noted; engine-rules §V.6), in order."""
        game = self.game(game_id)
        self.check_seat(game, seat)
        readable = self.annotations(game_id, seat)
        if seat == UMPIRE:
            first, last = 1 if first is None else first, game.head_seq if last is None else last
            return [a for a in readable if first <= a.seq <= last]
        return noted(self.numbers(game), (a for a in readable if a.seq <= game.head_seq), first or 0, last)
