"""A log that cannot be rewritten unnoticed (arbitro §L, §V): each forgery an attacker would try, with the
anchor that catches it. The game record is bound to the chained genesis, notes are chained, the server
signs a receipt for every submission, games are pinned to their ruleset version, an append refuses a broken
head, and `arbitro check` examines the whole store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.errors import BadInput, IllegalCommand, NotUmpire, Unsigned
from arbitro.adjudicator.service import Arbitro
from arbitro.adjudicator.verify import Check, check_head
from arbitro.events import core, signing
from arbitro.events.codec import canonical, sha256_hex
from arbitro.events.records import seal_events
from arbitro.events.sqlite import SQLiteStore
from arbitro.events.store import BrokenChain
from tests.foundation.duel import DuelRuleset

from .legacy_seat_export import legacy_export
from .conftest import Cli, db_execute, db_rows, event_records, exchange, head, read_export, rechain, write_export


@pytest.fixture
def game(run: Cli) -> str:
    """A duel two exchanges in, with a checkpoint and a public and a private note."""
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    exchange(run, "g", attacker="blue", aim="low", stance="low")
    run("annotate", "g", "a bold guard", "--as", "umpire", "--at", "7")
    run("annotate", "g", "I bluffed", "--as", "red", "--at", "2", "--private")  # a seat's: the guard, #7-#10
    run("annotate", "g", "round one over", "--as", "blue", "--at", "4")  # red's guard, #12-#17
    return "g"


def export(run: Cli, tmp_path: Path, *extra: str, name: str = "g.jsonl") -> Path:
    path = tmp_path / name
    run("export", "g", *extra, "-o", str(path))
    return path


def legacy_seat_export(run: Cli, tmp_path: Path, seat: str, name: str) -> Path:
    """`seat`'s export numbered as the log (arbitro/2), as the server wrote it before a seat's export was in the seat's
    own numbers: what verify still reads of it (legacy_seat_export; a new export: test_seat_export_numbers.py)."""
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in legacy_export(Arbitro(SQLiteStore(run.db)), "g", seat)),
                    encoding="utf-8")
    return path


def checks(report: dict[str, Any]) -> dict[str, str]:
    return {c["name"]: c["status"] for c in report["checks"]}


def detail(report: dict[str, Any], name: str) -> str:
    return next(c["detail"] for c in report["checks"] if c["name"] == name)


def failed_but_the_seal(report: dict[str, Any]) -> list[dict[str, Any]]:
    """A seat export's failed checks, its seal's aside, which must fail too as the record edited is not the one the
    server sealed (engine-rules §L.9)."""
    failed = [c for c in report["checks"] if c["status"] == "failed"]
    assert failed[-1]["name"] == "seat views" and "it seals other records than this file's" in failed[-1]["detail"]
    return failed[:-1]


def save(tmp_path: Path, receipt: dict[str, Any], name: str) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(receipt), encoding="utf-8")
    return str(path)


def drop_commands_after(records: list[dict[str, Any]], cmd: int) -> None:
    """A forger's truncation: the commands after `cmd` and their events go, the record's head follows."""
    kept_events = [r for r in event_records(records) if r["body"]["cmd"] <= cmd]
    records[:] = [r for r in records if r["record"] not in ("event", "command", "annotation")
                  or (r["record"] == "command" and r["cmd"] <= cmd) or r in kept_events]
    game = records[0]
    game.update(head_seq=kept_events[-1]["seq"], head_hash=kept_events[-1]["hash"], head_cmd=cmd)


# --- the game record is the chain's genesis ----------------------------------------------------------------
@pytest.mark.parametrize("field, value", [
    ("kind", "transcribed"), ("version", "0.9.0"), ("seed_commitment", "ab" * 32), ("seats", ["blue", "red"]),
    ("scenario", "short"), ("parent", "duel-0000"), ("seed", "00" * 32),
])
def test_a_game_record_that_disagrees_with_its_genesis_fails_verify_and_import(
    run: Cli, tmp_path: Path, game: str, field: str, value: Any
) -> None:
    path = export(run, tmp_path)
    records = read_export(path)
    records[0][field] = value  # the record is not hashed: a forger edits it freely
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    assert checks(report)["genesis"] == "failed" and field in detail(report, "genesis")
    assert "nothing imported" in run("import", str(path), "--db", str(tmp_path / "other.db"), code=2).stderr


def test_a_seats_export_with_an_edited_record_fails_against_the_genesis_it_was_served(
    run: Cli, tmp_path: Path, game: str
) -> None:
    path = legacy_seat_export(run, tmp_path, "blue", "blue.jsonl")
    records = read_export(path)
    records[0]["kind"] = "transcribed"
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    assert checks(report)["genesis"] == "failed"
    assert report["divergence"] == {"seq": 1, "expected": "the genesis", "found": detail(report, "genesis"),
                                    "rule": "arbitro §L.1"}


def test_a_forger_without_the_seed_cannot_pass_as_transcribed(run: Cli, tmp_path: Path, game: str) -> None:
    """Marking the game transcribed would make its dice 'entered from the table', never checked. The record
    alone is caught by the genesis; flipping the genesis too and re-hashing is a rewrite from #1, which
    re-adjudication or the seat's receipt catches."""
    receipt = save(tmp_path, run.json("receipt", "g"), "r.json")
    path = export(run, tmp_path)
    records = read_export(path)
    records[0]["kind"] = "transcribed"
    event_records(records)[0]["body"]["event"]["kind"] = "transcribed"
    rechain(records)
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    assert checks(report)["genesis"] == "passed" and report["divergence"] is not None
    report = run.json("verify", str(path), "--receipt", receipt, code=1)
    assert checks(report)["receipt for command 4"] == "failed"
    assert "rewritten" in detail(report, "receipt for command 4")


