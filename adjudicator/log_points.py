"""Where a number a sender names lies in the log (engine-rules §V.6). The umpire's numbers are the log's events; a
seat's are commands (it is never told how many events a command made, which can be a hidden fact), and the point a
seat's command number names is that command's last event: the state after it, as `view --at` serves it, and where
a seat's note lies. Read from the log itself, since the store's command list (seat_numbers.CommandNumbers, a layer
above) is not at hand when a command is judged again (verify, import): so a stored command keeps the number its
seat sent (and signed), and every re-adjudication maps it again."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from arbitro.adjudicator.errors import IllegalCommand
from arbitro.events.records import EventBody
from arbitro.projections.base import UMPIRE
from arbitro.projections.game import GameState


class Log(Protocol):
    def bodies(self, first: int = 1, last: int | None = None) -> Iterable[EventBody[Any]]: ...


class History(Log, Protocol):
    """The log so far, as the undo rules and a roll's proof need it."""

    def state_at(self, seq: int) -> GameState[Any]: ...


def command_at(log: Log, seq: int) -> int:
    """The number of the command that made event `seq` (0: the game's creation, or a log of no event)."""
    return next(iter(log.bodies(seq, seq))).cmd if seq else 0


def command_end(log: Log, head: int, cmd: int) -> int:
    """The log number of the last event made by command `cmd` or before it, in a log of `head` events: what a seat's
    command number names. `cmd` lies within the log: the caller refuses the rest in the seat's numbers. A binary
    search: a few events read, whatever the log's length."""
    low, high = 1, head  # the genesis (#1) is command 0's, so command_at(low) <= cmd throughout
    while low < high:
        middle = (low + high + 1) // 2
        if command_at(log, middle) <= cmd:
            low = middle
        else:
            high = middle - 1
    return low


class Points:
    """The numbers `seat` sends, mapped to the log's events in a log of `head` events, and refused in the sender's own
    numbers where the log has no such point: the umpire is told the log's range, a seat the commands' (the last
    command is every seat's to know, its `status` head), never the event count."""

    def __init__(self, log: Log, head: int, seat: str) -> None:
        self.log, self.head, self.seat = log, head, seat
        self._last: int | None = None

    @property
    def last(self) -> int:
        """The last command recorded (a seat's head)."""
        if self._last is None:
            self._last = command_at(self.log, self.head)
        return self._last

    def __call__(self, number: int, rule: str) -> int:
        """The log's event `number` names: the umpire's own number, a seat's command's last event (#0: the game's
        creation, its opening included)."""
        if self.seat == UMPIRE:
            if number < 1:
                raise IllegalCommand("#0 is no event: the umpire names events, #1 the game's creation", rule=rule)
            if number > self.head:
                raise IllegalCommand(f"#{number} is not in the log (events #1 to #{self.head}): cite events that exist",
                                     rule=rule)
            return number
        if number > self.last:
            raise IllegalCommand(f"#{number} is not a command of this game (commands #0 to #{self.last}): cite "
                                 "commands that exist", rule=rule)
        return command_end(self.log, self.head, number)
