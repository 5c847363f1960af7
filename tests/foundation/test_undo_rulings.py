"""Issue 14.3 (arbitro §U.5): the players cannot undo the umpire's ruling between themselves. A seat's undo to a
point before a ruling is refused, however the seats agree; a consent request the umpire ruled after cannot be
accepted; the umpire can still take anything back."""

from __future__ import annotations

from .conftest import Cli, db_rows, exchange

RULING = {"type": "ruling", "reason": "the club reads colpo scoperto as no bonus",
          "interpretation": {"miss_bonus": "none"}}


def stored(run: Cli) -> list[tuple[object, ...]]:
    return db_rows(run.db, "SELECT seq, hash FROM events WHERE game='g' ORDER BY seq")


def test_no_seat_may_undo_across_a_ruling_even_with_consent(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")  # dice rolled: a take-back would need the other seat's consent
    before_ruling = run.json("status", "g")["head"]  # the log's event, the umpire's number
    seat_before = run.json("status", "g", "--as", "blue")["head"]  # the command, a seat's (engine-rules §V.6)
    run.submit("g", "umpire", RULING)
    ruling = run.json("status", "g", "--as", "blue")["head"]  # the ruling's command
    run.submit("g", "blue", {"type": "end_turn"})
    before = stored(run)
    for seat in ("red", "blue"):  # the seat whose turn it was, and the one who would have consented
        refused = run.json("undo", "g", "--as", seat, "--to", str(seat_before), code=1)
        assert refused["rule"] == "arbitro §U.5" and f"command #{ruling} is the umpire's ruling" in refused["message"]
        assert "only the umpire" in refused["message"] and "colpo scoperto" in refused["message"]
    assert stored(run) == before  # no consent request was even put to the other seat
    assert run.json("status", "g")["interpretations"] == {"miss_bonus": "none"}
    assert run.json("status", "g")["awaiting"]["kind"] != "consent"
    # after the ruling, take-backs go on as before; the umpire may take back the ruling itself
    run.json("undo", "g", "--as", "blue", "--to", str(ruling))
    umpire = run.json("undo", "g", "--as", "umpire", "--to", str(before_ruling), "--reason", "ruled in error")
    assert any(e["type"] == "undone" for e in umpire["events"])
    assert run.json("status", "g")["interpretations"] == {}


def test_the_umpires_own_undo_is_a_ruling_the_seats_cannot_take_back(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    exchange(run, "g", "blue")
    point = run.json("status", "g")["head"]
    exchange(run, "g", "red")
    run.json("undo", "g", "--as", "umpire", "--to", str(point), "--reason", "a misplayed exchange")
    refused = run.json("undo", "g", "--as", "red", "--to", "0", code=1)
    assert refused["rule"] == "arbitro §U.5" and "undo: a misplayed exchange" in refused["message"]


def test_a_consent_request_the_umpire_ruled_after_cannot_be_accepted(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    run.json("undo", "g", "--as", "blue", "--to", "1")  # to red's attack, command #1: asks red's consent
    run.submit("g", "umpire", RULING)  # the umpire may rule while a decision is pending (arbitro §S.3)
    before = stored(run)
    refused = run.submit("g", "red", {"type": "consent", "accept": True}, code=1)
    assert refused["rule"] == "arbitro §U.5" and "decline" in refused["message"]
    assert stored(run) == before
    declined = run.submit("g", "red", {"type": "consent", "accept": False})
    assert [e["type"] for e in declined["events"]] == ["undo_answered", "undo_declined", "decision_resolved"]
    assert run.json("status", "g")["interpretations"] == {"miss_bonus": "none"}
