"""The conformance kit: a case as data (position, commands, expected outcome), its position file, its page in
docs/conformance/marengo.md, and the runner that plays it through the service.

Commands name blocks by their order-of-battle id; the runner sends each as its token, as a client would. A step
and the check of what must hold afterwards are the hex kits' (tests/played_cases.py); a Marengo step rolls no dice
on the table (the game rolls them).

    python -m tests.marengo.conformance.kit      # rewrites positions/ and docs/conformance/marengo.md
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


from tests import numbered_cases as NC
from tests.played_cases import Step, check, step_text
from tests.refusals import refused
from tests.marengo.harness import Game, app, position

HERE = Path(__file__).resolve().parent
POSITIONS = HERE / "positions"
DOC = HERE.parents[2] / "docs" / "conformance" / "marengo.md"


@dataclass(frozen=True)
class Case:
    n: int
    section: str
    title: str
    rule: str  # the citation the expected outcome rests on
    placed: dict[str, tuple[Any, ...]]
    steps: tuple[Step, ...]
    expect: dict[str, Any]  # what must hold after the steps (see `check`)
    outcome: str  # the expected outcome, in words, for the document
    phasing: str = "austria"
    round: int = 3
    step: str = "start"
    fields: dict[str, Any] = field(default_factory=dict)
    interpretations: dict[str, str] = field(default_factory=dict)
    reading: str = ""  # the interpretation the case assumes where the text is ambiguous
    unactivated: tuple[str, ...] = ()  # French blocks placed but not yet activated (marengo §6)
    xfail: str = ""  # a known failure: the code disagrees with the rulebook (the reason, and the defect)

    @property
    def file(self) -> Path:
        return POSITIONS / f"case-{self.n:02d}.json"


def position_of(case: Case) -> dict[str, Any]:
    pos = position(dict(case.placed), phasing=case.phasing, round_=case.round, step=case.step, **case.fields)
    for bid in case.unactivated:
        pos["state"]["blocks"][bid]["activated"] = False
    if case.interpretations:
        pos["interpretations"] = dict(case.interpretations)
    pos["note"] = f"marengo conformance case {case.n}: {case.title} ({case.rule})"
    return pos


def _tokens(g: Game, value: Any) -> Any:
    if isinstance(value, str) and value in g.state.blocks and g.tok(value):  # a reinforcement is named by its id
        return g.tok(value)
    if isinstance(value, list):
        return [_tokens(g, v) for v in value]
    if isinstance(value, dict):
        return {k: _tokens(g, v) for k, v in value.items()}
    return value


def play(case: Case) -> tuple[Game, list[dict[str, Any]]]:
    """The case's game from its position file on disk, its steps played; the events of the last step."""
    a = app()
    g = Game(a, a.create("marengo", position=json.loads(case.file.read_text(encoding="utf-8"))))
    events: list[dict[str, Any]] = []
    for s in case.steps:
        command = _tokens(g, s.command)
        if s.refused:
            refused(a, g.id, s.seat, s.refused, s.words, command)
        else:
            events = g.send(s.seat, **command)
    return g, events


def run(case: Case) -> None:
    """The case played and its expectations checked; commands a case expects listed name blocks by id, as its steps
    do, and are compared in the tokens a client is shown."""
    g, events = play(case)
    expect = {**case.expect, **{k: {seat: _tokens(g, cs) for seat, cs in case.expect[k].items()}
                                for k in ("legal", "not_legal") if k in case.expect}}
    check(g, events, expect)


# --- the document ----------------------------------------------------------------------------------------
HEADER = """# Bonaparte a Marengo: conformance cases

The public promise a rules lawyer checks (issue 19 point 17, the DATC model): each case is a position, one
or more commands and the outcome the rulebook (`shared/rules/marengo.it.md`) prescribes, with its citation
and, where the text is ambiguous, the interpretation it assumes (docs/rulesets/marengo.md, Interpretations).
They are written from the rulebook, not from the code: a case the code fails is a defect, marked here as a
known failure until fixed. Every case is a test (tests/marengo/conformance/test_cases.py) run from its
position file, which a user can load: `arbitro new marengo --position tests/marengo/conformance/positions/
case-NN.json`. Commands name blocks by their order-of-battle id; a client sends the block's token
(`arbitro view` shows it). Positions use the shipped (provisional) board: approaches carry at least one
infantry penalty, Marengo's also an artillery penalty, and the artillery has strength 1.

Rewrite this page and the position files with `python -m tests.marengo.conformance.kit`."""


def _setting(c: Case) -> str:
    return (f"{c.phasing}'s turn, round {c.round}, step {c.step}; "
            + ", ".join(f"{b} {' '.join(str(x) for x in spec)}" for b, spec in c.placed.items()))


def document(cases: list[Case]) -> str:
    return NC.document(HEADER, cases, _setting, lambda c: "; then ".join(step_text(s) for s in c.steps))


def write(cases: list[Case]) -> None:
    NC.write(cases, position_of, DOC, document(cases))


if __name__ == "__main__":
    from tests.marengo.conformance.cases import CASES

    write(CASES)
    print(f"wrote {len(CASES)} position files and {DOC}")
