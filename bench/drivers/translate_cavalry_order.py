"""The command translator of Arrivano's cavalry questions asked whatever the cavalry's order, for
`bench.drivers.relog --translate`.

    python -m bench.drivers.relog --translate bench.drivers.translate_cavalry_order:translate logs/arrivano-*.jsonl

Up to 1.41.0 an assault by infantry asked the defending cavalry whether to retreat before combat (arrivano §14.1)
only where it had a Manoeuvre or Defence order, and a charge asked the lone enemy cavalry beside its path whether to
counter-charge (§14.2.4) only where it had a Defence order. An order hangs on its command, so on where its general
stands, which the mover may not examine (§11.3.2), and the mover is served whether the question opens (fog14). Now
both questions open whatever the order, and cavalry without the order may only stay, or decline. A recorded game
played on without the question: the cavalry stayed or let the charge by, so the question now opened is answered so
by the seat it asks (`cavalry_retreat` with `to` null, `countercharge` with `unit` null), before the recorded
command that follows (the game as played). Every recorded command is kept as it was; one that answers the question
is left to answer it.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.service import Arbitro

Played = list[tuple[str, dict[str, Any]]]
# the answer that lets the game go on as recorded, by the question's kind
STAYED: dict[str, dict[str, Any]] = {
    "cavalry_retreat": {"type": "cavalry_retreat", "to": None, "units": None, "off_map": False},
    "countercharge": {"type": "countercharge", "unit": None},
}


def translate(app: Arbitro, game: str, seat: str, command: dict[str, Any]) -> Played:
    awaited = app.awaiting(game)
    if awaited.kind not in STAYED or command.get("type") == awaited.kind:
        return [(seat, command)]
    return [(awaited.seats[0], STAYED[awaited.kind]), (seat, command)]  # asked now: the cavalry stayed
