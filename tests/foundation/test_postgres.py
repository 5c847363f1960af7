"""The PostgreSQL store beyond the contract (test_store_contract.TestPostgresStore runs that): games moved
between SQLite and PostgreSQL byte for byte (`arbitro migrate`), two OS processes racing submits to one game,
and the CLI choosing the store by --store / $ARBITRO_STORE. Each runs on the real PostgreSQL that
conftest.postgres_server starts."""

from __future__ import annotations

import faulthandler
import multiprocessing
import queue
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

psycopg = pytest.importorskip("psycopg", reason="the [postgres] extra is not installed (pip install -e '.[test]')")

from arbitro.adjudicator import registry
from arbitro.adjudicator.migration import records
from arbitro.adjudicator.service import Arbitro
from arbitro.events.postgres import PostgresStore
from arbitro.events.records import GENESIS
from arbitro.events.signing import command_statement, new_private_key, public_key, read_receipt, sign
from arbitro.events.sqlite import SQLiteStore
from arbitro.events.store import ReadOnlyStore, StaleSequence, StoreError
from arbitro.events.stores import open_store

from tests.foundation import test_store_contract as contract
from tests.foundation.conftest import DUEL, Cli

registry.register("duel", DUEL)

RACERS, SUBMITS_EACH = 2, 10  # a duel lasts 24 commands: 20 submits fit in one game


def play(app: Arbitro, game_id: str, count: int) -> None:
    for _ in range(count):
        seat = app.awaiting(game_id).seats[0]
        app.submit(game_id, seat, app.legal(game_id, seat)[0])


def full_game(app: Arbitro) -> str:
    """A duel holding every kind of record a store keeps: commands and events, snapshots, public and private
    notes, a seat's registered key and its signed command, and token hashes."""
    game_id = app.create("duel", "standard")
    play(app, game_id, 9)  # past a round: the engine has put a snapshot
    app.annotate(game_id, "red", 2, "a public note")
    app.annotate(game_id, "blue", 3, "blue's own", private=True)
    private = new_private_key()
    app.register_key(game_id, "red", public_key(private))
    while app.awaiting(game_id).seats[0] != "red":
        play(app, game_id, 1)
    head, command = app.game(game_id).head_cmd, app.legal(game_id, "red")[0]  # red's head: a command's (§V.6)
    statement = command_statement(game=game_id, seat="red", expected_seq=head, key="signed-1", command=command)
    app.submit(game_id, "red", command, expected_seq=head, key="signed-1", signature=sign(private, statement))
    app.issue_tokens(game_id)
    return game_id


# --- arbitro migrate --------------------------------------------------------------------------------------
def test_migrate_moves_games_to_postgresql_and_back_byte_for_byte(tmp_path: Path, postgres_url: str) -> None:
    source_path, back_path = tmp_path / "club.db", tmp_path / "back.db"
    source = SQLiteStore(source_path)
    app = Arbitro(source)
    games = [full_game(app), full_game(app)]
    held = {g: records(source, g) for g in games}
    assert all(held[g]["snapshots"] and held[g]["signatures"] and held[g]["tokens"] for g in games)

    run = Cli(tmp_path / "unused.db")
    moved = run.json("migrate", "--from", f"sqlite:{source_path}", "--to", postgres_url)
    assert moved["ok"] is True and sorted(m["game"] for m in moved["games"]) == sorted(games)  # oldest first
    assert all(m["status"] == "moved" and m["identical"] and m["verified"] and not m["problems"] for m in moved["games"])
    target = PostgresStore(postgres_url, mode="read")
    try:
        for g in games:
            assert records(target, g) == held[g]  # every record, the event bodies' bytes and hashes included
            assert [e.body for e in target.events(g)] == [e.body for e in source.events(g)]
        assert run("verify", games[0], "--store", postgres_url).stdout.rstrip().endswith("VERIFIED")
        # the seats' tokens work against the new store: a token's hash names its game and role there
        assert target.token_role(held[games[0]]["tokens"]["red"]) == (games[0], "red")
    finally:
        target.close()

    again = run("migrate", "--from", f"sqlite:{source_path}", "--to", postgres_url)  # a rerun moves nothing
    assert "0 of 2 games moved" in again.stdout and "already there" in again.stdout
    assert "[1/2]" in again.stderr  # progress goes to stderr

    back = run.json("migrate", "--from", postgres_url, "--to", str(back_path), "--game", games[1])
    assert back["ok"] and [m["game"] for m in back["games"]] == [games[1]]
    returned = SQLiteStore(back_path, mode="read")
    try:
        assert [g.id for g in returned.games()] == [games[1]] and records(returned, games[1]) == held[games[1]]
    finally:
        returned.close()
    source.close()


