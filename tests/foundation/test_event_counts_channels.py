"""Non-interference per channel (engine-rules §V.6): two duels differing only in red's hidden card, which decides
whether red's attack also makes an event hidden from blue (test_event_counts.TellingDuel: after the attack;
ForewarnedDuel: before it), serve blue the same bytes on every channel built so far: the log in the CLI's words, each
view and replay by command, the status, the notes, the live stream, the report and the viewer's events in words. The
umpire's numbers are the log's and do differ (the control that the two games do differ in their counts)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.http_stream import AppendWatcher, live
from arbitro.adjudicator.report import report
from arbitro.adjudicator.report_phrases import worded
from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from arbitro.events.codec import canonical
from arbitro.events.sqlite import SQLiteStore

from .conftest import position_file
from .test_event_counts import CHAIN  # registers the two toy rulesets

RED_CARDS = ("ruby-falcon", "coral-wolf")  # the ruby falcon makes the hidden event


def played(tmp_path: Path, red_card: str, ruleset: str, monkeypatch: pytest.MonkeyPatch) -> Arbitro:
    """Red attacks, blue guards, the umpire notes red's attack (on its last event) and blue's guard (on its first)."""
    monkeypatch.setattr(rnd, "new_seed", lambda: "5e" * 32)
    position = json.loads(position_file(tmp_path, red_card=red_card).read_text())
    position["ruleset"] = ruleset
    app = Arbitro(SQLiteStore(":memory:"), clock=lambda: "2026-11-29T00:00:00+00:00")
    app.create(ruleset, position=position, game_id="g")
    attack = app.submit("g", "red", {"type": "attack", "aim": "high"})
    guard = app.submit("g", "blue", {"type": "guard", "stance": "low"})
    app.annotate("g", "umpire", attack.head, "red attacked")
    app.annotate("g", "umpire", guard.head - len(guard.events) + 1, "blue guarded")
    return app


def stream(app: Arbitro, seat: str) -> list[dict[str, str]]:
    async def read() -> list[dict[str, str]]:
        return [m async for m in live(app, AppendWatcher(app), "g", seat, -1, follow=False, poll=0.1)]
    return asyncio.run(read())


def without_chain(value: Any) -> Any:
    """Served records without the salted digests (CHAIN: a seat cannot test guesses against them) and the genesis's
    keyed position digest, which differ with red's card without telling blue anything it can test."""
    if isinstance(value, dict):
        return {k: without_chain(v) for k, v in value.items() if k not in (*CHAIN, "position", "at_hash")}
    if isinstance(value, list):
        return [without_chain(v) for v in value]
    return value


def served_to(app: Arbitro, seat: str) -> dict[str, Any]:
    head = app.status("g", seat).head
    points = range(0 if seat != "umpire" else 1, head + 1)  # a seat's numbers are its commands', from #0
    return without_chain(json.loads(msgspec.json.encode({
        "log": app.log("g", seat),
        "views": [app.view("g", seat, at) for at in points],
        "replays": [app.replay("g", at, seat) for at in points],
        "awaiting": [app.awaiting_at("g", at, seat) for at in points],
        "status": app.status("g", seat), "notes": app.notes("g", seat),
        "stream": [{**m, "data": json.loads(m["data"])} for m in stream(app, seat)],
        "report": report(app, "g", seat, pictures="none"),
        "viewer": worded(app.log("g", seat)),  # the viewer's and its offline file's events (GET /events?words=true)
    })))


@pytest.mark.parametrize("ruleset", ["tellingduel", "forewarnedduel"])
def test_every_channel_built_serves_blue_the_same_bytes_whatever_the_count(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str) -> None:
    told, untold = (played(tmp_path, card, ruleset, monkeypatch) for card in RED_CARDS)
    assert told.game("g").head_seq == untold.game("g").head_seq + 1  # the counts differ, in the umpire's log
    assert canonical(served_to(told, "blue")) == canonical(served_to(untold, "blue"))
    assert served_to(told, "umpire") != served_to(untold, "umpire")


def test_the_seat_shown_the_hidden_event_reads_it_in_its_commands_item(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = played(tmp_path, "ruby-falcon", "forewarnedduel", monkeypatch)
    (attack,) = [i for i in app.log("g", "red") if i["cmd"] == 1]
    assert [e["type"] for e in attack["events"]][:2] == ["card_dealt", "attack_declared"]
    (blue_sees,) = [i for i in app.log("g", "blue") if i["cmd"] == 1]
    assert [e["type"] for e in blue_sees["events"]] == ["attack_declared"]
    assert (attack["prev"], attack["hash"]) == (blue_sees["prev"], blue_sees["hash"])  # one link for every seat
    note = [n for n in app.notes("g", "blue") if n.text == "red attacked"]
    assert [n.seq for n in note] == [1] and app.status("g", "blue").head == 2
    assert [json.loads(m["data"])["seq"] for m in stream(app, "blue") if m["event"] == "awaiting"] == [2]
    assert [m["id"] for m in stream(app, "blue") if m["event"] == "event"] == ["0", "1", "2"]
