"""Illegal commands of every kind are rejected with their citation (issue 11, "Done when"), probed over a self-played
game at regular points (tests/illegal_probe.py), as tests/arrivano/test_illegal_commands.py does:
- every command type, built from plausible values (the seat's own unit, its zone, a chit in its hand), is rejected
  with a `monferrato §` / `arbitro §` citation whenever legal() offers no command of that type;
- every command legal() offers, with one of its names replaced by one that does not exist, is rejected;
- the commands one seat may send, sent by the other seat, are rejected.
A guard test keeps the list of command types complete as the ruleset grows."""

from __future__ import annotations

import re
import typing
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.monferrato.commands import MonferratoCommand
from arbitro.adjudicator.monferrato.data import load
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from tests.illegal_probe import Probe

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
                              "zone": here, "leave": {}, "fire": 3}
    fields = {name: values[name] for name in model.model_fields if name != "type"}
    return {"type": typing.get_args(model.model_fields["type"].annotation)[0], **fields}


@pytest.fixture(scope="module")
def probed() -> Probe:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("monferrato", "1628")
    probe = Probe(app, game, "monferrato", CITATION, COMMAND_MODELS, plausible, closed=("type", "operation", "action"))
    return probe.through(SelfPlay(app, game, seed="illegal-monferrato"), STEPS, EVERY)


def test_every_illegal_command_is_rejected_with_its_citation(probed: Probe) -> None:
    assert probed.failures == [], "\n".join(probed.failures[:8])


def test_every_command_type_was_probed_illegal(probed: Probe) -> None:
    assert sorted(probed.rejected) == COMMAND_TYPES


def test_the_command_types_are_all_probed() -> None:
    """A new command type must be buildable by `plausible` (else this names the field to add)."""
    rules = registry.get("monferrato").new_state("1628", ())
    for model in COMMAND_MODELS:
        plausible(model, rules, "pro_france")
