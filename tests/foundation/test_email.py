"""Issue 14 point 5, play by e-mail through the CLI: an umpire and two seats, each with its own database. A seat
imports its export as its own copy, reads it (status, view, legal, log, verify), writes its move offline as a signed
command file; the umpire submits the file and mails new exports, which the seat imports over its copy. The README's
e-mail section is run as printed; the copies are checked to verify and to hold nothing their seat may not know."""

from __future__ import annotations

import json
import re
import shlex
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from arbitro.cli import cli
from arbitro.events.codec import canonical
from arbitro.events.records import GENESIS
from arbitro.events.store import Annotation

from .conftest import Cli
from .test_seat_seal import reseal, server_key_of
from .test_usable import _session

ENTER = {"type": "enter", "block": "AUT_FRIMONT", "entry": "alessandria", "path": ["testa_di_ponte"]}
END_TURN = {"type": "end_turn"}


class Table:
    """Three databases in one directory: the umpire's and each seat's; commands run as that person would."""

    def __init__(self, where: Path) -> None:
        self.where = where
        self.db = {name: Cli(where / f"{name}.db") for name in ("umpire", "austria", "france")}
        self.game = ""

    def file(self, name: str) -> str:
        return str(self.where / name)

    def create(self) -> None:
        self.game = self.db["umpire"]("new", "marengo", "marengo").stdout.strip()
        for seat in ("austria", "france"):
            public = self.db[seat]("keygen", "-o", self.file(f"{seat}.key")).stdout.strip()
            self.db["umpire"]("register-key", self.game, "--as", seat, public)

    def mail_export(self, seat: str) -> None:
        """The umpire exports SEAT's file; SEAT imports it over its copy."""
        self.db["umpire"]("export", self.game, "--as", seat, "-o", self.file(f"for-{seat}.jsonl"))
        assert self.db[seat]("import", self.file(f"for-{seat}.jsonl")).stdout.strip() == self.game

    def play(self, seat: str, command: dict[str, Any], name: str) -> dict[str, Any]:
        """SEAT writes COMMAND offline, signed; the umpire submits the file."""
        self.db[seat]("submit", self.game, "--as", seat, "--offline", "-o", self.file(name), "--sign",
                      self.file(f"{seat}.key"), json.dumps(command))
        return self.db["umpire"].json("submit", self.game, "--file", self.file(name))


def enemy_blocks(table: Table, seat: str) -> list[str]:
    state = json.loads(table.db["umpire"]("position", table.game).stdout)["state"]
    return [block for block, b in state["blocks"].items() if b["side"] != seat]


def assert_knows_only_its_own(table: Table, seat: str) -> None:
    """SEAT's database verifies as a seat's copy, holds exactly the export the umpire sent it, and has neither the
    dice seed (until the umpire reveals it) nor the identity of any enemy block (Marengo's blocks stand face down,
    marengo §5)."""
    run = table.db[seat]
    report = run.json("verify", table.game)
    assert report["passed"] is True, report
    assert {c["name"]: c["status"] for c in report["checks"]}["re-adjudication"] == "unchecked"
    held = json.loads(Path(table.file(f"for-{seat}.jsonl")).read_text(encoding="utf-8").splitlines()[0])
    stored = (table.where / f"{seat}.db").read_bytes()
    seed = json.loads(table.db["umpire"]("export", table.game, "--with-seed").stdout.splitlines()[0])["seed"]
    # public once its reveal is in the seat's copy: every seat then checks its dice
    revealed = "seed_revealed" in [e["type"] for item in run.json("log", table.game) for e in item["events"]]
    assert held["redacted_for"] == seat and held["seed"] == (seed if revealed else None)
    assert seed and (revealed or seed.encode() not in stored)
    for block in enemy_blocks(table, seat):
        assert block.encode() not in stored, f"{seat}'s copy names the enemy block {block}"