# --- receipts: the tail and rewrites ----------------------------------------------------------------------------
def test_every_submission_returns_a_receipt_the_server_signed(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    result = run.submit("g", "red", {"type": "attack", "aim": "high"}, "--key", "k1")
    receipt = signing.read_receipt(result["receipt"])
    assert receipt.signed_ok() and receipt.game == "g" and receipt.cmd == result["cmd"] == 1
    assert result["head"] == 1 and receipt.format == "arbitro-receipt/2"  # red's head: its command's number
    assert receipt.head == run.json("log", "g")[-1]["hash"] == run.json("log", "g", "--as", "red")[-1]["hash"]
    records = read_export(export(run, tmp_path))
    assert records[0]["server_key"] == receipt.server_key
    assert next(r["hash"] for r in records if r["record"] == "command" and r["cmd"] == 1) == receipt.cmd_hash
    # A retry with the same key answers with the same receipt; `arbitro receipt` prints it again.
    again = run.submit("g", "red", {"type": "attack", "aim": "high"}, "--key", "k1")
    assert again["duplicate"] is True and again["receipt"] == result["receipt"]
    assert run.json("receipt", "g", "--cmd", "1") == result["receipt"]
    assert "receipt: command 2 " in run("submit", "g", "--as", "blue", '{"type": "guard", "stance": "low"}').stdout


def test_a_dropped_tail_verifies_alone_but_fails_against_the_seats_latest_receipt(
    run: Cli, tmp_path: Path, game: str
) -> None:
    latest = save(tmp_path, run.json("receipt", "g"), "latest.json")  # blue's receipt for its last guard
    early = save(tmp_path, run.json("receipt", "g", "--cmd", "2"), "early.json")
    path = export(run, tmp_path)
    records = read_export(path)
    drop_commands_after(records, 3)  # blue's last guard (and what it caused) never happened
    write_export(path, records)
    alone = run.json("verify", str(path))
    assert alone["passed"] is True and checks(alone)["completeness"] == "unchecked"  # said, never passed
    assert "nothing proves" in detail(alone, "completeness")
    report = run.json("verify", str(path), "--receipt", latest, code=1)
    assert checks(report)["receipt for command 4"] == "failed" and "dropped" in detail(report, "receipt for command 4")
    assert "FAILED" in run("verify", str(path), "--receipt", latest, code=1).stdout
    # An early receipt proves the prefix and says what it does not cover.
    prefix = run.json("verify", str(path), "--receipt", early)
    assert checks(prefix)["receipt for command 2"] == "passed" and checks(prefix)["completeness"] == "unchecked"


def test_a_rewrite_after_a_command_with_forged_entropy_fails_against_a_later_receipt(
    run: Cli, tmp_path: Path
) -> None:
    """The host keeps the seed, so it can take the log back to command 5, add entropy in red's name, play
    on with other dice and re-hash: a consistent file. A hash blue kept before the rewrite still proves the
    prefix (and says so); blue's receipt for a later command proves the rewrite."""
    run("new", "duel", "standard", "--id", "g")
    for _ in range(3):
        exchange(run, "g")
        exchange(run, "g", attacker="blue")
    kept_hash = run.json("receipt", "g", "--cmd", "4")["head"]
    later = save(tmp_path, run.json("receipt", "g", "--cmd", "9"), "r9.json")
    honest = export(run, tmp_path, "--with-seed")
    records = read_export(honest)
    drop_commands_after(records, 5)
    write_export(honest, records)
    forger = Cli(tmp_path / "forger.db")
    forger("import", str(honest))
    forger.submit("g", "red", {"type": "add_entropy", "entropy": "chosen-by-the-host"})
    while forger.json("status", "g")["awaiting"]["kind"] != "game_over" and head(forger, "g") < 120:
        seat = forger.json("status", "g")["awaiting"]["seats"][0]
        forger.submit("g", seat, forger.json("legal", "g", "--as", seat)[0])
    forged = tmp_path / "forged.jsonl"
    forger("export", "g", "-o", str(forged))
    assert forger.json("verify", str(forged))["passed"] is True  # consistent, by itself
    with_head = run.json("verify", str(forged), "--head", kept_hash)
    assert checks(with_head)["trusted head"] == "passed" and checks(with_head)["completeness"] == "unchecked"
    assert "not covered" not in detail(with_head, "trusted head")
    assert "nothing proves" in detail(with_head, "completeness")  # what comes after the hash is not proven
    report = run.json("verify", str(forged), "--head", kept_hash, "--receipt", later, code=1)
    assert checks(report)["receipt for command 9"] == "failed"
    assert "rewritten" in detail(report, "receipt for command 9") or "dropped" in detail(report, "receipt for command 9")


def test_an_edited_or_foreign_receipt_fails(run: Cli, tmp_path: Path, game: str) -> None:
    path = export(run, tmp_path)
    receipt = run.json("receipt", "g")
    forged = dict(receipt, head=run.json("log", "g")[-2]["hash"])  # claims an earlier head, to excuse a dropped tail
    report = run.json("verify", str(path), "--receipt", save(tmp_path, forged, "forged.json"), code=1)
    assert "signature does not verify" in detail(report, f"receipt for command {receipt['cmd']}")
    run("new", "duel", "standard", "--id", "other")
    foreign = run.submit("other", "red", {"type": "attack", "aim": "high"})  # a saved submit answer works too
    report = run.json("verify", str(path), "--receipt", save(tmp_path, foreign, "foreign.json"), code=1)
    assert "not g" in detail(report, "receipt for command 1")
    assert "not an arbitro-receipt/2" in run("verify", str(path), "--receipt", save(tmp_path, {"x": 1}, "bad.json"),
                                             code=2).stderr


def test_a_seat_export_checks_the_seats_receipts(run: Cli, tmp_path: Path, game: str) -> None:
    latest = save(tmp_path, run.json("receipt", "g"), "latest.json")
    path = legacy_seat_export(run, tmp_path, "blue", "blue.jsonl")
    assert checks(run.json("verify", str(path), "--receipt", latest))["completeness"] == "passed"
    records = read_export(path)
    last = event_records(records)[-1]
    records.remove(last)
    records[0].update(head_seq=last["seq"] - 1, head_hash=last["served"]["prev"])
    write_export(path, records)
    report = run.json("verify", str(path), "--receipt", latest, code=1)
    assert "dropped" in detail(report, "receipt for command 4")


# --- annotations are chained ---------------------------------------------------------------------------------
def edit_note(records: list[dict[str, Any]], text: str, change: Any) -> None:
    note = next(r for r in records if r["record"] == "annotation" and r["text"] == text)
    change(note)


@pytest.mark.parametrize("attack", ["edit", "delete", "move", "rehash-edit"])
def test_an_altered_note_fails_verify(run: Cli, tmp_path: Path, game: str, attack: str) -> None:
    path = export(run, tmp_path)
    records = read_export(path)
    notes = [r for r in records if r["record"] == "annotation"]
    if attack == "edit":
        notes[0]["text"] = "a reckless guard"
    elif attack == "delete":  # the first public note goes; the second no longer follows anything
        records.remove(notes[0])
    elif attack == "move":
        notes[0]["seq"] = 9
    else:  # edit and re-hash the note: the next public note no longer follows it
        notes[0]["text"] = "a reckless guard"
        body = {k: v for k, v in notes[0].items() if k not in ("record", "hash")}
        notes[0]["hash"] = sha256_hex(canonical(body))
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    assert checks(report)["annotations"] == "failed"
    assert "nothing imported" in run("import", str(path), "--db", str(tmp_path / "o.db"), code=2).stderr or attack != "move"


def test_notes_chain_per_reader_so_every_seat_export_holds_whole_chains(run: Cli, tmp_path: Path, game: str) -> None:
    for seat in ("red", "blue"):
        path = legacy_seat_export(run, tmp_path, seat, f"{seat}.jsonl")
        report = run.json("verify", str(path))
        assert checks(report)["annotations"] == "passed", detail(report, "annotations")
    records = read_export(tmp_path / "red.jsonl")
    edit_note(records, "I bluffed", lambda n: n.update(text="I never bluff"))
    write_export(tmp_path / "red.jsonl", records)
    assert checks(run.json("verify", str(tmp_path / "red.jsonl"), code=1))["annotations"] == "failed"


# --- games are pinned to their ruleset version -----------------------------------------------------------------
def test_a_game_made_with_another_version_refuses_commands_and_readjudicate_reports(
    run: Cli, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = head(run, "g")
    monkeypatch.setattr(DuelRuleset, "version", "2.0.0")
    error = run.json("submit", "g", "--as", "red", '{"type": "attack", "aim": "high"}', code=1)
    assert error["error"] == "log/version-pinned" and error["rule"] == "arbitro §L.5"
    assert "1.0.0" in error["message"] and "2.0.0" in error["message"]
    assert "arbitro readjudicate g" in error["message"] and "the umpire's fork of it at its head" in error["message"]
    assert "17" not in error["message"]  # a seat is not told the log's head (engine-rules §V.6): 17 events
    umpire = run.json("submit", "g", "--as", "umpire", '{"type": "reveal_seed", "reason": "x", "expose_hidden": true}', code=1)
    assert "arbitro fork g --at 17" in umpire["message"]  # the umpire's numbers are the log's
    assert head(run, "g") == before
    result = run.json("readjudicate", "g")
    assert result["identical"] is True and (result["played_with"], result["installed"]) == ("1.0.0", "2.0.0")
    assert "IDENTICAL" in run("readjudicate", "g").stdout
    # The way on under the new version: a fork, whose genesis names it.
    fork = run.json("fork", "g", "--at", "17")["game"]
    assert run.json("status", fork)["version"] == "2.0.0"
    run.submit(fork, "red", {"type": "attack", "aim": "high"})


def test_an_imported_file_of_another_version_cannot_be_played_on(run: Cli, tmp_path: Path, game: str) -> None:
    path = export(run, tmp_path, "--with-seed")
    records = read_export(path)
    records = [r for r in records if r["record"] != "annotation"]
    records[0]["version"] = "0.9.0"
    event_records(records)[0]["body"]["event"]["version"] = "0.9.0"
    rechain(records)
    write_export(path, records)
    other = Cli(tmp_path / "other.db")
    other("import", str(path))  # readable and verifiable (the version check fails, visibly)
    assert checks(other.json("verify", "g", code=1))["ruleset version"] == "failed"
    error = other("submit", "g", "--as", "red", '{"type": "attack", "aim": "high"}', code=1).stderr
    assert "made with duel 0.9.0 but this build has duel 1.0.0" in error


def test_readjudicate_reports_the_first_divergence(run: Cli, tmp_path: Path, game: str) -> None:
    path = export(run, tmp_path)
    records = [r for r in read_export(path) if r["record"] != "annotation"]
    damage = next(r for r in event_records(records) if r["body"]["event"]["type"] == "damage_dealt")
    damage["body"]["event"]["amount"] += 5
    rechain(records)
    write_export(path, records)
    other = Cli(tmp_path / "other.db")
    other("import", str(path))
    result = other.json("readjudicate", "g", code=1)
    assert result["identical"] is False and result["divergence"]["seq"] == damage["seq"]
    assert "DIVERGES" in other("readjudicate", "g", code=1).stdout


# --- the store: a broken head refuses appends; `check` finds the rest ------------------------------------------
def test_an_append_onto_an_edited_head_is_refused(run: Cli, db: Path, game: str) -> None:
    (body,) = db_rows(db, "SELECT body FROM events WHERE game='g' AND seq=17")[0]
    db_execute(db, "UPDATE events SET body=? WHERE game='g' AND seq=17", body.replace('"reason":"', '"reason":"x', 1))
    error = run.json("submit", "g", "--as", "red", '{"type": "attack", "aim": "high"}', code=1)
    assert error["error"] in ("store/broken-chain", "log/chain-broken") and "#17" in error["message"]
    assert db_rows(db, "SELECT MAX(seq) FROM events WHERE game='g'") == [(17,)]


@pytest.mark.parametrize("damage", ["edit head", "rehash head alone", "delete before head"])
def test_the_store_refuses_to_extend_a_broken_head(app: Arbitro, db: Path, damage: str) -> None:
    """The store's own check, whoever calls append (a reader's cache, another process, an import)."""
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    game = app.game("g")
    record = app.store.command("g", 1).record
    (body,) = db_rows(db, "SELECT body FROM events WHERE game='g' AND seq=?", game.head_seq)[0]
    edited = body.replace('"cmd":1', '"cmd":1 ', 1)
    if damage == "edit head":
        db_execute(db, "UPDATE events SET body=? WHERE game='g' AND seq=?", edited, game.head_seq)
    elif damage == "rehash head alone":  # the head re-hashed, but not the record of the game's head
        db_execute(db, "UPDATE events SET body=?, hash=? WHERE game='g' AND seq=?", edited,
                   sha256_hex(edited.encode()), game.head_seq)
    else:
        db_execute(db, "DELETE FROM events WHERE game='g' AND seq=?", game.head_seq - 1)
    follow = msgspec.structs.replace(record, cmd=2, key="next", expected_seq=game.head_seq)
    _, stored = seal_events("g", game.seed, follow, [core.Checkpoint(state_hash="0" * 64, reason="x")],
                            first_seq=game.head_seq + 1, prev=game.head_hash)
    with pytest.raises(BrokenChain) as refused:
        app.store.append("g", game.head_seq, follow, stored)
    assert "arbitro check g" in str(refused.value)
    assert db_rows(db, "SELECT COUNT(*) FROM commands WHERE game='g'") == [(2,)]


def test_an_append_after_a_deleted_or_unlinked_event_is_refused(run: Cli, db: Path, game: str) -> None:
    db_execute(db, "DELETE FROM events WHERE game='g' AND seq=16")
    error = run.json("submit", "g", "--as", "red", '{"type": "attack", "aim": "high"}', code=1)
    assert error["error"] == "store/broken-chain" and "#16" in error["message"]


def test_check_finds_every_kind_of_damage_and_exits_1(run: Cli, db: Path, game: str) -> None:
    clean = run.json("check")
    assert [r["ok"] for r in clean] == [True] and clean[0]["annotations"] == 3 and clean[0]["snapshots"] >= 1
    assert "1 games checked, 0 with problems" in run("check").stdout
    (body,) = db_rows(db, "SELECT body FROM events WHERE game='g' AND seq=3")[0]
    db_execute(db, "UPDATE events SET body=? WHERE game='g' AND seq=3", body.replace('"seat":', '"seat":"x', 1))
    db_execute(db, "UPDATE snapshots SET state_hash=? WHERE game='g'", "0" * 64)
    db_execute(db, "UPDATE annotations SET text='edited' WHERE game='g' AND id=2")
    (result,) = run.json("check", "g", code=1)
    problems = "\n".join(result["problems"])
    assert "event #3" in problems and "snapshot after" in problems and "note 2" in problems
    assert "DAMAGED" in run("check", code=1).stdout
    db_execute(db, "UPDATE events SET body=? WHERE game='g' AND seq=3", body)
    db_execute(db, "UPDATE games SET kind='transcribed' WHERE id='g'")
    (result,) = run.json("check", "g", code=1)
    assert any("genesis" in p and "kind" in p for p in result["problems"])
    assert "no game" in run("check", "nope", code=3).stderr


def test_a_database_edited_early_is_found_by_check(run: Cli, db: Path, game: str) -> None:
    """An edit deep in the store escapes the append's head check (it is cheap by design); `check` finds it."""
    command = db_rows(db, "SELECT body FROM commands WHERE game='g' AND cmd=1")[0][0]
    db_execute(db, "UPDATE commands SET body=? WHERE game='g' AND cmd=1", command.replace('"high"', '"low"'))
    (result,) = run.json("check", code=1)
    assert any("command 1" in p for p in result["problems"])


# --- authority -------------------------------------------------------------------------------------------------
def test_what_serves_hidden_content_is_the_umpires_in_the_library(app: Arbitro, tmp_path: Path) -> None:
    app.create("duel", "standard", game_id="g")
    lines = list(app.export("g", "umpire"))
    for call in (lambda: app.position("g", seat="red"),
                 lambda: Arbitro(SQLiteStore(":memory:")).import_lines(lines, seat="red")):
        with pytest.raises(NotUmpire) as refused:
            call()
        assert refused.value.rule == "arbitro §A.1"
    with pytest.raises(IllegalCommand):
        app.reveal("g", "peek", seat="red", expose_hidden=True)
    with pytest.raises(BadInput, match="umpire"):
        list(app.export("g", "blue", with_seed=True))
    assert app.position("g", seat="umpire")["state"]["cards"]["red"]  # the umpire has it all
    seat_lines = list(app.export("g", "blue"))
    assert json.loads(seat_lines[0])["seed"] is None and json.loads(seat_lines[0])["redacted_for"] == "blue"


def test_the_cli_refuses_a_declared_seat_what_is_the_umpires(run: Cli, tmp_path: Path, game: str) -> None:
    assert "only the umpire" in run("position", "g", "--as", "red", code=1).stderr
    assert "umpire" in run("export", "g", "--as", "red", "--with-seed", code=2).stderr
    path = export(run, tmp_path)
    assert "only the umpire" in Cli(tmp_path / "o.db")("import", str(path), "--as", "blue", code=1).stderr
    assert "only the umpire" in run("reveal", "--expose-hidden", "g", "--as", "blue", "--reason", "peek", code=1).stderr


# --- a seat signs its own commands -----------------------------------------------------------------------------
@pytest.fixture
def signed_game(run: Cli, tmp_path: Path) -> tuple[str, str]:
    """A duel whose red seat registered a key at command 1 (its own register_key) and signs every command after it;
    returns (key file, public key)."""
    key_file = str(tmp_path / "red.key")
    public = run.json("keygen", "-o", key_file)["public_key"]
    run("new", "duel", "standard", "--id", "g")
    assert run.json("register-key", "g", public, "--as", "red")["since_cmd"] == 1
    run.submit("g", "red", {"type": "attack", "aim": "high"}, "--sign", key_file)
    run.submit("g", "blue", {"type": "guard", "stance": "low"})
    run.submit("g", "blue", {"type": "attack", "aim": "low"})
    run.submit("g", "red", {"type": "guard", "stance": "high"}, "--sign", key_file)  # command 5
    return key_file, public


def test_a_seat_with_a_key_is_refused_unsigned_or_wrongly_signed_commands(
    run: Cli, tmp_path: Path, signed_game: tuple[str, str]
) -> None:
    key_file, _ = signed_game
    before = run.json("status", "g", "--as", "red")["head"]  # red's head, in its numbers: its commands' (§V.6)
    error = run.json("submit", "g", "--as", "red", '{"type": "attack", "aim": "high"}', code=1)
    assert error["error"] == "authority/unsigned" and error["rule"] == "arbitro §L.6"
    claim = {"type": "dispute_open", "about": [1], "text": "x", "evidence": [{"kind": "note", "note": 1}]}
    forged = run.json("submit", "g", "--as", "red", json.dumps(claim), code=1)
    assert forged["error"] == "authority/unsigned", "an unsigned caller learns nothing of red's notes (§D.7)"
    other = str(tmp_path / "other.key")
    run("keygen", "-o", other)
    error = run.json("submit", "g", "--as", "red", '{"type": "attack", "aim": "high"}', "--sign", other, code=1)
    assert "does not verify under red's key" in error["message"]
    # A signature made for one command does not pass for another (the library call a server would receive).
    app = Arbitro(SQLiteStore(run.db))
    private = bytes.fromhex(Path(key_file).read_text().strip())
    statement = signing.command_statement(game="g", seat="red", expected_seq=before, key="k",
                                          command={"type": "attack", "aim": "high"})
    with pytest.raises(Unsigned, match="does not verify"):
        app.submit("g", "red", {"type": "attack", "aim": "low"}, expected_seq=before, key="k",
                   signature=signing.sign(private, statement))
    assert app.submit("g", "red", {"type": "attack", "aim": "high"}, expected_seq=before, key="k",
                      signature=signing.sign(private, statement)).cmd == 6
    refused = run.json("register-key", "g", signing.public_key(private), "--as", "red", code=1)  # a refusal, its rule
    assert "red already registered the key" in refused["message"] and refused["rule"] == "arbitro §L.6"
    run("annotate", "g", "a public note", "--as", "blue", "--at", "2")
    by_number = run.json("submit", "g", "--as", "red", json.dumps(claim), "--sign", key_file, code=1)
    assert "a signed message cites each note whole" in by_number["message"]  # its signature covers it as sent
    # whole as red reads it (engine-rules §V.6): where it lies by command, no hash (it covers the log's number)
    (note,) = run.json("notes", "g", "--as", "red")
    whole = {"kind": "note", "seq": note["seq"], "private": note["private"], "note": note["id"], "by": note["seat"]}
    assert whole["seq"] == 2 and not note["hash"]
    as_umpire = {**whole, "seq": run.json("notes", "g")[0]["seq"], "hash": run.json("notes", "g")[0]["hash"]}
    refused = run.json("submit", "g", "--as", "red", json.dumps({**claim, "evidence": [as_umpire]}), "--sign", key_file,
                       code=1)
    assert "cited as it is not" in refused["message"]  # the log's number and hash are no seat's to send
    done = run.submit("g", "red", {**claim, "text": "see the note", "evidence": [whole]}, "--sign", key_file)
    assert done["events"][0]["event"]["evidence"] == [whole]
    # A key red used, sent again unsigned in red's name: neither red's events (a retry's answer) nor red's command
    # (a reused key's refusal) is told to the caller (arbitro §L.6).
    attack = {"type": "attack", "aim": "high"}
    for sent in (attack, {"type": "attack", "aim": "low"}):
        with pytest.raises(Unsigned):
            app.submit("g", "red", sent, expected_seq=before, key="k")
    assert app.submit("g", "red", attack, expected_seq=before, key="k",
                      signature=signing.sign(private, statement)).duplicate  # red's own retry is answered


def test_signed_commands_verify_and_a_seat_checks_its_own_key(
    run: Cli, tmp_path: Path, signed_game: tuple[str, str]
) -> None:
    _, public = signed_game
    assert checks(run.json("verify", "g"))["seat signatures"] == "passed"
    path = export(run, tmp_path)
    report = run.json("verify", str(path), "--seat-key", f"red={public}")
    assert detail(report, "seat signatures") == ("2 commands signed, each by its seat's registered key; seats that "
                                                  "sign: red (after command 1)")
    stranger = signing.public_key(signing.new_private_key())
    report = run.json("verify", str(path), "--seat-key", f"red={stranger}", code=1)
    assert detail(report, "seat signatures") == (f"the file does not carry red's key {stranger[:16]}... (it carries "
                                                  f"{public[:16]}...): its commands in red's name are not the ones that "
                                                  "seat signed")
    other = Cli(tmp_path / "other.db")
    other("import", str(path))  # keys and signatures travel with the game
    assert checks(other.json("verify", "g"))["seat signatures"] == "passed"
    # A seat's export carries its own signatures, never another seat's command as sent.
    blue = read_export(export(run, tmp_path, "--as", "blue", name="blue.jsonl"))
    assert not [r for r in blue if r["record"] == "command" and "signature" in r]


FORGERIES = {  # each forgery of red's command 5, and what verification says of it
    "edit a signed command": "command 5 in red's name: the stored command is not the one its seat signed",
    "unsigned command in red's name": "command 5 in red's name is not signed, though red registered a key after "
                                      "command 1: it was made up or altered",
    # the registration is chained: a file stripped of the header's key and every signature fails on its chain
    "strip red's key": "the chain registers red's key {key} at command 1, which the file's seat_keys does not say (it "
                       "carries none): the registration was dropped or altered (arbitro §L.6)",
    "signed with another key": "command 5 in red's name: signed with a key its seat did not register",
    "another signature": "command 5 in red's name: its signature does not verify (the command, its head or its key "
                         "was altered)",
}


@pytest.mark.parametrize("forgery", FORGERIES)
def test_the_host_cannot_make_or_alter_a_command_in_a_signing_seats_name(
    run: Cli, tmp_path: Path, signed_game: tuple[str, str], forgery: str
) -> None:
    """The forged entropy of a rewrite, in red's name: the host holds the seed and the database, not red's key."""
    key_file, public = signed_game
    path = export(run, tmp_path)
    records = read_export(path)
    commands = [r for r in records if r["record"] == "command"]
    if forgery == "edit a signed command":
        commands[5]["body"]["command"]["stance"] = "low"  # red's guard
        commands[5]["hash"] = sha256_hex(canonical(commands[5]["body"]))
        for event in event_records(records):
            if event["body"]["cmd"] == 5:
                event["body"]["cmd_hash"] = commands[5]["hash"]
    elif forgery == "unsigned command in red's name":
        del commands[5]["signature"]
    elif forgery == "signed with another key":
        commands[5]["signature"]["public_key"] = signing.public_key(signing.new_private_key())
    elif forgery == "another signature":
        commands[5]["signature"]["signature"] = commands[2]["signature"]["signature"]  # red's, on another command
    else:
        del records[0]["seat_keys"]
        for command in commands:
            command.pop("signature", None)
    rechain(records)
    write_export(path, records)
    report = run.json("verify", str(path), "--seat-key", f"red={public}", code=1)
    assert checks(report)["seat signatures"] == "failed"
    assert detail(report, "seat signatures") == FORGERIES[forgery].format(key=public[:16])


def test_a_seats_command_before_its_key_need_not_be_signed(run: Cli, tmp_path: Path) -> None:
    """A key binds the commands after the one it was registered at (arbitro §L.6): red's own last command before
    registering stays unsigned, and verifies."""
    key_file = str(tmp_path / "red.key")
    public = run.json("keygen", "-o", key_file)["public_key"]
    run("new", "duel", "standard", "--id", "g")
    run.submit("g", "red", {"type": "attack", "aim": "high"})  # command 1, unsigned
    assert run.json("register-key", "g", public, "--as", "red")["since_cmd"] == 2  # the registering command
    run.submit("g", "blue", {"type": "guard", "stance": "low"})
    report = run.json("verify", "g")
    assert checks(report)["seat signatures"] == "passed"
    assert detail(report, "seat signatures") == ("0 commands signed, each by its seat's registered key; seats that "
                                                  "sign: red (after command 2)")


def test_a_recorded_head_names_the_events_it_vouches_for() -> None:
    """--head: the recorded hash is found at its own event, which bounds what it proves; a hash not in the log
    fails, quoting what was recorded."""
    hashes = {1: "a" * 64, 2: "b" * 64, 3: "c" * 64}
    assert check_head(hashes, "b" * 64) == Check(name="trusted head", status="passed",
                                                 detail="events #1-#2 are the chain you recorded (bbbbbbbbbbbb... at #2)")
    assert check_head(hashes, "d" * 64) == Check(
        name="trusted head", status="failed",
        detail="the hash you recorded (dddddddddddd...) is not in this log: it is not the log you played")


def test_a_seats_export_is_checked_link_by_link_and_each_event_served_whole_by_its_hash(
    run: Cli, tmp_path: Path, game: str
) -> None:
    """What a seat can check of its own export (arbitro §L.1, §V.2): every link, and the hash of every event it was
    served whole; a redacted event is counted as such, to be checked only against the full log."""
    path = legacy_seat_export(run, tmp_path, "blue", "blue.jsonl")
    records = read_export(path)
    served = [r["served"] for r in event_records(records)]
    whole = sum("salt" in s for s in served)
    assert 0 < whole < len(served)
    report = run.json("verify", str(path))
    assert detail(report, "hash chain") == f"{len(served)} events linked; {whole} served whole have matching hashes"
    assert detail(report, "hidden events") == (f"{len(served) - whole} events are redacted for blue: their content can "
                                                "be checked against these hashes only with the full log")
    assert checks(report)["re-adjudication"] == "unchecked" and report["passed"] is True

    edited, relinked = json.loads(json.dumps(records)), json.loads(json.dumps(records))
    k = next(i for i, s in enumerate(served) if i and "salt" in s and s["event"].get("type") != "game_created")
    event_records(edited)[k]["served"]["event"]["edited"] = True
    write_export(path, edited)
    report = run.json("verify", str(path), code=1)
    assert failed_but_the_seal(report) == [
        {"name": "hash chain", "status": "failed", "detail": f"event #{k + 1} was edited"}]
    assert report["divergence"] == {"seq": k + 1, "expected": served[k]["hash"], "found": "a different content",
                                    "rule": "arbitro §L.1"}

    r = next(i for i, s in enumerate(served) if i and "salt" not in s)  # redacted: only its link can be checked
    event_records(relinked)[r]["served"]["prev"] = "e" * 64
    write_export(path, relinked)
    report = run.json("verify", str(path), code=1)
    assert failed_but_the_seal(report) == [
        {"name": "hash chain", "status": "failed", "detail": f"event #{r + 1} does not follow the event before it"}]
    assert report["divergence"] == {"seq": r + 1, "expected": served[r - 1]["hash"], "found": "e" * 64,
                                    "rule": "arbitro §L.1"}