def test_a_game_of_a_ruleset_not_installed_here_is_moved_as_stored_and_reported_unverified(
        tmp_path: Path, postgres_url: str) -> None:
    source = SQLiteStore(tmp_path / "old.db")
    record = contract.command("g1", 0, "create:g1", 0, seat="umpire")
    source.create_game(msgspec.structs.replace(contract.game_record("g1"), ruleset="retired"), record,
                       contract.chained("g1", record, 1, GENESIS, 2))
    moved = Cli(tmp_path / "unused.db").json("migrate", "--from", str(tmp_path / "old.db"), "--to", postgres_url, code=1)
    (game,) = moved["games"]
    assert game["identical"] and not game["verified"] and "no ruleset 'retired'" in game["verify_detail"]
    target = PostgresStore(postgres_url)
    try:
        assert records(target, "g1") == records(source, "g1")
    finally:
        target.close()
        source.close()


def test_migrate_refuses_a_different_game_under_the_same_id_and_moves_nothing(tmp_path: Path,
                                                                                postgres_url: str) -> None:
    first, second = SQLiteStore(tmp_path / "a.db"), SQLiteStore(tmp_path / "b.db")
    taken = Arbitro(first).create("duel", "standard", game_id="shared")
    Arbitro(first).create("duel", "standard", game_id="only-in-a")
    Arbitro(second).create("duel", "standard", game_id=taken)  # same id, another game (another seed)
    run = Cli(tmp_path / "unused.db")
    run("migrate", "--from", str(tmp_path / "b.db"), "--to", postgres_url)
    refused = run.json("migrate", "--from", str(tmp_path / "a.db"), "--to", postgres_url, code=2)
    assert refused["error"] == "store/game-exists" and "'shared'" in refused["message"]
    assert "nothing was moved" in refused["message"]
    target = PostgresStore(postgres_url)
    try:
        assert [g.id for g in target.games()] == ["shared"]  # only-in-a was not moved either
    finally:
        target.close()
    missing = run.json("migrate", "--from", str(tmp_path / "a.db"), "--to", postgres_url, "--game", "nope", code=3)
    assert missing["error"] == "store/game-not-found"


# --- two processes racing on one game -------------------------------------------------------------------------
def test_two_processes_racing_submits_to_one_game_leave_no_duplicate_and_no_gap(postgres_url: str) -> None:
    """Two OS processes, each its own connection (as two servers behind a load balancer), submit to one game
    through the service, each against the head it read (expected sequence); a loser reads again and resubmits."""
    store = PostgresStore(postgres_url)
    app = Arbitro(store)
    game_id = app.create("duel", "standard")
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(RACERS), context.Queue()
    racers = [context.Process(target=_racer, args=(postgres_url, game_id, i, barrier, results)) for i in range(RACERS)]
    for p in racers:
        p.start()
    outcomes: list[object] = []
    deadline = time.monotonic() + 300
    try:  # each racer reports, whatever happens to it (a stuck one ends itself at 200 s); one that died cannot
        while len(outcomes) < RACERS and time.monotonic() < deadline:
            try:
                outcomes.append(results.get(timeout=5))
            except queue.Empty:
                if not any(p.is_alive() for p in racers) and results.empty():
                    break
    finally:
        for p in racers:
            p.join(timeout=30)
            if p.is_alive():
                p.terminate()
    if len(outcomes) != RACERS or not all(isinstance(o, dict) for o in outcomes):  # the racers' stderr says where
        pytest.fail(f"reports {outcomes}; racers' exit codes {[p.exitcode for p in racers]}; "
                    f"the server: {_connections(postgres_url)}")
    assert sum(o["won"] for o in outcomes) == RACERS * SUBMITS_EACH

    commands = list(store.commands(game_id))
    events = list(store.events(game_id))
    head = store.game(game_id)
    assert [c.record.cmd for c in commands] == list(range(RACERS * SUBMITS_EACH + 1))  # no duplicate, no gap
    assert [e.seq for e in events] == list(range(1, head.head_seq + 1))
    assert [(c.first_seq, c.last_seq) for c in commands if c.first_seq] == \
        _contiguous([(c.first_seq, c.last_seq) for c in commands if c.first_seq])
    assert sorted(c.record.key for c in commands[1:]) == sorted(k for o in outcomes for k in o["keys"])
    assert head.head_hash == events[-1].hash
    assert app.verify(game_id).passed
    store.close()


def _connections(url: str) -> str:
    """How many of the server's connections are taken (a racer that cannot connect fails before the race)."""
    with psycopg.connect(url, autocommit=True) as conn:
        used = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'").fetchone()
        limit = conn.execute("SHOW max_connections").fetchone()
    return f"{used[0] if used else '?'} of {limit[0] if limit else '?'} connections in use"


