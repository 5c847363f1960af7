"""Every endpoint x every role (each seat, the umpire, no token, a token of another game, the host): the status
each gets, through real HTTP. A seat reads and acts only as itself; what serves hidden content is the umpire's
(docs/engine-rules.md §A); the host makes, imports and lists games but plays in none; without a token nothing but
the rulesets. A refused request changes nothing: the game's head and tokens stay as they were."""

from __future__ import annotations

from typing import Any

import pytest

from fastapi.routing import APIRoute

from arbitro.adjudicator.server import create_app
from arbitro.adjudicator.service import Arbitro
from arbitro.events import signing
from arbitro.events.sqlite import SQLiteStore

from .conftest import Server

ROLES = ("red", "blue", "umpire", "none", "other", "host")
OK = {"red": 200, "blue": 200, "umpire": 200, "none": 401, "other": 403, "host": 403}  # a read any seat may make
UMPIRE_ONLY = {"red": 403, "blue": 403, "umpire": 200, "none": 401, "other": 403, "host": 403}
HOST_ONLY = {"red": 403, "blue": 403, "umpire": 403, "none": 401, "other": 403, "host": 201}


class Numbered(tuple[int, int]):
    """A number a request names, as (a seat's, the umpire's): a seat's numbers are its commands' (the opening is its
    command #0), the umpire's the log's (the opening's events #1 to #5; engine-rules §V.6)."""


def with_status(base: dict[str, int], **changes: int) -> dict[str, int]:
    return {**base, **changes}


