"""Test harness: build Marengo positions and play commands through the real service (store, engine,
fold, redaction), the way a client would."""

from __future__ import annotations

import json
from typing import Any

import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.marengo import setup
from arbitro.adjudicator.marengo.assault import KINDS as ASSAULT_KINDS
from arbitro.adjudicator.marengo.data_loader import DATA_DIR
from arbitro.adjudicator.marengo.manoeuvre import AFTER, BLOCK, ENTER
from arbitro.adjudicator.service import POSITION_FORMAT, Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.marengo import MarengoState
from tests.refusals import refused


class Game:
    def __init__(self, app: Arbitro, gid: str) -> None:
        self.app, self.id = app, gid

    @property
    def state(self) -> MarengoState:
        return self.app.state_at(self.id).rules  # type: ignore[no-any-return]

    def tok(self, bid: str) -> str:
        return self.state.blocks[bid].token

    def send(self, seat: str, **command: Any) -> list[dict[str, Any]]:
        """Submit as `seat`; returns the events as served to the umpire (full)."""
        out = self.app.submit(self.id, seat, command)  # a seat's result names its command (engine-rules §V.6)
        first, last = self.app.numbers(self.app.game(self.id)).events(out.cmd, out.cmd)
        return [e["event"] for e in self.app.log(self.id, "umpire", first, last)] if first <= last else []

    def events_of(self, seat: str, **command: Any) -> list[dict[str, Any]]:
        """Submit as `seat` and return the events as served to that seat."""
        return [e.get("event", e) for e in self.app.submit(self.id, seat, command).events]

    def reject(self, seat: str, rule: str, words: str = "", **command: Any) -> Rejected:
        """The command is refused citing `rule`, with `words` in the message; nothing is appended."""
        return refused(self.app, self.id, seat, rule, words, command)

    def manoeuvre(self) -> Any:
        """The attack manoeuvre under way (its frame's context on the decision stack), or None."""
        frames = [f for f in self.app.state_at(self.id).core.decisions if f.kind in MANOEUVRE_KINDS]
        return frames[-1].ctx if frames else None

    def assault_stage(self) -> str | None:
        """The kind of the assault's frame on the decision stack (the step it is at), or None when none is under way."""
        frames = [f for f in self.app.state_at(self.id).core.decisions if f.kind in ASSAULT_KINDS]
        return frames[-1].kind if frames else None

    def legal(self, seat: str) -> list[dict[str, Any]]:
        return self.app.legal(self.id, seat)

    def view(self, seat: str) -> dict[str, Any]:
        return self.app.view(self.id, seat)["state"]  # type: ignore[no-any-return]

    def block(self, bid: str) -> Any:
        return self.state.blocks[bid]


MANOEUVRE_KINDS = (BLOCK, AFTER, ENTER)


def app() -> Arbitro:
    return Arbitro(SQLiteStore(":memory:"))


def new_game() -> Game:
    a = app()
    return Game(a, a.create("marengo", "marengo"))


def position(
    placed: dict[str, tuple[str, str] | tuple[str, str, int]],
    *, phasing: str = "austria", round_: int = 3, step: str = "start", **fields: Any,
) -> dict[str, Any]:
    """A position: `placed` maps block ids to (zone, place[, strength]); every other block stays in its table
    (French At Start blocks not placed are treated as eliminated so they do not clutter the map)."""
    s = setup.new_state()
    s.round, s.phasing, s.step = round_, phasing, step
    s.hour = s.first_hour + round_ - 1
    s.turn = 2 * (round_ - 1) + (0 if phasing == "austria" else 1)
    n = 1
    for bid, b in sorted(s.blocks.items()):
        if bid in placed:
            spec = placed[bid]
            b.zone, b.place = spec[0], spec[1]
            if len(spec) > 2:
                b.strength = spec[2]  # type: ignore[misc]
            b.token = f"b{n:03d}"
            b.activated = True
            n += 1
        elif b.zone == "at_start":
            b.zone, b.strength = "eliminated", 0
    s.next_token = n
    for k, v in fields.items():
        setattr(s, k, v)
    return {"format": POSITION_FORMAT, "ruleset": "marengo", "scenario": "marengo",
            "state": msgspec.to_builtins(s)}


def from_position(pos: dict[str, Any], data: dict[str, str] | None = None) -> Game:
    """A game from `pos`; `data`: a user's own data folder's files (name -> text) instead of the shipped data."""
    a = app()
    return Game(a, a.create("marengo", position=pos, data=data))


def own_data(**changes: Any) -> dict[str, str]:
    """The shipped data files as a user's own data folder, each change applied: `armies=f` or `map=f` with f
    mutating the decoded file (a rules question asked on another map or counter sheet, issue 19 point 14)."""
    files = {name: (DATA_DIR / name).read_text(encoding="utf-8") for name in ("armies.json", "map.json")}
    for which, change in changes.items():
        decoded = json.loads(files[f"{which}.json"])
        change(decoded)
        files[f"{which}.json"] = json.dumps(decoded, ensure_ascii=False)
    return files


def ruleset() -> Any:
    return registry.get("marengo")


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]
