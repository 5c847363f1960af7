"""bench/drivers/relog.py: re-adjudicating a log under the build that made it rewrites it byte for byte, so
`git diff logs/` after a relog shows exactly what a change did to the games (and nothing of when it ran)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arbitro.adjudicator.service import Arbitro
from bench.drivers import relog, translate_seat_numbers, write_log

LOGS = Path(__file__).resolve().parents[2] / "logs"


def test_a_relog_under_the_same_build_rewrites_a_log_byte_for_byte(tmp_path: Path) -> None:
    copy = tmp_path / "marengo-full.jsonl"
    shutil.copy(LOGS / "marengo-full.jsonl", copy)
    assert relog.relog(copy) > 0
    assert copy.read_bytes() == (LOGS / "marengo-full.jsonl").read_bytes()


def test_a_relog_keeps_the_recorded_times_and_names_no_server_key(tmp_path: Path) -> None:
    original = (LOGS / "marengo-full.jsonl").read_text(encoding="utf-8").splitlines()
    moved = tmp_path / "moved.jsonl"
    # the same game recorded at other times: the rewrite keeps those times, not the time it runs
    moved.write_text("\n".join(line.replace('"received_at":"2026-', '"received_at":"2031-')
                               .replace('"created_at":"2026-', '"created_at":"2031-') for line in original) + "\n",
                     encoding="utf-8")
    relog.relog(moved)
    rewritten = moved.read_text(encoding="utf-8")
    assert '"received_at":"2026-' not in rewritten and '"created_at":"2026-' not in rewritten
    assert rewritten.count('"received_at":"2031-') == sum('"received_at":"' in line for line in original)
    assert '"server_key":null' in rewritten.splitlines()[0]


def _commands(path: Path) -> list[dict]:
    return [json.loads(line)["body"] for line in path.read_text(encoding="utf-8").splitlines()
            if '"record":"command"' in line and json.loads(line)["cmd"] > 0]


def test_a_translator_can_drop_a_recorded_command_and_insert_others_in_its_place(tmp_path: Path) -> None:
    copy = tmp_path / "marengo-full.jsonl"
    shutil.copy(LOGS / "marengo-full.jsonl", copy)
    recorded = _commands(copy)
    last = recorded[-1]
    seen: list[dict] = []

    def translate(app, game, seat, command):  # drop the last command
        seen.append(command)
        if len(seen) == len(recorded):
            return []
        return [(seat, command)]

    relog.relog(copy, translate)
    assert seen == [c["command"] for c in recorded]
    assert [c["command"] for c in _commands(copy)] == [c["command"] for c in recorded[:-1]]
    assert last["key"] not in copy.read_text(encoding="utf-8")


def test_an_inserted_command_gets_its_own_idempotency_key(tmp_path: Path) -> None:
    copy = tmp_path / "marengo-full.jsonl"
    shutil.copy(LOGS / "marengo-full.jsonl", copy)
    recorded = _commands(copy)
    first = recorded[0]

    played: list[int] = []

    def translate(app, game, seat, command):  # the first command is played as two: itself, then the second
        played.append(1)
        if len(played) == 1:
            return [(seat, command), (recorded[1]["seat"], recorded[1]["command"])]
        if len(played) == 2:
            return []
        return [(seat, command)]

    relog.relog(copy, translate)
    rewritten = _commands(copy)
    assert [c["command"] for c in rewritten] == [c["command"] for c in recorded]
    assert rewritten[1]["key"] == f"{first['key']}/1"


def test_a_translator_is_named_module_colon_function() -> None:
    assert relog.load_translator("bench.drivers.relog:keep") is relog.keep
    with pytest.raises(SystemExit, match="MODULE:FUNCTION"):
        relog.load_translator("bench.drivers.relog")


def test_a_translator_with_start_is_given_the_recorded_records_first(tmp_path: Path) -> None:
    """A translator that must know what the recorded game did (bench/drivers/translate_steps.py reads the steps it
    began) is handed the file's records before the first command."""
    copy = tmp_path / "marengo-full.jsonl"
    shutil.copy(LOGS / "marengo-full.jsonl", copy)
    calls: list[str] = []

    class Translator:
        def start(self, records: list[dict]) -> None:
            calls.append(f"start {sum(r['record'] == 'command' for r in records)}")

        def __call__(self, app, game, seat, command):
            calls.append("command")
            return [(seat, command)]

    played = relog.relog(copy, Translator())
    assert calls[0] == f"start {played + 1}" and calls[1:] == ["command"] * played  # (+1: the create command)
    assert copy.read_bytes() == (LOGS / "marengo-full.jsonl").read_bytes()


