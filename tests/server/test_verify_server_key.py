"""`POST /verify?server_key=KEY`: a seat that posts its export with the server key it was told (or its fingerprint)
has the seal passed or failed, not left unchecked (engine-rules §L.9), as `arbitro verify FILE --server-key` does;
a key that is neither a key nor a fingerprint is refused (400), never read as "no key"."""

from __future__ import annotations

import json
from typing import Any

from arbitro.events import signing

from .conftest import Server


def _seat_views(server: Server, game: str, export: bytes, **query: str) -> tuple[bool, dict[str, Any]]:
    response = server.client("red", game).post("/verify", content=export, params=query)
    assert response.status_code == 200, response.text
    (check,) = [c for c in response.json()["checks"] if c["name"] == "seat views"]
    return response.json()["passed"], check


def test_verify_takes_the_server_key_the_seat_was_told(server: Server) -> None:
    game = server.new()
    export = server.client("red", game).get(f"/games/{game}/export").content
    key = json.loads(export.splitlines()[0])["server_key"]
    assert _seat_views(server, game, export)[1]["status"] == "unchecked"
    passed, check = _seat_views(server, game, export, server_key=signing.fingerprint(key))
    assert passed is True and check["detail"].endswith("the server key you gave")
    other = signing.fingerprint(signing.public_key(signing.new_private_key()))
    passed, check = _seat_views(server, game, export, server_key=other)
    assert passed is False and check["status"] == "failed" and f"not by the server key {other} you gave" in check["detail"]
    refused = server.client("red", game).post("/verify", content=export, params={"server_key": "the umpire's"})
    assert refused.status_code == 400 and refused.json()["message"].startswith(
        "server_key \"the umpire's\": give the server's public key (64 lowercase hex digits) or its fingerprint")


def test_verify_takes_the_seats_own_keys(server: Server) -> None:
    """`POST /verify?seat_key=SEAT=KEY` (repeatable), as `arbitro verify --seat-key`: the one check a host who drops a
    seat's key and re-seals cannot pass (engine-rules §L.6). Without it a seat's signatures are unchecked."""
    game = server.new()
    client = server.client("red", game)
    export = client.get(f"/games/{game}/export").content

    def signatures(**query: Any) -> tuple[bool, dict[str, Any]]:
        response = client.post("/verify", content=export, params=query)
        assert response.status_code == 200, response.text
        (check,) = [c for c in response.json()["checks"] if c["name"] == "seat signatures"]
        return response.json()["passed"], check

    assert signatures()[1]["detail"].startswith("this file says red registered no key")
    mine = signing.public_key(signing.new_private_key())
    passed, check = signatures(seat_key=[f"red={mine}"])
    assert passed is False and check["detail"].startswith(f"the file does not carry red's key {mine[:16]}...")
    refused = client.post("/verify", content=export, params={"seat_key": "red"})
    assert refused.status_code == 400 and refused.json()["message"].startswith("seat_key 'red': write SEAT=PUBLIC_KEY")
