"""The conformance kit: a case as data (position, commands with the dice rolled on the table, expected outcome), its
position file, its page in docs/conformance/caldiero.md, and the runner that plays it through the service
(tests/played_cases.py: a transcribed game, every roll entered by the umpire in the order the case lists it).

    python -m tests.caldiero.conformance.kit      # rewrites positions/ and docs/conformance/caldiero.md
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from arbitro.adjudicator.creation import POSITION_FORMAT
from tests import numbered_cases as NC
from tests import played_cases
from tests.caldiero.harness import activate, position
from tests.played_cases import Played, Step, check, step_text

HERE = Path(__file__).resolve().parent
POSITIONS = HERE / "positions"
DOC = HERE.parents[2] / "docs" / "conformance" / "caldiero.md"


@dataclass(frozen=True)
class Case:
    n: int
    section: str
    title: str
    rule: str  # the citation the expected outcome rests on
    units: dict[str, str]  # the combat units on the map (unit -> hex); every other unit is off it
    steps: tuple[Step, ...]
    expect: dict[str, Any]  # what must hold after the steps (tests/played_cases.check)
    outcome: str  # the expected outcome, in words, for the document
    leaders: dict[str, str] = field(default_factory=dict)  # the leaders on the map
    orders: dict[str, str] = field(default_factory=dict)  # formation -> order (every other: defence)
    active: str = ""  # the formation whose activation is under way (its side to act)
    step: str = "movement"  # the activation's sub-phase
    weather: int = 0
    turn: int = 2
    options: tuple[str, ...] = ()
    fields: dict[str, Any] = field(default_factory=dict)  # other state fields: {"units.x.status": "disordered"}
    interpretations: dict[str, str] = field(default_factory=dict)
    reading: str = ""  # the interpretation the case assumes where the text is ambiguous
    xfail: str = ""  # a known failure: the code disagrees with the rulebook (the reason)

    @property
    def file(self) -> Path:
        return POSITIONS / f"case-{self.n:02d}.json"


def _set(state: Any, dotted: str, value: Any) -> None:
    *path, last = dotted.split(".")
    target = state
    for part in path:
        target = target[part] if isinstance(target, dict) else getattr(target, part)
    if isinstance(target, dict):
        target[last] = value
    else:
        setattr(target, last, value)


def position_of(case: Case) -> dict[str, Any]:
    state = position(dict(case.units), leaders=dict(case.leaders), orders=dict(case.orders), weather=case.weather,
                     turn=case.turn, options=case.options)
    if case.active:
        state = activate(state, case.active, step=case.step).state
    for dotted, value in sorted(case.fields.items()):
        _set(state, dotted, value)
    pos: dict[str, Any] = {"format": POSITION_FORMAT, "ruleset": "caldiero", "scenario": "historical",
                           "options": sorted(case.options), "state": msgspec.to_builtins(state)}
    if case.interpretations:
        pos["interpretations"] = dict(case.interpretations)
    pos["note"] = f"caldiero conformance case {case.n}: {case.title} ({case.rule})"
    return pos


def play(case: Case) -> tuple[Played, list[dict[str, Any]]]:
    """The case's game from its position file on disk, its steps played; the events of the last step."""
    return played_cases.play("caldiero", json.loads(case.file.read_text(encoding="utf-8")), case.steps)


def run(case: Case) -> None:
    g, events = play(case)
    check(g, events, case.expect)


# --- the document ----------------------------------------------------------------------------------------------
def _setting(c: Case) -> str:
    parts = [f"turn {c.turn}, weather box {c.weather}"]
    if c.active:
        parts.append(f"{c.active}'s activation under way, {c.step} step")
    if c.orders:
        parts.append("orders " + ", ".join(f"{f} {o}" for f, o in c.orders.items()))
    if c.options:
        parts.append("options " + ", ".join(c.options))
    parts.append(", ".join(f"{u} {h}" for u, h in {**c.units, **c.leaders}.items()))
    if c.fields:
        parts.append(", ".join(f"{k} = {json.dumps(v)}" for k, v in sorted(c.fields.items())))
    if c.interpretations:
        parts.append("interpretations " + ", ".join(f"{k}={v}" for k, v in c.interpretations.items()))
    return "; ".join(parts)


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

Rewrite this page and the position files with `python -m tests.caldiero.conformance.kit`.
"""


def document(cases: list[Case]) -> str:
    return NC.document(HEADER, cases, _setting, lambda c: "; then ".join(step_text(s) for s in c.steps))


def write(cases: list[Case]) -> None:
    NC.write(cases, position_of, DOC, document(cases))


if __name__ == "__main__":
    from tests.caldiero.conformance.cases import CASES

    write(CASES)
    print(f"wrote {len(CASES)} position files and {DOC}")
