"""The conformance kit: a case as data (position, commands, expected outcome), its position file, its page in
docs/conformance/monferrato.md, and the runner that plays it through the service.

A case's dice are entered by the umpire (`--transcribed`), so each outcome is the rulebook's answer to those dice.

    python -m tests.monferrato.conformance.kit      # rewrites positions/ and docs/conformance/monferrato.md
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from arbitro.adjudicator.monferrato import sequence
from arbitro.adjudicator.monferrato.data import FILES, load
from arbitro.adjudicator.service import POSITION_FORMAT
from arbitro.projections.monferrato import POOL, Activation
from tests import numbered_cases as NC
from tests.monferrato.harness import Game, app
from tests.refusals import refused

HERE = Path(__file__).resolve().parent
POSITIONS = HERE / "positions"
DOC = HERE.parents[2] / "docs" / "conformance" / "monferrato.md"
HANDS = {"pro_france": ["chit03", "chit04", "chit06", "chit12"], "pro_spain": ["chit02", "chit11", "chit14", "chit16"]}


@dataclass(frozen=True)
class Step:
    """One command from `seat` ("umpire" enters dice: {"type": "enter_random", ...}); `refused`: the citation it
    must be refused with (and `words` in the message)."""

    seat: str
    command: dict[str, Any]
    refused: str = ""
    words: str = ""


def dice(*values: int | str) -> Step:
    return Step("umpire", {"type": "enter_random", "values": list(values)})


@dataclass(frozen=True)
class Case:
    n: int
    section: str
    title: str
    rule: str  # the citation the expected outcome rests on
    placed: dict[str, str]  # unit -> zone; every other unit is off the map (in the pool)
    steps: tuple[Step, ...]
    expect: dict[str, Any]  # what must hold after the steps (see `check`)
    outcome: str  # the expected outcome, in words, for the document
    command: str = "milano"  # the command marker drawn: its activation is under way
    turn: int = 1  # index into the timeline (0: January-February 1628)
    fields: dict[str, Any] = field(default_factory=dict)  # other state fields (morale, forts, walls, cup, ...)
    units: dict[str, dict[str, Any]] = field(default_factory=dict)  # unit -> its markers (disorganised, ...)
    hands: dict[str, list[str]] = field(default_factory=lambda: {k: list(v) for k, v in HANDS.items()})
    interpretations: dict[str, str] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)  # file -> edits (zone id -> fields) on the shipped data
    reading: str = ""  # the interpretation the case assumes where the text is ambiguous
    xfail: str = ""  # a known failure: the code disagrees with the rulebook (the reason)
    opening: bool = False  # a new game of the scenario, its set-up choices awaited: no position (one is past them)

    @property
    def file(self) -> Path:
        return POSITIONS / f"case-{self.n:02d}.json"


def data_files(edits: dict[str, Any]) -> dict[str, str]:
    """The four data files, with map zones edited (`{"map.json": {"alba": {"terrain": "difficult"}}}`)."""
    texts = {f.name: f.read_text(encoding="utf-8") for f in FILES}
    for zone, changes in edits.get("map.json", {}).items():
        m = json.loads(texts["map.json"])
        next(z for z in m["zones"] if z["id"] == zone).update(changes)
        texts["map.json"] = json.dumps(m, ensure_ascii=False, indent=1)
    return texts


def position_of(case: Case) -> dict[str, Any]:
    if case.opening:  # what to start, not a position: a position is past the set-up choices
        return {"ruleset": "monferrato", "scenario": "1628", "new_game": True,
                "note": f"monferrato conformance case {case.n}: {case.title} ({case.rule}); not a position: start a "
                        "new game of the scenario, `arbitro new monferrato 1628 --transcribed`, and send the commands"}
    s = sequence.new_state()
    for u, x in s.units.items():
        x.zone = case.placed.get(u, POOL)
    for u, markers in case.units.items():
        for name, value in markers.items():
            setattr(s.units[u], name, value)
    s.turn = case.turn
    s.hands = {k: list(v) for k, v in case.hands.items()}
    held = {c for v in case.hands.values() for c in v}
    s.chit_cup = [c for c in s.chit_cup if c not in held]
    s.red_aside = [c for c in s.red_aside if c not in held]
    d = load()
    s.cup = [c for c in s.cup if c != case.command]
    s.activation = Activation(command=case.command, seat=d.faction_of_nation(d.army(case.command)))
    s.forts, s.fort_counters = {}, {"pro_france": 3, "pro_spain": 3}  # no fort unless the case places one
    for name, value in case.fields.items():
        setattr(s, name, value)
    elsewhere = {c for name in ("discards", "removed") for c in getattr(s, name)}
    s.chit_cup = [c for c in s.chit_cup if c not in elsewhere]
    if case.data:
        s.data_files = data_files(case.data)
    pos: dict[str, Any] = {"format": POSITION_FORMAT, "ruleset": "monferrato", "scenario": "1628",
                           "state": msgspec.to_builtins(s)}
    if case.interpretations:
        pos["interpretations"] = dict(case.interpretations)
    pos["note"] = f"monferrato conformance case {case.n}: {case.title} ({case.rule}); load it with --transcribed"
    return pos


def play(case: Case) -> tuple[Game, list[dict[str, Any]]]:
    """The case's game from its position file on disk (transcribed), its steps played; every event they made."""
    a = app()
    start = json.loads(case.file.read_text(encoding="utf-8"))
    g = Game(a, a.create("monferrato", "1628", transcribed=True) if start.get("new_game")
             else a.create("monferrato", position=start, transcribed=True))
    events: list[dict[str, Any]] = []
    for s in case.steps:
        if s.refused:
            refused(a, g.id, s.seat, s.refused, s.words, s.command)
        else:
            events += g.send(s.seat, **s.command)
    return g, events