def _contiguous(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ranges, if each starts right after the one before (else an empty list: the assertion shows them)."""
    ok = all(b[0] == a[1] + 1 for a, b in zip(ranges, ranges[1:])) and ranges[0][0] == 1
    return ranges if ok else []


def _racer(url: str, game_id: str, i: int, barrier: Any, results: Any) -> None:
    faulthandler.dump_traceback_later(200, exit=True)  # a racer stuck anywhere shows where, on stderr, and ends
    try:
        store = PostgresStore(url, mode="write")
        app = Arbitro(store)
        won, stale, keys = 0, 0, []
        barrier.wait(timeout=240)  # a racer that failed before it (and reported so) breaks it for the other
        while won < SUBMITS_EACH and stale < 50 * SUBMITS_EACH:
            head = app.game(game_id).head_cmd  # a seat's head, in its numbers (engine-rules §V.6)
            seats = app.awaiting(game_id).seats  # each read sees the latest head: the other may have moved on
            legal = app.legal(game_id, seats[0]) if seats else []
            key = f"racer{i}-{won}-{stale}"
            try:
                if not legal:
                    raise StaleSequence(game_id, head, app.game(game_id).head_cmd, commands=True)
                app.submit(game_id, seats[0], legal[0], expected_seq=head, key=key)
            except StaleSequence:
                stale += 1
                continue
            won, keys = won + 1, [*keys, key]
        store.close()
        results.put({"won": won, "stale": stale, "keys": keys})
    except Exception as e:  # noqa: BLE001 - reported to the parent as a failure
        barrier.abort()  # a racer that failed before the barrier (e.g. could not connect) releases the other at once
        results.put(f"racer {i}: {type(e).__name__}: {e}")


# --- choosing the store -----------------------------------------------------------------------------------------
def test_the_cli_takes_a_postgresql_url_by_option_or_environment(tmp_path: Path, postgres_url: str) -> None:
    by_env = Cli(tmp_path / "unused.db", env={"ARBITRO_STORE": postgres_url})
    game = by_env.json("new", "duel", "standard")["game"]
    assert [g["game"] for g in by_env.json("games")] == [game]
    by_option = Cli(tmp_path / "unused.db")
    assert by_option.json("status", game, "--store", postgres_url)["head"] == by_env.json("status", game)["head"]
    assert not (tmp_path / "unused.db").exists()  # no SQLite file was made on the side


def test_a_database_without_arbitro_tables_is_not_created_by_reading_commands(tmp_path: Path,
                                                                               postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS empty_one")
        conn.execute("CREATE DATABASE empty_one")
    empty = postgres_url.replace("/postgres?", "/empty_one?")
    run = Cli(tmp_path / "unused.db")
    refused = run.json("games", "--store", empty, code=3)
    assert refused["error"] == "store/no-database" and "no arbitro tables" in refused["message"]
    with pytest.raises(Exception, match="no arbitro tables"):
        open_store(empty, "write")
    store = open_store(empty, "create")
    assert store.created
    store.close()
    assert run.json("games", "--store", empty) == []


def test_a_password_in_the_url_is_never_printed(tmp_path: Path) -> None:
    run = Cli(tmp_path / "unused.db")
    refused = run("games", "--store", "postgresql://arbitro:hunter2@/nodb?host=/nonexistent", code=3)
    assert "hunter2" not in refused.stdout + refused.stderr and "arbitro:***@" in refused.stderr


def test_a_lost_connection_fails_one_call_and_the_next_reconnects(postgres_url: str) -> None:
    store = PostgresStore(postgres_url)
    app = Arbitro(store)
    game_id = app.create("duel", "standard")
    head = app.game(game_id).head_seq
    with psycopg.connect(postgres_url, autocommit=True) as admin:  # the server drops the store's connection
        # (waiting up to 30 s for each backend to end: the signal alone returns before it has)
        admin.execute("SELECT pg_terminate_backend(pid, 30000) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
                      "AND datname = current_database() AND backend_type = 'client backend'")
    with pytest.raises(StoreError, match="connection failed"):
        store.game(game_id)
    assert store.game(game_id).head_seq == head  # a new connection
    play(app, game_id, 1)
    assert store.game(game_id).head_seq > head
    store.close()


def test_every_process_on_one_database_signs_receipts_with_the_one_server_key(postgres_url: str) -> None:
    """Servers behind a load balancer are one server to a seat: whichever process took a submit, its receipt
    is signed with the database's key, and any process gives the same receipt again."""
    first, second = PostgresStore(postgres_url), PostgresStore(postgres_url, mode="create")
    try:
        app, other = Arbitro(first), Arbitro(second)
        game_id = app.create("duel", "standard")
        seat = app.awaiting(game_id).seats[0]
        done = other.submit(game_id, seat, other.legal(game_id, seat)[0])
        receipt = read_receipt(done.receipt)
        assert receipt.signed_ok() and receipt.server_key == app.server_key() == other.server_key()
        assert app.receipt(game_id, done.cmd) == done.receipt
    finally:
        first.close()
        second.close()


def test_a_store_opened_for_reading_refuses_every_write(postgres_url: str) -> None:
    """What `arbitro status`, `log`, `export` ... open: their session is read-only, so nothing they do writes."""
    writer = PostgresStore(postgres_url)
    game_id = Arbitro(writer).create("duel", "standard")
    reader = PostgresStore(postgres_url, mode="read")
    try:
        assert reader.game(game_id) == writer.game(game_id)
        with pytest.raises(ReadOnlyStore):
            reader.put_tokens(game_id, {"red": "a" * 64})
        with pytest.raises(ReadOnlyStore):
            Arbitro(reader).submit(game_id, "red", {"type": "attack", "aim": "high"})
        assert writer.tokens(game_id) == {} and writer.game(game_id).head_seq == reader.game(game_id).head_seq
    finally:
        reader.close()
        writer.close()
