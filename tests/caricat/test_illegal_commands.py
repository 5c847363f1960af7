"""Illegal commands of every kind are rejected with their citation (issue 10, "Done when").

Through self-played games of both scenarios (every option on too), at regular points of play:
- every command type the ruleset defines, built from plausible values (the seat's own unit and leader, a
  neighbouring hex), is rejected with a `caricat §` / `arbitro §` citation whenever legal() offers no command of
  that type at that point (wrong phase, no activation, no pending decision of that kind);
- every command legal() offers, with one of its names or hexes replaced by one that does not exist, is rejected
  with a citation;
- the commands one seat may send, sent by the other seat, are rejected with a citation.
A guard test keeps the list of command types complete as the ruleset grows.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Iterator
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.caricat.commands import CaricatCommand
from arbitro.adjudicator.errors import MalformedCommand, Rejected
from arbitro.adjudicator.randomness import SeededSupply
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from bench.drivers.caricat import Chooser

CITATION = re.compile(r"^(caricat|arbitro) §[A-Z0-9]")
COMMAND_MODELS = typing.get_args(typing.get_args(CaricatCommand)[0])
COMMAND_TYPES = sorted(typing.get_args(m.model_fields["type"].annotation)[0] for m in COMMAND_MODELS)
UNKNOWN_HEX, UNKNOWN_NAME = "9999", "nobody"
STEPS, EVERY = 100, 5
CLOSED = ("type", "level")  # closed vocabularies: another word is malformed, not illegal


def _plausible(model: type, state: Any, seat: str) -> dict[str, Any]:
    """A well-formed command of `model`'s type naming the seat's own pieces (the first by id)."""
    rules = state.rules
    units = sorted(u for u, x in rules.units.items() if x.side == seat and x.where == "map")
    enemies = sorted(u for u, x in rules.units.items() if x.side != seat and x.where == "map")
    leaders = sorted(k for k, x in rules.leaders.items() if x.side == seat and not x.gone)
    unit = units[0] if units else UNKNOWN_NAME
    here = rules.units[unit].hex if units else "0101"
    grid = registry.get("caricat").data.scenarios[rules.scenario].map.grid
    near = grid.neighbours(here)[0]
    values: dict[str, Any] = {
        "leader": leaders[0] if leaders else UNKNOWN_NAME, "level": "attack", "unit": unit, "path": [here, near],
        "units": [unit], "target": enemies[0] if enemies else UNKNOWN_NAME, "attacker": unit, "attempt": True,
        "hex": near, "fire": True,
    }
    fields = {name: values[name] for name in model.model_fields if name != "type"}
    return {"type": typing.get_args(model.model_fields["type"].annotation)[0], **fields}


def _with_unknown_name(command: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for key, value in command.items():
        if key in CLOSED:
            continue
        if isinstance(value, str):
            yield {**command, key: UNKNOWN_HEX if key == "hex" else UNKNOWN_NAME}
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            yield {**command, key: [*value[:-1], UNKNOWN_HEX if key == "path" else UNKNOWN_NAME]}


class Probe:
    def __init__(self, app: Arbitro, game: str) -> None:
        self.app, self.game = app, game
        self.ruleset = registry.get("caricat")
        self.adjudicator = app.adjudicator("caricat")
        self.failures: list[str] = []
        self.rejected: dict[str, int] = {}

    def expect_rejected(self, seat: str, command: dict[str, Any], why: str) -> None:
        state = self.app.state_at(self.game)
        try:
            self.adjudicator.decide(state, seat, command, self.app.context(self.app.game(self.game)),
                                    self.app.replayer(self.game), SeededSupply("00" * 32))
        except Rejected as e:
            if not CITATION.match(e.rule):
                self.failures.append(f"#{state.core.seq} {why}: {command} rejected without a citation: {e}")
            self.rejected[command["type"]] = self.rejected.get(command["type"], 0) + 1
            return
        except MalformedCommand as e:
            self.failures.append(f"#{state.core.seq} {why}: {command} refused as malformed, not by a rule: {e}")
            return
        self.failures.append(f"#{state.core.seq} {why}: {command} by {seat} was accepted")

    def check_here(self) -> None:
        state = self.app.state_at(self.game)
        seats = self.ruleset.seats(state.rules)
        for seat in self.app.awaiting(self.game).seats:
            legal = self.app.legal(self.game, seat)
            offered = {c["type"] for c in legal}
            for model in COMMAND_MODELS:
                command = _plausible(model, state, seat)
                if command["type"] not in offered:
                    self.expect_rejected(seat, command, "a command of a type legal() does not offer")
            for command in legal[:4]:
                for bad in _with_unknown_name(command):
                    if bad not in legal:
                        self.expect_rejected(seat, bad, "a legal command naming what does not exist")
                for other in seats:
                    if other != seat and command not in self.app.legal(self.game, other):
                        self.expect_rejected(other, command, "the other seat's command")


@pytest.fixture(scope="module", params=[("pastrengo", False), ("montebello", False), ("pastrengo", True)],
                ids=lambda p: f"{p[0]}{'-all-options' if p[1] else ''}")
def probed(request: pytest.FixtureRequest) -> Probe:
    scenario, all_options = request.param
    app = Arbitro(SQLiteStore(":memory:"))
    options = tuple(registry.get("caricat").scenarios()[scenario].options) if all_options else ()
    game = app.create("caricat", scenario, options)
    probe = Probe(app, game)
    play = SelfPlay(app, game, seed=f"illegal-{scenario}", chooser=Chooser(app, game, f"illegal-{scenario}"))
    for step in range(STEPS):
        if step % EVERY == 0:
            probe.check_here()
        if not play.step():
            break
    return probe


def test_every_illegal_command_is_rejected_with_its_citation(probed: Probe) -> None:
    assert probed.failures == [], "\n".join(probed.failures[:8])


def test_every_command_type_was_probed_illegal(probed: Probe) -> None:
    assert sorted(probed.rejected) == COMMAND_TYPES


def test_the_command_types_are_all_probed() -> None:
    rules = registry.get("caricat").new_state("pastrengo", ())
    state = type("S", (), {"rules": rules})()
    for model in COMMAND_MODELS:
        model.model_validate(_plausible(model, state, "italian"))
