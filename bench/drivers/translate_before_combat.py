"""The command translator of Caldiero's retreat before combat written once in the kernel (twentieth session), for
`bench.drivers.relog --translate`.

    python -m bench.drivers.relog --translate bench.drivers.translate_before_combat:translate logs/caldiero-*.jsonl

Up to the twentieth session Caldiero asked all the defending cavalry of an assault at once, one unit an answer
(`{type: cavalry_retreat, unit, to}`), `decline` leaving every one in place. The kernel's procedure
(parabellum/before_combat.py, §14.1 in both books) asks hex by hex of the assaulted hexes, in Arrivano's shape
(`{type: cavalry_retreat, to, units, off_map}`, `to` null to stay). A recorded `decline` of that question is the
same game as staying in every hex: it becomes the stay, and the stay again for each further hex of the same assault
the build then asks. A recorded retreat (none in the shipped logs) would be `{to, units: [unit]}`. Which question a
recorded command answered is read from the recorded events (translate_cavalry_retreat's `start`); every other
command is kept as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from arbitro.adjudicator.parabellum.before_combat import CAVALRY_RETREAT, STAY
from arbitro.adjudicator.service import Arbitro
from bench.drivers.translate_cavalry_retreat import CavalryRetreatTranslator


class BeforeCombatTranslator(CavalryRetreatTranslator):
    """One log at a time (`start` reads which question each recorded command answered)."""

    def __call__(self, app: Arbitro, game: str, seat: str,
                 command: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
        if self.answered.popleft() != CAVALRY_RETREAT:
            yield seat, command
            return
        if command.get("type") != "decline":  # a retreat: the one unit it named, its line's end
            yield seat, {"type": CAVALRY_RETREAT, "to": command["to"], "units": [command["unit"]], "off_map": False}
            return
        yield seat, dict(STAY)
        while (awaited := app.awaiting(game)) is not None and awaited.kind == CAVALRY_RETREAT:
            yield awaited.seats[0], dict(STAY)  # another hex of the assault the recorded decline left in place too


translate = BeforeCombatTranslator()
