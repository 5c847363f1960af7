"""The command translator of Arrivano's retreat before combat asked whatever the cavalry's order, for
`bench.drivers.relog --translate`.

    python -m bench.drivers.relog --translate bench.drivers.translate_cavalry_order:translate logs/arrivano-*.jsonl

Up to 1.41.0 an assault by infantry asked the defending cavalry whether to retreat before combat (arrivano §14.1)
only where it had a Manoeuvre or Defence order; its order hangs on its command, so on where its general stands,
which the attacker may not examine (§11.3.2), and the attacker is served whether the question opens (fog14). Now
the question opens whatever the order, and cavalry without Manoeuvre or Defence may only stay. A recorded game played
on without the question: the cavalry stayed, so the question now opened is answered "stay" (`to` null) by the seat it
asks, before the recorded command that follows (the game as played). Every recorded command is kept as it was; one
that answers a cavalry retreat is left to answer it.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.service import Arbitro

Played = list[tuple[str, dict[str, Any]]]
STAY = {"type": "cavalry_retreat", "to": None, "units": None, "off_map": False}


def translate(app: Arbitro, game: str, seat: str, command: dict[str, Any]) -> Played:
    awaited = app.awaiting(game)
    if awaited.kind != "cavalry_retreat" or command.get("type") == "cavalry_retreat":
        return [(seat, command)]
    return [(awaited.seats[0], STAY), (seat, command)]  # asked now: the cavalry stayed
