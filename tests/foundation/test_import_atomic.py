"""Issue 14.1: an import stores the whole checked game or nothing, and its error names the file's first bad line;
`import --as-id NEW_ID` stores a game whose id is taken; `arbitro delete GAME` (the umpire's, with confirmation)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbitro.cli import cli

from .conftest import Cli, db_rows, event_records, exchange, read_export, rechain, write_export

TABLES = ("games", "commands", "events", "annotations", "snapshots", "seats")


@pytest.fixture
def exported(run: Cli, tmp_path: Path) -> Path:
    """A played duel with a note, exported whole (seed included, as when moving a game between servers)."""
    run("new", "duel", "standard", "--id", "g")
    for _ in range(3):
        exchange(run, "g", "red")
        run.submit("g", "blue", {"type": "end_turn"}) if run.json("status", "g")["awaiting"]["seats"] == ["blue"] \
            else None
    run("annotate", "g", "a good guard", "--as", "umpire", "--at", "7")
    path = tmp_path / "g.jsonl"
    run("export", "g", "--with-seed", "-o", str(path))
    return path


def rows(db: Path) -> dict[str, int]:
    return {t: db_rows(db, f"SELECT COUNT(*) FROM {t}")[0][0] for t in TABLES} if db.exists() else {}


def without_line(path: Path, number: int, tmp_path: Path) -> Path:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    damaged = tmp_path / f"without-{number}.jsonl"
    damaged.write_text("".join(lines[: number - 1] + lines[number:]), encoding="utf-8")
    return damaged


def line_of(path: Path, kind: str, **where: int) -> int:
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        record = json.loads(text)
        if record["record"] == kind and all(record.get(k) == v for k, v in where.items()):
            return number
    raise LookupError((kind, where))


@pytest.mark.parametrize("kind, where", [("command", {"cmd": 3}), ("event", {"seq": 9}), ("command", {"cmd": 1})])
def test_a_file_with_one_line_deleted_imports_nothing_and_names_the_line(
    tmp_path: Path, exported: Path, kind: str, where: dict[str, int]
) -> None:
    deleted = line_of(exported, kind, **where)
    club = Cli(tmp_path / "club.db")
    club("new", "duel", "standard", "--id", "other")  # a database with a game in it already
    before = rows(club.db)
    error = club("import", str(without_line(exported, deleted, tmp_path)), code=2).stderr
    # the first bad line of the damaged file is the one that took the deleted line's place
    assert f"without-{deleted}.jsonl, line {deleted}:" in error and "nothing imported" in error, error
    assert rows(club.db) == before
    assert [g["game"] for g in club.json("games")] == ["other"]
    assert club("import", str(exported)).stdout.strip() == "g"  # the good file then imports
    assert club.json("verify", "g")["passed"] is True


def test_an_edited_event_range_is_refused_naming_its_line(tmp_path: Path, exported: Path) -> None:
    records = read_export(exported)
    command = next(r for r in records if r["record"] == "command" and r["cmd"] == 2)
    command["last_seq"] += 1  # claims the next command's first event
    damaged = tmp_path / "ranges.jsonl"
    write_export(damaged, records)
    error = Cli(tmp_path / "club.db")("import", str(damaged), code=2).stderr
    assert f"line {line_of(damaged, 'command', cmd=2)}: command 2 claims events" in error
    assert Cli(tmp_path / "club.db").json("games") == []


def test_a_failure_while_storing_leaves_nothing_behind(tmp_path: Path, exported: Path) -> None:
    """Every check passes, then the store refuses the last record (two notes with one id): not a single row."""
    records = read_export(exported)
    note = next(r for r in records if r["record"] == "annotation")
    records.append(dict(note))
    damaged = tmp_path / "twice.jsonl"
    write_export(damaged, records)
    club = Cli(tmp_path / "club.db")
    club("new", "duel", "standard", "--id", "other")
    before = rows(club.db)
    club("import", str(damaged), code=2)
    assert rows(club.db) == before


def test_a_position_this_build_does_not_read_imports_nothing(tmp_path: Path, exported: Path) -> None:
    """A file whose chain and commands hold but whose position this build's ruleset no longer reads (a game of a
    version whose state changed shape, docs/exchange-format.md): refused, naming its ruleset and version, with no
    row left behind (it was stored, then failed when its snapshots were rebuilt)."""
    records = [r for r in read_export(exported) if r["record"] != "annotation"]  # (a note names its event's hash)
    event_records(records)[0]["body"]["event"]["initial"]["hp"] = "no longer a table"
    rechain(records)
    damaged = tmp_path / "older.jsonl"
    write_export(damaged, records)
    club = Cli(tmp_path / "club.db")
    club("new", "duel", "standard", "--id", "other")
    before = rows(club.db)
    error = club("import", str(damaged), code=2).stderr
    assert "older.jsonl, line " in error and ": event #1: the position of this duel 1.0.0 game" in error, error
    assert "docs/exchange-format.md" in error and "nothing imported" in error
    assert rows(club.db) == before
    assert [g["game"] for g in club.json("games")] == ["other"]


def test_import_as_another_id_when_the_id_is_taken(run: Cli, exported: Path, tmp_path: Path) -> None:
    """Moving a game to a server where its id is taken by another game. Not beside the original, which still rolls
    from the seed the file holds: that copy is refused (rev-q, tests/foundation/test_import_copy_dice.py)."""
    there = Cli(tmp_path / "there.db")
    there("new", "duel", "standard", "--id", "g")
    error = there("import", str(exported), code=2).stderr  # g is already in that database
    assert "already exists" in error and "--as-id" in error and "arbitro delete g" in error
    assert "rolls from the same secret seed" in run("import", str(exported), "--as-id", "g-copy", code=1).stderr
    assert there("import", str(exported), "--as-id", "g-copy").stdout.strip() == "g-copy"
    copy, original = there.json("status", "g-copy"), run.json("status", "g")
    assert {**copy, "game": "g"} == original
    assert [e["type"] for e in there.json("log", "g-copy")] == [e["type"] for e in run.json("log", "g")]
    assert there.json("view", "g-copy", "--as", "umpire")["state"] == run.json("view", "g", "--as", "umpire")["state"]
    assert there.json("verify", "g-copy")["passed"] is True
    assert db_rows(there.db, "SELECT text FROM annotations WHERE game='g-copy'") == [("a good guard",)]
    seat = there.json("status", "g-copy")["awaiting"]["seats"][0]
    played = there.submit("g-copy", seat, there.json("legal", "g-copy", "--as", seat)[0])  # the copy plays on
    assert played["duplicate"] is False and run.json("status", "g")["head"] == original["head"]


# --- delete ---------------------------------------------------------------------------------------
def test_delete_asks_and_no_keeps_the_game(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    result = run.runner.invoke(cli, ["delete", "g", "--db", str(run.db)], input="n\n")
    assert result.exit_code == 1 and "nothing deleted" in result.stderr and "cannot be undone" in result.stderr
    assert run.json("status", "g")["head"] == 5


def test_delete_by_the_umpire_removes_everything_and_the_id_is_free_again(run: Cli, exported: Path) -> None:
    run("fork", "g", "--at", "5")
    forks = [r["game"] for r in run.json("games") if r["parent"] == "g"]
    head = run.json("status", "g")["head"]
    result = run.runner.invoke(cli, ["delete", "g", "--db", str(run.db), "--json"], input="y\n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"game": "g", "deleted": True, "events": head, "forks_kept": forks}
    assert "no game 'g'" in run("status", "g", code=3).stderr
    assert all(db_rows(run.db, f"SELECT COUNT(*) FROM {t} WHERE game='g'") == [(0,)] for t in TABLES[1:])
    assert db_rows(run.db, "SELECT COUNT(*) FROM games WHERE id='g'") == [(0,)]
    assert [r["game"] for r in run.json("games") if r["game"] in forks] == forks  # the forks keep their logs
    run("import", str(exported))  # the id is free again
    assert run.json("verify", "g")["passed"] is True


def test_delete_is_the_umpires_and_needs_a_game(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    refused = run.json("delete", "g", "--as", "red", "--yes", code=1)
    assert refused["error"] == "authority/umpire-only" and "umpire" in refused["message"]
    assert run.json("status", "g")["head"] == 5
    assert "no game 'nope'" in run("delete", "nope", "--yes", code=3).stderr
    assert run("delete", "g", "--yes").stdout.startswith("deleted game g (5 events)")
