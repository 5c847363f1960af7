"""The command translator of Arrivano's retreats that now wait for their owner, for `bench.drivers.relog --translate`.

    python -m bench.drivers.relog --translate bench.drivers.translate_retreat_wait:translate logs/arrivano-*.jsonl

Up to 1.41.0 a forced retreat (arrivano §12.6) or an end-phase rout move (§15.2.2) with one lawful answer was made
for its owner without waiting. Its lines end only where the stack fits (§7.1, §12.6.2), on the owner's stacks the
enemy may not examine (§11.3.2), and every seat is served which seat the game awaits, so the wait told the enemy
whether an unseen hex was full (rev-j R-j-10). Now the game waits for the owner wherever more than one line starts
whatever the stacks (retreats.asks_owner). A recorded game played on without that wait: the owner took the one
answer, so it is inserted, sent by the seat asked, before the recorded command that follows. Every recorded command
is kept as it was; one that answers the question is left to answer it.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.service import Arbitro

Played = list[tuple[str, dict[str, Any]]]
WAITING = ("retreat", "rout_move")  # the kinds that now wait where they settled by themselves


def translate(app: Arbitro, game: str, seat: str, command: dict[str, Any]) -> Played:
    awaited = app.awaiting(game)
    if awaited.kind not in WAITING or command.get("type") == awaited.kind:
        return [(seat, command)]
    owner = awaited.seats[0]
    only = [o for o in app.legal(game, owner) if o.get("type") == awaited.kind]
    assert len(only) == 1, f"a {awaited.kind} the recorded game did not wait for has one answer: {only}"
    return [(owner, only[0]), (seat, command)]  # waited now: its one answer
