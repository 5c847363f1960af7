"""A seat's map picture (render, GET /games/{id}/picture, the viewer, the report) is drawn on the shipped data, not
on the game's own data files, whose values are the umpire's: the non-interference test of
tests/foundation/test_position_carried_data.py carried to the picture (review rev-fidelity2 1). Two games differing
only in a hidden value of their own data draw the same picture for a seat that may not know it, and its caption says
the game plays on data of its own; the umpire's picture is drawn on it (tests/pictures/test_own_data.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator import exchange
from arbitro.adjudicator.render import OWN_DATA_NOTICE, render
from arbitro.adjudicator.seatcopy import SeatCopy
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.base import UMPIRE
from tests.foundation.test_position_carried_data import FOLDER_VALUE, SCENARIO, _position, _with_value


@pytest.mark.parametrize("ruleset, scenario, override, values", [
    ("arrivano", "montebello", {"kind": "unit", "unit": "mariassy-jager"}, ("efficiency", 1, 5)),  # fog of war
])
def test_an_overridden_hidden_value_draws_the_same_picture_for_a_seat(
    ruleset: str, scenario: str, override: dict[str, Any], values: tuple[str, int, int]
) -> None:
    field, one, other = values
    override_owner = "austria"  # its own counter: the owner may know it
    position = _position(Arbitro(SQLiteStore(":memory:")), ruleset, scenario)
    drawn: list[dict[str, Any]] = []
    for value in (one, other):
        app = Arbitro(SQLiteStore(":memory:"))
        gid = app.create(ruleset, position={**position, "overrides": [{**override, field: value}]})
        drawn.append({seat: render(app, gid, seat).svg for seat in app.game(gid).seats if seat != override_owner})
    assert drawn[0] == drawn[1]


@pytest.mark.parametrize("ruleset", ["arrivano", "caldiero", "caricat", "monferrato"])  # marengo: each game's seed deploys otherwise
def test_a_data_folder_s_hidden_value_draws_the_same_picture_for_a_blind_seat(ruleset: str) -> None:
    """FOLDER_VALUE's own premise: the seats named there may not know the value (its status and genesis are
    withheld from them). Their pictures must not show it either."""
    r = registry.get(ruleset)
    name, key, prefix, blind = FOLDER_VALUE[ruleset]
    shipped = r.shipped_data()[name]
    drawn: list[dict[str, str]] = []
    for value in [v for v in (1, 2, 3) if _with_value(shipped, key, v, prefix) != json.dumps(json.loads(shipped))][:2]:
        app = Arbitro(SQLiteStore(":memory:"))
        gid = app.create(ruleset, SCENARIO[ruleset] if ruleset != "arrivano" else "montebello",
                         data={**r.shipped_data(), name: _with_value(shipped, key, value, prefix)}, game_id="g")
        drawn.append({seat: render(app, gid, seat).svg for seat in blind})
        assert all(render(app, gid, seat).drawn["caption"].endswith(OWN_DATA_NOTICE) for seat in blind)
        assert OWN_DATA_NOTICE not in render(app, gid, UMPIRE).drawn["caption"]
    assert drawn[0] == drawn[1]


def test_a_seat_draws_the_same_picture_online_and_from_its_offline_copy() -> None:
    """One rule for a seat's picture, whoever draws it: the server's (render on the game) and the seat's own copy's
    (render on its export, seatcopy.played_data) are the same bytes, on the shipped data with the notice."""
    r = registry.get("caldiero")
    name, key, prefix, (seat, *_) = FOLDER_VALUE["caldiero"]
    app = Arbitro(SQLiteStore(":memory:"))
    gid = app.create("caldiero", SCENARIO["caldiero"], game_id="g",
                     data={**r.shipped_data(), name: _with_value(r.shipped_data()[name], key, 2, prefix)})
    online = render(app, gid, seat)
    offline = render(SeatCopy(exchange.read_lines(app.export(gid, seat))), gid, seat)  # type: ignore[arg-type]
    assert online.svg == offline.svg and online.drawn["caption"].endswith(OWN_DATA_NOTICE)
