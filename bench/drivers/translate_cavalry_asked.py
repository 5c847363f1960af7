"""The command translator of Caldiero's one-hex retreat before combat ranked among lawful ends, for
`bench.drivers.relog --translate`.

    python -m bench.drivers.relog --translate bench.drivers.translate_cavalry_asked:translate logs/caldiero-*.jsonl

Under the reading `retreat_before_combat_length` `one_hex` (caldiero §14.1 "possono ritirarsi di un esagono"), the
hex by hex lines (§12.6) used to be chosen among every neighbour, full or not, and the lines ending in a full hex
then dropped: where the hexes behind the cavalry were full and its flanks free (in the attacker's ZoC, §12.6.1), it
was not asked. Now the lines are ranked among hexes where it may lawfully stand (§7.1), and it is asked with the
flanks. A recorded game played on without the question: the cavalry stayed, so the question now opened is answered
`decline` by the seat it asks, before the recorded command that follows (the game as played). The inverse of
translate_cavalry_retreat.py. Every recorded command is kept as it was; one that answered a cavalry retreat (read
from the recorded events, `start`) is left to answer it.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.service import Arbitro
from bench.drivers.translate_cavalry_retreat import CAVALRY_RETREAT, CavalryRetreatTranslator, Played


class CavalryAskedTranslator(CavalryRetreatTranslator):
    """One log at a time; which question each recorded command answered is read as the inverse translator reads it
    (`start`)."""

    def __call__(self, app: Arbitro, game: str, seat: str, command: dict[str, Any]) -> Played:
        if self.answered.popleft() == CAVALRY_RETREAT:
            return [(seat, command)]  # the recorded game was asked too: its answer stands
        awaited = app.awaiting(game)
        if awaited.kind != CAVALRY_RETREAT:
            return [(seat, command)]
        return [(awaited.seats[0], {"type": "decline"}), (seat, command)]  # asked now: the cavalry stayed


translate = CavalryAskedTranslator()
