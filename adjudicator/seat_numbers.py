"""The one place a seat's numbers meet the log's (engine-rules §V.6, design (a)).

The log numbers every event; a seat is never told those numbers, since how many events a command made, and where
among them one was hidden, can depend on a hidden fact. Every number a seat sees is a command number: each command
is public (every seat's export lists them all) and made at least one event (§L.8). `CommandNumbers` maps a command
to the events it made and an event to its command, for the game's commands as the store (or a seat's export) lists
them; every channel that takes a number from a seat or gives one to it goes through it. `per_command` turns the
events as a seat is served them, one by one with the log's numbers, into what it is actually served: one item per
command, linked by the command's first `prev` and last `hash`, holding the events it may see and nothing of the
ones it may not.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

import msgspec

from arbitro.adjudicator.errors import NoSuchEvent
from arbitro.adjudicator.randomness import DiceAudit
from arbitro.events.codec import canonical
from arbitro.events.records import GENESIS
from arbitro.events.store import Annotation


class Command(msgspec.Struct, frozen=True):
    """A command as numbering knows it: its number, seat and hash, and its events' first and last numbers in the log
    (0 and 0 for a command recorded before §L.8 that made none)."""

    cmd: int
    seat: str
    hash: str
    first_seq: int
    last_seq: int


class CommandNumbers:
    """A game's commands, in order, with the log numbers of the events each made."""

    def __init__(self, game_id: str, commands: Iterable[Command]) -> None:
        self.game_id = game_id
        self.commands = sorted(commands, key=lambda c: c.cmd)
        # the last event at or before each command (a command with no event ends where the one before it ended)
        self._ends: list[int] = []
        end = 0
        for c in self.commands:
            end = max(end, c.last_seq)
            self._ends.append(end)
        self._by_cmd = {c.cmd: i for i, c in enumerate(self.commands)}

    def then(self, made: Command) -> CommandNumbers:
        """These numbers with `made`, the command after the head, appended: the lists and dict copied whole (in C), not
        every command walked in Python again as a new build does (issue 15: a submit built them anew, a cost growing
        with the game, ~1 ms a submit late in a 1,700-command game). Another command is built anew, in order."""
        if made.cmd <= self.head and self.commands:
            return CommandNumbers(self.game_id, [*self.commands, made])
        after = CommandNumbers(self.game_id, ())
        after.commands = [*self.commands, made]
        after._ends = [*self._ends, max(self._ends[-1] if self._ends else 0, made.last_seq)]
        after._by_cmd = {**self._by_cmd, made.cmd: len(self.commands)}
        return after

    def from_command(self, cmd: int) -> Iterator[Command]:
        """The commands numbered `cmd` or later, in order (found by bisection: a submit asks for its own alone)."""
        return islice(self.commands, bisect.bisect_left(self.commands, cmd, key=lambda c: c.cmd), None)

    @property
    def head(self) -> int:
        """The last command's number (0: the game's creation alone)."""
        return self.commands[-1].cmd if self.commands else 0

    def check(self, cmd: int) -> None:
        """Refuse a command number the game does not have, in command numbers (a seat's only numbers)."""
        if cmd not in self._by_cmd:
            raise NoSuchEvent(f"game {self.game_id} has commands #0 to #{self.head}; there is no #{cmd}")

    def last_event(self, cmd: int) -> int:
        """The log number of the last event made by command `cmd` or before it (the state after `cmd`)."""
        self.check(cmd)
        return self._ends[self._by_cmd[cmd]]

    def events(self, first: int, last: int | None) -> tuple[int, int]:
        """The log numbers of the events commands `first` to `last` made (`last` None: to the head); an empty range
        (first > last) where no command lies between."""
        last = self.head if last is None else min(last, self.head)
        inside = [i for i, c in enumerate(self.commands) if first <= c.cmd <= last]
        if not inside:
            return 1, 0
        return (self._ends[inside[0] - 1] if inside[0] else 0) + 1, self._ends[inside[-1]]

    def command_of(self, seq: int) -> int:
        """The number of the command that made event `seq` of the log (the state after it is that command's)."""
        i = bisect.bisect_left(self._ends, seq)
        if i == len(self.commands):
            raise NoSuchEvent(f"game {self.game_id} has no event #{seq}")
        return self.commands[i].cmd


