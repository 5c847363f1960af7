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
from tests.parabellum.conformance_kit import Kit, Step

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


HEADER = """# Arrivano i Francesi!: conformance cases

The public promise a rules lawyer checks (issue 19 point 17, the DATC model): each case is a position, one or more
commands with the dice rolled, and the outcome the rulebook (`shared/rules/arrivano-i-francesi.it.md`) prescribes,
with its citation and, where the text is ambiguous, the interpretation it assumes (docs/rulesets/arrivano.md,
Interpretations). They are written from the rulebook, not from the code: a case the code fails is a defect, marked
here as a known failure until fixed. Every case is a test (tests/arrivano/conformance/test_cases.py) run from its
position file, which a user can load and play with the same dice as a transcribed game:
`arbitro new arrivano --position tests/arrivano/conformance/positions/case-NN.json --transcribed`, then each roll is
entered by the umpire (`{"type": "enter_random", "values": [4]}`, arbitro §R.4). "Rolling 4, 6" lists the rolls in
the order the game asks for them. Only the pieces named are on the map; every other one is off it. Positions use
the shipped (provisional) Montebello map and counters of `adjudicator/arrivano/data/`: around 1004 the ground is
clear, level and roadless; 6e-legere-i and -ii are 5 SP, efficiency 4; ir18-i and -ii 5 SP, efficiency 3;
ir40-ii-iii 8 SP; mariassy-jager 2 SP with no reduced side; bussy is 2 SP cavalry.

The rulebook does not print the combat and bombardment tables: the result a roll gives (\"a 4 gives Ex\") comes from
the provisional reconstruction in `adjudicator/arrivano/data/`; what a result then does is the rulebook's, and that is
what these cases check.

Rewrite this page and the position files with `python -m tests.arrivano.conformance.kit`.
"""

KIT = Kit("arrivano", "montebello", HERE.parents[2] / "docs" / "conformance" / "arrivano.md", HEADER, build)

if __name__ == "__main__":
    from tests.arrivano.conformance.cases import CASES

    KIT.write(CASES)
