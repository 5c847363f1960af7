"""Non-interference for a dispute as a seat sends it and is served it (engine-rules §V.6; rev-trust): two duels
differing only in red's hidden card, which decides whether red's attack (command #1) also makes an event hidden from
blue (test_event_counts_sent). Blue writes a private note on command #1 and opens a private dispute citing it.

Each was a leak (rev-trust's strict xfails, f8b913c), fixed by t-numbers:
- the citation was completed from the store (admission.cited_notes / note_reference) with the note's `seq`, the log's
  number of the event it lies on (the command's last event), and its `hash`, which covers that number: served back
  to blue in its submit result and its log, they told it how many events red's attack made; a seat's citation is
  now completed as it reads the note, by command and without its hash;
- `disputes` served each message's `seq` (projections/disputes.fold_disputes reads the log's `body.seq`): every
  public dispute told every seat the log's event count when it was opened; a seat's listing is now numbered by
  command (seat_numbers.numbered_disputes);
- a seat's `about`, `cites` and a cited position's `at` were the log's events, refused with the log's range ("#N is
  not in the log (events #1 to #H)"): now commands, mapped by the engine (log_points.Points)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from arbitro.adjudicator import settling
from arbitro.adjudicator.cli_dice import explain_roll
from arbitro.adjudicator.errors import BadInput, NoSuchEvent
from arbitro.adjudicator.service import Arbitro

from .test_event_counts_sent import RULESETS, answered, same_to_blue, unreceipted


def cite_own_note(app: Arbitro) -> object:
    """Blue's private note on command #1, cited by its number in a private dispute about command #1: the answer
    without its receipt (signed by each database's own key over the chain's salted head)."""
    note = app.annotate("g", "blue", 1, "red attacked high", private=True)
    result = app.submit("g", "blue", {"type": "dispute_open", "about": [1], "text": "the attack was low",
                                      "private": True, "evidence": [{"kind": "note", "note": note.id, "private": True}]})
    return {k: v for k, v in msgspec.to_builtins(result).items() if k != "receipt"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_cited_note_tells_the_citing_seat_no_event_number(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             ruleset: str) -> None:
    same_to_blue(tmp_path, monkeypatch, ruleset, cite_own_note, lambda app: app.log("g", "blue"))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_disputes_listing_tells_a_seat_no_event_number(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            ruleset: str) -> None:
    told, untold = same_to_blue(tmp_path, monkeypatch, ruleset)
    for app in (told, untold):
        app.submit("g", "blue", {"type": "dispute_open", "about": [1], "text": "the attack was low"})
    assert answered(lambda app: settling.disputes(app, "g", "blue"), told) == \
        answered(lambda app: settling.disputes(app, "g", "blue"), untold)


def cite_own_note_whole(app: Arbitro) -> object:
    """Blue's private note on command #1, cited whole with a wrong `seq` (as a seat holds it: numbered by command)."""
    note = app.annotate("g", "blue", 1, "red attacked high", private=True)
    whole = {"kind": "note", "note": note.id, "seq": 1, "by": "blue", "private": True, "hash": "0" * 64}
    return app.submit("g", "blue", {"type": "dispute_open", "about": [1], "text": "the attack was low",
                                    "private": True, "evidence": [whole]})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_note_cited_as_it_is_not_is_refused_without_its_event_number(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch,
                                                                         ruleset: str) -> None:
    """admission.cited_notes refused a whole citation that differs from the note by telling the seat the note's log
    number and hash (`it is on #3 ... hash ...`): an oracle for any command's last event. A seat is refused in the
    same bytes whatever red's card."""
    same_to_blue(tmp_path, monkeypatch, ruleset, cite_own_note_whole)


def submitted(seat: str, command: dict[str, object]) -> object:
    """Blue's (or red's) message, answered without its receipt (each database signs with its own key)."""
    return lambda app: json.loads(unreceipted(answered(lambda app: app.submit("g", seat, command), app)))


