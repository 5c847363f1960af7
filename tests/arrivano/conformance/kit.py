"""Arrivano i Francesi!'s conformance kit: the Para Bellum kit (tests/parabellum/conformance_kit.py) with Arrivano's
files, page header and positions.

    python -m tests.arrivano.conformance.kit      # rewrites positions/ and docs/conformance/arrivano.md
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.arrivano.harness import at_step, position
from tests.parabellum import conformance_kit
from tests.parabellum.conformance_kit import Kit, Step, header

__all__ = ["Case", "KIT", "Step"]

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Case(conformance_kit.Case):
    POSITIONS = HERE / "positions"


def build(case: conformance_kit.Case) -> Any:
    state = position(dict(case.units), leaders=dict(case.leaders), scenario=case.scenario or "montebello",
                     orders=dict(case.orders), turn=case.turn, weather=case.weather or None)
    state.options = list(case.options)
    return at_step(state, case.active, case.step).state if case.active else state


HEADER = header(
    "Arrivano i Francesi!", "arrivano", "arrivano-i-francesi.it.md",
    "Positions use the shipped (provisional) Montebello map and counters of `adjudicator/arrivano/data/`: around "
    "1004 the ground is clear, level and roadless; 6e-legere-i and -ii are 5 SP, efficiency 4; ir18-i and -ii 5 SP, "
    "efficiency 3; ir40-ii-iii 8 SP; mariassy-jager 2 SP with no reduced side; bussy is 2 SP cavalry.",
    "`adjudicator/arrivano/data/`")

KIT = Kit("arrivano", "montebello", HERE.parents[2] / "docs" / "conformance" / "arrivano.md", HEADER, build)

if __name__ == "__main__":
    from tests.arrivano.conformance.cases import CASES

    KIT.write(CASES)
