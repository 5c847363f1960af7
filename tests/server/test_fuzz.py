"""Schemathesis fuzzes every endpoint from the server's own OpenAPI schema, through real HTTP, as a seat, as the
umpire and as the host: no request may cause a server error (5xx), and a refused request (4xx) changes nothing
stored (the games, each game's head, command count, notes and keys). Examples are bounded so that the whole run
stays well under a minute; game ids are the real game's, so requests reach the handlers rather than stop at 403."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from arbitro.adjudicator.server import create_app
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore

from .conftest import Server, serve

SCHEMA = schemathesis.openapi.from_dict(create_app(Arbitro(SQLiteStore(":memory:")), "unused").openapi())


@pytest.fixture(scope="module")
def fuzzed() -> Iterator[tuple[Server, str]]:
    server = serve(":memory:")
    game = server.new()
    yield server, game
    server.stop()


def stored(server: Server) -> Any:
    """Everything a request could change, read through the library."""
    app = server.app
    return [(g.id, g.head_seq, g.head_cmd, len(app.store.annotations(g.id)), app.store.seat_keys(g.id))
            for g in app.store.games()]


@pytest.mark.parametrize("role", ["red", "umpire", "host"])
@SCHEMA.parametrize()
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_request_causes_a_server_error_and_no_refused_one_changes_anything(
        fuzzed: tuple[Server, str], role: str, case: Any) -> None:
    server, game = fuzzed
    if (role == "host") == ("game_id" in (case.path_parameters or {})) and case.path != "/verify":
        pytest.skip("refused at the boundary whatever the request: the authority table covers it")
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters["game_id"] = game
    if case.path.endswith("/stream"):
        case.query = {**(case.query or {}), "follow": "false"}  # a followed stream never ends
    token = server.tokens[game][role] if role != "host" else server.host.headers["authorization"].split()[1]
    before = stored(server)
    response = case.call(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=60)
    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:500])
    if response.status_code >= 400:
        assert stored(server) == before, (case.method, case.formatted_path, response.status_code, response.text[:300])
        assert response.json()["error"], response.text  # every refusal is JSON with a stable code
