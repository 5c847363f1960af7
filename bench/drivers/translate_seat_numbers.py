"""The command translator of a seat's numbers (engine-rules §V.6): a seat's `undo` `to` (since 99c771c) and the
numbers of its dispute messages (since 648f8d6: `about`, `cites`, a cited position's `at`, a cited note's `seq`)
name its commands, where they named the log's events before. Each recorded number of a seat's is turned into the
command that made that event (the recorded file's command lines give each command's events), and a note cited whole
loses the hash a seat no longer sends (it covers the log's number of the note's event). The umpire's commands are
kept as they were: its numbers are still the log's.

    python -m bench.drivers.relog --translate bench.drivers.translate_seat_numbers:translate LOG.jsonl

relog plays commands again, not notes: a message citing a note is refused there (the note is not in the replay), so
a log whose seats cite notes is translated, then imported with its notes by hand, or forked before the message."""

from __future__ import annotations

import bisect
from typing import Any

from arbitro.adjudicator.service import Arbitro
from arbitro.projections.base import UMPIRE

DISPUTE_MESSAGES = ("dispute_open", "dispute_reply")  # a seat's (the ruling is the umpire's)
EVIDENCE_NUMBERS = {"note": "seq", "position": "at"}


class SeatNumbersTranslator:
    """One log at a time (relog calls `start` with each file's records first)."""

    def __init__(self) -> None:
        self.ends: list[int] = []  # the last event of each command that made one, in order
        self.cmds: list[int] = []  # that command's number

    def start(self, records: list[dict[str, Any]]) -> None:
        commands = sorted((r for r in records if r["record"] == "command" and r.get("last_seq")),
                          key=lambda r: r["cmd"])
        self.ends, self.cmds = [r["last_seq"] for r in commands], [r["cmd"] for r in commands]

    def command_of(self, seq: int) -> int:
        """The command that made event `seq` of the recorded log."""
        return self.cmds[bisect.bisect_left(self.ends, seq)]

    def __call__(self, app: Arbitro, game: str, seat: str, command: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        if seat == UMPIRE:
            return [(seat, command)]
        if command.get("type") == "undo":
            return [(seat, {**command, "to": self.command_of(command["to"])})]
        if command.get("type") not in DISPUTE_MESSAGES:
            return [(seat, command)]
        numbered = dict(command)
        for field in ("about", "cites"):
            if field in command:
                numbered[field] = [self.command_of(n) for n in command[field]]
        numbered["evidence"] = [self._cited(ref) for ref in command.get("evidence", [])]
        return [(seat, numbered)]

    def _cited(self, ref: dict[str, Any]) -> dict[str, Any]:
        field = EVIDENCE_NUMBERS.get(ref.get("kind", ""))
        if field is None or field not in ref:
            return ref
        return {**{k: v for k, v in ref.items() if k != "hash"}, field: self.command_of(ref[field])}


translate = SeatNumbersTranslator()
