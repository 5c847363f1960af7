"""The command translator of Arrivano's retreats that now wait for their owner, for `bench.drivers.relog --translate`.

    python -m bench.drivers.relog --translate bench.drivers.translate_retreat_wait:translate logs/arrivano-*.jsonl

Up to 1.41.0 a forced retreat (arrivano §12.6) or an end-phase rout move (§15.2.2) with one lawful answer was made
for its owner without waiting. Its lines end only where the stack fits (§7.1, §12.6.2), on the owner's stacks the
enemy may not examine (§11.3.2), and every seat is served which seat the game awaits, so the wait told the enemy
whether an unseen hex was full (rev-j R-j-10). Now the game waits for the owner wherever more than one line starts
whatever the stacks (retreats.asks_owner). A recorded game played on without that wait: the owner took the one
answer, so it is inserted, sent by the seat asked, before the recorded command that follows. Every recorded command
is kept as it was; one that answers the question is left to answer it.

Since the fifteenth session (fog15a) a replacement's placement (§12.8.2) left with one hex, and a fall back after an
open-order fire (§16.3) left with none, wait the same way wherever a hex whose stack decides it (around the
commander, around the unit) is out of the enemy's sight (arrivano/steps.asks_owner); a fall back after a move always,
and a lone commander's refuge (§4.5.4) left with one hex wherever he stands out of the enemy's sight.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from arbitro.adjudicator.service import Arbitro

# the kinds that now wait where they settled by themselves (or were not asked); each is answered by its own type
WAITING = frozenset({"retreat", "rout_move", "replacement_hex", "fall_back", "commander_refuge"})


def translate(app: Arbitro, game: str, seat: str, command: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Before the recorded command, the one answer of each decision now awaited that the recorded game did not wait
    for (several may wait in turn: a turn's replacements, §12.8.2), then the command (a generator: each pair is
    asked for after the one before was submitted)."""
    while (awaited := app.awaiting(game)).kind in WAITING and command.get("type") != awaited.kind:
        owner = awaited.seats[0]
        only = [o for o in app.legal(game, owner) if o.get("type") == awaited.kind]
        assert len(only) == 1, f"a {awaited.kind} the recorded game did not wait for has one answer: {only}"
        yield owner, only[0]  # waited now: its one answer
    yield seat, command