def umpire_rules(app: Arbitro) -> None:
    """The umpire answers citing its own head and blue's view there, then dismisses the dispute: in its numbers, the
    log's, which differ between the games; blue is served them as the one command they lie in."""
    head = app.game("g").head_seq
    app.submit("g", "umpire", {"type": "dispute_reply", "dispute": 1, "text": "read from the log", "cites": [head],
                               "evidence": [{"kind": "position", "at": head, "seat": "blue"}]})
    app.submit("g", "umpire", {"type": "dispute_rule", "dispute": 1, "outcome": "dismissed", "text": "it stands"})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_number_a_seats_dispute_sends_or_is_served_is_a_command(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch,
                                                                        ruleset: str) -> None:
    """Blue disputes commands #0 to #2 with its view after red's attack (#1), cites a public note whole as it reads
    it, sends a command and a position the game does not have (#7, #9), answers citing commands; the umpire answers
    and rules in the log's numbers; blue answers the closed dispute. Every answer and refusal, blue's log and both
    seats' listings are the same bytes whatever red's attack made; the umpire's are not (the control)."""
    def note(app: Arbitro) -> object:
        return app.annotate("g", "blue", 1, "red attacked high")

    claim = {"type": "dispute_open", "about": [0, 1, 2], "text": "the attack was low",
             "evidence": [{"kind": "position", "at": 1}, {"kind": "note", "note": 1, "seq": 1, "by": "blue",
                                                          "private": False}]}
    games = same_to_blue(
        tmp_path, monkeypatch, ruleset, note, submitted("blue", claim),
        submitted("blue", {**claim, "about": [7]}),
        submitted("blue", {**claim, "evidence": [{"kind": "position", "at": 9}]}),
        submitted("blue", {"type": "dispute_reply", "dispute": 1, "text": "see also", "cites": [1, 2],
                           "evidence": [{"kind": "note", "note": 1}]}),
        umpire_rules,
        submitted("blue", {"type": "dispute_reply", "dispute": 1, "text": "too late", "cites": [2]}),
        lambda app: settling.disputes(app, "g", "blue"), lambda app: settling.disputes(app, "g", "red"),
        lambda app: app.log("g", "blue"))
    told, untold = games
    assert answered(lambda app: settling.disputes(app, "g", "umpire"), told) != \
        answered(lambda app: settling.disputes(app, "g", "umpire"), untold)  # the log's numbers differ
    (listed,) = settling.disputes(told, "g", "blue")  # in blue's numbers, as it sent them (a note is no command)
    assert listed.about == [0, 1, 2] and listed.claim.seq == 3 and listed.claim.evidence == [
        {"kind": "position", "at": 1, "seat": "blue"}, {"kind": "note", "note": 1, "seq": 1, "by": "blue",
                                                       "private": False}]
    assert [(r.seq, r.by, r.cites) for r in listed.replies] == [(4, "blue", [1, 2]), (5, "umpire", [4])]
    assert listed.replies[1].evidence == [{"kind": "position", "at": 4, "seat": "blue"}]
    assert listed.ruling is not None and listed.ruling.seq == 6
    refusals = [answered(lambda app: app.submit("g", "blue", command), told) for command in (
        {**claim, "about": [7]}, {**claim, "evidence": [{"kind": "position", "at": 9}]},
        {"type": "dispute_reply", "dispute": 1, "text": "too late", "cites": [2]})]
    assert b"#7 is not a command of this game (commands #0 to #6)" in refusals[0]
    assert b"#9 is not a command of this game" in refusals[1]
    assert b"closed by the umpire's ruling at #6 (dismissed)" in refusals[2]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_seat_names_a_roll_by_its_command_and_is_refused_in_commands(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch,
                                                                         ruleset: str) -> None:
    """`arbitro roll GAME N --as SEAT [--nth K]`: blue's guard (command #2) rolls the dice; blue explains it, and is
    refused a command with no roll (#1, red's attack), one the game does not have (#9) and a roll its command does
    not hold (--nth 2), all in the same bytes whatever red's attack made (the log's events differ); the umpire names
    the roll by its event, which differs (the control)."""
    def roll(cmd: int, nth: int = 1) -> object:
        return lambda app: explain_roll(app, "g", cmd, "blue", nth)

    told, untold = same_to_blue(tmp_path, monkeypatch, ruleset, roll(2), roll(1), roll(9), roll(2, 2), roll(0, 2))
    explained = explain_roll(told, "g", 2, "blue")
    assert (explained["seq"], explained["cmd"], explained["nth"], explained["type"]) == (2, 2, 1, "dice_rolled")
    assert "hash" not in explained["event"] and explained["event"]["seq"] == 2
    assert [e["seq"] for e in explained["followed"]] == [2] * len(explained["followed"]) and explained["followed"]
    with pytest.raises(NoSuchEvent, match=r"game g has commands #0 to #2; there is no #9"):
        explain_roll(told, "g", 9, "blue")
    with pytest.raises(BadInput, match=r"command #1 of g holds no roll or draw you were served; the commands that "
                                       r"hold one are #2"):
        explain_roll(told, "g", 1, "blue")
    rolled = [[e["seq"] for e in app.log("g", "umpire") if e["type"] == "dice_rolled"] for app in (told, untold)]
    assert rolled[0] != rolled[1]  # the umpire's numbers: the log's, moved by the hidden event
    assert explain_roll(told, "g", rolled[0][0], "umpire")["seq"] == rolled[0][0]
    with pytest.raises(BadInput, match="the umpire names a roll by its event"):
        explain_roll(told, "g", rolled[0][0], "umpire", 2)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_what_a_seat_knew_and_when_is_told_by_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       ruleset: str) -> None:
    """`arbitro knowledge --as blue [--at N] [--about NAME]` (arbitro §D.6): blue's facts after each of its commands,
    since which command, every change of what it was shown about red and the command that made it, and the refusal
    of a command the game does not have, are the same bytes whatever red's attack made; they count commands (no
    hidden event); the umpire's, by event, differ (the control)."""
    def knew(at: int | None, about: str | None = None) -> object:
        return lambda app: settling.knowledge(app, "g", "blue", at, about)

    told, untold = same_to_blue(tmp_path, monkeypatch, ruleset, knew(None), knew(0), knew(1), knew(2, "red"),
                                knew(None, "blue"), knew(3), knew(9, "red"))
    known = settling.knowledge(told, "g", "blue", about="red")
    assert (known.at, known.events, known.hidden) == (2, 3, 0)
    assert all(0 <= f.since <= 2 for f in known.facts) and all(0 <= c.seq <= 2 for c in known.changes)
    with pytest.raises(NoSuchEvent, match=r"game g has commands #0 to #2; there is no #3"):
        settling.knowledge(told, "g", "blue", 3)
    assert answered(lambda app: settling.knowledge(app, "g", "umpire"), told) != \
        answered(lambda app: settling.knowledge(app, "g", "umpire"), untold)