def _plain(value: Any) -> Any:
    """As JSON has it (tuples are lists)."""
    return json.loads(json.dumps(msgspec.to_builtins(value)))


def check(g: Game, events: list[dict[str, Any]], expect: dict[str, Any]) -> None:
    """units: {id: {zone, disorganised, ...}}; state: {field: value}; awaiting: (seat, kind) of the decision on top
    ("" for none); legal / not_legal: {seat: [command]}; only_legal: {seat: [command]} the exact listing; events:
    {type: {field: value}} among the events of the steps; no_events: [type]."""
    for uid, want in expect.get("units", {}).items():
        x = g.state.units[uid]
        got = {k: getattr(x, k) for k in want}
        assert got == want, (uid, got, want)
    for name, want in expect.get("state", {}).items():
        got = _plain(getattr(g.state, name))
        assert got == want, (name, got, want)
    if "awaiting" in expect:
        top = g.frames[-1] if g.frames else None
        assert ((top.seats[0], top.kind) if top else ("", "")) == expect["awaiting"], top
    for seat, commands in expect.get("legal", {}).items():
        listed = g.legal(seat)
        for c in commands:
            assert c in listed, (c, listed)
    for seat, commands in expect.get("not_legal", {}).items():
        listed = g.legal(seat)
        for c in commands:
            assert c not in listed, c
    for seat, commands in expect.get("only_legal", {}).items():
        assert g.legal(seat) == commands, g.legal(seat)
    for kind, want in expect.get("events", {}).items():
        found = [e for e in events if e["type"] == kind]
        assert found, (kind, sorted({e["type"] for e in events}))
        got = [{k: _plain(e.get(k)) for k in want} for e in found]
        assert want in got, (kind, got, want)
    for kind in expect.get("no_events", ()):
        assert kind not in {e["type"] for e in events}, kind


def run(case: Case) -> None:
    g, events = play(case)
    check(g, events, case.expect)


# --- the document ----------------------------------------------------------------------------------------
def _step_text(s: Step) -> str:
    if s.seat == "umpire" and s.command.get("type") == "enter_random":
        return "dice " + ", ".join(str(v) for v in s.command["values"])
    text = f"{s.seat}: `{json.dumps(s.command, ensure_ascii=False)}`"
    return text + (f" is refused ({s.refused}{': ' + repr(s.words) if s.words else ''})" if s.refused else "")


def _setting(c: Case) -> str:
    if c.opening:
        return "a new game of the scenario, `arbitro new monferrato 1628 --transcribed`: the file names it"
    d = load()
    parts = [f"{c.command}'s activation, {d.turn(c.turn).name}"]
    parts.append(", ".join(f"{u} {z}" for u, z in c.placed.items()))
    parts += [f"{u} " + " ".join(f"{k}={v}" for k, v in m.items()) for u, m in c.units.items()]
    parts += [f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in c.fields.items()]
    if c.hands != HANDS:
        parts.append("hands " + json.dumps(c.hands))
    if c.data:
        parts.append("data edited: " + json.dumps(c.data))
    return "; ".join(parts)


HEADER = "\n".join([
    "# La Seconda Guerra del Monferrato: conformance cases",
    "",
    "The public promise a rules lawyer checks (issue 19 point 17, the DATC model): each case is a position, one",
    "or more commands and the outcome the rulebook (`shared/rules/monferrato.it.md`) prescribes, with its",
    "citation and, where the text is ambiguous, the interpretation it assumes (docs/rulesets/monferrato.md,",
    "Interpretations). They are written from the rulebook, not from the code: a case the code fails is a defect,",
    "marked here as a known failure until fixed. Every case is a test (tests/monferrato/conformance/test_cases.py)",
    "run from its position file, which a user can load: `arbitro new monferrato --position",
    "tests/monferrato/conformance/positions/case-NN.json --transcribed` (the umpire enters the dice listed).",
    "Only the units named are on the map; the others wait in the pool; no fort is on the map unless named (each",
    "player holds three fort counters). Positions use the shipped (provisional)",
    "map, counters and chit table unless the case edits its data (the position then carries its data files).",
    "Pro-France holds chits 03 04 06 12, Pro-Spain 02 11 14 16, unless the case says otherwise.",
    "The set-up cases start from a new game of the scenario instead (a position is past the set-up choices): their",
    "file names the scenario, and the umpire's ruling, where a case assumes another reading, is their first command.",
    "",
    "Rewrite this page and the position files with `python -m tests.monferrato.conformance.kit`.",
    "",
])


def document(cases: list[Case]) -> str:
    return NC.document(HEADER, cases, _setting, lambda c: "; then ".join(_step_text(s) for s in c.steps))


def write(cases: list[Case]) -> None:
    """Rewrite every case's position file (removing those of cases no longer listed) and the document."""
    POSITIONS.mkdir(exist_ok=True)
    for old in POSITIONS.glob("case-*.json"):
        old.unlink()
    NC.write(cases, position_of, DOC, document(cases))

if __name__ == "__main__":
    from tests.monferrato.conformance.cases import CASES

    write(CASES)
    print(f"wrote {len(CASES)} position files and {DOC}")
