"""The command translator of the efficiency tie asked by the kernel (twenty-first session, issue 18), for
`bench.drivers.relog --translate`.

    python -m bench.drivers.relog --translate bench.drivers.translate_efficiency:translate logs/caldiero-*.jsonl

Up to the twenty-first session Caldiero's attacker named his side's efficiency value on a tie (§12.3.1) in the
Attack command (`efficiency`, null for the best), checked against the attackers named at the declaration, and only
the defender was asked (`defender_efficiency`, answered `efficiency_value {value}`). The kernel now asks each side
whose values tie among the units that fight, the attacker first, at the start of the combat (§12.3 "All'inizio di
un combattimento", parabellum/assault_stages.efficiency_values): the Attack command has no `efficiency`, and the
attacker answers `efficiency_value {value}` as the defender always did. A recorded attack loses the field; the
attacker's question, where this build asks it, is answered with the value the attack named if it is one of the
values listed, else the best of them (what a value no longer tied, or none named, meant: efficiency.in_use). The
defender's recorded answer answers the kernel's question, asked at the same point. Every other command is kept.
Once only: a log already translated holds the attacker's answer, which this would insert again (refused by relog);
relog it without `--translate`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from arbitro.adjudicator.parabellum.assault_stages import EFFICIENCY_VALUE
from arbitro.adjudicator.service import Arbitro


class EfficiencyTranslator:
    """One log at a time (`start` forgets the last log's attack)."""

    def __init__(self) -> None:
        self.attack: tuple[str, int | None] | None = None  # the last attack's seat and the value it named

    def start(self, records: list[dict[str, Any]]) -> None:
        self.attack = None

    def __call__(self, app: Arbitro, game: str, seat: str,
                 command: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
        if command.get("type") == "attack":
            self.attack = (seat, command.get("efficiency"))
            command = {k: v for k, v in command.items() if k != "efficiency"}
        yield seat, command
        while self.attack is not None and self._asked(app, game, self.attack[0]):
            attacker, named = self.attack
            values = [o["value"] for o in app.legal(game, attacker) if o.get("type") == EFFICIENCY_VALUE]
            yield attacker, {"type": EFFICIENCY_VALUE, "value": named if named in values else values[-1]}

    @staticmethod
    def _asked(app: Arbitro, game: str, attacker: str) -> bool:
        """Whether the attacker's efficiency question is awaited (the defender's goes to the other seat)."""
        awaited = app.awaiting(game)
        return awaited.kind == EFFICIENCY_VALUE and awaited.seats == [attacker]


translate = EfficiencyTranslator()
