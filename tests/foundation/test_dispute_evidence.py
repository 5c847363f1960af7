"""A dispute's evidence beyond cited events (issue 16, docs/engine-rules.md §D.7): a note, a position at an event, a
re-adjudication under another reading, a fork, each a typed reference on the chain that the engine (and, for notes,
the service) checks exists and is the citing seat's to see; a private message's evidence reaches its writer and the
umpire only, proved by non-interference."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import settling
from arbitro.adjudicator.cli_disputes import dispute_text
from arbitro.adjudicator.errors import KeyReused
from arbitro.adjudicator.report_phrases import NoteNames
from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import canonical
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.disputes import WITHHELD

from .conftest import RED_CARD, Cli, exchange, fixed_duel
from .test_event_counts_sent import RED_CARDS, attacked_and_guarded
from arbitro.adjudicator.seat_numbers import events_of

CHAIN = ("hash", "prev", "cmd_hash", "salt")


def game_with_notes(run: Cli) -> None:
    """A duel (#6 red's attack, #7 blue's guard) with a public note (1, blue's, on #6), red's private note (its
    private chain's 1, on #7) and the umpire's fork g-b."""
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    run("annotate", "g", "the guard came first", "--as", "blue", "--at", "1")  # a seat's: command #1, the attack (#6)
    run("annotate", "g", f"I hold {RED_CARD}", "--as", "red", "--at", "2", "--private")  # #2, the guard (#7-#10)
    run("fork", "g", "--at", "5", "--id", "g-b")


def evidence_of(result: dict[str, Any]) -> list[dict[str, Any]]:
    (event,) = [e["event"] for e in result["events"] if e["type"].startswith("dispute_")]
    return event["evidence"]  # type: ignore[no-any-return]


def test_each_kind_of_evidence_is_cited_on_the_chain_listed_and_verified(run: Cli) -> None:
    game_with_notes(run)
    # a seat's numbers are its commands' (engine-rules §V.6): #2 blue's guard, #1 red's attack and blue's note on it
    claim = run.json("dispute", "open", "g", "blue guarded after seeing my aim", "--as", "red", "--at", "2",
                     "--position", "1", "--note", "1", "--readjudication", "miss_bonus=none")
    note = {"kind": "note", "note": 1, "seq": 1, "by": "blue", "private": False}  # no hash: it covers the log's #6
    cited = evidence_of(claim)
    assert cited == [note, {"kind": "position", "at": 1, "seat": "red"},
                     {"kind": "readjudication", "readings": {"miss_bonus": "none"}}]
    answer = run.json("dispute", "reply", "g", "1", "the branch shows it", "--as", "blue", "--fork", "g-b")
    assert evidence_of(answer) == [{"kind": "fork", "game": "g-b"}]
    ruled = run.json("dispute", "rule", "g", "1", "--dismiss", "blue's view shows no aim", "--position", "blue:7")
    assert evidence_of(ruled) == [{"kind": "position", "at": 7, "seat": "blue"}]  # the umpire's: an event
    listed = run.json("disputes", "g", "--as", "blue")[0]
    assert listed["claim"]["evidence"] == cited and listed["ruling"]["evidence"] == [
        {"kind": "position", "at": 2, "seat": "blue"}]  # served to blue by command: #7 is the guard's
    umpire = run.json("disputes", "g")[0]  # the log's numbers: the note's and the position's command's last event
    assert umpire["about"] == [10] and umpire["claim"]["evidence"][:2] == [
        {**note, "seq": 6, "hash": ""}, {"kind": "position", "at": 6, "seat": "red"}]
    text = " ".join(run("disputes", "g", "--as", "blue").stdout.split())  # as read, the wrapping aside
    assert "with evidence: note 1 (on #1, by blue): \"the guard came first\"; red's position after #1; the " \
           "re-adjudication with miss_bonus=none" in text  # a cited note blue reads is shown with its text
    assert "with evidence: fork g-b" in text and "blue's position after #2" in text
    assert 'note 1 (on #6, by blue): "the guard came first"' in run("disputes", "g").stdout  # the umpire's reading
    assert run("verify", "g", code=0)  # the evidence is re-adjudicated with the rest of the log
    plain = run.json("dispute", "open", "g", "no evidence here", "--as", "blue", "--at", "6")
    assert "evidence" not in plain["events"][0]["event"], "a message without evidence keeps its former bytes"


def test_evidence_a_seat_may_not_see_or_that_does_not_exist_is_refused_with_its_rule(run: Cli) -> None:
    game_with_notes(run)
    run("dispute", "open", "g", "a claim to answer", "--as", "red", "--at", "2")

    def refused(*args: str, seat: str = "blue", code: int = 1) -> dict[str, Any]:
        found = run.json("dispute", "reply", "g", "1", "my evidence", "--as", seat, *args, code=code)
        assert code != 1 or found["rule"] == "arbitro §D.7", found
        return found  # type: ignore[no-any-return]

    # red's private note and a note that does not exist are refused alike: citing numbers tells blue nothing
    hidden, missing = refused("--note", "private:red:1"), refused("--note", "private:red:9")
    assert hidden["message"].replace("1", "N") == missing["message"].replace("9", "N")
    assert "no private note 1 of red that blue may read" in hidden["message"]
    assert "no note 2 that blue may read" in refused("--note", "2")["message"]  # the public chain has one note
    assert "no private note 1 of blue" in refused("--note", "private:1")["message"]  # blue's own chain is empty
    assert "private: cite it in a private message" in refused("--note", "private:1", seat="red")["message"]
    assert run.json("dispute", "reply", "g", "1", "my own note", "--as", "red", "--note", "private:1", "--private")
    for bad in ("x", "private:", "public:1", "private:red:blue:1", "private::1"):
        assert refused("--note", bad, code=2)["error"] == "input/bad"
    assert "not red's" in refused("--position", "red:7")["message"]
    assert "#99 is not a command of this game (commands #0 to #5)" in refused("--position", "99")["message"]
    assert "#99 is not in the log (events #1 to #" in refused("--position", "umpire:99", seat="umpire")["message"]
    assert "no seat 'green'" in refused("--position", "green:7", seat="umpire")["message"]
    assert refused("--position", "three", code=2)["error"] == "input/bad"
    assert "not a reading of duel" in refused("--readjudication", "miss_bonus=maybe")["message"]
    assert "'nope' is not a fork of this game: its forks are g-b" in refused("--fork", "nope")["message"]
    # a reference sent whole must be the note as the game holds it, or the service refuses it
    note = run.json("notes", "g", "--as", "blue")[0]
    forged = {"kind": "note", "note": 1, "seq": 7, "by": "blue", "private": False, "hash": note["hash"]}
    command = {"type": "dispute_reply", "dispute": 1, "text": "a forged note", "evidence": [forged]}
    bad = run.json("submit", "g", "--as", "blue", json.dumps(command), code=1)
    assert bad["rule"] == "arbitro §D.7" and "cited as it is not: (cite it by its number" in bad["message"]
    assert "#6" not in bad["message"] and "hash" not in bad["message"]  # a seat is told no log number (§V.6)
    wrong = {**forged, "kind": "rumour"}
    assert run.json("submit", "g", "--as", "blue", json.dumps({**command, "evidence": [wrong]}), code=2)["error"] == \
        "input/malformed-command"


def test_the_umpire_cites_a_seats_private_note_only_privately(run: Cli) -> None:
    game_with_notes(run)
    run("dispute", "open", "g", "a claim to rule on", "--as", "blue", "--at", "2")
    public = run.json("dispute", "rule", "g", "1", "--dismiss", "red's note says why", "--note", "private:red:1",
                      code=1)
    assert public["rule"] == "arbitro §D.7"
    run.json("dispute", "rule", "g", "1", "--dismiss", "red's note says why", "--note", "private:red:1", "--private")
    (seen,) = run.json("disputes", "g", "--as", "blue")
    assert seen["ruling"]["evidence"] == WITHHELD and seen["ruling"]["outcome"] == "dismissed"
    assert run.json("disputes", "g", "--as", "red")[0]["ruling"]["evidence"] == WITHHELD  # the umpire's message
    assert run.json("disputes", "g")[0]["ruling"]["evidence"][0]["by"] == "red"


# --- non-interference: what red cites privately never changes what blue is served -------------------------------
def served_to(seat: str, note: str) -> bytes:
    """A fixed-seed duel in which red privately cites its own private note (text `note`) and its position; all that
    `seat` is served afterwards (events without their chain fields, disputes, view, status, notes)."""
    app = fixed_duel()
    app.annotate("g", "red", 2, note, private=True)
    app.submit("g", "red", {"type": "dispute_open", "about": [2], "text": "see my note", "private": True,
                            "evidence": [{"kind": "note", "note": 1, "private": True}, {"kind": "position", "at": 1}]})
    app.submit("g", "blue", {"type": "dispute_reply", "dispute": 1, "text": "what note?"})
    log = [{k: v for k, v in e.items() if k not in CHAIN} for e in events_of(app.log("g", seat))]
    return canonical([log, msgspec.to_builtins(settling.disputes(app, "g", seat)), app.view("g", seat),
                      msgspec.to_builtins(app.status("g", seat)), msgspec.to_builtins(app.notes("g", seat))])


def test_a_private_messages_evidence_serves_the_other_seat_the_same_bytes() -> None:
    a = served_to("blue", f"I hold {RED_CARD}")
    b = served_to("blue", "I hold nothing of note at all")
    assert a == b and RED_CARD.encode() not in a and WITHHELD.encode() in a
    assert served_to("umpire", f"I hold {RED_CARD}") != served_to("umpire", "nothing")
    assert served_to("red", f"I hold {RED_CARD}") != served_to("red", "nothing")


# --- the report names each message's evidence, as its reader may read it ------------------------------------------
def test_the_report_names_what_each_dispute_message_cites_as_its_reader_may_read_it(run: Cli, tmp_path: Path) -> None:
    game_with_notes(run)
    run("dispute", "open", "g", "blue guarded after seeing my aim", "--as", "red", "--at", "2", "--position", "1",
        "--note", "1")
    run("dispute", "reply", "g", "1", "my own note says why", "--as", "red", "--cite", "1", "--note", "private:1",
        "--private")
    run("dispute", "rule", "g", "1", "--dismiss", "the branch shows no aim", "--fork", "g-b", "--readjudication",
        "miss_bonus=none")

    def told(seat: str) -> str:
        path = tmp_path / f"{seat}.md"
        run("report", "g", "--as", seat, "--pictures", "none", "-o", str(path))
        return " ".join(path.read_text(encoding="utf-8").replace("\\", "").split())  # as read, the wrapping aside

    cited = 'note 1 (on #{}, by blue): "the guard came first"'
    shared = [cited, "red's position after #{}", "fork g-b", "the re-adjudication with miss_bonus=none"]
    blue, red, umpire = told("blue"), told("red"), told("umpire")
    # each in its reader's numbers (engine-rules §V.6): a seat's the commands (#1, red's attack), the umpire's the log's
    assert all(words.format(1) in blue and words.format(1) in red and words.format(6) in umpire for words in shared)
    # sent at command #2, the note lies on its last event, #10; a seat names it by the command
    mine = f'private note 1 (on #2, by red): "I hold {RED_CARD}"'
    assert mine in red and "cites #1: " in red, "the commands cited, by number, as red was told them"
    assert RED_CARD not in blue and "withheld" in blue  # red's private answer: that it cites, not what
    assert f'private note 1 (on #10, by red): "I hold {RED_CARD}"' in umpire  # the umpire reads every note it cites


# --- the notes a message cites are read once, by the service ------------------------------------------------------
def test_a_messages_notes_are_read_once_and_a_retry_by_number_is_the_same_command(
        app: Arbitro, monkeypatch: pytest.MonkeyPatch) -> None:
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    app.submit("g", "blue", {"type": "guard", "stance": "low"})
    app.annotate("g", "blue", 1, "the guard came first")
    app.annotate("g", "red", 2, "my plan", private=True)
    reads = []
    monkeypatch.setattr(app.store, "annotations", lambda game: reads.append(game) or SQLiteStore.annotations(
        app.store, game))  # type: ignore[arg-type]
    claim = {"type": "dispute_open", "about": [2], "text": "see both notes", "private": True,
             "evidence": [{"kind": "note", "note": 1}, {"kind": "note", "note": 1, "private": True}]}
    first = app.submit("g", "red", claim, key="claim-1")
    assert reads == ["g"], "one read of the notes for the whole message"
    (event,) = [e["event"] for e in first.events]
    assert [(ref["by"], ref["private"]) for ref in event["evidence"]] == [("blue", False), ("red", True)]
    again = app.submit("g", "red", claim, key="claim-1")  # sent again, the same numbers: the same command
    assert again.duplicate and again.cmd == first.cmd and reads == ["g"]
    other = {**claim, "evidence": [{"kind": "note", "note": 1}]}
    with pytest.raises(KeyReused):
        app.submit("g", "red", other, key="claim-1")


def test_a_seat_cited_note_mid_command_is_named_where_the_umpire_wrote_it(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The umpire's public note on event #4, the first of blue's guard (command #2, events #4-#7). Blue cites it by
    chain and number; the record keeps the command's last event (#7: a seat's numbers are commands, log_points), but
    the umpire's listing names the note where it lies (#4), and blue's where blue reads it (command #2)."""
    app = attacked_and_guarded(tmp_path, RED_CARDS[0], "tellingduel", monkeypatch)
    note = app.annotate("g", "umpire", 4, "the guard came late")
    app.submit("g", "blue", {"type": "dispute_open", "about": [2], "text": "see the umpire's note",
                             "evidence": [{"kind": "note", "note": note.id}]})
    said = {seat: dispute_text(settling.disputes(app, "g", seat), "g", NoteNames(app.notes("g", seat), seat))
            for seat in ("umpire", "blue")}
    assert 'note 1 (on #4, by umpire): "the guard came late"' in said["umpire"]
    assert 'note 1 (on #2, by umpire): "the guard came late"' in said["blue"]
