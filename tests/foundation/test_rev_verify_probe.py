"""rev-verify's probes (review of issue 20's verify changes): forgeries verification must name, not crash on."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .conftest import Cli, event_records, read_export, rechain, write_export
from .test_bad_input import export, game  # noqa: F401

GENESIS = "0" * 64


def test_a_file_emptied_of_events_with_its_head_set_to_zero_fails_the_chain_without_crashing(
        run: Cli, tmp_path: Path, game: str) -> None:
    path = export(run, tmp_path)
    records = read_export(path)
    for e in event_records(records):
        records.remove(e)
    g = next(r for r in records if r["record"] == "game")
    g["head_seq"], g["head_hash"] = 0, GENESIS
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    assert report["passed"] is False
    assert [c["status"] for c in report["checks"] if c["name"] == "genesis"] == ["failed"]


def test_an_event_appended_outside_every_commands_range_fails_verification(
        run: Cli, tmp_path: Path, game: str) -> None:
    """A forger appends an event naming the last command, re-chains and moves the head, but leaves the command's
    first_seq/last_seq (not covered by any hash) as they were: no command's range holds the new event."""
    path = export(run, tmp_path)
    records = read_export(path)
    last = event_records(records)[-1]
    extra = json.loads(json.dumps(last))
    extra["seq"] = extra["body"]["seq"] = last["seq"] + 1
    records.insert(records.index(last) + 1, extra)
    next(r for r in records if r["record"] == "game")["head_seq"] += 1
    rechain(records)
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    assert report["passed"] is False, report


def test_an_event_inserted_between_two_commands_ranges_fails_verification(
        run: Cli, tmp_path: Path, game: str) -> None:
    """A forger duplicates a damage_dealt event right after it, naming the same command, renumbers the events
    after it and shifts the later commands' ranges (not covered by any hash), leaving the event in no command's
    range; every hash recomputed. Re-adjudication compares each command with its range only."""
    path = export(run, tmp_path)
    records = read_export(path)
    events = event_records(records)
    hit = next(e for e in events if e["body"]["event"]["type"] == "damage_dealt")
    owner = next(r for r in records if r["record"] == "command" and r["cmd"] == hit["body"]["cmd"])
    # the duplicate goes after the owner's last event: the owner's range stays, later ones shift
    last_of_owner = next(e for e in events if e["seq"] == owner["last_seq"])
    extra = json.loads(json.dumps(hit))
    for e in events[owner["last_seq"]:]:
        e["seq"] = e["body"]["seq"] = e["seq"] + 1
    extra["seq"] = extra["body"]["seq"] = owner["last_seq"] + 1
    records.insert(records.index(last_of_owner) + 1, extra)
    for c in (r for r in records if r["record"] == "command" and r["first_seq"] > owner["last_seq"]):
        c["first_seq"] += 1
        c["last_seq"] += 1
    next(r for r in records if r["record"] == "game")["head_seq"] += 1
    rechain(records)
    write_export(path, records)
    # import refuses this file (importing._range_problem: "command N claims events #a-#b, but its events are ..."),
    # yet verify, check (storecheck) and a server's /verify call it passed
    report = run.json("verify", str(path), code=1)
    assert report["passed"] is False, report
