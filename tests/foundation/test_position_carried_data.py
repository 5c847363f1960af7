"""A position's state that carries its own data files (saved from a game with overrides or on its own data folder,
or written by hand) plays on them only as non-standard: each file not the shipped one is named by `status` to every
seat, the genesis's data_hash is theirs, and verify names them (review rev-fidelity 1), for every ruleset with a
data folder; carried files the same as the shipped ones are dropped, so the game plays and hashes the shipped data."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.creation import mark_own_data
from arbitro.adjudicator.errors import BadPosition
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.views import UMPIRE_ONLY, served_origin

SCENARIO = {"caldiero": "historical", "arrivano": "campotenese", "caricat": "montebello", "marengo": "marengo",
            "monferrato": "1628"}
OVERRIDE: dict[str, tuple[dict[str, Any], str]] = {  # an override, and the file it changes
    "caldiero": ({"kind": "crt", "column": "3-1", "roll": 4, "result": "Ex"}, "tables/crt.json"),
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
        genesis = [app.log(gid, seat, 0, 0)[0]["events"][0]["event"] for seat in app.game(gid).seats]
        for event in genesis:  # each game's own seed and salt key: their commitments, the position digest keyed by one
            event["origin"].pop("position"), event.pop("seed_commitment"), event.pop("salt_key_commitment")
        served.append(genesis)
        assert app.log(gid, "umpire", 1, 1)[0]["event"]["data_hash"] != r_hash(ruleset)
        assert all(event["data_hash"] == UMPIRE_ONLY for event in genesis), "each seat is told whose the hash is"
    assert served[0] == served[1]


def r_hash(ruleset: str) -> str:
    return registry.get(ruleset).data_hash()


FOLDER_VALUE = {  # a data file, a printed value in it (of the first piece whose id starts so) and the seats that
    # may not know it: the enemy's under fog or face down; where the game hides no piece, every seat, since no view
    # holds a printed value and only the folder or its hash could tell it
    "caldiero": ("caldiero/oob.json", "efficiency", "", ("austria", "france")),
    "arrivano": ("montebello/oob.json", "efficiency", "", ("france",)),
    "caricat": ("montebello.json", "morale", "", ("austrian", "italian")),
    "marengo": ("armies.json", "strength", "AUT_ZACH", ("france",)),
    "monferrato": ("oob.json", "fire", "", ("pro_france", "pro_spain")),
}


def _with_value(text: str, key: str, value: int, prefix: str = "") -> str:
    """`text` (a JSON data file) with the first `key` holding an integer (in an entry whose id starts with `prefix`)
    set to `value`."""
    data = json.loads(text)

    def first(node: Any) -> dict[str, Any] | None:
        if isinstance(node, dict):
            if isinstance(node.get(key), int) and not isinstance(node[key], bool) and \
                    str(node.get("id", "")).startswith(prefix):
                return node
            node = list(node.values())
        for child in node if isinstance(node, list) else ():
            if (found := first(child)) is not None:
                return found
        return None

    entry = first(data)
    assert entry is not None, key
    entry[key] = value
    return json.dumps(data)


@pytest.mark.parametrize("ruleset", sorted(FOLDER_VALUE))
def test_a_data_folder_s_hidden_value_is_served_to_no_seat(ruleset: str) -> None:
    """Two games on data folders differing only in one printed value (`arbitro new RULESET SCENARIO --data DIR`) serve
    every seat the same genesis and status, its seed commitment set aside: the folder and its hash are the umpire's
    (creation.mark_own_data, views.served_origin); what differs is named, not what it holds."""
    r = registry.get(ruleset)
    name, key, prefix, blind = FOLDER_VALUE[ruleset]
    served: list[list[Any]] = []
    shipped = r.shipped_data()[name]
    for value in [v for v in (1, 2, 3) if _with_value(shipped, key, v, prefix) != json.dumps(json.loads(shipped))][:2]:
        files = {**r.shipped_data(), name: _with_value(shipped, key, value, prefix)}
        app = Arbitro(SQLiteStore(":memory:"))
        gid = app.create(ruleset, SCENARIO[ruleset] if ruleset != "arrivano" else "montebello", data=files, game_id="g")
        assert app.log(gid, "umpire", 1, 1)[0]["event"]["origin"]["data"] == files
        assert set(blind) <= set(app.game(gid).seats)
        seen = []
        for seat in blind:
            event = app.log(gid, seat, 0, 0)[0]["events"][0]["event"]  # command #0's first: the genesis (§V.6)
            event.pop("seed_commitment"), event.pop("salt_key_commitment")
            assert event["data_hash"] == event["origin"]["data"] == UMPIRE_ONLY
            status = app.status(gid, seat)
            assert status.non_standard == [f"data file {name}: changed"] and status.origin["data"] == UMPIRE_ONLY
            seen.append([event, status.origin, status.non_standard])
        served.append(seen)
    assert len(served) == 2 and served[0] == served[1]


def test_a_data_folder_the_same_as_the_shipped_one_is_standard_and_still_the_umpire_s() -> None:
    """Whether a folder is withheld does not hang on what it holds (creation.mark_own_data): one the same as the
    shipped data is named standard, and its hash is the umpire's as any folder's is."""
    r = registry.get("caricat")
    app = Arbitro(SQLiteStore(":memory:"))
    gid = app.create("caricat", "montebello", data=r.shipped_data())
    event = app.log(gid, "italian", 0, 0)[0]["events"][0]["event"]
    assert (event["data_hash"], event["origin"]["data"]) == (UMPIRE_ONLY, UMPIRE_ONLY)
    assert app.log(gid, "umpire", 1, 1)[0]["event"]["data_hash"] == r.data_hash()
    assert app.status(gid, "italian").non_standard == []


def test_what_withholds_the_data_hash_is_data_of_its_own_not_overrides() -> None:
    """The data hash is withheld because the game plays on data files of its own (creation.mark_own_data), not because
    its origin names overrides (every shipped ruleset's overrides write data files, so this is asked of the rule): a
    genesis naming overrides on a state that carries no data is not marked, one whose state carries files is."""
    r = registry.get("monferrato")
    state = r.new_state("1628", ())
    origin: dict[str, Any] = {"overrides": ["one infantry of milano: printed fire not the counter's (monferrato §2.1)"]}
    mark_own_data(origin, r, state)
    assert "own_data" not in origin and served_origin(origin, "pro_france") == origin
    carrying = r.adopt_data(state, r.shipped_data())
    mark_own_data(origin, r, carrying)
    assert origin["own_data"] is True
    assert served_origin({**origin, "data": {"oob.json": "{}"}}, "pro_france")["data"] == UMPIRE_ONLY
    assert served_origin({**origin, "data": {"oob.json": "{}"}}, "umpire")["data"] == {"oob.json": "{}"}


@pytest.mark.parametrize("ruleset", ["arrivano", "marengo"])
def test_a_fork_of_a_game_on_its_own_data_keeps_them_from_the_seats(ruleset: str) -> None:
    """A fork decides again where its genesis is made (service.fork calls creation.mark_own_data): the folder it
    carries over and the hash over it stay the umpire's."""
    r = registry.get(ruleset)
    name, key, prefix, blind = FOLDER_VALUE[ruleset]
    files = {**r.shipped_data(), name: _with_value(r.shipped_data()[name], key, 1, prefix)}
    app = Arbitro(SQLiteStore(":memory:"))
    gid = app.create(ruleset, "montebello" if ruleset == "arrivano" else SCENARIO[ruleset], data=files)
    child = app.fork(gid, app.game(gid).head_seq)
    genesis = app.log(child, "umpire", 1, 1)[0]["event"]
    assert genesis["origin"]["own_data"] is True and genesis["origin"]["data"] == files
    for seat in blind:
        served = app.log(child, seat, 0, 0)[0]["events"][0]["event"]
        assert served["data_hash"] == served["origin"]["data"] == app.status(child, seat).origin["data"] == UMPIRE_ONLY
