"""The Para Bellum games' conformance kit (docs/conformance/caldiero.md, docs/conformance/arrivano.md): a case as
data (a position built from the pieces named, one or more commands with the dice rolled on the table, the expected
outcome), its position file, its entry in the game's page, and the runner that plays it through the service
(tests/played_cases.py: a transcribed game, every roll entered by the umpire in the order the case lists it). Each
game's kit (tests/caldiero/conformance/kit.py, tests/arrivano/conformance/kit.py) names its files, its page's header
and how a position is built."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import msgspec

from arbitro.adjudicator.creation import POSITION_FORMAT
from tests import numbered_cases as NC
from tests import played_cases
from tests.played_cases import Played, Step, check, set_field, step_text

__all__ = ["Case", "Kit", "Step", "header"]


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
    leaders: dict[str, str] = field(default_factory=dict)  # the commanders on the map
    orders: dict[str, str] = field(default_factory=dict)  # formation -> order (every other: defence)
    active: str = ""  # the formation whose activation is under way (its side to act)
    step: str = "movement"  # the activation's sub-phase
    weather: int = 0
    turn: int = 2
    scenario: str = ""  # "" for the game's first scenario
    options: tuple[str, ...] = ()
    fields: dict[str, Any] = field(default_factory=dict)  # other state fields: {"units.x.status": "disordered"}
    interpretations: dict[str, str] = field(default_factory=dict)
    reading: str = ""  # the interpretation the case assumes where the text is ambiguous
    xfail: str = ""  # a known failure: the code disagrees with the rulebook (the reason)

    POSITIONS: ClassVar[Path]  # each game's cases say where their position files are

    @property
    def file(self) -> Path:
        return self.POSITIONS / f"case-{self.n:02d}.json"


@dataclass(frozen=True)
class Kit:
    ruleset: str
    scenario: str  # the default scenario
    doc: Path
    header: str
    build: Callable[[Case], Any]  # the case's state: its pieces placed, its activation under way

    def position_of(self, case: Case) -> dict[str, Any]:
        state = self.build(case)
        for dotted, value in sorted(case.fields.items()):
            set_field(state, dotted, value)
        pos: dict[str, Any] = {"format": POSITION_FORMAT, "ruleset": self.ruleset,
                               "scenario": case.scenario or self.scenario, "options": sorted(case.options),
                               "state": msgspec.to_builtins(state)}
        if case.interpretations:
            pos["interpretations"] = dict(case.interpretations)
        pos["note"] = f"{self.ruleset} conformance case {case.n}: {case.title} ({case.rule})"
        return pos

    def play(self, case: Case) -> tuple[Played, list[dict[str, Any]]]:
        """The case's game from its position file on disk, its steps played; the events of the last step."""
        return played_cases.play(self.ruleset, json.loads(case.file.read_text(encoding="utf-8")), case.steps)

    def run(self, case: Case) -> None:
        g, events = self.play(case)
        check(g, events, case.expect)

    def document(self, cases: list[Case]) -> str:
        return NC.document(self.header, cases, _setting, lambda c: "; then ".join(step_text(s) for s in c.steps))

    def write(self, cases: list[Case]) -> None:
        NC.write(cases, self.position_of, self.doc, self.document(cases))
        print(f"wrote {len(cases)} position files and {self.doc}")

    def assert_current(self, cases: list[Case]) -> None:
        """The files a user loads are the ones the tests play, and the page is the cases'."""
        NC.assert_current(cases, self.position_of, self.doc, self.document(cases))


def header(title: str, ruleset: str, rulebook: str, pieces: str, tables: str) -> str:
    """A game's conformance page header: what a case is and how a user plays one (the same for both games), then
    the ground and counters its cases stand on (`pieces`) and where its provisional combat tables are (`tables`)."""
    intro = (
        "The public promise a rules lawyer checks (issue 19 point 17, the DATC model): each case is a position, one "
        "or more commands with the dice rolled, and the outcome the rulebook "
        f"(`shared/rules/{rulebook}`) prescribes, with its citation and, where the text is ambiguous, the "
        f"interpretation it assumes (docs/rulesets/{ruleset}.md, Interpretations). They are written from the "
        "rulebook, not from the code: a case the code fails is a defect, marked here as a known failure until fixed. "
        f"Every case is a test (tests/{ruleset}/conformance/test_cases.py) run from its position file, which a user "
        f"can load and play with the same dice as a transcribed game: `arbitro new {ruleset} --position "
        f"tests/{ruleset}/conformance/positions/case-NN.json --transcribed`, then each roll is entered by the umpire "
        '(`{"type": "enter_random", "values": [4]}`, arbitro §R.4). "Rolling 4, 6" lists the rolls in the order the '
        f"game asks for them. Only the pieces named are on the map; every other one is off it. {pieces}")
    tables_note = (
        "The rulebook does not print the combat and bombardment tables: the result a roll gives (\"a 4 gives Ex\") "
        f"comes from the provisional reconstruction in {tables}; what a result then does is the rulebook's, and that "
        "is what these cases check.")
    return (f"# {title}: conformance cases\n\n{_fill(intro)}\n\n{_fill(tables_note)}\n\n"
            f"Rewrite this page and the position files with `python -m tests.{ruleset}.conformance.kit`.\n")


def _fill(text: str) -> str:
    return textwrap.fill(text, width=116, break_long_words=False, break_on_hyphens=False)


def _setting(c: Case) -> str:
    parts = [f"{c.scenario + ', ' if c.scenario else ''}turn {c.turn}, weather box {c.weather}"]
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
