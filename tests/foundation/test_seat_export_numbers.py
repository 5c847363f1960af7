"""A seat's export in its own numbers (engine-rules §V.6): two duels differing only in red's hidden card, which decides
whether red's attack also makes an event hidden from blue (test_event_counts.TellingDuel, ForewarnedDuel), give blue
what it is given of its own commands in the same bytes: a command it sends without an expected head records its own
head (a command's number), not the log's, which its command's hash covers."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from arbitro.events.sqlite import SQLiteStore

from .conftest import position_file
from .test_event_counts import CHAIN  # noqa: F401  (registers the two toy rulesets)
from .test_event_counts_channels import RED_CARDS

ATTACK, GUARD = {"type": "attack", "aim": "high"}, {"type": "guard", "stance": "low"}


def duelled(tmp_path: Path, red_card: str, ruleset: str, monkeypatch: pytest.MonkeyPatch) -> Arbitro:
    """Game "g" of `ruleset` (the same seed, clock and keys whatever red's card): red attacks, blue guards, neither
    naming the head it expects."""
    monkeypatch.setattr(rnd, "new_seed", lambda: "5e" * 32)
    position = json.loads(position_file(tmp_path, red_card=red_card).read_text())
    position["ruleset"] = ruleset
    app = Arbitro(SQLiteStore(":memory:"), clock=lambda: "2026-11-29T00:00:00+00:00")
    app.create(ruleset, position=position, game_id="g")
    app.submit("g", "red", ATTACK, key="r1")
    app.submit("g", "blue", GUARD, key="b1")
    return app


@pytest.mark.parametrize("ruleset", ["tellingduel", "forewarnedduel"])
def test_a_seat_command_sent_without_a_head_records_the_seats_head(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str) -> None:
    told, untold = (duelled(tmp_path, card, ruleset, monkeypatch) for card in RED_CARDS)
    assert told.game("g").head_seq == untold.game("g").head_seq + 1  # the counts differ, in the umpire's log
    guards = [app.store.command("g", 2) for app in (told, untold)]
    assert [g.record.expected_seq for g in guards] == [1, 1]  # blue's head: red's attack, command #1
    assert guards[0].hash == guards[1].hash  # the hash blue checks its own command against
    assert msgspec.json.encode(guards[0].record) == msgspec.json.encode(guards[1].record)
    for app in (told, untold):
        assert app.verify("g").passed
        assert app.receipt("g", 2)["cmd"] == 2 and app.submit("g", "blue", GUARD, key="b1").duplicate


def test_the_umpires_command_sent_without_a_head_records_the_logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = duelled(tmp_path, RED_CARDS[0], "tellingduel", monkeypatch)
    head = app.game("g").head_seq
    app.annotate("g", "umpire", head, "before the ruling")
    app.undo("g", "umpire", app.numbers(app.game("g")).last_event(1), "the umpire takes the guard back")
    assert app.store.command("g", 3).record.expected_seq == head
