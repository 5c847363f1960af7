"""Test harness: Monferrato positions played through the real service (store, engine, fold, redaction)."""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.randomness import SeededSupply
from arbitro.adjudicator.ruleset import Decision
from arbitro.events.codec import canonical
from arbitro.projections.fold import Fold
from arbitro.projections.game import CoreState, GameState
from arbitro.projections.views import redact_event, seat_view
from arbitro.adjudicator.monferrato import sequence
from arbitro.adjudicator.service import POSITION_FORMAT, Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.monferrato import ELIMINATED, Activation, MonferratoState
from tests.refusals import refused
from arbitro.adjudicator.seat_numbers import events_of


class Game:
    def __init__(self, app: Arbitro, gid: str) -> None:
        self.app, self.id = app, gid

    @property
    def state(self) -> MonferratoState:
        return self.app.state_at(self.id).rules  # type: ignore[no-any-return]

    @property
    def frames(self) -> tuple[Any, ...]:
        return self.app.state_at(self.id).core.decisions  # type: ignore[no-any-return]

    def send(self, seat: str, **command: Any) -> list[dict[str, Any]]:
        """Submit as `seat`; the events as the umpire sees them."""
        out = self.app.submit(self.id, seat, command)  # a seat's result names its command (engine-rules §V.6)
        first, last = self.app.numbers(self.app.game(self.id)).events(out.cmd, out.cmd)
        return [e["event"] for e in self.app.log(self.id, "umpire", first, last)] if first <= last else []

    def served(self, seat: str, first: int = 1) -> list[dict[str, Any]]:
        return events_of(self.app.log(self.id, seat, first))  # type: ignore[no-any-return]

    def reject(self, seat: str, rule: str, words: str = "", **command: Any) -> Rejected:
        """The command is refused citing `rule`, with `words` in the message; nothing is appended."""
        return refused(self.app, self.id, seat, rule, words, command)

    def enter(self, *values: int | str) -> list[dict[str, Any]]:
        """The umpire enters the roll or draw the game awaits (a transcribed game, arbitro §R.4)."""
        return self.send("umpire", type="enter_random", values=list(values))

    @property
    def awaited(self) -> str:
        """The kind of the decision on top of the stack ("" when none)."""
        return self.frames[-1].kind if self.frames else ""

    def legal(self, seat: str) -> list[dict[str, Any]]:
        return self.app.legal(self.id, seat)

    def view(self, seat: str) -> dict[str, Any]:
        return self.app.view(self.id, seat)["state"]  # type: ignore[no-any-return]


def app() -> Arbitro:
    return Arbitro(SQLiteStore(":memory:"))


# the set-up choices (monferrato scenario) as the tests' positions take them: Nevers' force at Casale with the
# artillery and sapper of 4, the Gonzaga forts at Trino and Goito, the Milanese army at Alessandria, the Savoyard at Asti
STANDARD_SETUP = {"nevers": "casale", "gon_inf3": "casale", "gon_inf4": "casale", "gon_inf5": "casale",
                  "gon_art1": "mantova", "gon_art3": "casale", "gon_sap1": "mantova", "gon_sap2": "casale",
                  **{u: "alessandria" for u in ("cordoba", "spa_inf1", "spa_inf2", "spa_inf3", "spa_inf4", "spa_cav1",
                                                "spa_art1", "spa_art2", "spa_sap1", "spa_sap2", "spa_camp")},
                  **{u: "asti" for u in ("carlo_emanuele", "sav_inf1", "sav_inf2", "sav_cav1", "sav_art1", "sav_sap1",
                                         "sav_camp")}}
STANDARD_FORTS = ("trino", "goito")


def set_up(g: Game) -> None:
    """Answer every set-up choice as STANDARD_SETUP and STANDARD_FORTS have it."""
    while g.awaited == "set_up":
        seat = g.frames[-1].seats[0]
        options = g.legal(seat)
        chosen = [o for o in options if (o["units"] and STANDARD_SETUP[o["units"][0]] == o["zone"])
                  or (not o["units"] and o["zone"] in STANDARD_FORTS)]
        g.send(seat, **chosen[0])


