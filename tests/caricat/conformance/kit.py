"""The conformance kit: a case as data (position, commands with the dice rolled on the table, expected outcome), its
position file, its page in docs/conformance/caricat.md, and the runner that plays it through the service.

A case's game is a transcribed game made from its position file (arbitro §R.4): every roll a command needs is
entered by the umpire, in order, as the case lists it, so the dice are the case's and a roll of the wrong number
of dice fails the case.

    python -m tests.caricat.conformance.kit      # rewrites positions/ and docs/conformance/caricat.md
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
from tests.caricat.harness import activated, position
from tests.played_cases import Played, Step, check, set_field, step_text

HERE = Path(__file__).resolve().parent
POSITIONS = HERE / "positions"
DOC = HERE.parents[2] / "docs" / "conformance" / "caricat.md"


@dataclass(frozen=True)
class Case:
    n: int
    section: str
    title: str
    rule: str  # the citation the expected outcome rests on
    units: dict[str, str | None]  # the units on the map (None: off the map, to arrive); every other unit is gone
    steps: tuple[Step, ...]
    expect: dict[str, Any]  # what must hold after the steps (see `check`)
    outcome: str  # the expected outcome, in words, for the document
    scenario: str = "pastrengo"
    activation: str = ""  # the leader (or cavalry unit, `cavalry`) whose activation is under way
    cavalry: bool = False
    levels: dict[str, str] = field(default_factory=dict)
    hits: dict[str, int] = field(default_factory=dict)
    phase: str = "activation"
    seat: str = "italian"
    turn: int = 1
    options: tuple[str, ...] = ()
    fields: dict[str, Any] = field(default_factory=dict)  # other state fields: {"leaders.x.staff": True, ...}
    interpretations: dict[str, str] = field(default_factory=dict)
    reading: str = ""  # the interpretation the case assumes where the text is ambiguous
    xfail: str = ""  # a known failure: the code disagrees with the rulebook (the reason)

    @property
    def file(self) -> Path:
        return POSITIONS / f"case-{self.n:02d}.json"


def position_of(case: Case) -> dict[str, Any]:
    state = position(case.scenario, units=dict(case.units), levels=dict(case.levels), hits=dict(case.hits),
                     phase=case.phase, seat=case.seat, options=case.options, turn=case.turn)
    if case.activation:
        state = activated(state, case.activation, "cavalry" if case.cavalry else "leader")
    for dotted, value in sorted(case.fields.items()):
        set_field(state, dotted, value)
    pos: dict[str, Any] = {"format": POSITION_FORMAT, "ruleset": "caricat", "scenario": case.scenario,
                           "options": sorted(case.options), "state": msgspec.to_builtins(state)}
    if case.interpretations:
        pos["interpretations"] = dict(case.interpretations)
    pos["note"] = f"caricat conformance case {case.n}: {case.title} ({case.rule})"
    return pos


def play(case: Case) -> tuple[Played, list[dict[str, Any]]]:
    """The case's game from its position file on disk, its steps played; the events of the last step."""
    return played_cases.play("caricat", json.loads(case.file.read_text(encoding="utf-8")), case.steps)


def run(case: Case) -> None:
    g, events = play(case)
    check(g, events, case.expect)


# --- the document ----------------------------------------------------------------------------------------------
def _setting(c: Case) -> str:
    parts = [f"{c.scenario} turn {c.turn}, {c.phase} phase, {c.seat} to act"]
    if c.activation:
        parts.append(f"{c.activation}'s activation under way")
    if c.options:
        parts.append("options " + ", ".join(c.options))
    parts.append(", ".join(f"{u} {h or 'off the map'}" for u, h in c.units.items()))
    if c.levels:
        parts.append("levels " + ", ".join(f"{k} {v}" for k, v in c.levels.items()))
    if c.hits:
        parts.append("morale levels lost " + ", ".join(f"{k} {v}" for k, v in c.hits.items()))
    if c.fields:
        parts.append(", ".join(f"{k} = {json.dumps(v)}" for k, v in sorted(c.fields.items())))
    if c.interpretations:
        parts.append("interpretations " + ", ".join(f"{k}={v}" for k, v in c.interpretations.items()))
    return "; ".join(parts)


HEADER = """# Caricat!: conformance cases

The public promise a rules lawyer checks (issue 19 point 17, the DATC model): each case is a position, one or more
commands with the dice rolled, and the outcome the rulebook (`shared/rules/caricat.it.md`) prescribes, with its
citation and, where the text is ambiguous, the interpretation it assumes (docs/rulesets/caricat.md,
Interpretations). They are written from the rulebook, not from the code: a case the code fails is a defect, marked
here as a known failure until fixed. Every case is a test (tests/caricat/conformance/test_cases.py) run from its
position file, which a user can load and play with the same dice as a transcribed game:
`arbitro new caricat --position tests/caricat/conformance/positions/case-NN.json --transcribed`, then each roll is
entered by the umpire (`{"type": "enter_random", "values": [6, 5, 4]}`, arbitro §R.4). "Rolling 6-5-4, 1-2" lists the
rolls in the order the game asks for them. Only the units named are on the map; every other unit of the scenario
is out of the game. Positions use the shipped (provisional) maps, counters and terrain effects table: the values
they rest on are those of `adjudicator/caricat/data/` (e.g. savoia1 melee 4, fire 3, morale 5; Wolgemuth assault
+1; clear terrain no modifier, village -1 fire die and +2 melee, wood -1 die and +1, hill +1).

Rewrite this page and the position files with `python -m tests.caricat.conformance.kit`.
"""


def document(cases: list[Case]) -> str:
    return NC.document(HEADER, cases, _setting, lambda c: "; then ".join(step_text(s) for s in c.steps))


def write(cases: list[Case]) -> None:
    NC.write(cases, position_of, DOC, document(cases))


if __name__ == "__main__":
    from tests.caricat.conformance.cases import CASES

    write(CASES)
    print(f"wrote {len(CASES)} position files and {DOC}")
