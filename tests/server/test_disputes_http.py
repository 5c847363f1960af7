"""Disputes over HTTP (arbitro §D): a seat's private claim reaches the umpire and its writer, never the other seat's
list, stream or knowledge; the umpire's ruling closes it for everyone."""

from __future__ import annotations

from arbitro.projections.disputes import WITHHELD

from .conftest import Server

RED_CARD = "ruby-falcon"


def test_a_private_claim_is_the_umpires_and_its_writers_and_the_ruling_everyones(server: Server) -> None:
    game = server.new()
    red, blue, umpire = (server.client(role, game) for role in ("red", "blue", "umpire"))
    opened = red.post(f"/games/{game}/disputes", json={"about": [0], "text": f"I held {RED_CARD}", "private": True})
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


def test_evidence_is_cited_by_number_and_a_private_notes_reference_stays_its_writers(server: Server) -> None:
    game = server.new()
    red, blue, umpire = (server.client(role, game) for role in ("red", "blue", "umpire"))
    # a seat's note is at a command, here the creation, #0 (engine-rules §V.6)
    assert red.post(f"/games/{game}/notes", json={"at": 0, "text": f"I hold {RED_CARD}", "private": True}).status_code == 201
    assert blue.post(f"/games/{game}/notes", json={"at": 0, "text": "dealt in the open"}).status_code == 201
    # a seat's numbers are its commands' (engine-rules §V.6): #0, the creation
    claim = {"about": [0], "text": "see my note", "private": True,
             "evidence": [{"kind": "note", "note": 1, "private": True}, {"kind": "position", "at": 0}]}
    opened = red.post(f"/games/{game}/disputes", json=claim)
    assert opened.status_code == 200, opened.text
    (event,) = [e["event"] for e in opened.json()["events"]]
    assert event["evidence"][0]["by"] == "red" and event["evidence"][0]["private"] is True
    # blue cannot cite red's private note, nor one that does not exist, and cannot tell which is which
    refusals = [blue.post(f"/games/{game}/disputes/1/replies", json={"text": "mine", "evidence": [
        {"kind": "note", "note": n, "private": True, "by": "red"}]}) for n in (1, 9)]
    assert [r.status_code for r in refusals] == [422, 422]
    assert [r.json()["rule"] for r in refusals] == ["arbitro §D.7"] * 2
    assert refusals[0].json()["message"].replace("1", "N") == refusals[1].json()["message"].replace("9", "N")
    answer = blue.post(f"/games/{game}/disputes/1/replies", json={"text": "my note", "evidence": [
        {"kind": "note", "note": 1}, {"kind": "position", "at": 0}]})
    assert answer.status_code == 200, answer.text
    (listed,) = blue.get(f"/games/{game}/disputes").json()
    # the public chain's first note: red's private note before it counts in red's chain only (arbitro §L.1)
    assert listed["claim"]["evidence"] == WITHHELD and listed["replies"][0]["evidence"][0]["note"] == 1
    assert RED_CARD not in blue.get(f"/games/{game}/events").text
    assert umpire.get(f"/games/{game}/disputes").json()[0]["claim"]["evidence"][1] == {
        "kind": "position", "at": 5, "seat": "red"}  # the umpire's numbers: the creation's last event (the deal's)