def test_a_seats_recorded_event_numbers_are_translated_to_its_commands(tmp_path: Path, app: Arbitro) -> None:
    """bench/drivers/translate_seat_numbers.py: a log recorded when a seat's dispute named the log's events (before
    648f8d6) is refused as it stands, and played again with each number naming the command that made the event."""
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    app.submit("g", "blue", {"type": "guard", "stance": "low"})
    app.submit("g", "red", {"type": "dispute_open", "about": [1, 2], "text": "the guard came late",
                            "evidence": [{"kind": "position", "at": 1}]})
    app.submit("g", "blue", {"type": "dispute_reply", "dispute": 1, "text": "it did not", "cites": [2]})
    path = tmp_path / "g.jsonl"
    write_log(path, app, "g")
    lines = path.read_text(encoding="utf-8").splitlines()
    now = [json.loads(line) for line in lines]
    ends = {r["cmd"]: r["last_seq"] for r in now if r["record"] == "command"}
    old = {  # the same messages as recorded before: each command named by its last event
        3: {"type": "dispute_open", "about": [ends[1], ends[2]], "text": "the guard came late", "private": False,
            "evidence": [{"kind": "position", "at": ends[1], "seat": ""}]},
        4: {"type": "dispute_reply", "dispute": 1, "text": "it did not", "cites": [ends[2]], "private": False,
            "evidence": [], "pause": False}}
    for record in now:
        if record["record"] == "command" and record["cmd"] in old:
            record["body"]["command"] = old[record["cmd"]]
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in now), encoding="utf-8")
    with pytest.raises(SystemExit, match="is not a command of this game"):
        relog.relog(path)  # read as commands, the old numbers name none the game has
    relog.relog(path, translate_seat_numbers.translate)
    assert [c["command"] for c in _commands(path)][2:] == [
        {**old[3], "about": [1, 2], "evidence": [{"kind": "position", "at": 1, "seat": ""}]},
        {**old[4], "cites": [2]}]


def test_a_seats_recorded_undo_point_and_note_citation_name_its_commands() -> None:
    """The translator's own reading: a seat's undo `to` (before 99c771c) and a note it cited whole name the command
    that made the recorded event, the note without its hash; the umpire's numbers are kept."""
    translator = translate_seat_numbers.SeatNumbersTranslator()
    translator.start([{"record": "command", "cmd": c, "last_seq": last} for c, last in ((0, 5), (1, 6), (2, 10))])
    undo = {"type": "undo", "to": 6, "reason": "misclick"}
    assert translator(None, "g", "blue", undo) == [("blue", {**undo, "to": 1})]  # type: ignore[arg-type]
    assert translator(None, "g", "umpire", undo) == [("umpire", undo)]  # type: ignore[arg-type]
    note = {"kind": "note", "note": 1, "seq": 10, "by": "red", "private": True, "hash": "a" * 64}
    claim = {"type": "dispute_open", "about": [5], "text": "see my note", "private": True, "evidence": [note]}
    (translated,) = translator(None, "g", "red", claim)  # type: ignore[arg-type]
    assert translated == ("red", {**claim, "about": [0], "evidence": [
        {"kind": "note", "note": 1, "seq": 2, "by": "red", "private": True}]})


def test_an_inserted_command_never_takes_a_recorded_key() -> None:
    """A log translated before holds a recorded command keyed `K/1` (the one after an insertion: fix-j's
    translate_retreat_wait left such keys in logs/arrivano-*.jsonl); a command a second translation inserts after
    `K` gets a key no recorded command holds, not `K/1` again (the relog stopped with KeyReused)."""
    taken = {"k", "k/1"}
    assert relog._new_key("k/1", taken) == "k/1+" and relog._new_key("k/2", taken) == "k/2"
    assert {"k/1+", "k/2"} <= taken, "a key handed out is taken"
