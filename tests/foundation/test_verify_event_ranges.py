"""Every event lies in the range of the command it names, and the commands' ranges follow each other from #1
(arbitro §L.1). A command's first_seq/last_seq are covered by no hash and re-adjudication compares each command with
its range only, so an event outside every range, or ranges that overlap, must fail the command log (verify, import,
check), never pass re-adjudication unseen. Found by rev-verify."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.verify_ranges import _first_outside

from .conftest import Cli, event_records, read_export, rechain, write_export
from .test_bad_input import export, game  # noqa: F401


def command_log(report: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["name"] == "command log")


def commands(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["record"] == "command"]


def forged(run: Cli, path: Path, records: list[dict[str, Any]]) -> dict[str, Any]:
    """The file as a careful forger leaves it (every hash and the head recomputed), verified and imported."""
    next(r for r in records if r["record"] == "game")["head_seq"] = len(event_records(records))
    rechain(records)
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    assert report["passed"] is False, report
    assert [c["name"] for c in report["checks"]] == ["hash chain", "genesis", "command log", "completeness"]
    error = Cli(path.parent / "club.db")("import", str(path), code=2).stderr
    assert command_log(report)["detail"] in error and "nothing imported" in error
    return report


def test_an_event_appended_outside_every_commands_range_fails_verification(
        run: Cli, tmp_path: Path, game: str) -> None:
    """A forger appends an event naming the last command, re-chains and moves the head, but leaves the command's
    first_seq/last_seq as they were: no command's range holds the new event."""
    path = export(run, tmp_path)
    records = read_export(path)
    last = event_records(records)[-1]
    extra = json.loads(json.dumps(last))
    extra["seq"] = extra["body"]["seq"] = last["seq"] + 1
    records.insert(records.index(last) + 1, extra)
    report = forged(run, path, records)
    owner = commands(records)[-1]
    assert command_log(report) == {"name": "command log", "status": "failed", "detail": (
        f"command {owner['cmd']} claims events #{owner['first_seq']}-#{last['seq']}, "
        f"but its events are #{owner['first_seq']}-#{last['seq'] + 1}")}
    assert report["divergence"]["seq"] == last["seq"] + 1 and report["divergence"]["rule"] == "arbitro §L.1"


def test_an_event_inserted_between_two_commands_ranges_fails_verification(
        run: Cli, tmp_path: Path, game: str) -> None:
    """A forger duplicates a damage_dealt event right after its command's events, naming the same command, renumbers
    the events after it and shifts the later commands' ranges, leaving the event in no command's range."""
    path = export(run, tmp_path)
    records = read_export(path)
    events = event_records(records)
    hit = next(e for e in events if e["body"]["event"]["type"] == "damage_dealt")
    owner = next(r for r in commands(records) if r["cmd"] == hit["body"]["cmd"])
    last_of_owner = next(e for e in events if e["seq"] == owner["last_seq"])
    extra = json.loads(json.dumps(hit))
    for e in events[owner["last_seq"]:]:
        e["seq"] = e["body"]["seq"] = e["seq"] + 1
    extra["seq"] = extra["body"]["seq"] = owner["last_seq"] + 1
    records.insert(records.index(last_of_owner) + 1, extra)
    for c in (r for r in commands(records) if r["first_seq"] > owner["last_seq"]):
        c["first_seq"] += 1
        c["last_seq"] += 1
    report = forged(run, path, records)
    first, last = owner["first_seq"], owner["last_seq"]
    assert command_log(report)["detail"] == (f"command {owner['cmd']} claims events #{first}-#{last}, "
                                             f"but its events are #{first}-#{last + 1}")
    assert report["divergence"]["seq"] == last + 1


