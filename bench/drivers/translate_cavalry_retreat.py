"""The command translator of Caldiero 0.34.0's cavalry retreat before combat, for `bench.drivers.relog --translate`.

    python -m bench.drivers.relog --translate bench.drivers.translate_cavalry_retreat:translate logs/caldiero-*.jsonl

Up to 0.33.0 the assault asked defending cavalry whether to retreat before combat (caldiero §14.1) even where every
hex it could retreat to was one where it may not stand (§7.1: cavalry with infantry), offering those hexes; since
0.34.0 it is asked only where a lawful hex exists (system_assault.cavalry_retreat_hexes). A recorded answer to that
question when this build no longer asks it was a `decline` (the same game: the cavalry stayed): it is dropped. An
answer naming a hex this build refuses would be another game: the translation stops there. Every other command is
kept as it was (a `decline` of another question, a defensive fire's, included: which question a `decline` answered is
read from the recorded events, `start`).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from arbitro.adjudicator.service import Arbitro

Played = list[tuple[str, dict[str, Any]]]
CAVALRY_RETREAT = "cavalry_retreat"


class CavalryRetreatTranslator:
    """One log at a time (relog calls `start` with each file's records first); `kind`: the question no longer asked
    (its answers' command type too; translate_fire_asked.py names the defensive fire's)."""

    def __init__(self, kind: str = CAVALRY_RETREAT, why: str = "caldiero §7.1, §14.1") -> None:
        self.kind, self.why = kind, why
        self.answered: deque[str] = deque()  # for each recorded command: the kind of decision it answered, or ""

    def start(self, records: list[dict[str, Any]]) -> None:
        resolved = {r["body"]["seq"]: r["body"]["event"]["kind"] for r in records
                    if r["record"] == "event" and r["body"]["event"].get("type") == "decision_resolved"}
        commands = sorted((r for r in records if r["record"] == "command" and r["cmd"] > 0), key=lambda r: r["cmd"])
        self.answered = deque(next((resolved[s] for s in range(r["first_seq"], r["last_seq"] + 1) if s in resolved), "")
                              for r in commands)

    def __call__(self, app: Arbitro, game: str, seat: str, command: dict[str, Any]) -> Played:
        if self.answered.popleft() != self.kind:
            return [(seat, command)]
        listed = app.legal(game, seat)
        if any(o["type"] == self.kind for o in listed):
            return [(seat, command)]  # still asked: the answer stands (refused by relog if no longer lawful)
        if command.get("type") != "decline":
            raise SystemExit(f"{game}: the {self.kind.replace('_', ' ')} {command} is no longer asked ({self.why})")
        return []  # the question it declined is no longer asked


translate = CavalryRetreatTranslator()
