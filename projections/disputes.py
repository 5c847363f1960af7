"""Disputes (arbitro §D) as a read model: each dispute's claim, answers and ruling, folded from the dispute events
of a log as one seat is served them, so a seat's list never holds more than its served stream.

What a seat is served of a dispute event (`redact_dispute`): everything, except the text (and the events and evidence
it cites) of a message its writer marked private, which only the writer and the umpire read. The engine cannot tell whether
free text names a hidden fact; its writer can, and a seat can only write what it knows, so it is the writer's to
choose (docs/engine-rules.md §D.4).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

import msgspec

from arbitro.events import core
from arbitro.events.codec import to_builtins
from arbitro.events.records import EventBody
from arbitro.projections.base import UMPIRE

WITHHELD = "(withheld: its writer's and the umpire's only)"
RULING_EVENTS = (core.RulingMade, core.Undone)  # what a ruling appends, which may close a dispute
# The events dispute_records reads, and only these (the status ledger keeps these of each game: adjudicator/ledger.py)
RECORD_EVENTS = (*core.DISPUTE_EVENTS, *RULING_EVENTS)


def redact_dispute(event: core.DisputeOpened | core.DisputeReplied | core.DisputeRuled, seat: str) -> dict[str, Any]:
    """A dispute event as `seat` may read it: a private message's text, citations, evidence and (a claim's) events
    disputed go to its writer and the umpire only, since which events a seat disputes can tell what it knows; who
    wrote, and a ruling's outcome are every seat's. A public message's
    evidence names nothing hidden: the engine refuses a private note in it (arbitro §D.7), and each other kind is
    a reference every reader resolves with what it was served."""
    data: dict[str, Any] = to_builtins(event)
    writer = getattr(event, "by", UMPIRE)
    if event.private and seat not in (writer, UMPIRE):
        for withheld in ("text", "cites", "evidence", "about"):
            if withheld in data:
                data[withheld] = WITHHELD
    return data


class Message(msgspec.Struct, kw_only=True):
    """One step of a dispute as served: its event's sequence number, its writer, its text (or WITHHELD)."""

    seq: int
    by: str
    text: str
    private: bool
    cites: list[int] | str = []  # WITHHELD when a private message's citations are not the reader's
    evidence: list[dict[str, Any]] | str = []  # typed references (arbitro §D.7), or WITHHELD as `cites`


class Ruling(Message, kw_only=True):
    outcome: Literal["upheld", "dismissed", "amended"]
    fork: str = ""  # amended: the game that replays the log with the command replaced
    effects: list[str] = []  # the types of the events the ruling made before it (ruling_made, undone)


class Dispute(msgspec.Struct, kw_only=True):
    """A dispute as one seat is served it: the claim, the answers in order, and the ruling once made."""

    number: int
    status: Literal["open", "closed"]
    about: list[int] | str  # WITHHELD when the claim is private and not the reader's
    claim: Message
    replies: list[Message] = []
    ruling: Ruling | None = None


def fold_disputes(served: Iterable[dict[str, Any]]) -> list[Dispute]:
    """The game's disputes from its served events (envelopes with `seq`, `cmd`, `type` and `event`, as
    projections/views.serve_event makes them), in the order they were opened. Dispute events are never voided: a
    dispute is about the record, which an undo does not erase (arbitro §D.3). A ruling's `effects` are the
    umpire's ruling and undo events of the same command."""
    disputes: dict[int, Dispute] = {}
    same_command: list[dict[str, Any]] = []
    for record in served:
        if same_command and same_command[-1]["cmd"] != record["cmd"]:
            same_command = []
        same_command.append(record)
        event = record["event"]
        match record["type"]:
            case "dispute_opened":
                disputes[event["dispute"]] = Dispute(
                    number=event["dispute"], status="open", about=_listed(event["about"]),
                    claim=Message(seq=record["seq"], by=event["by"], text=event["text"], private=event["private"],
                                  evidence=_listed(event.get("evidence", []))))
            case "dispute_replied":
                disputes[event["dispute"]].replies.append(Message(
                    seq=record["seq"], by=event["by"], text=event["text"], private=event["private"],
                    cites=_listed(event["cites"]), evidence=_listed(event.get("evidence", []))))
            case "dispute_ruled":
                dispute = disputes[event["dispute"]]
                dispute.status = "closed"
                dispute.ruling = Ruling(
                    seq=record["seq"], by=UMPIRE, text=event["text"], private=event["private"],
                    outcome=event["outcome"], fork=event["fork"], evidence=_listed(event.get("evidence", [])),
                    effects=[r["type"] for r in same_command if r["type"] in ("ruling_made", "undone")])
    return list(disputes.values())


def _listed(served: Any) -> Any:
    """A served list as a list, or WITHHELD as it was served."""
    return served if isinstance(served, str) else list(served)


def dispute_records(bodies: Iterable[EventBody[Any]], seat: str) -> Iterable[dict[str, Any]]:
    """The envelopes `fold_disputes` reads, straight from a log's events as `seat` is served them (the dispute
    events, redacted by `redact_dispute` as views.serve_event does, and the rulings and undos a ruling makes),
    without folding the game's state."""
    for body in bodies:
        event = body.event
        if isinstance(event, core.DISPUTE_EVENTS):
            yield {"seq": body.seq, "cmd": body.cmd, "type": event.__struct_config__.tag,
                   "event": redact_dispute(event, seat)}
        elif isinstance(event, RULING_EVENTS):
            yield {"seq": body.seq, "cmd": body.cmd, "type": event.__struct_config__.tag, "event": {}}


def open_in(bodies: Iterable[EventBody[Any]]) -> list[int]:
    """The numbers of a log's disputes still awaiting the umpire's ruling (every seat may know them)."""
    return [d.number for d in fold_disputes(dispute_records(bodies, UMPIRE)) if d.status == "open"]