@pytest.mark.parametrize(("moved", "to", "named", "divergence"), [
    (11, 10, "command 3 claims events #10-#{end}, but the events before it end at #11", 10),  # overlap
    (11, 7, "command 2 claims events #8-#11, but the events before it end at #6", 7),  # a gap before command 2
])
def test_commands_whose_ranges_overlap_or_leave_a_gap_fail_verification(
        run: Cli, tmp_path: Path, game: str, moved: int, to: int, named: str, divergence: int) -> None:
    """Command 3's first event (#11) moved among command 2's (#7-#10), and every range set to the events that name
    its command: each command claims exactly its own events, but the ranges are not one after the other."""
    path = export(run, tmp_path)
    records = read_export(path)
    events = event_records(records)
    assert [e["body"]["cmd"] for e in events[6:11]] == [2, 2, 2, 2, 3]  # the duel fixture: command 2 is #7-#10
    event = events[moved - 1]
    records.remove(event)
    records.insert(records.index(events[to - 1]), event)
    for seq, e in enumerate(event_records(records), 1):
        e["seq"] = e["body"]["seq"] = seq
    for c in commands(records):
        mine = [e["seq"] for e in event_records(records) if e["body"]["cmd"] == c["cmd"]]
        c["first_seq"], c["last_seq"] = mine[0], mine[-1]
    report = forged(run, path, records)
    end = commands(records)[3]["last_seq"]
    assert command_log(report)["detail"] == named.format(end=end) + ": each command's events follow the last one's"
    assert report["divergence"]["seq"] == divergence


def renamed(records: list[dict[str, Any]], cmd: int, to: int) -> None:
    """Command `cmd`'s events made to name command `to` (its number and its hash)."""
    digest = commands(records)[to]["hash"]
    for e in event_records(records):
        if e["body"]["cmd"] == cmd:
            e["body"]["cmd"], e["body"]["cmd_hash"] = to, digest


@pytest.mark.parametrize(("edit", "named", "divergence"), [
    (lambda records: renamed(records, 2, 3), "command 2 claims events #7-#10, but its events are none", 7),
    (lambda records: commands(records)[2].update(first_seq=0, last_seq=0),
     "command 2 claims events #0-#0, but its events are #7-#10", 7),
])
def test_a_command_claiming_events_that_name_another_or_none_that_name_it_fails_verification(
        run: Cli, tmp_path: Path, game: str, edit: Any, named: str, divergence: int) -> None:
    path = export(run, tmp_path)
    records = read_export(path)
    edit(records)
    report = forged(run, path, records)
    assert command_log(report)["detail"] == named and report["divergence"]["seq"] == divergence


def test_a_command_with_no_event_claims_none_and_the_ranges_go_on_after_it(run: Cli, tmp_path: Path, game: str) -> None:
    """A command that caused no event (an import may hold one: test_store_records) claims #0-#0 and the next
    command's events follow the last events before it: the command log holds, and re-adjudication judges the rest."""
    path = export(run, tmp_path)
    records = read_export(path)
    renamed(records, 2, 1)
    commands(records)[1]["last_seq"] = commands(records)[2]["last_seq"]
    commands(records)[2].update(first_seq=0, last_seq=0)
    rechain(records)
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    assert command_log(report) == {"name": "command log", "status": "passed",
                                   "detail": "5 commands, each hash matches its events"}
    assert [c["name"] for c in report["checks"] if c["status"] == "failed"] == ["re-adjudication"]


@pytest.mark.parametrize(("claimed", "actual", "first_outside"), [
    ((2, 3), (5, 6), 2), ((5, 6), (2, 3), 2),  # apart: where the earlier begins
    ((0, 0), (4, 5), 4), ((4, 5), (0, 0), 4),  # one empty: where the other begins
    ((2, 4), (2, 6), 5), ((2, 6), (2, 4), 5),  # one begins both: where the shorter ends, plus one
])
def test_the_first_event_out_of_place_is_the_first_in_one_range_and_not_in_the_other(
        claimed: tuple[int, int], actual: tuple[int, int], first_outside: int) -> None:
    assert _first_outside(claimed, actual) == first_outside