# (name, method, path, json body or text body, query, expected status by role). `{g}` is the game; red is to move.
CASES: list[tuple[str, str, str, Any, dict[str, Any], dict[str, int]]] = [
    ("rulesets", "GET", "/rulesets", None, {}, dict.fromkeys(ROLES, 200)),
    ("games", "GET", "/games", None, {}, with_status(HOST_ONLY, host=200)),
    ("create", "POST", "/games", {"ruleset": "duel", "scenario": "standard"}, {}, HOST_ONLY),
    ("import", "POST", "/games/import", "EXPORT", {"as_id": "copy"}, HOST_ONLY),
    ("verify a file", "POST", "/verify", "EXPORT", {}, with_status(OK, other=200, host=200)),
    ("status", "GET", "/games/{g}", None, {}, OK),
    ("status as blue", "GET", "/games/{g}", None, {"seat": "blue"}, with_status(OK, red=403)),
    ("seat", "GET", "/games/{g}/seat", None, {}, OK),
    ("clock", "GET", "/games/{g}/clock", None, {}, OK),
    ("clock as red", "GET", "/games/{g}/clock", None, {"seat": "red"}, with_status(OK, blue=403)),
    ("awaiting", "GET", "/games/{g}/awaiting", None, {"at": Numbered((0, 3))}, OK),
    ("awaiting as red", "GET", "/games/{g}/awaiting", None, {"seat": "red"}, with_status(OK, blue=403)),
    ("legal", "GET", "/games/{g}/legal", None, {}, OK),
    ("legal as blue", "GET", "/games/{g}/legal", None, {"seat": "blue"}, with_status(OK, red=403)),
    ("view", "GET", "/games/{g}/view", None, {"at": Numbered((0, 3))}, OK),
    ("view as red", "GET", "/games/{g}/view", None, {"seat": "red"}, with_status(OK, blue=403)),
    ("events", "GET", "/games/{g}/events", None, {"from": 2}, OK),
    ("events as blue", "GET", "/games/{g}/events", None, {"seat": "blue"}, with_status(OK, red=403)),
    ("stream", "GET", "/games/{g}/stream", None, {"follow": "false"}, OK),
    ("stream as red", "GET", "/games/{g}/stream", None, {"follow": "false", "seat": "red"}, with_status(OK, blue=403)),
    ("picture", "GET", "/games/{g}/picture", None, {"at": Numbered((0, 3))}, OK),
    ("picture as blue", "GET", "/games/{g}/picture", None, {"seat": "blue"}, with_status(OK, red=403)),
    ("viewer", "GET", "/games/{g}/viewer", None, {}, dict.fromkeys(ROLES, 200)),  # the page holds no game's data
    ("notes", "GET", "/games/{g}/notes", None, {}, OK),
    ("replay", "GET", "/games/{g}/replay", None, {"to": Numbered((0, 4))}, OK),
    ("export", "GET", "/games/{g}/export", None, {}, OK),
    ("export with the seed", "GET", "/games/{g}/export", None, {"with_seed": "true"}, with_status(OK, red=403, blue=403)),
    ("verify", "GET", "/games/{g}/verify", None, {}, UMPIRE_ONLY),
    ("position", "GET", "/games/{g}/position", None, {}, UMPIRE_ONLY),
    ("submit", "POST", "/games/{g}/commands", {"command": {"type": "end_turn"}}, {}, with_status(OK, blue=422, umpire=422)),
    ("mail", "POST", "/games/{g}/mail", '{"type": "end_turn"}', {}, with_status(OK, blue=422, umpire=422)),
    ("mail in red's name", "POST", "/games/{g}/mail", '{"seat": "red", "command": {"type": "end_turn"}}', {},
     with_status(OK, blue=403, umpire=403)),
    ("entropy", "POST", "/games/{g}/entropy", {"commitment": "e" * 64}, {}, with_status(OK, umpire=422)),
    ("undo", "POST", "/games/{g}/undo", {"to": Numbered((0, 5)), "reason": "misclick"}, {}, OK),
    ("consent", "POST", "/games/{g}/consent", {"accept": True}, {}, with_status(OK, red=422, blue=422, umpire=422)),
    ("annotate", "POST", "/games/{g}/notes", {"at": 1, "text": "a note"}, {},
     with_status(OK, red=201, blue=201, umpire=201)),
    ("register a key", "POST", "/games/{g}/keys", {"public_key": "KEY"}, {},
     with_status(OK, red=201, blue=201, umpire=422)),  # the umpire registers none (arbitro §L.6; rev-s S7)
    ("withdraw a key", "POST", "/games/{g}/keys/red/withdraw", {"reason": "lost"}, {},
     with_status(UMPIRE_ONLY, umpire=422)),  # red registered none: the umpire's refusal cites arbitro §L.6
    ("ruling", "POST", "/games/{g}/rulings", {"reason": "errata", "interpretation": {"miss_bonus": "none"}}, {},
     UMPIRE_ONLY),
    ("reveal", "POST", "/games/{g}/reveal", {"reason": "dispute", "expose_hidden": True}, {}, UMPIRE_ONLY),
    ("prove", "POST", "/games/{g}/prove", {"index": 0}, {}, with_status(UMPIRE_ONLY, umpire=422)),  # no provable rolls
    ("fork", "POST", "/games/{g}/fork", {"at": 5}, {}, with_status(UMPIRE_ONLY, umpire=201)),
    ("invite", "POST", "/games/{g}/invite", {"seats": ["red"]}, {}, with_status(UMPIRE_ONLY, umpire=201, host=201)),
    ("disputes", "GET", "/games/{g}/disputes", None, {}, OK),
    ("disputes as red", "GET", "/games/{g}/disputes", None, {"seat": "red"}, with_status(OK, blue=403)),
    ("knowledge", "GET", "/games/{g}/knowledge", None, {"at": Numbered((0, 3))}, OK),
    ("knowledge as blue", "GET", "/games/{g}/knowledge", None, {"seat": "blue", "about": "red"},
     with_status(OK, red=403)),
    # a seat's numbers are commands (#0: the creation), the umpire's events (engine-rules §V.6)
    ("open a dispute", "POST", "/games/{g}/disputes", {"about": [0], "text": "a claim"}, {}, with_status(OK, umpire=422)),
    ("answer a dispute", "POST", "/games/{g}/disputes/1/replies", {"text": "an answer"}, {}, OK),
    ("rule on a dispute", "POST", "/games/{g}/disputes/1/ruling", {"outcome": "dismissed", "text": "it stands"}, {},
     UMPIRE_ONLY),
    ("amend", "POST", "/games/{g}/amend", {"at": 6, "command": {"type": "end_turn"}}, {},
     with_status(UMPIRE_ONLY, umpire=201)),
]
DISPUTED = ("answer a dispute", "rule on a dispute")  # red opened dispute 1 first