def new_game(*, standard: bool = True) -> Game:
    """A new game of the scenario; `standard`: its set-up choices made as STANDARD_SETUP has them."""
    a = app()
    g = Game(a, a.create("monferrato", "1628"))
    if standard:
        set_up(g)
    return g


def standard_state() -> MonferratoState:
    """The scenario's set-up with its choices made as STANDARD_SETUP and STANDARD_FORTS have them."""
    s = sequence.new_state()
    for u, zone in STANDARD_SETUP.items():
        s.units[u].zone = zone
    s.forts = dict(sorted({**s.forts, **{zone: ["pro_france"] for zone in STANDARD_FORTS}}.items()))
    s.fort_counters["pro_france"] -= len(STANDARD_FORTS)
    return s


def state(*, command: str = "milano", seat: str = "pro_spain", placed: dict[str, str] | None = None,
          only: bool = False, hands: dict[str, list[str]] | None = None, **fields: Any) -> MonferratoState:
    """The scenario's set-up with `placed` units moved (every other unit eliminated when `only`), the hands given
    (taken from the cup), and `command`'s activation under way."""
    s = standard_state()
    for u, x in s.units.items():
        if placed and u in placed:
            x.zone = placed[u]
        elif only and x.zone not in ("pool",):
            x.zone = ELIMINATED
    hands = hands or {"pro_france": ["chit03", "chit04", "chit06", "chit12"],
                      "pro_spain": ["chit02", "chit11", "chit14", "chit16"]}
    s.hands = {k: list(v) for k, v in hands.items()}
    s.chit_cup = [c for c in s.chit_cup if not any(c in v for v in hands.values())]
    s.cup = [c for c in s.cup if c != command]
    s.activation = Activation(command=command, seat=seat)
    for k, v in fields.items():
        setattr(s, k, v)
    return s


def from_state(s: MonferratoState, *, transcribed: bool = False) -> Game:
    """A game from the position; `transcribed`: every die and draw is entered by the umpire (Game.enter)."""
    a = app()
    pos = {"format": POSITION_FORMAT, "ruleset": "monferrato", "scenario": "1628", "state": msgspec.to_builtins(s)}
    return Game(a, a.create("monferrato", position=pos, transcribed=transcribed))


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


class Table:
    """A position played through the ruleset itself (no store): the events of each command, with a fixed seed, so
    two tables that differ in one hidden fact can be compared byte for byte (tests/monferrato/test_hidden.py)."""

    def __init__(self, s: MonferratoState, seed: str = "00" * 32, readings: dict[str, str] | None = None) -> None:
        self.game = GameState(core=CoreState(), rules=RULESET.note_interpretations(s, dict(readings or {})))
        self.supply = SeededSupply(seed)
        self.events: list[Any] = []

    def send(self, seat: str, command: dict[str, Any]) -> list[Any]:
        parsed = RULESET.parse_command(command)
        ctx = Decision(RULESET, FOLD, FOLD.copy(self.game), seat, self.game.core.seq + 1, self.supply, ())
        top = self.game.core.decisions[-1] if self.game.core.decisions else None
        if top is not None:
            RULESET.steps()[top.kind].answer(ctx, top, parsed)
        else:
            RULESET.decide(ctx, parsed)
        self.game = ctx.game
        self.events += ctx.events
        return ctx.events

    def served(self, before: GameState[Any], seat: str) -> bytes:
        """Every event since `before` as `seat` is served it, then its view and its legal commands."""
        game = FOLD.copy(before)
        out: list[Any] = []
        for event in self.events:
            game = FOLD.apply_event(game, game.core.seq + 1, event)
            out.append(redact_event(RULESET, event, seat, game))
        out.append(seat_view(RULESET, game, seat))
        out.append(RULESET.legal(game.rules, seat))
        return canonical(out)


RULESET = registry.get("monferrato")
FOLD = Fold(RULESET)