def test_two_seats_and_an_umpire_play_turns_by_mail(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.create()
    for seat in ("austria", "france"):
        table.mail_export(seat)
    austria = table.db["austria"]
    assert austria.json("status", table.game, "--as", "austria")["awaiting"]["seats"] == ["austria"]
    assert ENTER in austria.json("legal", table.game, "--as", "austria")
    assert "Avanguardia di Frimont" in austria("view", table.game, "--as", "austria").stdout
    assert "austria's copy" in austria("games").stdout
    accepted = table.play("austria", ENTER, "austria-1.json")
    assert accepted["duplicate"] is False
    table.mail_export("austria")
    seats_awaited = []
    for turn in range(4):  # austria ends its turn, france its, and so on: each through the seat's own copy
        seat = "austria" if turn % 2 == 0 else "france"
        assert table.db[seat].json("status", table.game, "--as", seat)["awaiting"]["seats"] == [seat]
        table.play(seat, END_TURN, f"{seat}-end-{turn}.json")
        for each in ("austria", "france"):
            table.mail_export(each)
        seats_awaited.append(table.db[seat].json("status", table.game, "--as", seat)["awaiting"]["seats"])
    assert seats_awaited == [["france"], ["austria"], ["france"], ["austria"]]
    for seat in ("austria", "france"):
        head = table.db["umpire"].json("status", table.game, "--as", seat)["head"]  # a seat's: its last command
        log = table.db[seat].json("log", table.game, "--as", seat)
        assert [e["seq"] for e in log] == list(range(0, head + 1))  # every command, as that seat was served it
        assert_knows_only_its_own(table, seat)


def test_a_mailed_file_counts_once_and_only_as_signed(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.create()
    table.mail_export("austria")
    umpire, austria = table.db["umpire"], table.db["austria"]
    austria("submit", table.game, "--as", "austria", "--offline", "-o", table.file("move.json"), "--sign",
            table.file("austria.key"), json.dumps(ENTER))
    edited = json.loads(Path(table.file("move.json")).read_text())
    edited["command"]["path"] = ["testa_di_ponte", "pedrabona"]
    Path(table.file("edited.json")).write_text(json.dumps(edited))
    refused = umpire("submit", table.game, "--file", table.file("edited.json"), code=1)
    assert "signature does not verify" in refused.stderr  # changed on the way: refused (arbitro §L.6)
    assert umpire.json("submit", table.game, "--file", table.file("move.json"))["duplicate"] is False
    assert umpire.json("submit", table.game, "--file", table.file("move.json"))["duplicate"] is True  # counts once
    # written against command #2 (france's key registration, the last command austria's copy holds: its head, in its
    # numbers, engine-rules §V.6) after the head moved on: stale, never applied to a position austria did not see
    austria("submit", table.game, "--as", "austria", "--offline", "-o", table.file("late.json"), "--sign",
            table.file("austria.key"), json.dumps(END_TURN))
    assert "expected the game at command #2 but" in umpire("submit", table.game, "--file", table.file("late.json"), code=2).stderr
    unsigned = austria("submit", table.game, "--as", "austria", "--offline", "-o", table.file("x.json"),
                       json.dumps(END_TURN), code=2)
    assert "add --sign KEYFILE" in unsigned.stderr
    assert "never overwritten" in austria("submit", table.game, "--as", "austria", "--offline", "-o",
                                          table.file("late.json"), "--sign", table.file("austria.key"),
                                          json.dumps(END_TURN), code=2).stderr


def test_a_copy_takes_only_its_own_chain_carried_on(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.create()
    table.mail_export("austria")
    old = Path(table.file("for-austria.jsonl")).read_text(encoding="utf-8")
    table.play("austria", ENTER, "move.json")
    table.mail_export("austria")
    Path(table.file("old.jsonl")).write_text(old, encoding="utf-8")
    austria = table.db["austria"]
    held = austria.json("status", table.game, "--as", "austria")["head"]
    assert "older export" in austria("import", table.file("old.jsonl"), code=2).stderr
    table.db["umpire"]("export", table.game, "--as", "france", "-o", table.file("for-france.jsonl"))
    assert "goes in its own database" in austria("import", table.file("for-france.jsonl"), code=2).stderr
    # the umpire starts the game again under the same id, as if nothing had been sent: another history
    other = Cli(tmp_path / "other.db")
    other("new", "marengo", "marengo", "--id", table.game)
    other("submit", table.game, "--as", "austria", json.dumps(END_TURN))  # as long as the copy held (#3), or longer
    other("submit", table.game, "--as", "france", json.dumps(END_TURN))
    other("submit", table.game, "--as", "austria", json.dumps(END_TURN))
    other("export", table.game, "--as", "austria", "-o", table.file("rewritten.jsonl"))
    refused = austria("import", table.file("rewritten.jsonl"), code=2).stderr
    assert ("does not continue the copy you hold: command #0 differs from the one you were sent before (the umpire's "
            "log was changed, or this is another game); nothing imported. Keep both files for the dispute"
            ) in " ".join(refused.split())
    assert austria.json("status", table.game, "--as", "austria")["head"] == held  # the copy held is unchanged


def altered_notes(text: str, alter: Callable[[list[Annotation]], list[Annotation]], server_key: bytes) -> str:
    """An export's text with its notes replaced by alter(notes), each chain linked and hashed again from its first
    note on, and sealed again with the server's key: what an umpire who rewrites a chain would mail (it still
    verifies as a chain, and its seal as the server's)."""
    lines = [json.loads(line) for line in text.splitlines()]
    notes = alter([msgspec.convert(r, Annotation) for r in lines if r["record"] == "annotation"])
    last: dict[str, str] = {}
    rehashed = []
    for note in notes:
        note = msgspec.structs.replace(note, prev=last.get(note.chain, GENESIS), hash="")
        rehashed.append(msgspec.structs.replace(note, hash=note.digest()))
        last[note.chain] = rehashed[-1].hash
    records = [r for r in lines if r["record"] != "annotation"]
    at = next(i for i, r in enumerate(records) if r["record"] == "seat_view")
    records[at:at] = [{"record": "annotation", **msgspec.to_builtins(n)} for n in rehashed]
    reseal(records, server_key)
    return "".join(canonical(r).decode() + "\n" for r in records)


def test_a_copy_takes_only_an_export_that_keeps_every_note_it_holds(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.create()
    umpire, austria = table.db["umpire"], table.db["austria"]
    for text, seat, private in [("the opening", "umpire", False), ("my plan", "austria", True),
                                ("a ruling", "umpire", False)]:
        at = "1" if seat == "umpire" else "0"  # the umpire's first event, a seat's first command (engine-rules §V.6)
        umpire("annotate", table.game, text, "--as", seat, "--at", at, *(["--private"] if private else []))
    table.mail_export("austria")
    umpire("annotate", table.game, "a later ruling", "--as", "umpire", "--at", "1")
    umpire("export", table.game, "--as", "austria", "-o", table.file("later.jsonl"))
    later = Path(table.file("later.jsonl")).read_text(encoding="utf-8")
    held = austria.json("notes", table.game, "--as", "austria")
    lacks = ("does not continue the copy you hold: it lacks {}, which you were sent before (dropped, or the chain's "
             "end cut); nothing imported. Keep both files for the dispute")
    # the notes as austria reads them: by command (engine-rules §V.6), the umpire's at event #1 on command #0 too
    alterations = {
        "its own private notes dropped": (lambda notes: [n for n in notes if not n.private],
                                          lacks.format("note 1 of the private:austria chain (by austria on command #0)")),
        "a public note edited, the chain after it hashed again": (
            lambda notes: [msgspec.structs.replace(n, text="no ruling") if n.text == "a ruling" else n for n in notes],
            "does not continue the copy you hold: note 2 of the public chain (by umpire on command #0) differs from the "
            "one you were sent before (edited); nothing imported. Keep both files for the dispute"),
        "the public chain's end cut": (lambda notes: [n for n in notes if n.private or n.id == 1],
                                       lacks.format("note 2 of the public chain (by umpire on command #0)")),
    }
    for name, (alter, expected) in alterations.items():
        altered = altered_notes(later, alter, server_key_of(table.where / "umpire.db"))
        Path(table.file("altered.jsonl")).write_text(altered, encoding="utf-8")
        refused = austria("import", table.file("altered.jsonl"), code=2).stderr
        assert expected in " ".join(refused.split()), (name, refused)
        assert austria.json("notes", table.game, "--as", "austria") == held, name  # the copy held is unchanged
    assert austria("import", table.file("later.jsonl")).stdout.strip() == table.game  # more notes: carried on
    assert [n["text"] for n in austria.json("notes", table.game, "--as", "austria")] == [
        *[n["text"] for n in held if not n["private"]], "a later ruling", *[n["text"] for n in held if n["private"]]]


def test_a_copy_serves_its_seat_alone_and_says_so(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.create()
    table.mail_export("austria")
    austria, game = table.db["austria"], table.game
    assert "austria's copy" in austria("view", game, "--as", "france", code=2).stderr
    assert "has commands #0 to #2; there is no #5" in austria("view", game, "--as", "austria", "--at", "5", code=3).stderr
    assert austria.json("legal", game, "--as", "austria") == table.db["umpire"].json("legal", game, "--as", "austria")
    assert austria.json("view", game, "--as", "austria")["state"] == \
        table.db["umpire"].json("view", game, "--as", "austria")["state"]
    replayed = austria("replay", table.file("for-austria.jsonl"), "--as", "austria").stdout  # the file itself
    assert f"replayed {game} to #2" in replayed  # its numbers are its commands' (engine-rules §V.6)
    assert "-o FILE" in austria("submit", game, "--as", "austria", "--offline", json.dumps(END_TURN), code=2).stderr
    assert "with --offline only" in austria("submit", game, "--as", "austria", "-o", "x.json",
                                            json.dumps(END_TURN), code=2).stderr
    table.play("austria", ENTER, "move.json")
    other = table.db["umpire"]("new", "marengo", "marengo").stdout.strip()
    assert f"a command for game {game}, not {other}" in table.db["umpire"](
        "submit", other, "--file", table.file("move.json"), code=2).stderr
    assert "is austria's command, not france's" in table.db["umpire"](
        "submit", game, "--as", "france", "--file", table.file("move.json"), code=2).stderr


def run_in_process(script: str, cwd: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A README shell session of `arbitro` commands, run in this process (each as click runs it, a second instead
    of a process start each): `\\` continues a line, `#` starts a comment, `NAME=$(arbitro ...)` keeps the output,
    `$NAME` is replaced by it; every command must exit 0. Returns what the commands printed."""
    monkeypatch.chdir(cwd)
    names: dict[str, str] = {}
    printed = []
    for line in script.replace("\\\n", " ").splitlines():
        line = re.sub(r"\$(\w+)", lambda m: names[m.group(1)], line)
        assign = re.match(r"^(\w+)=\$\((.*)\)(\s+#.*)?$", line)
        words = shlex.split(assign.group(2) if assign else line, comments=True)
        if not words:
            continue
        assert words[0] == "arbitro", line
        result = CliRunner().invoke(cli, words[1:], env={"ARBITRO_DB": None, "ARBITRO_STORE": None,
                                                         "ARBITRO_SEAT_ENTROPY": None}, prog_name="arbitro")
        assert result.exit_code == 0, f"{line}\n{result.stdout}\n{result.stderr}"
        if assign:
            names[assign.group(1)] = result.stdout.strip()
        printed.append(result.stdout)
    return "".join(printed)


def test_the_readmes_email_round_trip_runs_as_printed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = _session("## Play by e-mail")
    assert script.count("--db umpire.db") >= 5 and "--db austria.db" in script and "--db france.db" in script
    shown = run_in_process(script, tmp_path, monkeypatch)
    assert "france's copy  #" in shown and "VERIFIED" in shown and "austria's end_turn against #" in shown
    assert "austria's commit_entropy against #" in shown and "france's reveal_entropy against #" in shown
    assert "UNCHECKED dice: 1 rolls and draws; the seed is not revealed yet" in shown  # france's, before the reveal
    assert "PASSED    dice: the revealed seed matches the commitment made at creation" in shown
    table = Table(tmp_path)
    table.game = table.db["umpire"]("games").stdout.split()[0]
    for seat in ("austria", "france"):
        assert table.db[seat]("games").stdout.split()[0] == table.game
        assert_knows_only_its_own(table, seat)
    # the commitments crossed in the post (both signed against #3): each verifies under its seat's key
    checks = {c["name"]: c for c in table.db["umpire"].json("verify", table.game)["checks"]}
    assert checks["seat signatures"]["status"] == "passed", checks


# --- entropy and dice by mail (arbitro §R.1-§R.3): each seat answers the round from its copy, and checks the dice ---
def test_entropy_by_mail_then_each_seat_checks_the_dice_from_its_own_copy(tmp_path: Path) -> None:
    table = Table(tmp_path)
    umpire = table.db["umpire"]
    table.game = umpire("new", "arrivano", "montebello", "--seat-entropy").stdout.strip()
    seats = ("austria", "france")
    for seat in seats:
        public = table.db[seat]("keygen", "-o", table.file(f"{seat}.key")).stdout.strip()
        umpire("register-key", table.game, "--as", seat, public)
    for step in ("commit", "reveal"):  # each seat from its own copy, never online; the umpire submits the files
        for seat in seats:
            table.mail_export(seat)
            written = table.db[seat].json("entropy", table.game, "--as", seat, "--offline", "-o",
                                          table.file(f"{seat}-{step}.json"), "--sign", table.file(f"{seat}.key"),
                                          "--file", table.file(f"{seat}.entropy"))
            assert written["signed"] and written["listed_legal"], written  # the copy lists the round's template
            mailed = json.loads(Path(table.file(f"{seat}-{step}.json")).read_text())["command"]
            assert mailed["type"] == f"{step}_entropy"
            umpire.json("submit", table.game, "--file", table.file(f"{seat}-{step}.json"))
    kept = {seat: Path(table.file(f"{seat}.entropy")).read_text() for seat in seats}
    log = umpire.json("log", table.game)
    assert [e["event"]["entropy"] for e in log if e["type"] == "entropy_revealed"] == [kept["austria"], kept["france"]]
    rolls = [e["seq"] for e in log if e["type"] == "dice_rolled"]
    rolled = [e["cmd"] for e in log if e["type"] == "dice_rolled"]  # a seat names a roll by its command (§V.6)
    assert rolls, "the opening rolls each side's initiative once the round is complete"
    for seat in seats:  # before the reveal a copy says what it can check, and that it cannot recompute yet
        table.mail_export(seat)
        dice = {c["name"]: c for c in table.db[seat].json("verify", table.game)["checks"]}["dice"]
        assert dice["status"] == "unchecked" and "not revealed yet" in dice["detail"]
        assert "the seed is not revealed yet" in table.db[seat].json("roll", table.game, str(rolled[0]))[
            "recomputed"]["status"]
    assert "awaits no entropy from austria" in table.db["austria"](
        "entropy", table.game, "--as", "austria", "--offline", "-o", table.file("late.json"), code=2).stderr
    umpire("reveal", "--expose-hidden", table.game, "--reason", "the end of play")
    for seat in seats:  # offline, from the copy alone: the seed matches its commitment and every roll recomputes
        table.mail_export(seat)
        report = table.db[seat].json("verify", table.game)
        dice = {c["name"]: c for c in report["checks"]}["dice"]
        assert report["passed"] and dice["status"] == "passed", dice
        assert f"{len(rolls)} of {len(rolls)} rolls and draws were served whole" in dice["detail"]
        explained = table.db[seat].json("roll", table.game, str(rolled[0]))
        assert explained["seat"] == seat and explained["recomputed"]["matches"] is True
        assert explained["derivation"]["mix"] == [e for e in log if e["type"] == "entropy_mixed"][0]["event"]["mix"]
        assert "MATCHES the log" in table.db[seat]("roll", table.game, str(rolled[0])).stdout


def test_a_seat_deletes_its_own_copy_and_starts_again_from_the_next_export(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.create()
    table.mail_export("austria")
    austria = table.db["austria"]
    assert "austria's copy" in austria("delete", table.game, "--as", "france", "--yes", code=2).stderr  # not france's
    assert austria.json("games") == [{"game": table.game, "ruleset": "marengo", "scenario": "marengo",
                                      "kind": "austria's copy", "head": 2, "parent": None, "parent_seq": None}]  # after the seats' registrations
    with sqlite3.connect(tmp_path / "austria.db") as db:  # the copy's head in its own column, for umpires' SQL
        assert db.execute("SELECT game, seat, head_seq FROM seat_copies").fetchall() == [(table.game, "austria", 2)]
    deleted = austria.json("delete", table.game, "--as", "austria", "--yes")
    assert deleted == {"game": table.game, "deleted": True, "events": 2, "forks_kept": [], "copy_of": "austria"}  # its head command
    assert table.game not in austria("games").stdout
    assert austria("status", table.game, "--as", "austria", code=3)  # gone from austria's database
    assert table.db["umpire"].json("status", table.game)["head"] == 6  # the game itself is the umpire's, untouched
    table.mail_export("austria")  # a fresh copy is taken again
    assert austria.json("status", table.game, "--as", "austria")["head"] == 2  # its numbers: commands (§V.6)


def test_a_seats_copy_moves_with_migrate_and_is_checked_there(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.create()
    table.mail_export("austria")
    austria = table.db["austria"]
    target = tmp_path / "austria-new.db"
    moved = austria.json("migrate", "--from", f"sqlite:{tmp_path / 'austria.db'}", "--to", f"sqlite:{target}")
    (copy,) = moved["games"]
    assert moved["ok"] and copy["status"] == "austria's copy moved" and copy["identical"] and copy["verified"]
    after = Cli(target)
    assert "austria's copy" in after("games").stdout
    assert after.json("legal", table.game, "--as", "austria") == austria.json("legal", table.game, "--as", "austria")
    again = austria.json("migrate", "--from", f"sqlite:{tmp_path / 'austria.db'}", "--to", f"sqlite:{target}")
    assert again["games"][0]["status"] == "austria's copy already there"  # an interrupted migration runs again
    table.play("austria", ENTER, "move.json")
    table.mail_export("austria")  # the copy carries on in the source: the target's is another export of it
    refused = austria("migrate", "--from", f"sqlite:{tmp_path / 'austria.db'}", "--to", f"sqlite:{target}", code=2)
    assert "another copy of" in refused.stderr and "nothing was moved" in refused.stderr


def test_check_looks_at_a_seats_copy_and_finds_it_damaged(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.create()
    table.mail_export("austria")
    austria = table.db["austria"]
    assert f"OK      {table.game}: austria's copy, 3 commands as served, 0 notes" in austria("check").stdout
    db = sqlite3.connect(tmp_path / "austria.db")
    (text,) = db.execute("SELECT export FROM seat_copies").fetchone()
    turn = '"side":"austria","turn":0,"type":"turn_began"'  # in command #0's item: the seal binds it
    damaged = text.replace(turn, turn.replace("austria", "france"), 1)
    assert damaged != text
    db.execute("UPDATE seat_copies SET export=?", (damaged,))
    db.commit()
    db.close()
    (found,) = austria.json("check", table.game, code=1)
    assert found["copy_of"] == "austria" and not found["ok"] and "edited" in " ".join(found["problems"])
