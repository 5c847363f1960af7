"""The command translator of Arrivano's B-6 begun by a try, for `bench.drivers.relog --translate`.

    python -m bench.drivers.relog --translate bench.drivers.translate_recovery_begun:translate logs/arrivano-*.jsonl

Up to 1.42.0 the combat step's `end_step` opened the recovery question (arrivano §3.1 B-6, §15.3) only where a stack
could try, and closed it by itself once none was left: every seat is served which seat the game awaits, so the wait
told the enemy whether an unseen unit was disordered or routed (rev-k K2). Now the combat step lists the tries
itself: the owner's first `recover` ends the step and begins B-6, after which he is asked again whatever is left;
`end_step` ends the activation with no try. A recorded game is the same game in the new words:
- an `end_step` followed by a recorded try is dropped (the try ends the step);
- an `end_step` followed by a recorded `recover` of no hex (the owner declined) is kept, and the decline dropped;
- where the recorded game closed B-6 by itself (no stack left), the owner's decline is inserted.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from arbitro.adjudicator.service import Arbitro

Played = list[tuple[str, dict[str, Any]]]
RECOVER = "recover"


class RecoveryTranslator:
    """One log at a time (relog calls `start` with each file's records first)."""

    def __init__(self) -> None:
        self.following: deque[dict[str, Any] | None] = deque()  # for each recorded command: the one after it

    def start(self, records: list[dict[str, Any]]) -> None:
        commands = [r["body"]["command"] for r in sorted((r for r in records if r["record"] == "command" and r["cmd"] > 0),
                                                        key=lambda r: r["cmd"])]
        self.following = deque([*commands[1:], None])

    def __call__(self, app: Arbitro, game: str, seat: str, command: dict[str, Any]) -> Played:
        after = self.following.popleft()
        played: Played = []
        awaited = app.awaiting(game)
        if awaited.kind == "recovery" and command.get("type") != RECOVER:  # B-6 closed by itself in the recorded game
            played.append((awaited.seats[0], {"type": RECOVER, "hex": None}))
        elif awaited.kind != "recovery" and command == {"type": RECOVER, "hex": None}:
            return []  # the decline of a question no longer asked: its `end_step` ended the activation
        if command.get("type") == "end_step" and after is not None and after.get("type") == RECOVER and \
                after.get("hex") is not None:
            return played  # the try that follows ends the combat step
        return [*played, (seat, command)]


translate = RecoveryTranslator()
