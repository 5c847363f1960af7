"""Issue 14.2 and 14.4: opening the database. Commands that read open it read-only and never create it (a
mistyped --db is an error naming the path, not a new empty database); only new, import and demo create one,
and say so; a read-only database can be read; a missing directory is "not found", not "corrupt"; a missing
exported file is a missing file, not a missing game."""

from __future__ import annotations

import gc
import os
import shutil
import sqlite3
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import DUEL, REPO, Cli, arbitro_exe, exchange

READS = [("games",), ("status", "g"), ("legal", "g", "--as", "red"), ("view", "g", "--as", "red"), ("log", "g"),
         ("replay", "g"), ("export", "g"), ("verify", "g"), ("position", "g")]
WRITES = [("submit", "g", "--as", "red", '{"type": "end_turn"}'), ("undo", "g", "--as", "red", "--to", "5"),
          ("annotate", "g", "a note", "--as", "red", "--at", "1"), ("reveal", "--expose-hidden", "g"), ("fork", "g", "--at", "5")]


# --- a mistyped --db ---------------------------------------------------------------------------------
@pytest.mark.parametrize("args", READS + WRITES, ids=lambda a: a[0])
def test_a_mistyped_db_is_not_found_and_never_created(tmp_path: Path, args: tuple[str, ...]) -> None:
    Cli(tmp_path / "club.db")("new", "duel", "standard", "--id", "g")
    typo = tmp_path / "clb.db"
    error = Cli(typo)(*args, code=3).stderr
    assert f"no database at {typo}" in error and "--db" in error
    assert not typo.exists() and not Path(f"{typo}-wal").exists()


@pytest.mark.parametrize("args", [("status", "g"), ("new", "duel", "standard")], ids=["read", "new"])
def test_a_missing_directory_is_not_found_not_corrupt(tmp_path: Path, args: tuple[str, ...]) -> None:
    db = tmp_path / "no-such-dir" / "club.db"
    error = Cli(db)(*args, code=3).stderr
    assert "corrupt" not in error and str(db.parent) in error
    assert not db.parent.exists()


def test_new_import_and_demo_create_the_database_and_say_so(tmp_path: Path) -> None:
    first = Cli(tmp_path / "a.db")
    made = first("new", "duel", "standard", "--id", "g")
    assert made.stdout.strip() == "g" and f"created the database {tmp_path / 'a.db'}" in made.stderr
    assert "created" not in first("new", "duel", "standard", "--id", "h").stderr  # only when it did
    first("export", "g", "-o", str(tmp_path / "g.jsonl"))
    imported = Cli(tmp_path / "b.db")("import", str(tmp_path / "g.jsonl"))
    assert "created the database" in imported.stderr and imported.stdout.strip() == "g"
    demo = Cli(tmp_path / "c.db")("demo", "--ruleset", "duel", "--steps", "2")
    assert "created the database" in demo.stderr


def test_the_games_not_found_names_the_database_file(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    error = run("status", "nope", code=3).stderr
    assert f"no game 'nope' in {run.db}" in error and f"arbitro games --db {run.db}" in error


# --- a read-only database --------------------------------------------------------------------------------
@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory another user can enter (pytest's tmp_path is private to its owner)."""
    path = Path(tempfile.mkdtemp(prefix="arbitro-ro-"))
    path.chmod(0o755)
    yield path
    path.chmod(0o755)
    shutil.rmtree(path, ignore_errors=True)


def as_reader(args: list[str]) -> list[str]:
    """Run as a user without write access: `nobody` when the tests run as root (root writes anything)."""
    if os.geteuid() != 0:
        return args
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: no way to be a user without write access")
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *args]


@pytest.mark.parametrize("directory_writable", [False, True], ids=["read-only-dir", "read-only-file"])
def test_a_read_only_database_can_be_read(shared_dir: Path, directory_writable: bool) -> None:
    db = shared_dir / "club.db"
    run = Cli(db)
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    expected_status = run.json("status", "g")
    gc.collect()  # the CLI's connections, closed
    with sqlite3.connect(db) as conn:  # everything in the main file, as after the last writer closed
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = db.read_bytes()
    db.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    shared_dir.chmod(0o777 if directory_writable else 0o555)
    exe = arbitro_exe()
    env = {"ARBITRO_RULESETS": DUEL, "PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "ARBITRO_DB": str(db),
           "HOME": str(shared_dir)}

    def arbitro(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(as_reader([*exe, *args]), env=env, cwd="/", capture_output=True, text=True, timeout=120)

    status = arbitro("status", "g", "--json")
    assert status.returncode == 0, status.stderr
    assert status.stdout.strip().startswith("{") and '"head": %d' % expected_status["head"] in status.stdout
    for args in (("log", "g"), ("view", "g", "--as", "blue"), ("export", "g"), ("verify", "g"), ("games",)):
        done = arbitro(*args)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (args, done.stderr)
    refused = arbitro("submit", "g", "--as", "red", '{"type": "end_turn"}')
    assert refused.returncode == 2 and "read-only" in refused.stderr and "corrupt" not in refused.stderr, refused.stderr
    assert db.read_bytes() == before


# --- a missing exported file --------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["verify", "replay"])
@pytest.mark.parametrize("name", ["x.jsonl", "exports/x.jsonl"])
def test_verify_and_replay_of_a_missing_file_say_the_file_does_not_exist(run: Cli, command: str, name: str) -> None:
    run("new", "duel", "standard", "--id", "g")
    payload = run.json(command, name, code=3)
    assert payload["error"] == "lookup/no-such-file" and f"{name}: no such file" in payload["message"]
    assert "no game" not in payload["message"]
    assert run.json(command, "g")  # a game id still works


def test_import_of_a_missing_file_is_not_found(run: Cli, tmp_path: Path) -> None:
    assert "no such file" in run("import", str(tmp_path / "x.jsonl"), code=3).stderr
    assert not run.db.exists()
