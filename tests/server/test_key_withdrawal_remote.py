"""A seat's signing key withdrawn over HTTP and `arbitro remote withdraw-key` (arbitro §L.6): the umpire's route
`POST /games/{id}/keys/{seat}/withdraw`, refused to a seat (its own key or another's), answered as the local CLI
answers; the seat then registers a new key over HTTP and signs with it."""

from __future__ import annotations

import json
from pathlib import Path

from arbitro.events import signing

from .conftest import Server
from .test_cli_remote import local, remote, served  # noqa: F401 (fixture)

assert served is not None


def test_the_umpire_withdraws_a_seats_key_remotely_and_the_seat_registers_a_new_one(
        served: tuple[Server, Path], tmp_path: Path) -> None:  # noqa: F811
    server, db = served
    game = server.new()
    red, blue, umpire = (server.tokens[game][role] for role in ("red", "blue", "umpire"))
    old, new = signing.new_private_key(), signing.new_private_key()
    remote(server, red, "register-key", game, signing.public_key(old))
    args = ("withdraw-key", game, "--seat", "red", "--reason", "red's key file was lost")
    for seat, token in (("red", red), ("blue", blue)):  # a seat withdraws no key, its own or another's
        refused = remote(server, token, *args, code=1)
        assert refused.stderr == (f"error (authority/umpire-only): only the umpire may do this, not '{seat}': "
                                  "withdrawing a seat's signing key is the umpire's (arbitro §L.6) [arbitro §A.1]\n")
    answer = remote(server, umpire, *args).stdout
    assert f"red's key {signing.public_key(old)[:16]} is withdrawn (it covered commands 2 to 1); red is unsigned " \
           f"until it registers a new key (`register-key {game} --as red PUBLIC_KEY`)" in answer
    assert json.loads(local(db, "verify", game, "--json").stdout)["passed"]
    again = remote(server, umpire, *args, code=1)
    assert "red has no signing key in force: nothing to withdraw [arbitro §L.6]" in again.stderr
    (tmp_path / "red.key").write_text(new.hex() + "\n", encoding="utf-8")
    remote(server, red, "register-key", game, signing.public_key(new))
    attack = '{"type": "attack", "aim": "high"}'
    signed = remote(server, red, "submit", game, attack, "--sign", str(tmp_path / "red.key"), "--json")
    assert json.loads(signed.stdout)["awaiting"]["seats"] == ["blue"]


def test_the_route_is_the_umpires_and_cites_its_rule(served: tuple[Server, Path]) -> None:  # noqa: F811
    server, _ = served
    game = server.new()
    key = signing.public_key(signing.new_private_key())
    assert server.client("red", game).post(f"/games/{game}/keys", json={"public_key": key}).status_code == 201
    path = f"/games/{game}/keys/red/withdraw"
    assert server.client("red", game).post(path, json={"reason": "mine"}).status_code == 403
    wrong = server.client("umpire", game).post(path, json={"reason": "lost", "key": "0" * 16})
    assert wrong.status_code == 422 and wrong.json()["rule"] == "arbitro §L.6", wrong.text
    done = server.client("umpire", game).post(path, json={"reason": "lost", "key": key[:16]})
    assert done.status_code == 200, done.text
    (event,) = [e["event"] for e in done.json()["events"] if e["type"] == "key_withdrawn"]
    assert (event["seat"], event["public_key"], event["rule"]) == ("red", key, "arbitro §L.6")


def test_a_registration_over_http_is_a_chained_command_every_seat_is_served(
        served: tuple[Server, Path]) -> None:  # noqa: F811
    """POST /games/{id}/keys: the seat's `register_key` (arbitro §L.6), answered as before ({game, seat, public_key,
    since_cmd}, 201), since_cmd the registering command; its `key_registered` in the other seat's log; a second
    registration refused as a rule (422, citing §L.6; it was the store's 400), the first key standing."""
    server, _ = served
    game = server.new()
    key = signing.public_key(signing.new_private_key())
    answer = server.client("red", game).post(f"/games/{game}/keys", json={"public_key": key})
    assert answer.status_code == 201 and answer.json() == {"game": game, "seat": "red", "public_key": key,
                                                           "since_cmd": 1}, answer.text
    log = server.client("blue", game).get(f"/games/{game}/events").json()  # blue's items, by command
    served_events = [e["event"] for item in log for e in item["events"] if e["type"] == "key_registered"]
    assert served_events == [{"type": "key_registered", "seat": "red", "public_key": key, "rule": "arbitro §L.6"}]
    again = server.client("red", game).post(f"/games/{game}/keys",
                                            json={"public_key": signing.public_key(signing.new_private_key())})
    assert again.status_code == 422 and again.json()["rule"] == "arbitro §L.6", again.text
    assert "red already registered the key" in again.json()["message"]
