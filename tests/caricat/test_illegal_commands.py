"""Illegal commands of every kind are rejected with their citation (issue 10, "Done when"), probed by
tests/illegal_probe.py.

Through self-played games of both scenarios (every option on too), at regular points of play:
- every command type the ruleset defines, built from plausible values (the seat's own unit and leader, a
  neighbouring hex), is rejected with a `caricat §` / `arbitro §` citation whenever legal() offers no command of
  that type at that point (wrong phase, no activation, no pending decision of that kind);
- every command legal() offers, with one of its names or hexes replaced by one that does not exist, is rejected
  with a citation;
- the commands one seat may send, sent by the other seat, are rejected with a citation;
- every seat is probed, not only those awaited.
A guard test keeps the list of command types complete as the ruleset grows.
"""

from __future__ import annotations

import re
import typing
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.caricat.commands import CaricatCommand
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from bench.drivers.caricat import Chooser
from tests.illegal_probe import Probe

CITATION = re.compile(r"^(caricat|arbitro) §[A-Z0-9]")
COMMAND_MODELS = typing.get_args(typing.get_args(CaricatCommand)[0])
COMMAND_TYPES = sorted(typing.get_args(m.model_fields["type"].annotation)[0] for m in COMMAND_MODELS)
UNKNOWN_HEX, UNKNOWN_NAME = "9999", "nobody"  # a well-formed hex on no map (Caricat refuses "nowhere" as malformed)
UNKNOWN = {"hex": UNKNOWN_HEX, "path": UNKNOWN_HEX}  # the rest: "nowhere"
STEPS, EVERY = 100, 5
CLOSED = ("type", "level")  # closed vocabularies: another word is malformed, not illegal


def _plausible(model: type, rules: Any, seat: str) -> dict[str, Any]:
    """A well-formed command of `model`'s type naming the seat's own pieces (the first by id)."""
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


@pytest.fixture(scope="module", params=[("pastrengo", False), ("montebello", False), ("pastrengo", True)],
                ids=lambda p: f"{p[0]}{'-all-options' if p[1] else ''}")
def probed(request: pytest.FixtureRequest) -> Probe:
    scenario, all_options = request.param
    app = Arbitro(SQLiteStore(":memory:"))
    options = tuple(registry.get("caricat").scenarios()[scenario].options) if all_options else ()
    game = app.create("caricat", scenario, options)
    probe = Probe(app, game, "caricat", CITATION, COMMAND_MODELS, _plausible, closed=CLOSED, unknown=UNKNOWN,
                  per_point=4)
    play = SelfPlay(app, game, seed=f"illegal-{scenario}", chooser=Chooser(app, game, f"illegal-{scenario}"))
    return probe.through(play, STEPS, EVERY)


def test_every_illegal_command_is_rejected_with_its_citation(probed: Probe) -> None:
    assert probed.failures == [], "\n".join(probed.failures[:8])


def test_every_command_type_was_probed_illegal(probed: Probe) -> None:
    assert sorted(probed.rejected) == COMMAND_TYPES


def test_the_command_types_are_all_probed() -> None:
    rules = registry.get("caricat").new_state("pastrengo", ())
    for model in COMMAND_MODELS:
        model.model_validate(_plausible(model, rules, "italian"))
