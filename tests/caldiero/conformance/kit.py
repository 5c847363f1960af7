"""Caldiero 1796's conformance kit: the Para Bellum kit (tests/parabellum/conformance_kit.py) with Caldiero's files,
page header and positions.

    python -m tests.caldiero.conformance.kit      # rewrites positions/ and docs/conformance/caldiero.md
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.caldiero.harness import activate, position
from tests.parabellum import conformance_kit
from tests.parabellum.conformance_kit import Kit, Step, header

__all__ = ["Case", "KIT", "Step"]

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Case(conformance_kit.Case):
    POSITIONS = HERE / "positions"


def build(case: conformance_kit.Case) -> Any:
    state = position(dict(case.units), leaders=dict(case.leaders), orders=dict(case.orders), weather=case.weather,
                     turn=case.turn, options=case.options)
    return activate(state, case.active, step=case.step).state if case.active else state


HEADER = header(
    "Caldiero 1796", "caldiero", "caldiero-1796.it.md",
    "Positions use the shipped (provisional) map and counters of `adjudicator/caldiero/data/`: the plain north of "
    "the road around 1417 is clear ground; fr-18-ligne and fr-40-ligne are 6 SP, efficiency 4; au-mahoney-jager 2 "
    "SP; Massena's efficiency bonus is +3 to units in his hex or next to it (§13.2).",
    "`adjudicator/caldiero/data/crt.json`")

KIT = Kit("caldiero", "historical", HERE.parents[2] / "docs" / "conformance" / "caldiero.md", HEADER, build)

if __name__ == "__main__":
    from tests.caldiero.conformance.cases import CASES

    KIT.write(CASES)
