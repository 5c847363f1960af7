"""Issue 14, through the CLI as each user would: the historian reads notes back (point 6), the disputant
examines one roll (point 8), the umpire is warned before a reveal (point 9), the engine's own commands are
documented and listed (point 11). The game is the duel test ruleset (tests/foundation/duel.py)."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import Cli, exchange, read_export

PUBLIC, SECRET = "Lannes should have blocked here", "bluff: my card is weak"


# --- point 6: notes read back ---------------------------------------------------------------------
def _annotated(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    run("annotate", "g", PUBLIC, "--as", "umpire", "--at", "6")
    run("annotate", "g", SECRET, "--as", "red", "--at", "8", "--private")


def test_notes_lists_what_each_seat_may_read(run: Cli) -> None:
    _annotated(run)
    assert [n["text"] for n in run.json("notes", "g", "--as", "red")] == [PUBLIC, SECRET]
    assert [n["text"] for n in run.json("notes", "g", "--as", "blue")] == [PUBLIC]
    assert [n["text"] for n in run.json("notes", "g")] == [PUBLIC]  # the umpire does not read red's private note
    blue = run("notes", "g", "--as", "blue").stdout
    assert f"note 1 on #6 by umpire: {PUBLIC}" in blue and "bluff" not in blue
    assert "(private)" in run("notes", "g", "--as", "red").stdout
    notes = run.json("notes", "g", "--as", "red")
    assert all(n["hash"] and n["at_hash"] for n in notes)  # the chain fields, to check them against an export
    assert "unknown seat 'green'" in run("notes", "g", "--as", "green", code=2).stderr
    assert "no game 'nope'" in run("notes", "nope", code=3).stderr


def test_log_shows_each_note_beneath_its_event(run: Cli) -> None:
    _annotated(run)
    lines = run("log", "g", "--as", "red").stdout.splitlines()
    at6 = next(i for i, line in enumerate(lines) if line.startswith("#6 "))
    assert PUBLIC in lines[at6 + 1] and lines[at6 + 2].startswith("#7 ")
    at8 = next(i for i, line in enumerate(lines) if line.startswith("#8 "))
    assert SECRET in lines[at8 + 1] and "(private)" in lines[at8 + 1]
    blue = run.json("log", "g", "--as", "blue")
    assert [n["text"] for n in blue[5]["notes"]] == [PUBLIC] and "notes" not in blue[7]
    assert "bluff" not in json.dumps(blue) + run("log", "g", "--as", "blue").stdout
    red = run.json("log", "g", "--as", "red", "--from", "8", "--to", "8")
    assert [n["text"] for n in red[0]["notes"]] == [SECRET]


def test_view_and_replay_carry_the_notes(run: Cli, tmp_path: Path) -> None:
    _annotated(run)
    assert [n["text"] for n in run.json("view", "g", "--as", "red")["notes"]] == [PUBLIC, SECRET]
    assert [n["text"] for n in run.json("view", "g", "--as", "red", "--at", "7")["notes"]] == [PUBLIC]
    assert "bluff" not in run("view", "g", "--as", "blue").stdout
    assert PUBLIC in run("view", "g", "--as", "blue").stdout
    assert [n["text"] for n in run.json("replay", "g", "--as", "red")["notes"]] == [PUBLIC, SECRET]
    assert run.json("replay", "g", "--to", "5")["notes"] == []
    text = run("replay", "g", "--as", "blue").stdout
    assert f"note 1 on #6 by umpire: {PUBLIC}" in text and "bluff" not in text
    exported = tmp_path / "g.jsonl"
    run("export", "g", "-o", str(exported))
    assert any(r["record"] == "annotation" for r in read_export(exported))
    assert [n["text"] for n in run.json("replay", str(exported))["notes"]] == [PUBLIC]
