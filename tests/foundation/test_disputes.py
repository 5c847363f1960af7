"""Disputes settled from the log (issue 16, docs/engine-rules.md §D): each step is an event on the chain, played
through to a ruling for every outcome; a private message's text reaches its writer and the umpire only, proved by
non-interference; the commands' refusals carry their citations and exit statuses."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import settling
from arbitro.adjudicator.report_phrases import phrase
from arbitro.adjudicator.service import Arbitro
from arbitro.events import core
from arbitro.events.codec import canonical
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.disputes import WITHHELD, fold_disputes, redact_dispute
from tests.seeds import same_secrets

from .conftest import BLUE_CARD, RED_CARD, Cli, db_rows, exchange
from arbitro.adjudicator.seat_numbers import events_of

CHAIN = ("hash", "prev", "cmd_hash", "salt")


def opened(run: Cli, *extra: str, claim: str = "blue guarded after seeing my aim", seat: str = "red",
           at: str = "1") -> dict[str, Any]:
    """A seat's claim about command `at` (a seat's numbers are its commands': engine-rules §V.6)."""
    return run.json("dispute", "open", "g", claim, "--as", seat, "--at", at, *extra)  # type: ignore[no-any-return]


def game(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")


def test_a_dispute_is_played_from_its_claim_to_a_dismissal_each_step_on_the_chain(run: Cli) -> None:
    game(run)
    claim = opened(run, "--at", "2")  # red's attack (command #1: event #6) and blue's guard (#2: events #7-#10)
    assert [e["type"] for e in claim["events"]] == ["dispute_opened"]
    event = claim["events"][0]["event"]
    assert event["dispute"] == 1 and event["about"] == [1, 2] and event["rule"] == "arbitro §D.1"
    assert run.json("status", "g")["open_disputes"] == [1]
    assert "open disputes: #1" in run("status", "g").stdout
    answer = run.json("dispute", "reply", "g", "1", "the guard was chosen first", "--as", "blue", "--cite", "2")
    assert answer["events"][0]["event"]["cites"] == [2]
    ruled = run.json("dispute", "rule", "g", "1", "--dismiss", "the log shows the guard came after")
    assert [e["type"] for e in ruled["events"]] == ["dispute_ruled"]
    assert ruled["events"][0]["event"]["outcome"] == "dismissed"
    assert run.json("status", "g")["open_disputes"] == []
    (listed,) = run.json("disputes", "g", "--as", "blue")
    assert listed["status"] == "closed" and listed["ruling"]["outcome"] == "dismissed"
    assert [r["by"] for r in listed["replies"]] == ["blue"] and listed["claim"]["by"] == "red"
    text = run("disputes", "g").stdout  # the umpire's numbers: the log's (each command's last event)
    assert "dispute 1 [DISMISSED] by red about #6, #10" in text and "blue answers citing #10" in text
    blue = run("disputes", "g", "--as", "blue").stdout  # a seat's: the commands
    assert "by red about #1, #2" in blue and "#4 blue answers citing #2" in blue
    assert run("verify", "g", code=0)  # the dispute is re-adjudicated with the rest of the log
    # every step is chained: the umpire's log holds the three events in order, each linked to the one before
    rows = db_rows(run.db, "SELECT seq, body FROM events WHERE game='g' ORDER BY seq")
    kinds = [json.loads(body)["event"]["type"] for _, body in rows]
    assert kinds[-3:] == ["dispute_opened", "dispute_replied", "dispute_ruled"]


def test_an_upheld_dispute_takes_back_to_the_event_the_umpire_names(run: Cli) -> None:
    game(run)
    point = run.json("status", "g")["head"]
    exchange(run, "g", "blue")
    opened(run, at="3")  # blue's attack, the event after the umpire's point
    ruled = run.json("dispute", "rule", "g", "1", "--uphold", "--undo-to", str(point), "blue's attack stands voided")
    assert [e["type"] for e in ruled["events"]] == ["undone", "dispute_ruled"]
    assert ruled["events"][0]["event"]["to_seq"] == point and ruled["events"][0]["event"]["rule"] == "arbitro §U.4"
    (listed,) = run.json("disputes", "g")
    assert listed["ruling"]["outcome"] == "upheld" and listed["ruling"]["effects"] == ["undone"]
    # the ruling is the umpire's: no seat may take it back (arbitro §U.5)
    # (red names the umpire's point by its command, #2: the first exchange's guard; engine-rules §V.6)
    assert run.json("undo", "g", "--as", "red", "--to", "2", code=1)["rule"] == "arbitro §U.5"


def test_an_upheld_dispute_can_switch_an_interpretation(run: Cli) -> None:
    game(run)
    opened(run)
    ruled = run.json("dispute", "rule", "g", "1", "--uphold", "--interpretation", "miss_bonus=none", "club reading")
    assert [e["type"] for e in ruled["events"]] == ["ruling_made", "dispute_ruled"]
    assert run.json("status", "g")["interpretations"] == {"miss_bonus": "none"}
    assert run.json("disputes", "g")[0]["ruling"]["effects"] == ["ruling_made"]


def test_an_upheld_dispute_can_patch_the_state_served_as_a_ruling_patch_is(run: Cli) -> None:
    game(run)
    opened(run)
    patch = json.dumps([{"op": "replace", "path": "/hp/blue", "value": 10}])
    ruled = run.json("dispute", "rule", "g", "1", "--uphold", "--patch", patch, "blue's wound was entered wrongly")
    assert [e["type"] for e in ruled["events"]] == ["ruling_made", "dispute_ruled"]
    assert run.json("view", "g", "--as", "blue")["state"]["hp"]["blue"] == 10
    (item,) = run.json("log", "g", "--as", "red", "--from", str(ruled["cmd"]))  # red's numbers: commands (§V.6)
    seen = item["events"][0]["event"]
    assert seen["patch"] == "(seen by the umpire only)" and seen["reason"] == "blue's wound was entered wrongly"
    (listed,) = run.json("disputes", "g", "--as", "red")
    assert listed["ruling"]["outcome"] == "upheld" and listed["ruling"]["effects"] == ["ruling_made"]
    assert run("verify", "g", code=0)


def test_an_upheld_dispute_may_change_nothing(run: Cli) -> None:
    game(run)
    opened(run)
    before = run.json("view", "g", "--as", "umpire")["state"]
    ruled = run.json("dispute", "rule", "g", "1", "--uphold", "right, but too late to change anything")
    assert [e["type"] for e in ruled["events"]] == ["dispute_ruled"] and ruled["events"][0]["event"]["outcome"] == "upheld"
    assert run.json("view", "g", "--as", "umpire")["state"] == before
    assert run.json("disputes", "g")[0]["ruling"]["effects"] == []


def test_refusals_name_the_rule_and_exit_by_kind(run: Cli) -> None:
    game(run)
    head = run.json("status", "g")["head"]  # the umpire's: the log's head
    refused = run.json("dispute", "open", "g", "a claim", "--as", "red", "--at", str(head), code=1)
    assert refused["rule"] == "arbitro §D.1"  # red's numbers are commands, refused in them (engine-rules §V.6)
    assert f"#{head} is not a command of this game (commands #0 to #2)" in refused["message"]
    assert run.json("dispute", "open", "g", "a claim", "--as", "umpire", "--at", "2", code=1)["rule"] == "arbitro §D.1"
    assert run.json("dispute", "reply", "g", "1", "an answer", "--as", "blue", code=1)["rule"] == "arbitro §D.2"
    opened(run)
    late = run.json("dispute", "reply", "g", "1", "an answer", "--as", "umpire", "--cite", str(head + 2), code=1)
    assert f"#{head + 2} is not in the log (events #1 to #{head + 1})" in late["message"]  # the umpire's: events
    assert "#0 is no event" in run.json("dispute", "reply", "g", "1", "an answer", "--as", "umpire", "--cite", "0",
                                        code=1)["message"]
    not_umpire = run.json("dispute", "rule", "g", "1", "--dismiss", "not so", "--as", "blue", code=1)
    assert not_umpire["error"] == "authority/umpire-only" and not_umpire["rule"] == "arbitro §D.3"
    assert run.json("dispute", "rule", "g", "1", "because", code=2)["error"] == "input/bad"  # no outcome
    both = run.json("dispute", "rule", "g", "1", "--dismiss", "--undo-to", "2", "nothing changes", code=1)
    assert both["rule"] == "arbitro §D.3" and "upheld" in both["message"]
    assert run.json("dispute", "rule", "g", "1", "--dismiss", "x", code=2)["error"] == "input/malformed-command"
    assert run.json("dispute", "open", "nope", "a claim", "--as", "red", "--at", "2", code=3)
    assert run.json("dispute", "open", "g", "a claim", "--as", "green", "--at", "2", code=2)["error"] == \
        "input/unknown-seat"
    run.json("dispute", "rule", "g", "1", "--dismiss", "stands")
    closed = run.json("dispute", "reply", "g", "1", "too late", "--as", "blue", code=1)
    assert "closed by the umpire's ruling" in closed["message"]


def test_a_dispute_may_be_opened_by_a_seat_not_awaited_and_leaves_the_awaited_decision(run: Cli) -> None:
    game(run)
    run.submit("g", "blue", {"type": "attack", "aim": "low"})  # red must guard now
    awaited = run.json("status", "g")["awaiting"]
    opened(run, seat="blue")
    assert run.json("status", "g")["awaiting"] == awaited  # the pending guard is still red's


# --- who reads a private message ------------------------------------------------------------------------------
def served_to(seat: str, claim: str, monkeypatch: pytest.MonkeyPatch) -> bytes:
    """A fixed-seed duel in which red privately claims `claim`; everything `seat` is served of it afterwards, its
    chain fields aside (they hash the whole record: §V.3 keeps them untestable by withholding the salt)."""
    same_secrets(monkeypatch)
    app = Arbitro(SQLiteStore(":memory:"))
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    app.submit("g", "blue", {"type": "guard", "stance": "low"})
    app.submit("g", "red", {"type": "dispute_open", "about": [1], "text": claim, "private": True})
    app.submit("g", "blue", {"type": "dispute_reply", "dispute": 1, "text": "what did you hold?"})
    log = [{k: v for k, v in e.items() if k not in CHAIN} for e in events_of(app.log("g", seat))]
    return canonical([log, msgspec.to_builtins(settling.disputes(app, "g", seat)), app.view("g", seat),
                      msgspec.to_builtins(app.status("g", seat))])


def test_a_private_claim_serves_the_other_seat_the_same_bytes_whatever_it_says(monkeypatch: pytest.MonkeyPatch) -> None:
    a = served_to("blue", f"I held {RED_CARD}, so my attack could not miss", monkeypatch)
    b = served_to("blue", "I held nothing worth a claim, truly nothing at all", monkeypatch)
    assert a == b and RED_CARD.encode() not in a and WITHHELD.encode() in a
    assert served_to("umpire", f"I held {RED_CARD}", monkeypatch) != served_to("umpire", "I held nothing", monkeypatch)
    assert RED_CARD.encode() in served_to("red", f"I held {RED_CARD}", monkeypatch)  # its writer reads it


def test_a_private_message_is_served_without_its_salt_and_the_seat_list_agrees_with_the_log(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "dispute_open", "about": [0], "text": f"my card {RED_CARD}", "private": True})
    app.submit("g", "blue", {"type": "dispute_reply", "dispute": 1, "text": f"my card {BLUE_CARD}", "private": True,
                             "cites": [0]})
    umpire = [e for e in app.log_by_event("g", "umpire") if e["type"].startswith("dispute_")]
    assert msgspec.to_builtins(fold_disputes(umpire)) == msgspec.to_builtins(settling.disputes(app, "g", "umpire"))
    assert umpire[0]["event"]["about"] == [5] and umpire[1]["event"]["cites"] == [5]  # the creation's last event
    for seat in ("red", "blue"):  # `disputes` numbers a seat's messages as its log does: by command (§V.6)
        served = [e for e in events_of(app.log("g", seat)) if e["type"].startswith("dispute_")]
        assert msgspec.to_builtins(fold_disputes(served)) == msgspec.to_builtins(settling.disputes(app, "g", seat))
    blue_log = events_of(app.log("g", "blue"))
    red_claim = next(e for e in blue_log if e["type"] == "dispute_opened")
    assert red_claim["event"]["text"] == WITHHELD and "salt" not in red_claim
    own = next(e for e in blue_log if e["type"] == "dispute_replied")
    assert own["event"]["text"] == f"my card {BLUE_CARD}" and "salt" not in own  # no event in an item has a salt
    assert RED_CARD not in json.dumps(blue_log) and BLUE_CARD not in json.dumps(events_of(app.log("g", "red")))
    (listed,) = settling.disputes(app, "g", "red")
    assert listed.replies[0].cites == WITHHELD and listed.claim.text == f"my card {RED_CARD}"