def per_command(numbers: CommandNumbers, served: Iterable[dict[str, Any]], first: int = 0,
                last: int | None = None) -> list[dict[str, Any]]:
    """What a seat is served of commands `first` to `last`: one item per command, from the events it is served one by
    one (views.serve_event: a `hidden` placeholder for each it may not see), in log order. An item is numbered as its
    command (`cmd`), names its seat and hash, is linked by its first event's `prev` and its last event's `hash`, and
    holds the events the seat may see, each its `type` and `event` alone: no number, link or salt of its own, which
    would tell where a hidden event lay, or let a seat test how many lay before it by hashing (their content is bound
    by the seat's seal, and checkable against the item's links once the full log is published)."""
    by_cmd: dict[int, list[dict[str, Any]]] = {}
    for event in served:
        by_cmd.setdefault(event["cmd"], []).append(event)
    last = numbers.head if last is None else last
    items: list[dict[str, Any]] = []
    link = GENESIS  # a command recorded before §L.8 with no event is linked where the one before it ended
    # Before the first command asked or served none makes an item or moves the link, after the last none makes an item:
    # only those between are walked (issue 15: a submit asks for its own command alone, a game has thousands).
    beyond = max(last, max(by_cmd, default=last))
    for c in numbers.from_command(min(first, min(by_cmd, default=first))):
        if c.cmd > beyond:
            break
        events = by_cmd.get(c.cmd, [])
        if first <= c.cmd <= last:
            item = {"seq": c.cmd, "cmd": c.cmd, "seat": c.seat, "cmd_hash": c.hash, "prev": events[0]["prev"] if events else link,
                    "hash": events[-1]["hash"] if events else link,
                    "events": [{"type": e["type"], "event": _renumbered(numbers, e)}
                               for e in held(e.get("event") for e in events)]}
            items.append(msgspec.json.decode(canonical(item)))
        link = events[-1]["hash"] if events else link
    return items


def audited(numbers: CommandNumbers, audit: DiceAudit) -> DiceAudit:
    """The dice audit (randomness.audit_dice) as a seat is served it: each waiver and re-roll numbered by the command
    that made it, and a re-roll's `to_seq` by the last command its undo keeps, as an undo's own `to_seq` is
    (_renumbered); the log's numbers would tell the seat how many events the commands before made."""
    return msgspec.structs.replace(
        audit, waivers=[msgspec.structs.replace(w, seq=_command(numbers, w.seq)) for w in audit.waivers],
        rerolls=[msgspec.structs.replace(r, seq=_command(numbers, r.seq), to_seq=_command(numbers, r.to_seq))
                 for r in audit.rerolls])


def noted(numbers: CommandNumbers, notes: Iterable[Annotation], first: int = 0,
          last: int | None = None) -> list[Annotation]:
    """The notes a seat reads on commands `first` to `last` (default: to the head), in order: each numbered by the
    command whose event it is on, its chain digests (`at_hash`, `prev`, `hash`) withheld. A note's hash covers the
    log's number of its event, and every other field it covers the seat reads (its `prev` is the hash of the note
    before it, which covers that one's number): hashing each candidate number, the seat would learn how many events
    the commands before made. And `at_hash`, the hash of one event of a command, tells whether the note is on the
    command's last event (its item's `hash`) or on one before it (engine-rules §V.6). A seat's export binds the notes
    it holds by its seal; their chains are checkable with the full log."""
    last = numbers.head if last is None else last
    served: list[Annotation] = []
    for note in notes:
        cmd = numbers.command_of(note.seq)
        if first <= cmd <= last:
            served.append(msgspec.structs.replace(without_digests(note), seq=cmd))
    return served


def without_digests(note: Annotation) -> Annotation:
    """A note without its chain digests, which a seat is not served (`noted` says why)."""
    return msgspec.structs.replace(note, at_hash="", prev="", hash="")


STUB_KEYS = frozenset({"type", "rule", "hidden"})


def is_stub(event: dict[str, Any]) -> bool:
    """Whether a served event says only that an event of its type happened under its rule, about pieces the seat may
    not know (a ruleset's redaction: `{"type", "rule", "hidden"}`, as Arrivano serves a move or an order of a
    unit it may not examine, arrivano §11.3.2): its `hidden` the game's fog marker, `true` or words (Caldiero's
    "fog of war (caldiero §20.4)"), never empty."""
    return bool(event.get("hidden")) and set(event) <= STUB_KEYS


