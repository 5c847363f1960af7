"""What the hex rulesets' conformance kits share beyond the numbering (tests/numbered_cases.py): a case's steps as
data (a command, then the dice rolled on the table for it), played through the service in a transcribed game made
from the case's position file (arbitro §R.4: every roll is entered by the umpire, in order, so the dice are the
case's and a roll of the wrong number of dice fails the case), and the check of what must hold afterwards."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.base import UMPIRE
from tests.refusals import refused


@dataclass(frozen=True)
class Step:
    """One command from `seat`, then each roll it needs (`dice`, one tuple a roll); `refused`: the citation it must
    be refused with (and `words` in the message), nothing appended."""

    seat: str
    command: dict[str, Any]
    dice: tuple[tuple[int, ...], ...] = ()
    refused: str = ""
    words: str = ""


def set_field(state: Any, dotted: str, value: Any) -> None:
    """Set a field of a position by its dotted path ("units.x.status"), through structs and dicts alike."""
    *path, last = dotted.split(".")
    target = state
    for part in path:
        target = target[part] if isinstance(target, dict) else getattr(target, part)
    if isinstance(target, dict):
        target[last] = value
    else:
        setattr(target, last, value)


class Played:
    """A case's game on the service."""

    def __init__(self, app: Arbitro, game: str) -> None:
        self.app, self.id = app, game

    @property
    def state(self) -> Any:
        return self.app.state_at(self.id).rules

    def send(self, step: Step) -> list[dict[str, Any]]:
        """The command and each roll it needs; the events as served to the umpire."""
        first = self.app.game(self.id).head_seq + 1
        self.app.submit(self.id, step.seat, step.command)
        for roll in step.dice:
            awaited = self.app.awaiting(self.id)
            assert awaited.kind == "random", (f"no roll awaited for {list(roll)}", awaited)
            self.app.submit(self.id, UMPIRE, {"type": "enter_random", "values": list(roll)})
        awaited = self.app.awaiting(self.id)
        assert awaited.kind != "random", f"a roll more is awaited: {awaited.prompt}"
        return json.loads(json.dumps([e["event"] for e in self.app.log(self.id, UMPIRE, first)]))


def play(ruleset: str, position: dict[str, Any], steps: tuple[Step, ...]) -> tuple[Played, list[dict[str, Any]]]:
    """A transcribed game of `ruleset` from `position`, `steps` played; the events of the last step accepted."""
    app = Arbitro(SQLiteStore(":memory:"))
    g = Played(app, app.create(ruleset, position=position, transcribed=True))
    events: list[dict[str, Any]] = []
    for s in steps:
        if s.refused:
            refused(app, g.id, s.seat, s.refused, s.words, s.command)
        else:
            events = g.send(s)
    return g, events


class Game(Protocol):
    """What `check` reads of a case's game: the service, the game's id and its state."""

    app: Arbitro
    id: str

    @property
    def state(self) -> Any: ...


TABLES = ("units", "leaders", "formations", "blocks")  # the pieces a state keeps by id, in the games that have them


def check(g: Game, events: list[dict[str, Any]], expect: dict[str, Any]) -> None:
    """units / leaders / formations / blocks: {id: {field: value}}; state: {field: value}; awaiting: (seats, kind),
    kind "turn" when no decision is open; legal / not_legal: {seat: [command]}; events: {type: {field: value}} (an
    event of that type among the last step's events has these values; a nested object only the fields named);
    count: {type: n}; no_events: [type]."""
    state = g.state
    for table in TABLES:
        for key, want in expect.get(table, {}).items():
            item = getattr(state, table)[key]
            got = {k: getattr(item, k) for k in want}
            assert got == want, (key, got, want)
    for name, want in expect.get("state", {}).items():
        assert getattr(state, name) == want, (name, getattr(state, name), want)
    if "awaiting" in expect:
        awaited = g.app.awaiting(g.id)
        seats, kind = expect["awaiting"]
        assert (tuple(awaited.seats), awaited.kind) == (tuple(seats), kind), awaited
    for seat, commands in expect.get("legal", {}).items():
        listed = g.app.legal(g.id, seat)
        for c in commands:
            assert c in listed, (c, listed)
    for seat, commands in expect.get("not_legal", {}).items():
        listed = g.app.legal(g.id, seat)
        for c in commands:
            assert c not in listed, c
    for kind, want in expect.get("events", {}).items():
        found = [e for e in events if e["type"] == kind]
        assert any(_holds(e, want) for e in found), (kind, want, found or sorted({e["type"] for e in events}))
    for kind, n in expect.get("count", {}).items():
        assert sum(1 for e in events if e["type"] == kind) == n, (kind, n)
    for kind in expect.get("no_events", ()):
        assert not [e for e in events if e["type"] == kind], kind


def _holds(found: Any, want: Any) -> bool:
    """`found` has every value `want` names: a nested object is compared field by field (an event's table read)."""
    if isinstance(want, dict):
        return isinstance(found, dict) and all(k in found and _holds(found[k], v) for k, v in want.items())
    return bool(found == want)


def step_text(s: Step) -> str:
    """A step as the conformance document prints it."""
    text = f"{s.seat}: `{json.dumps(s.command, ensure_ascii=False)}`"
    if s.dice:
        text += " rolling " + ", ".join("-".join(map(str, roll)) for roll in s.dice)
    return text + (f" is refused ({s.refused}{': ' + repr(s.words) if s.words else ''})" if s.refused else "")
