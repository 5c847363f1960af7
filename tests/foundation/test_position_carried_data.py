"""A position's state that carries its own data files (saved from a game with overrides or on its own data folder,
or written by hand) plays on them only as non-standard: each file not the shipped one is named by `status` to every
seat, the genesis's data_hash is theirs, and verify names them (review rev-fidelity 1), for every ruleset with a
data folder; carried files the same as the shipped ones are dropped, so the game plays and hashes the shipped data."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import BadPosition
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.views import UMPIRE_ONLY

SCENARIO = {"caldiero": "historical", "arrivano": "campotenese", "caricat": "montebello", "marengo": "marengo",
            "monferrato": "1628"}
OVERRIDE: dict[str, tuple[dict[str, Any], str]] = {  # an override, and the file it changes
    "caldiero": ({"kind": "crt", "column": "3-1", "roll": 4, "result": "Ex"}, "crt.json"),
    "arrivano": ({"kind": "crt", "column": "3-1", "roll": 4, "result": "Ex"}, "tables/crt.json"),
    "caricat": ({"kind": "unit", "unit": "fr74", "morale": 2}, "montebello.json"),
    "marengo": ({"kind": "block", "block": "AUT_ZACH", "strength": 3}, "armies.json"),
    "monferrato": ({"kind": "unit", "unit": "spa_inf1", "fire": 6}, "oob.json"),
}


def _position(app: Arbitro, ruleset: str, scenario: str | None = None) -> dict[str, Any]:
    return app.position(app.create(ruleset, scenario or SCENARIO[ruleset]), seat="umpire")


@pytest.mark.parametrize("ruleset", sorted(OVERRIDE))
def test_a_position_saved_from_an_overridden_game_names_the_changed_file(ruleset: str) -> None:
    app, r = Arbitro(SQLiteStore(":memory:")), registry.get(ruleset)
    override, changed = OVERRIDE[ruleset]
    overridden = app.create(ruleset, position={**_position(app, ruleset), "overrides": [override]})
    again = app.create(ruleset, position=app.position(overridden, seat="umpire"))  # no overrides: the state carries them
    assert r.carried_data(app.state_at(again).rules) == r.carried_data(app.state_at(overridden).rules)
    for seat in app.game(again).seats:
        assert app.status(again, seat).non_standard == [f"data file {changed}: changed"]
    created = app.log(again, "umpire", 1, 1)[0]["event"]
    assert created["data_hash"] == r.data_hash(r.carried_data(app.state_at(again).rules)) != r.data_hash()
    for gid in (overridden, again):
        report = app.verify(gid)
        data = next(c for c in report.checks if c.name == "scenario data")
        assert report.passed and data.status == "passed" and f"{changed} (changed)" in data.detail, data


@pytest.mark.parametrize("ruleset", sorted(OVERRIDE))
def test_carried_files_the_same_as_the_shipped_ones_play_the_shipped_data(ruleset: str) -> None:
    app, r = Arbitro(SQLiteStore(":memory:")), registry.get(ruleset)
    position = _position(app, ruleset)
    reformatted = {name: json.dumps(json.loads(text), indent=3) for name, text in r.shipped_data().items()}
    gid = app.create(ruleset, position={**position, "state": {**position["state"], "data_files": reformatted}})
    assert r.carried_data(app.state_at(gid).rules) == {}
    assert app.status(gid, "umpire").non_standard == []
    assert app.log(gid, "umpire", 1, 1)[0]["event"]["data_hash"] == r.data_hash()


@pytest.mark.parametrize("ruleset", sorted(OVERRIDE))
def test_carried_files_that_do_not_load_refuse_the_position(ruleset: str) -> None:
    app, r = Arbitro(SQLiteStore(":memory:")), registry.get(ruleset)
    position = _position(app, ruleset)
    _, changed = OVERRIDE[ruleset]
    broken = {**r.shipped_data(), changed: "{"}
    with pytest.raises(BadPosition, match=changed.replace("/", ".")):
        app.create(ruleset, position={**position, "state": {**position["state"], "data_files": broken}})


@pytest.mark.parametrize("ruleset, scenario, override, values", [
    ("arrivano", "montebello", {"kind": "unit", "unit": "mariassy-jager"}, ("efficiency", 1, 5)),  # fog of war
    ("marengo", "marengo", {"kind": "block", "block": "AUT_ZACH"}, ("strength", 2, 3)),  # a block's is its owner's
])
def test_the_data_hash_of_overridden_data_is_not_served_to_a_seat(
    ruleset: str, scenario: str, override: dict[str, Any], values: tuple[str, int, int]
) -> None:
    """Two games from one position differing only in an overridden hidden value serve every seat the same genesis once
    the seed's commitment and the salted position digest are set aside: the data hash over the changed files is the umpire's only."""
    field, one, other = values
    served: list[list[dict[str, Any]]] = []
    position = _position(Arbitro(SQLiteStore(":memory:")), ruleset, scenario)
    for value in (one, other):
        app = Arbitro(SQLiteStore(":memory:"))
        gid = app.create(ruleset, position={**position, "overrides": [{**override, field: value}]})
        genesis = [app.log(gid, seat, 1, 1)[0]["event"] for seat in app.game(gid).seats]
        for event in genesis:  # each game's own seed: its commitment, and the position digest keyed by it
            event["origin"].pop("position"), event.pop("seed_commitment")
        served.append(genesis)
        assert app.log(gid, "umpire", 1, 1)[0]["event"]["data_hash"] != r_hash(ruleset)
        assert all(event["data_hash"] == UMPIRE_ONLY for event in genesis), "each seat is told whose the hash is"
    assert served[0] == served[1]


def r_hash(ruleset: str) -> str:
    return registry.get(ruleset).data_hash()