# --- who knew what, when (arbitro §D.6) ------------------------------------------------------------------------
def test_knowledge_says_what_a_seat_was_served_and_since_when_and_refuses_bad_input(run: Cli) -> None:
    game(run)
    head = run.json("status", "g", "--as", "red")["head"]  # red's numbers: its commands' (engine-rules §V.6)
    red = run.json("knowledge", "g", "--as", "red", "--at", str(head))
    assert red["seat"] == "red" and red["at"] == head == 2 and red["events"] == head + 1 and red["hidden"] == 0
    facts = {f["path"]: f for f in red["facts"]}
    assert RED_CARD in json.dumps(red) and BLUE_CARD not in json.dumps(red)  # its own card, never blue's
    assert all(0 <= f["since"] <= head for f in facts.values())
    umpire = run.json("knowledge", "g", "--as", "umpire")  # the umpire's numbers: the log's events
    assert umpire["at"] == umpire["events"] == run.json("status", "g")["head"]
    about = run.json("knowledge", "g", "--as", "red", "--about", "red")
    assert about["changes"] and all("red" in c["path"].split("/") or c["value"] == "red" or not c["shown"]
                                    for c in about["changes"])
    text = run("knowledge", "g", "--as", "red", "--about", "red").stdout
    assert f"red at #{head} about red:" in text and "changes of what red was shown about red" in text
    assert run.json("knowledge", "g", "--as", "red", "--at", str(head + 1), code=3)["error"] == "lookup/no-such-event"
    assert run.json("knowledge", "g", "--as", "green", code=2)["error"] == "input/unknown-seat"
    assert run.json("knowledge", "nope", "--as", "red", code=3)


