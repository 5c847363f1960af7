"""Illegal commands of every kind are rejected with their citation (issue 11, "Done when"), probed over a self-played
game at regular points, as tests/arrivano/test_illegal_commands.py does:
- every command type, built from plausible values (the seat's own unit, its zone, a chit in its hand), is rejected
  with a `monferrato §` / `arbitro §` citation whenever legal() offers no command of that type;
- every command legal() offers, with one of its names replaced by one that does not exist, is rejected;
- the commands one seat may send, sent by the other seat, are rejected.
A guard test keeps the list of command types complete as the ruleset grows."""

from __future__ import annotations

import re
import typing
from collections.abc import Iterator
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import MalformedCommand, Rejected
from arbitro.adjudicator.monferrato.commands import MonferratoCommand
from arbitro.adjudicator.monferrato.data import load
from arbitro.adjudicator.randomness import SeededSupply
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore

CITATION = re.compile(r"^(monferrato|arbitro) §[A-Za-z0-9]")
COMMAND_MODELS = typing.get_args(typing.get_args(MonferratoCommand)[0])
COMMAND_TYPES = sorted(typing.get_args(m.model_fields["type"].annotation)[0] for m in COMMAND_MODELS)
STEPS, EVERY = 200, 5
D = load()


def plausible(model: type, rules: Any, seat: str) -> dict[str, Any]:
    units = sorted(u for u, x in rules.units.items() if x.zone in D.zones and D.faction(u) == seat)
    unit = units[0] if units else "nobody"
    here = rules.units[unit].zone if units else "casale"
    hand = sorted(rules.hands.get(seat, [])) or ["chit01"]
    values: dict[str, Any] = {"zones": [here], "commander": None, "chit": hand[0], "units": [unit],
                              "path": [D.neighbours(here)[0]], "unit": unit, "go": True, "to": D.neighbours(here)[0],
                              "target": D.neighbours(here)[0], "operation": "mine", "side": "casale/trino",
                              "action": "build", "convert": 0, "destroy_town": False,
                              "zone": here, "leave": {}}
    fields = {name: values[name] for name in model.model_fields if name != "type"}
    return {"type": typing.get_args(model.model_fields["type"].annotation)[0], **fields}


def with_unknown_name(command: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for key, value in command.items():
        if key in ("type", "operation", "action"):  # closed vocabularies: another word is malformed, not illegal
            continue
        if isinstance(value, str):
            yield {**command, key: "nowhere"}
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            yield {**command, key: [*value[:-1], "nowhere"]}


class Probe:
    def __init__(self, app: Arbitro, game: str) -> None:
        self.app, self.game = app, game
        self.ruleset = registry.get("monferrato")
        self.adjudicator = app.adjudicator("monferrato")
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
        except Exception as e:  # noqa: BLE001 - any other exception is a defect to report
            self.failures.append(f"#{state.core.seq} {why}: {command} raised {type(e).__name__}: {e}")
            return
        self.failures.append(f"#{state.core.seq} {why}: {command} by {seat} was accepted")

    def check_here(self) -> None:
        state = self.app.state_at(self.game)
        seats = self.ruleset.seats(state.rules)
        for seat in seats:
            legal = self.app.legal(self.game, seat)
            offered = {c["type"] for c in legal}
            for model in COMMAND_MODELS:
                command = plausible(model, state.rules, seat)
                if command["type"] not in offered:
                    self.expect_rejected(seat, command, "a command of a type legal() does not offer")
            for command in legal[:6]:
                for bad in with_unknown_name(command):
                    self.expect_rejected(seat, bad, "a legal command naming what does not exist")
                for other in seats:
                    if other != seat and command not in self.app.legal(self.game, other):
                        self.expect_rejected(other, command, "the other seat's command")


@pytest.fixture(scope="module")
def probed() -> Probe:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("monferrato", "1628")
    probe = Probe(app, game)
    play = SelfPlay(app, game, seed="illegal-monferrato")
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
    """A new command type must be buildable by `plausible` (else this names the field to add)."""
    rules = registry.get("monferrato").new_state("1628", ())
    for model in COMMAND_MODELS:
        plausible(model, rules, "pro_france")