def held(events: Iterable[dict[str, Any] | None]) -> list[dict[str, Any]]:
    """What a seat's item holds of its command's events, each as redacted for the seat (None: not shown at all):
    those it may see, in order, then each kind of stub (is_stub) once, sorted by (type, rule), after them all. How
    many events a command made about pieces the seat may not know, and where they lay among those it may see, can be
    a hidden fact (Arrivano's free order under `dangling_4_3_2: caldiero_4_3_1`: one `unit_order_set` per unit out of
    command, in unit order, arrivano §4.4), so a seat is told that some were made, not how many nor where (engine-rules
    §V.6)."""
    shown = [e for e in events if e is not None]
    stubs = {(e["type"], e.get("rule", "")): e for e in shown if is_stub(e)}
    return [e for e in shown if not is_stub(e)] + [stubs[kind] for kind in sorted(stubs)]


# The events whose content names events of the log by number: served to a seat, each names the command instead (the
# command that made the event; so an undo's `to_seq` names the last command it keeps, a fork's `at` the command it
# forked after, a dispute's `about` and `cites` the commands disputed and cited). The engine reads the numbers a seat
# sends as commands too (log_points.Points, as the engine is below this module): so a seat reads its own message's
# numbers as it sent them.
NUMBERED_FIELDS: dict[str, tuple[str, ...]] = {"undone": ("to_seq",), "undo_requested": ("to_seq",),
                                               "game_forked": ("at",), "dispute_opened": ("about",),
                                               "dispute_replied": ("cites",)}
# A dispute message's evidence (arbitro §D.7): the number each kind of reference names, and what a seat is not served
# of it (a note's hash covers the log's number of the note's event, seat_numbers.noted).
EVIDENCE_NUMBERS: dict[str, str] = {"note": "seq", "position": "at"}
EVIDENCE_DIGESTS = ("hash",)


def _renumbered(numbers: CommandNumbers, event: dict[str, Any]) -> dict[str, Any]:
    """`event` (as served) with the log's numbers in its content (NUMBERED_FIELDS, a dispute message's evidence)
    turned into command numbers; a field withheld from the seat (a string, not numbers) stays as served. A list names
    each command once: two events of one command would tell the seat that it made two."""
    renamed = dict(event)
    for name in NUMBERED_FIELDS.get(event.get("type", ""), ()):
        value = event.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            renamed[name] = _command(numbers, value)
        elif isinstance(value, (list, tuple)):
            renamed[name] = list(dict.fromkeys(_command(numbers, v) if isinstance(v, int) else v for v in value))
    if isinstance(event.get("evidence"), (list, tuple)):
        renamed["evidence"] = [_cited(numbers, ref) for ref in event["evidence"]]
    return renamed


def _command(numbers: CommandNumbers, seq: int) -> int:
    return numbers.command_of(seq) if seq else 0


def _cited(numbers: CommandNumbers, ref: dict[str, Any]) -> dict[str, Any]:
    """One reference of a dispute message's evidence as a seat is served it: its point by command, no digest."""
    field = EVIDENCE_NUMBERS.get(ref.get("kind", ""))
    if field is None:
        return ref
    return {**{k: v for k, v in ref.items() if k not in EVIDENCE_DIGESTS}, field: _command(numbers, ref[field])}


def numbered_disputes(numbers: CommandNumbers, records: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    """The envelopes a seat's disputes are folded from (projections/disputes.dispute_records), each message numbered
    by its command, as the seat's log serves it, with its content's numbers by command (`_renumbered`)."""
    for record in records:
        yield {**record, "seq": record["cmd"], "event": _renumbered(numbers, record["event"])}


def events_of(served: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Served records one event each, for a reader that looks for events (a picture's last move, a report's turns):
    the umpire's as they are, a seat's items opened into their events, each numbered, as all a seat sees is, by its
    command (`seq`, `cmd`, `seat` of the item, its `type` and `event`)."""
    events: list[dict[str, Any]] = []
    for record in served:
        if "events" not in record:
            events.append(record)
            continue
        head = {"seq": record["seq"], "cmd": record["cmd"], "seat": record["seat"]}
        events += [{**head, **event} for event in record["events"]]
    return events