def test_the_report_tells_each_step_in_plain_words_as_the_seat_reads_it() -> None:
    claim = core.DisputeOpened(dispute=1, rule="arbitro §D.1", by="red", about=(3, 4), text=f"I held {RED_CARD}",
                               private=True)
    assert phrase(redact_dispute(claim, "blue")) == f"red opens dispute 1 about events {WITHHELD}: {WITHHELD}"
    assert phrase(redact_dispute(claim, "red")) == f"red opens dispute 1 about events 3 and 4: I held {RED_CARD}"
    ruled = core.DisputeRuled(dispute=1, rule="arbitro §D.3", outcome="dismissed", text="the log shows otherwise")
    assert phrase(redact_dispute(ruled, "blue")) == "The umpire rules dispute 1 dismissed: the log shows otherwise"


# --- re-adjudication under another reading (arbitro §D.5) -----------------------------------------------------------
def test_readjudicate_under_another_reading_names_the_commands_it_changes_and_changes_nothing(run: Cli) -> None:
    game(run)
    exchange(run, "g", "blue")
    before = run.json("status", "g")
    same = run.json("readjudicate", "g", "--ruling", "miss_bonus=plus_one")  # the default reading: nothing changes
    assert same["identical"] and same["changed"] == [] and same["refused"] is None and same["replayed"] == 4
    other = run.json("readjudicate", "g", "--ruling", "miss_bonus=none", code=1)
    assert not other["identical"] and other["changed"], "a guard that missed no longer adds 1 damage"
    assert [(c["cmd"], c["seat"]) for c in other["changed"]] == [(2, "blue"), (4, "red")]  # the two missed guards
    text = run("readjudicate", "g", "--ruling", "miss_bonus=none", code=1).stdout
    assert "judged again with miss_bonus=none from its start" in text and "changed: command" in text
    assert text.rstrip().endswith("DIVERGES")
    after = run.json("status", "g")
    assert (after["head"], after["seed_revealed"]) == (before["head"], False), "the game itself is not touched"
    assert run.json("readjudicate", "g", "--ruling", "miss_bonus=maybe", code=2)["error"] == "input/bad"
    assert run.json("readjudicate", "g", "--ruling", "miss_bonus", code=2)["error"] == "input/bad"