def request(server: Server, role: str, game: str, other: str, case: tuple[Any, ...]) -> Any:
    _, method, path, body, query, _ = case
    client = (server.client() if role == "none" else server.host if role == "host"
              else server.client("umpire", other) if role == "other" else server.client(role, game))
    if body == "EXPORT":
        body = "\n".join(server.app.export(game, "umpire")) + "\n"
    if body == {"public_key": "KEY"}:
        body = {"public_key": signing.public_key(signing.new_private_key())}
    params = {k: v[role == "umpire"] if isinstance(v, Numbered) else v for k, v in query.items()}
    kwargs: dict[str, Any] = {"params": params}
    if isinstance(body, dict):
        body = {k: v[role == "umpire"] if isinstance(v, Numbered) else v for k, v in body.items()}
    if isinstance(body, str):
        kwargs["content"] = body.encode()
    elif body is not None:
        kwargs["json"] = body
    return client.request(method, path.format(g=game), **kwargs)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_every_endpoint_refuses_or_serves_each_role_as_its_authority_allows(server: Server, case: Any) -> None:
    other = server.new()
    for role in ROLES:
        game = server.new(seat_entropy=case[0] == "entropy")
        if case[0] in ("undo", "amend", "annotate"):  # red ended its turn (after the opening's #1 to #5): each may ask
            # to take it back, and annotate it (event #1 to the umpire, command #1 to a seat: engine-rules §V.6)
            server.app.submit(game, "red", {"type": "end_turn"})
        if case[0] == "amend":  # a generated game is amended only once its seed is revealed (arbitro §D.5)
            server.app.reveal(game, "for the amendment", seat="umpire", expose_hidden=True)
        if case[0] in DISPUTED:
            server.app.submit(game, "red", {"type": "dispute_open", "about": [0], "text": "a claim"})
        head = server.app.game(game).head_seq
        response = request(server, role, game, other, case)
        wanted = case[5][role]
        assert response.status_code == wanted, (role, response.status_code, response.text[:300])
        if wanted >= 400:
            body = response.json()
            assert body["error"] and body["message"], body  # a stable code and what went wrong
            assert server.app.game(game).head_seq == head, "a refused request appended"
            if wanted == 401:
                assert response.headers["www-authenticate"] == "Bearer"
        if wanted == 422:
            assert response.json()["rule"], "a rule's refusal cites it"


def test_a_seat_s_token_never_works_in_another_game_nor_after_a_new_invitation(server: Server) -> None:
    game = server.new()
    server.new()
    red = server.client("red", game)
    assert red.get(f"/games/{server.last}").status_code == 403
    assert red.get("/games/no-such-game").status_code == 403  # not 404: a token learns nothing of other games
    invited = server.client("umpire", game).post(f"/games/{game}/invite", json={"seats": ["red"]}).json()["tokens"]
    assert red.get(f"/games/{game}").status_code == 401  # the old token was replaced
    assert server.client(token=invited["red"]).get(f"/games/{game}").status_code == 200
    assert server.client(token="made-up").get(f"/games/{game}").json()["error"] == "auth/unauthenticated"


def test_every_route_is_walked() -> None:
    """reread-c: GET /seat, GET /awaiting and POST /prove were added this session without a row above, so no role's
    access to them was tried: each route the server has (but the OpenAPI pages) is a case of the table."""
    walked = {(method, path.replace("{g}", "{game_id}").replace("/disputes/1/", "/disputes/{number}/")
              .replace("/keys/red/", "/keys/{seat}/"))
              for _, method, path, *_ in CASES}
    served = {(method, route.path) for route in create_app(Arbitro(SQLiteStore(":memory:")), "host").routes
              if isinstance(route, APIRoute) for method in route.methods - {"HEAD"}}
    assert served - walked == set()
