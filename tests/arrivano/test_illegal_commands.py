"""Illegal commands of every kind are rejected with their citation (issue 5, "Done when"), probed by
tests/illegal_probe.py.

Through self-played games of both scenarios (every option on too), at regular points of play:
- every command type the ruleset defines, built from plausible values (the seat's own unit, a neighbouring hex, its
  formation, its commander), is rejected with an `arrivano §` / `arbitro §` citation whenever legal() offers no
  command of that type at that point (wrong step, wrong phase, no pending decision of that kind);
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
from arbitro.adjudicator.arrivano.commands import ArrivanoCommand
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore

from tests.arrivano.full_game import chooser
from tests.illegal_probe import Probe

CITATION = re.compile(r"^(arrivano|arbitro) §[A-Z0-9]")
COMMAND_MODELS = typing.get_args(typing.get_args(ArrivanoCommand)[0])
COMMAND_TYPES = sorted(typing.get_args(m.model_fields["type"].annotation)[0] for m in COMMAND_MODELS)
UNKNOWN_HEX = "0101x"  # well-formed, on no map
UNKNOWN_XXYY = "9999"  # a hex as both books number it (the kernel's HexStr: bombard, defensive fire, advance's to)
# the rest: "nowhere"; `to` is a HexStr in an advance, a plain id in a move: the XXYY form is well-formed in both
UNKNOWN = {key: UNKNOWN_HEX for key in ("charge", "hex", "targets")} | {"target": UNKNOWN_XXYY, "to": UNKNOWN_XXYY}
CLOSED = ("type", "order", "choice")  # closed vocabularies: another word is malformed, not illegal
STEPS, EVERY = 240, 6


def _plausible(model: type, rules: Any, seat: str) -> dict[str, Any]:
    """A well-formed command of `model`'s type that names the seat's own pieces (the first by id)."""
    units = sorted(u for u, x in rules.units.items() if x.side == seat and x.where == "map")
    leaders = sorted(lid for lid, x in rules.leaders.items() if x.side == seat and x.where == "map")
    formations = sorted(f for f, x in rules.formations.items() if x.side == seat)
    unit = units[0] if units else "nobody"
    here = rules.units[unit].hex if units else "0101"
    grid = registry.get("arrivano").data.scenarios[rules.scenario].map.grid
    near = grid.neighbours(here)[0] if units else "0102"
    values: dict[str, Any] = {
        "formation": formations[0], "order": "attack", "officer": leaders[0] if leaders else "nobody",
        "units": [unit], "attackers": [unit], "targets": [near], "target": near, "unit": unit, "to": near,
        "leader": leaders[0] if leaders else "nobody", "column": False, "charge": None, "choice": "hold",
        "test": True, "hex": near, "value": 3, "off_map": False, "artillery": unit, "use_general": True,
    }
    fields = {name: values[name] for name in model.model_fields if name != "type"}
    for name, info in model.model_fields.items():  # `artillery`: one gun (defensive_fire), a list of guns (bombard)
        if name in fields and typing.get_origin(info.annotation) is list and not isinstance(fields[name], list):
            fields[name] = [fields[name]]
    return {"type": typing.get_args(model.model_fields["type"].annotation)[0], **fields}


@pytest.fixture(scope="module", params=[("montebello", False), ("campotenese", False), ("montebello", True),
                                        ("campotenese", True)], ids=lambda p: f"{p[0]}{'-all-options' if p[1] else ''}")
def probed(request: pytest.FixtureRequest) -> Probe:
    scenario, all_options = request.param
    app = Arbitro(SQLiteStore(":memory:"))
    options = tuple(registry.get("arrivano").scenarios()[scenario].options) if all_options else ()
    game = app.create("arrivano", scenario, options)
    probe = Probe(app, game, "arrivano", CITATION, COMMAND_MODELS, _plausible, closed=CLOSED, unknown=UNKNOWN,
                  per_point=4)
    play = SelfPlay(app, game, seed=f"illegal-{scenario}", chooser=chooser(f"illegal-{scenario}", app, game))
    return probe.through(play, STEPS, EVERY)


def test_every_illegal_command_is_rejected_with_its_citation(probed: Probe) -> None:
    assert probed.failures == [], "\n".join(probed.failures[:8])


def test_every_command_type_was_probed_illegal(probed: Probe) -> None:
    assert sorted(probed.rejected) == COMMAND_TYPES


def test_the_command_types_are_all_probed() -> None:
    """A new command type must be buildable by _plausible (else this test names the field to add)."""
    rules = registry.get("arrivano").new_state("montebello", ())
    for model in COMMAND_MODELS:
        command = _plausible(model, rules, "france")
        model.model_validate(command)