def test_only_the_umpire_readjudicates_under_another_reading(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    with pytest.raises(Exception, match="only the umpire"):
        settling.reinterpret(app, "g", "red", {"miss_bonus": "none"})


# --- play paused for a dispute (arbitro §D.3) ------------------------------------------------------------------------
def test_the_umpire_may_pause_play_until_the_ruling_and_the_ruling_resumes_it(run: Cli) -> None:
    game(run)
    opened(run, seat="blue")
    assert run.json("dispute", "reply", "g", "1", "not me", "--as", "blue", "--pause", code=1)["rule"] == "arbitro §D.3"
    paused = run.json("dispute", "reply", "g", "1", "play waits while I read the log", "--as", "umpire", "--pause")
    assert [e["type"] for e in paused["events"]] == ["dispute_replied", "decision_opened"]
    assert paused["awaiting"]["seats"] == ["umpire"] and "rule on dispute #1" in paused["awaiting"]["prompt"]
    refused = run.submit("g", "blue", {"type": "attack", "aim": "high"}, code=1)
    assert refused["error"] == "turn/not-your-decision" and refused["rule"] == "arbitro §D.3"
    assert run.json("undo", "g", "--as", "blue", "--to", "2", code=1)["rule"] == "arbitro §D.3"
    run.json("dispute", "reply", "g", "1", "the dispute itself goes on", "--as", "red")
    assert [c["outcome"] for c in run.json("legal", "g", "--as", "umpire")] == ["upheld", "dismissed"]
    assert run.json("legal", "g", "--as", "blue") == []
    ruled = run.json("dispute", "rule", "g", "1", "--dismiss", "the guard stands")
    assert [e["type"] for e in ruled["events"]] == ["dispute_ruled", "decision_resolved"]
    run.submit("g", "blue", {"type": "attack", "aim": "high"})  # play resumed


def test_an_undo_ruled_on_a_paused_dispute_resumes_play_at_its_point(run: Cli) -> None:
    game(run)
    point = run.json("status", "g")["head"]
    exchange(run, "g", "blue")
    opened(run, at="3")
    run.json("dispute", "reply", "g", "1", "paused", "--as", "umpire", "--pause")
    ruled = run.json("dispute", "rule", "g", "1", "--uphold", "--undo-to", str(point), "taken back")
    assert [e["type"] for e in ruled["events"]] == ["undone", "dispute_ruled"]  # the undo lifted the pause
    assert run.json("status", "g")["awaiting"]["kind"] == "turn"
