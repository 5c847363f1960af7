"""A seat's export in its own numbers (engine-rules §V.6): two duels differing only in red's hidden card, which decides
whether red's attack also makes an event hidden from blue (test_event_counts.TellingDuel, ForewarnedDuel), give blue
what it is given of its own commands in the same bytes: a command it sends without an expected head records its own
head (a command's number), not the log's, which its command's hash covers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.seatcopy import SeatCopy
from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import canonical
from arbitro.events.sqlite import SQLiteStore
from tests.seeds import same_secrets

from .conftest import position_file
from .test_event_counts import CHAIN  # noqa: F401  (registers the two toy rulesets)
from .test_event_counts_channels import RED_CARDS, without_chain

ATTACK, GUARD = {"type": "attack", "aim": "high"}, {"type": "guard", "stance": "low"}


def duelled(tmp_path: Path, red_card: str, ruleset: str, monkeypatch: pytest.MonkeyPatch) -> Arbitro:
    """Game "g" of `ruleset` (the same seed, clock and keys whatever red's card): red attacks, blue guards, neither
    naming the head it expects."""
    same_secrets(monkeypatch)
    position = json.loads(position_file(tmp_path, red_card=red_card).read_text())
    position["ruleset"] = ruleset
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-11-29T00:00:00+00:00")
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


def blue_export(app: Arbitro) -> list[dict[str, Any]]:
    """Blue's export, its records read, without what differs with the database and not with the game (the server's
    key and the seal it signs) and the salted digests (CHAIN, the head's, the views' links over them, the genesis's keyed
    position digest: a seat cannot test guesses against them, test_event_counts_channels.without_chain)."""
    records = [json.loads(line) for line in app.export("g", "blue")]
    assert records[-1]["record"] == "seat_seal" and records[0]["format"] == "arbitro-seat/3"
    kept = [{k: v for k, v in r.items() if k not in ("server_key", "digest", "head_hash")} for r in records[:-1]]
    return without_chain(kept)  # type: ignore[no-any-return]


@pytest.mark.parametrize("ruleset", ["tellingduel", "forewarnedduel"])
def test_a_seats_export_is_the_same_bytes_whatever_the_count(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str) -> None:
    """The export a seat is mailed (`export --as SEAT`): one item per command, no event range, no head_seq, a view per
    command, notes by command, the seal on the head command; the same bytes in both games, though red's attack made
    one more event in one of them. Control: the umpire's full exports differ."""
    told, untold = (duelled(tmp_path, card, ruleset, monkeypatch) for card in RED_CARDS)
    for app in (told, untold):
        numbers = app.numbers(app.game("g"))
        app.annotate("g", "umpire", numbers.last_event(1), "red attacked")
        app.annotate("g", "blue", 2, "my guard", private=True)
    assert canonical(blue_export(told)) == canonical(blue_export(untold))
    text = "\n".join(told.export("g", "blue"))
    assert "first_seq" not in text and "head_seq" not in text and "parent_seq" not in text
    assert list(told.export("g", "umpire")) != list(untold.export("g", "umpire"))


def test_a_seats_export_verifies_anchored_by_its_receipt_and_head(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """verify of a seat's export in its numbers: the items chain, `--head` names a command, a /2 receipt's head is its
    command's item link; a copy imported from it reads back what the server serves."""
    app = duelled(tmp_path, RED_CARDS[0], "tellingduel", monkeypatch)
    receipt = app.submit("g", "blue", {"type": "attack", "aim": "low"}, key="b2").receipt
    lines = list(app.export("g", "blue"))
    report = app.verify_lines(lines, head=receipt["head"], receipts=[receipt], server_key=app.server_key())
    said = {c.name: (c.status, c.detail) for c in report.checks}
    assert report.passed, report.checks
    assert said["trusted head"] == ("passed", f"commands #0-#3 are the chain you recorded ({receipt['head'][:12]}... at #3)")
    assert said["receipt for command 3"][0] == "passed" and said["completeness"][0] == "passed"
    assert said["seat views"][0] == "passed"
    copy = Arbitro(SQLiteStore(":memory:"))
    copy.import_lines(lines, seat="blue", seat_copy=True)
    held = SeatCopy.find(copy.store, "g")
    assert held is not None
    assert canonical(held.log("g", "blue")) == canonical(app.log("g", "blue"))
    assert [canonical(held.view("g", "blue", at)) for at in range(4)] == [canonical(app.view("g", "blue", at)) for at in range(4)]
    assert canonical(held.notes("g", "blue")) == canonical(app.notes("g", "blue"))


def test_an_edited_item_fails_verification(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = duelled(tmp_path, RED_CARDS[0], "tellingduel", monkeypatch)
    records = [json.loads(line) for line in app.export("g", "blue")]
    (attack,) = [r for r in records if r["record"] == "item" and r["cmd"] == 1]
    attack["events"][0]["event"]["aim"] = "low"
    edited = [canonical(r).decode() for r in records]
    report = app.verify_lines(edited)
    assert not report.passed and "sealed" in {c.name: c.detail for c in report.checks}["seat views"]
    attack["prev"] = "0" * 64
    report = app.verify_lines([canonical(r).decode() for r in records])
    assert "command #1's item does not follow the item before it" in report.checks[0].detail


def test_a_seats_export_cut_at_its_end_fails_the_chain_even_with_nothing_sealing_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each item links, but the game record names the head command and its link: the items must reach it, whether or
    not a seal binds the file (its views, seat state and seal taken out, as an arbitro before seals wrote it)."""
    app = duelled(tmp_path, RED_CARDS[0], "tellingduel", monkeypatch)
    records = [json.loads(line) for line in app.export("g", "blue")
               if json.loads(line)["record"] not in ("seat_view", "seat_state", "seat_seal")]
    cut = [r for r in records if not (r["record"] in ("item", "command") and r["cmd"] == 2)]
    report = app.verify_lines([canonical(r).decode() for r in cut])
    assert not report.passed and report.checks[0].name == "hash chain"
    assert "the items end at #1" in report.checks[0].detail and report.divergence is not None


@pytest.mark.parametrize("expect", [False, True])
def test_a_command_entered_for_a_seat_records_the_command_it_followed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, expect: bool) -> None:
    """A command the umpire enters for red in a transcribed game (arbitro §S.5) is red's to hold in its export: its
    record keeps the command it was judged after, not the log's head (which the umpire names when it sends one), so
    two games differing only in how many events blue's hidden card made give red the same record and hash."""
    records = []
    for card in RED_CARDS:
        same_secrets(monkeypatch)
        position = json.loads(position_file(tmp_path, red_card=card).read_text())
        position["ruleset"] = "tellingduel"
        app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-11-29T00:00:00+00:00")
        app.create("tellingduel", position=position, game_id="g", transcribed=True)
        app.submit("g", "umpire", {"type": "on_behalf", "seat": "red", "command": ATTACK}, key="u1")
        app.submit("g", "umpire", {"type": "on_behalf", "seat": "blue", "command": GUARD}, key="u2",
                   expected_seq=app.game("g").head_seq if expect else None)
        assert app.verify("g").passed
        records.append((app.game("g").head_seq, app.store.command("g", 2)))
    (told, told_guard), (untold, untold_guard) = records
    assert told == untold + 1  # the counts differ, in the umpire's log
    assert [told_guard.record.expected_seq, untold_guard.record.expected_seq] == [1, 1]
    assert told_guard.hash == untold_guard.hash
