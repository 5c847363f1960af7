"""A seat checks which events each command of its own export claims (arbitro §L.1, §L.8, engine-rules §V.2): each
claims at least one, its own commands hash to the hashes the file gives and are in the seat their lines name, every
event names a command the file holds (with that command's seat, and its hash where the event names one) and lies in
that command's range, and the ranges follow each other from #1. The seal binds the file to whoever holds the server's
key, so the attacker here is the host: it edits blue's export and seals it again with the server's own key, so the
seal passes under the key blue was told, and the command log still fails. Which command a hidden event belongs to,
within ranges and seats that agree, only the full log proves. Ranges are an `arbitro/2` seat export's (numbered as the
log), which verify still reads: a seat's export is now in its own numbers, with no range (test_seat_export_numbers.py),
so the file here is written as the server wrote it before (legacy_seat_export)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from arbitro.adjudicator.errors import BadFile
from arbitro.adjudicator.exchange import read_lines
from arbitro.adjudicator.service import Arbitro
from arbitro.adjudicator.verify import Check, Divergence, verify
from arbitro.adjudicator.verify_ranges import seat_command_problem
from arbitro.events.sqlite import SQLiteStore

from .legacy_seat_export import legacy_export
from .test_event_counts import TellingDuel  # registers "tellingduel": red's attack with the ruby falcon hides an event
from .test_seat_seal import Records, records, reseal, text_of

assert TellingDuel.name == "tellingduel"


@pytest.fixture(scope="module")
def played() -> tuple[Arbitro, str]:
    """A tellingduel where red holds the ruby falcon and attacked, and blue guarded: blue's export serves red's
    attack's second event (#3) as a `hidden` placeholder. Returns the app and blue's export."""
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-01-01T00:00:00+00:00")
    state = {"round": 1, "rounds": 6, "active": "red", "hp": {"red": 10, "blue": 10},
             "cards": {"red": "ruby-falcon", "blue": "coral-wolf"}, "played": {"red": False, "blue": False},
             "bonus": {"red": 0, "blue": 0}, "attack": None}
    app.create("tellingduel", position={"format": "arbitro-position/1", "ruleset": "tellingduel",
                                        "scenario": "standard", "options": [], "state": state},
               game_id="g", seed="5e" * 32, salt_key="a1" * 32)
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    app.submit("g", "blue", {"type": "guard", "stance": "low"})
    return app, "\n".join(legacy_export(app, "g", "blue")) + "\n"


def _verified(app: Arbitro, text: str) -> dict[str, Any]:
    report = app.verify_lines(text.splitlines(), server_key=app.server_key())
    return {c.name: (c.status, c.detail) for c in report.checks} | {"passed": report.passed}


def _by_host(app: Arbitro, text: str, edit: Callable[[Records], None]) -> str:
    rows = records(text)
    edit(rows)
    key = app.store.signing_key()
    assert key is not None
    reseal(rows, key)
    return text_of(rows)


def _command(rows: Records, cmd: int) -> dict[str, Any]:
    return next(r for r in rows if r["record"] == "command" and r["cmd"] == cmd)


def _event(rows: Records, seq: int) -> dict[str, Any]:
    return next(r for r in rows if r["record"] == "event" and r["seq"] == seq)


def test_blues_export_is_as_the_test_says_and_its_command_log_passes(played: tuple[Arbitro, str]) -> None:
    app, text = played
    rows = records(text)
    assert _event(rows, 3)["served"]["type"] == "hidden" and (_command(rows, 1)["first_seq"],
                                                               _command(rows, 1)["last_seq"]) == (2, 3)
    checks = _verified(app, text)
    assert checks["passed"] is True and checks["seat views"][0] == "passed"
    assert checks["command log"] == ("passed", (
        "3 commands, each claiming the events that name it; which command an event hidden from blue belongs to can be "
        "checked only with the full log"))


def _moved_to_command_2(rows: Records) -> None:  # the hidden event said to be blue's guard's, its range left
    _event(rows, 3)["served"].update(cmd=2, seat="blue")


def _moved_with_both_ranges_cut(rows: Records) -> None:  # ... and red's attack's range cut to leave it out
    _moved_to_command_2(rows)
    _command(rows, 1)["last_seq"] = 2


def _unheld_command(rows: Records) -> None:
    _event(rows, 3)["served"]["cmd"] = 7


def _range_overlapping(rows: Records) -> None:  # blue's guard claims red's attack's last event too
    _command(rows, 2)["first_seq"] -= 1


def _red_commands_hash(rows: Records) -> None:  # red's command (blue holds its hash, not its body) said to be another
    _command(rows, 1)["hash"] = "0" * 64


def _blues_own_command(rows: Records) -> None:  # blue's guard low said to be high
    body = _command(rows, 2)["body"]
    body["command"]["stance"] = "high"


def _hidden_event_given_to_blue(rows: Records) -> None:  # red's hidden event said to be blue's
    _event(rows, 3)["served"]["seat"] = "blue"


def _reds_command_given_to_blue(rows: Records) -> None:  # red's attack, and its hidden event, said to be blue's
    _command(rows, 1)["seat"] = "blue"
    _event(rows, 3)["served"]["seat"] = "blue"


def _blues_own_line_given_to_red(rows: Records) -> None:
    _command(rows, 2)["seat"] = "red"


def _command_appended(rows: Records) -> None:  # a command of red's made up after the last, claiming no event
    last = max(i for i, r in enumerate(rows) if r["record"] == "command")
    rows.insert(last + 1, {**_command(rows, 1), "cmd": 3, "first_seq": 0, "last_seq": 0, "hash": "7" * 64})


EDITS: dict[str, tuple[Callable[[Records], None], str]] = {
    "a command made up and appended, claiming no event": (
        _command_appended, "command 3 claims no event, but every command recorded caused at least one (arbitro §L.8)"),
    "a hidden event given to another seat": (
        _hidden_event_given_to_blue, "event #3 is blue's, but the command it names (1) is red's"),
    "another seat's command given to the seat, its hidden event too": (
        _reds_command_given_to_blue, "event #2 is red's, but the command it names (1) is blue's"),
    "the seat's own command's line naming another seat": (
        _blues_own_line_given_to_red, "command 2 is blue's, but its line names red"),
    "a hidden event moved to another command": (
        _moved_to_command_2, "command 1 claims events #2-#3, but its events are #2-#2"),
    "... and the ranges cut around it": (
        _moved_with_both_ranges_cut, "command 2 claims events #4-#7, but its events are #3-#7"),
    "a hidden event naming a command the file lacks": (
        _unheld_command, "event #3 names command 7, which this file does not hold"),
    "overlapping ranges": (
        _range_overlapping, "command 2 claims events #3-#7, but its events are #4-#7"),
    "another seat's command's hash": (
        _red_commands_hash, "event #2 names command 1 with a different hash"),
    "the seat's own command": (
        _blues_own_command, "command 2 (events #4-#7) was edited: its hash does not match"),
}


@pytest.mark.parametrize("name", EDITS)
def test_the_host_who_reseals_an_edited_command_log_is_caught(played: tuple[Arbitro, str], name: str) -> None:
    app, text = played
    edit, said = EDITS[name]
    checks = _verified(app, _by_host(app, text, edit))
    assert checks["seat views"][0] == "passed", checks  # the seal holds: the host's key made it
    assert checks["command log"] == ("failed", said) and checks["passed"] is False, name


def test_import_refuses_a_seat_export_whose_command_log_does_not_hold(played: tuple[Arbitro, str]) -> None:
    app, text = played
    forged = _by_host(app, text, _moved_to_command_2)
    copy = Arbitro(SQLiteStore(":memory:"))
    with pytest.raises(BadFile) as refused:
        copy.import_lines(forged.splitlines(), "blue.jsonl", seat="blue", seat_copy=True)
    assert str(refused.value) == ("blue.jsonl: command log: command 1 claims events #2-#3, but its events are #2-#2; "
                                  "nothing imported")


def test_a_served_event_without_a_command_number_is_reported_not_raised(played: tuple[Arbitro, str]) -> None:
    app, text = played
    forged = _by_host(app, text, lambda rows: _event(rows, 3)["served"].pop("cmd"))
    assert _verified(app, forged)["command log"] == ("failed", "event #3 names command None, which this file does "
                                                                "not hold")


def test_an_event_naming_the_command_just_past_the_last_is_one_the_file_does_not_hold(
        played: tuple[Arbitro, str]) -> None:
    """Commands are numbered from 0: a file of three holds 0, 1 and 2, and an event naming 3 names none of them."""
    app, text = played
    rows = records(text)
    assert max(r["cmd"] for r in rows if r["record"] == "command") == 2
    _event(rows, 3)["served"]["cmd"] = 3
    assert seat_command_problem(read_lines(text_of(rows).splitlines())) == (
        3, "event #3 names command 3, which this file does not hold")


def test_a_command_claiming_no_event_is_found_after_the_last_event_of_those_before_it(
        played: tuple[Arbitro, str]) -> None:
    app, text = played
    rows = records(text)
    _command(rows, 2)["first_seq"] = _command(rows, 2)["last_seq"] = 0
    assert seat_command_problem(read_lines(text_of(rows).splitlines())) == (
        3, "command 2 claims no event, but every command recorded caused at least one (arbitro §L.8)")


def test_a_seats_export_whose_command_log_fails_diverges_at_the_event_out_of_place(played: tuple[Arbitro, str]) -> None:
    app, text = played
    rows = records(text)
    _unheld_command(rows)
    report = verify(read_lines(text_of(rows).splitlines()))
    assert report.passed is False and report.divergence == Divergence(
        seq=3, expected="an event in the range of the command it names",
        found="event #3 names command 7, which this file does not hold", rule="arbitro §L.1")


def test_a_creation_claiming_no_event_is_found_at_the_genesis_in_a_seats_export_as_in_the_full_log(
        played: tuple[Arbitro, str]) -> None:
    """Command 0 (the umpire's creation) edited to claim no event: the seat is told the first event out of place is
    the genesis, #1, which names command 0, as the full log's check numbers it, not #0, which names no event."""
    app, text = played
    rows = records(text)
    _command(rows, 0)["first_seq"] = _command(rows, 0)["last_seq"] = 0
    said = "command 0 claims no event, but every command recorded caused at least one (arbitro §L.8)"
    assert seat_command_problem(read_lines(text_of(rows).splitlines())) == (1, said)
    report = verify(read_lines(text_of(rows).splitlines()))
    assert report.passed is False and report.divergence == Divergence(
        seq=1, expected="an event in the range of the command it names", found=said, rule="arbitro §L.1")
    whole = records("\n".join(app.export("g", "umpire")) + "\n")
    _command(whole, 0)["first_seq"] = _command(whole, 0)["last_seq"] = 0
    report = verify(read_lines(text_of(whole).splitlines()))
    found = "command 0 claims events #0-#0, but its events are #1-#1"
    assert report.divergence == Divergence(
        seq=1, expected="an event in the range of the command it names", found=found, rule="arbitro §L.1")
    assert [c for c in report.checks if c.name == "command log"] == [
        Check(name="command log", status="failed", detail=found)]
