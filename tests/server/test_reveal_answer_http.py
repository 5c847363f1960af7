"""The HTTP answer to a reveal says what it exposed, as the CLI and the refusal do (ctx, nineteenth session;
arbitro §R.3): `salted_by` names the entry of reveal.EXPOSES that applies, `exposed` gives its words."""

from __future__ import annotations

from arbitro.adjudicator.reveal import EXPOSES

from .conftest import Server


def test_the_reveal_answer_names_what_every_seat_now_recomputes(server: Server) -> None:
    game = server.new()
    umpire = server.client("umpire", game)
    refused = umpire.post(f"/games/{game}/reveal", json={"reason": "a dispute"})
    assert refused.status_code == 422 and EXPOSES["salt key"] in refused.text
    answer = umpire.post(f"/games/{game}/reveal", json={"reason": "a dispute", "expose_hidden": True})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["salted_by"], body["exposed"]) == ("salt key", EXPOSES["salt key"])
    assert [e["type"] for e in body["events"]] == ["seed_revealed"]


def test_a_reveal_sent_as_a_command_answers_alike(server: Server) -> None:
    game = server.new()
    command = {"type": "reveal_seed", "reason": "a dispute", "expose_hidden": True}
    answer = server.client("umpire", game).post(f"/games/{game}/commands", json={"command": command})
    assert answer.status_code == 200, answer.text
    assert (answer.json()["salted_by"], answer.json()["exposed"]) == ("salt key", EXPOSES["salt key"])
