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
from tests.parabellum.conformance_kit import Kit, Step

__all__ = ["Case", "KIT", "Step"]

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Case(conformance_kit.Case):
    POSITIONS = HERE / "positions"


def build(case: conformance_kit.Case) -> Any:
    state = position(dict(case.units), leaders=dict(case.leaders), orders=dict(case.orders), weather=case.weather,
                     turn=case.turn, options=case.options)
    return activate(state, case.active, step=case.step).state if case.active else state


HEADER = """# Caldiero 1796: conformance cases

The public promise a rules lawyer checks (issue 19 point 17, the DATC model): each case is a position, one or more
commands with the dice rolled, and the outcome the rulebook (`shared/rules/caldiero-1796.it.md`) prescribes, with
its citation and, where the text is ambiguous, the interpretation it assumes (docs/rulesets/caldiero.md,
Interpretations). They are written from the rulebook, not from the code: a case the code fails is a defect, marked
here as a known failure until fixed. Every case is a test (tests/caldiero/conformance/test_cases.py) run from its
position file, which a user can load and play with the same dice as a transcribed game:
`arbitro new caldiero --position tests/caldiero/conformance/positions/case-NN.json --transcribed`, then each roll is
entered by the umpire (`{"type": "enter_random", "values": [4]}`, arbitro §R.4). "Rolling 4, 6" lists the rolls in
the order the game asks for them. Only the pieces named are on the map; every other one is off it. Positions use
the shipped (provisional) map and counters of `adjudicator/caldiero/data/`: the plain north of the road around
1417 is clear ground; fr-18-ligne and fr-40-ligne are 6 SP, efficiency 4; au-mahoney-jager 2 SP; Massena's
efficiency bonus is +3 to units in his hex or next to it (§13.2).

The rulebook does not print the combat and bombardment tables: the result a roll gives (\"a 4 gives Ex\") comes from
the provisional reconstruction in `adjudicator/caldiero/data/crt.json`; what a result then does is the rulebook's, and that is
what these cases check.

Rewrite this page and the position files with `python -m tests.caldiero.conformance.kit`.
"""

KIT = Kit("caldiero", "historical", HERE.parents[2] / "docs" / "conformance" / "caldiero.md", HEADER, build)

if __name__ == "__main__":
    from tests.caldiero.conformance.cases import CASES

    KIT.write(CASES)
