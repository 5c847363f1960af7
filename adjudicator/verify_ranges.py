"""Which events each command of a log claims (arbitro §L.1): a command's first_seq..last_seq range is covered by no
hash, so verification checks that every event lies in the range of the command it names, and that the ranges follow
each other from #1 to the head. One check for verify, check and import."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arbitro.adjudicator.exchange import Loaded
from arbitro.adjudicator.verify_reads import Stamp
from arbitro.events.records import EventBody


def range_problem(loaded: Loaded, bodies: Iterable[EventBody[Any] | Stamp]) -> tuple[int, str] | None:
    """The first event out of place and why: each command must claim exactly the events that name it (none: #0-#0),
    and the commands' ranges must follow each other from #1, with no overlap or gap (arbitro §L.1)."""
    spans: dict[int, tuple[int, int]] = {}
    for body in bodies:
        first = spans.get(body.cmd, (body.seq, 0))[0]
        spans[body.cmd] = (first, body.seq)
    follows = 1  # where the next command's events must begin
    for record, _digest, first, last in loaded.commands:
        assert record is not None  # check_commands saw every record
        actual = spans.get(record.cmd, (0, 0))
        if (first, last) != actual:
            return _first_outside((first, last), actual), (
                f"command {record.cmd} claims events #{first}-#{last}, but its events are "
                + (f"#{actual[0]}-#{actual[1]}" if actual[0] else "none"))
        if first and first != follows:
            return min(first, follows), (
                f"command {record.cmd} claims events #{first}-#{last}, but the events before it end at #{follows - 1}: "
                "each command's events follow the last one's")
        follows = last + 1 if first else follows
    return None


def _first_outside(claimed: tuple[int, int], actual: tuple[int, int]) -> int:
    """The first sequence number in one of two ranges (#0-#0: none) and not in the other."""
    if claimed[0] != actual[0]:  # one begins first, or one is empty
        return min(claimed[0], actual[0]) or max(claimed[0], actual[0])
    return min(claimed[1], actual[1]) + 1
