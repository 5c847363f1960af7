"""Disputes over HTTP (arbitro §D): a seat's private claim reaches the umpire and its writer, never the other seat's
list, stream or knowledge; the umpire's ruling closes it for everyone."""

from __future__ import annotations

from arbitro.projections.disputes import WITHHELD

from .conftest import Server

RED_CARD = "ruby-falcon"


def test_a_private_claim_is_the_umpires_and_its_writers_and_the_ruling_everyones(server: Server) -> None:
    game = server.new()
    red, blue, umpire = (server.client(role, game) for role in ("red", "blue", "umpire"))
    opened = red.post(f"/games/{game}/disputes", json={"about": [2], "text": f"I held {RED_CARD}", "private": True})
    assert opened.status_code == 200, opened.text
    assert blue.post(f"/games/{game}/disputes/1/replies", json={"text": "what did you hold?"}).status_code == 200
    (seen_by_blue,) = blue.get(f"/games/{game}/disputes").json()
    assert seen_by_blue["claim"]["text"] == WITHHELD and seen_by_blue["replies"][0]["text"] == "what did you hold?"
    for path in ("/events", "/disputes", "/knowledge", "/view"):
        assert RED_CARD not in blue.get(f"/games/{game}{path}").text, path
    assert red.get(f"/games/{game}/disputes").json()[0]["claim"]["text"] == f"I held {RED_CARD}"
    assert umpire.get(f"/games/{game}/disputes", params={"seat": "blue"}).json()[0]["claim"]["text"] == WITHHELD
    ruled = umpire.post(f"/games/{game}/disputes/1/ruling", json={"outcome": "dismissed", "text": "it stands"})
    assert ruled.status_code == 200, ruled.text
    assert blue.get(f"/games/{game}/disputes").json()[0]["ruling"]["outcome"] == "dismissed"
    refused = blue.post(f"/games/{game}/disputes/1/ruling", json={"outcome": "upheld", "text": "mine"})
    assert refused.status_code == 403 and refused.json()["error"] == "authority/umpire-only"
