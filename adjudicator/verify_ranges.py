"""Which events each command of a log claims (arbitro §L.1): a command's first_seq..last_seq range is covered by no
hash, so verification checks that every event lies in the range of the command it names, and that the ranges follow
each other from #1 to the head. One check for verify, check and import, on a full log and, as far as a seat can
check it, on a seat's export (seat_command_problem)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arbitro.adjudicator.exchange import Loaded
from arbitro.adjudicator.verify_reads import Stamp
from arbitro.events.records import EventBody


class Spans(dict[int, tuple[int, int]]):
    """Each command's events as the log has them: command -> (its first event, its last), gathered an event at a time
    (`add`) in whatever pass reads the log's stamps, so that checking the ranges reads it no more (issue 15)."""

    def add(self, body: EventBody[Any] | Stamp) -> None:
        self[body.cmd] = (self.get(body.cmd, (body.seq, 0))[0], body.seq)


def range_problem(loaded: Loaded, bodies: Iterable[EventBody[Any] | Stamp]) -> tuple[int, str] | None:
    """The first event out of place and why (`spans_problem`) in a log read for it alone."""
    spans = Spans()
    for body in bodies:
        spans.add(body)
    return spans_problem(((first, last) for _record, _digest, first, last in loaded.commands), spans)


def spans_problem(claimed: Iterable[tuple[int, int]], spans: Spans) -> tuple[int, str] | None:
    """The first event out of place and why: each command (`claimed`: each one's first and last event, in command
    order) must claim exactly the events that name it (none: #0-#0), and the commands' ranges must follow each other
    from #1, with no overlap or gap (arbitro §L.1)."""
    follows = 1  # where the next command's events must begin
    for number, (first, last) in enumerate(claimed):  # numbered from 0, as checked
        actual = spans.get(number, (0, 0))
        if (first, last) != actual:
            return _first_outside((first, last), actual), (
                f"command {number} claims events #{first}-#{last}, but its events are "
                + (f"#{actual[0]}-#{actual[1]}" if actual[0] else "none"))
        if first and first != follows:
            return min(first, follows), (
                f"command {number} claims events #{first}-#{last}, but the events before it end at #{follows - 1}: "
                "each command's events follow the last one's")
        follows = last + 1 if first else follows
    return None


def seat_command_problem(loaded: Loaded) -> tuple[int, str] | None:
    """What a seat can check of the commands in its own export, and the first event it finds out of place: every
    command claiming at least one event (arbitro §L.8), each of its own commands (those whose body it holds) numbered
    in order, hashing to the hash the file gives and in the name of the seat its line names (exchange.read_lines
    refuses a line that names none), every event naming a command the file holds, with that command's seat, and its
    hash wherever the event names one (a `hidden` placeholder names none), and the ranges as range_problem checks
    them. Which command a hidden event belongs to, within ranges and seats that agree, only the full log proves; and
    a command made up with a made-up hidden event, after the last point the seat anchored, only a later anchor or
    the full log finds (engine-rules §V.2)."""
    hashes = [digest for _record, digest, _first, _last in loaded.commands]
    seats = loaded.command_seats
    # where a command claiming no event is found: after the last event of the commands before it, and for command 0
    # (the creation) at the genesis, #1, the event it leaves unclaimed, as range_problem numbers it in a full log
    before = 1
    for number, (record, digest, first, last) in enumerate(loaded.commands):
        if not first:  # a command made up and appended with no event; one with a made-up hidden event passes here
            return before, (f"command {number} claims no event, but every command recorded caused at least one "
                            "(arbitro §L.8)")
        before = last
        if record is not None and record.cmd != number:
            return first, f"command {number} is out of order: its body is command {record.cmd}'s"
        if record is not None and record.digest() != digest:
            return first, f"command {number} (events #{first}-#{last}) was edited: its hash does not match"
        if record is not None and seats[number] != record.seat:
            return first, f"command {number} is {record.seat}'s, but its line names {seats[number]}"
    stamps = []
    for event in loaded.served:
        seq, cmd = event.get("seq", 0), event.get("cmd")
        if not isinstance(cmd, int) or not 0 <= cmd < len(hashes):
            return seq, f"event #{seq} names command {cmd}, which this file does not hold"
        if "cmd_hash" in event and event["cmd_hash"] != hashes[cmd]:
            return seq, f"event #{seq} names command {cmd} with a different hash"
        if event.get("seat") != seats[cmd]:
            return seq, f"event #{seq} is {event.get('seat')}'s, but the command it names ({cmd}) is {seats[cmd]}'s"
        stamps.append(Stamp(seq, cmd, hashes[cmd], ""))
    return range_problem(loaded, stamps)


def _first_outside(claimed: tuple[int, int], actual: tuple[int, int]) -> int:
    """The first sequence number in one of two ranges (#0-#0: none) and not in the other."""
    if claimed[0] != actual[0]:  # one begins first, or one is empty
        return min(claimed[0], actual[0]) or max(claimed[0], actual[0])
    return min(claimed[1], actual[1]) + 1
