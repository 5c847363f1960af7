"""Bad input and faults: every one gives a precise error (or a verification failure naming the sequence
number), and nothing already committed is lost."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import MalformedCommand, NotYourDecision, NotYourTurn, UnknownSeat
from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import canonical, sha256_hex
from arbitro.events.records import StoredEvent
from arbitro.projections.fold import Fold
from arbitro.projections.game import state_hash
from arbitro.events.store import StaleSequence

from .conftest import (
    Cli,
    db_execute,
    db_rows,
    event_records,
    events_of,
    exchange,
    head,
    read_export,
    rechain,
    write_export,
)


@pytest.fixture
def game(run: Cli) -> str:
    """A duel two exchanges in (one full round, so a checkpoint too): 17 events."""
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    exchange(run, "g", attacker="blue", aim="low", stance="low")
    assert head(run, "g") == 17
    return "g"


def stored_events(db: Path, game: str) -> list[tuple[int, str]]:
    return db_rows(db, "SELECT seq, hash FROM events WHERE game=? ORDER BY seq", game)


def checks(report: dict[str, Any]) -> dict[str, str]:
    return {c["name"]: c["status"] for c in report["checks"]}


# --- malformed commands, seats and turns --------------------------------------------------------
@pytest.mark.parametrize("command, field, wanted", [
    ({"type": "attack", "aim": "middle"}, "attack.aim", "'high' or 'low'"),
    ({"type": "attack"}, "attack.aim", "Field required"),
    ({"type": "attack", "aim": "high", "force": 3}, "attack.force", "Extra inputs are not permitted"),
    ({"type": "undo", "to": "six"}, "undo.to", "integer"),
    ({"type": "fly"}, "(command)", "'attack', 'guard', 'play_card', 'end_turn'"),
])
def test_a_malformed_command_names_the_field_and_the_value(
    run: Cli, db: Path, command: dict[str, Any], field: str, wanted: str
) -> None:
    run("new", "duel", "standard", "--id", "g")
    payload = run.submit("g", "red", command, code=2)
    assert payload["error"] == "input/malformed-command"
    (problem,) = payload["problems"]
    assert problem["field"] == field and wanted in problem["problem"]
    assert len(stored_events(db, "g")) == 5 and head(run, "g") == 5


@pytest.mark.parametrize("raw", ['{"aim": "high"}', '[1, 2]', '"attack"', '{"type": 5}'])
def test_a_command_without_a_type_is_refused(run: Cli, raw: str) -> None:
    run("new", "duel", "standard", "--id", "g")
    error = run("submit", "g", "--as", "red", raw, code=2).stderr
    assert 'a JSON object with a "type" field' in error


def test_a_command_that_is_not_json(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    error = run("submit", "g", "--as", "red", '{"type": "attack",', code=2).stderr
    assert "not valid JSON" in error and "line 1 column" in error


def test_the_library_raises_the_same_typed_errors(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    with pytest.raises(MalformedCommand) as malformed:
        app.submit("g", "red", {"type": "guard", "stance": "sideways"})
    assert malformed.value.problems[0]["field"] == "guard.stance"
    with pytest.raises(UnknownSeat, match="unknown seat 'green'"):
        app.submit("g", "green", {"type": "end_turn"})
    with pytest.raises(NotYourTurn, match="waiting for red"):
        app.submit("g", "blue", {"type": "end_turn"})
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    with pytest.raises(NotYourDecision, match="waiting for blue to choose a guard"):
        app.submit("g", "red", {"type": "end_turn"})
    with pytest.raises(StaleSequence) as stale:
        app.submit("g", "blue", {"type": "guard", "stance": "low"}, expected_seq=0)
    assert stale.value.head == 1  # blue's numbers: command #1 (engine-rules §V.6)
    assert app.game("g").head_seq == 6


def test_an_unknown_seat(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    for args in (("submit", "g", "--as", "green", '{"type": "end_turn"}'), ("legal", "g", "--as", "green"),
                 ("log", "g", "--as", "green"), ("export", "g", "--as", "green"),
                 ("annotate", "g", "hi", "--as", "green", "--at", "1")):
        error = run(*args, code=2).stderr
        assert "unknown seat 'green'" in error and "red, blue, umpire" in error, args


def test_a_command_for_another_seat(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    payload = run.submit("g", "blue", {"type": "attack", "aim": "high"}, code=1)
    assert payload == {"error": "turn/not-your-turn", "rule": "arbitro §S.2",
                       "message": "it is not blue's turn: waiting for red"}
    assert head(run, "g") == 5


def test_a_command_while_another_seats_decision_is_pending(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    run.submit("g", "red", {"type": "attack", "aim": "high"})
    payload = run.submit("g", "red", {"type": "attack", "aim": "low"}, code=1)
    assert payload["error"] == "turn/not-your-decision" and payload["rule"] == "duel §4"
    assert payload["message"] == "waiting for blue to choose a guard (high or low)"
    # The engine's own pending decision (consent) takes precedence and names who is awaited too.
    run.submit("g", "blue", {"type": "guard", "stance": "high"})
    run.json("undo", "g", "--as", "blue", "--to", "1")  # red's attack, command #1
    payload = run.submit("g", "blue", {"type": "end_turn"}, code=1)
    assert payload["error"] == "turn/not-your-decision" and "waiting for red" in payload["message"]
    assert payload["rule"] == "arbitro §U.2"


def test_a_stale_expected_sequence_number_names_the_current_head(run: Cli, db: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    run.submit("g", "red", {"type": "attack", "aim": "high"}, "--expect", "0")
    before = stored_events(db, "g")
    error = run("submit", "g", "--as", "blue", '{"type": "guard", "stance": "low"}', "--expect", "0", code=2).stderr
    assert "expected the game at command #0 but its head is command #1" in error and "resubmit against #1" in error
    assert stored_events(db, "g") == before


def test_a_duplicate_idempotency_key_returns_the_original_and_appends_nothing(run: Cli, db: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    run.submit("g", "red", {"type": "attack", "aim": "high"})
    first = run.submit("g", "blue", {"type": "guard", "stance": "low"}, "--key", "k-1")
    before = stored_events(db, "g")
    commands = db_rows(db, "SELECT COUNT(*) FROM commands WHERE game='g'")
    again = run.submit("g", "blue", {"type": "guard", "stance": "low"}, "--key", "k-1")
    assert again["duplicate"] is True and again["cmd"] == first["cmd"] and again["events"] == first["events"]
    # A different command under a used key is refused (the key names the first), and nothing is applied.
    other = run.submit("g", "blue", {"type": "end_turn"}, "--key", "k-1", code=2)
    assert other["error"] == "input/key-reused" and "k-1" in other["message"]
    assert stored_events(db, "g") == before
    assert db_rows(db, "SELECT COUNT(*) FROM commands WHERE game='g'") == commands


# --- damaged exported files ---------------------------------------------------------------------
def export(run: Cli, tmp_path: Path, game: str = "g") -> Path:
    path = tmp_path / f"{game}.jsonl"
    run("export", game, "-o", str(path))
    return path


def test_a_truncated_log_file_mid_line(run: Cli, tmp_path: Path, game: str) -> None:
    path = export(run, tmp_path)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-3]) + "\n" + lines[-3][: len(lines[-3]) // 2], encoding="utf-8")
    error = run("verify", str(path), code=2).stderr
    assert f"line {len(lines) - 2}: not JSON" in error and "truncated" in error
    error = run("import", str(path), code=2).stderr
    assert f"line {len(lines) - 2}" in error


def test_a_log_file_missing_its_last_events(run: Cli, tmp_path: Path, game: str) -> None:
    path = export(run, tmp_path)
    records = read_export(path)
    kept = [r for r in records if r["record"] != "event" or r["seq"] <= 15]
    write_export(path, kept)
    report = run.json("verify", str(path), code=1)
    assert report["passed"] is False and checks(report)["hash chain"] == "failed"
    assert report["divergence"]["seq"] == 15
    assert "ends at #15 but the game's head is #17" in run("verify", str(path), code=1).stdout
    assert "nothing imported" in run("import", str(path), code=2).stderr
    assert [g["game"] for g in run.json("games")] == [game]  # nothing of the file was stored


def test_an_edited_log_file(run: Cli, tmp_path: Path, game: str) -> None:
    path = export(run, tmp_path)
    records = read_export(path)
    damage = next(r for r in event_records(records) if r["body"]["event"]["type"] == "damage_dealt")
    damage["body"]["event"]["amount"] += 5  # the body changes, its hash does not
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    assert report["divergence"]["seq"] == damage["seq"]
    assert f"event #{damage['seq']}: its content does not match its hash" in run("verify", str(path), code=1).stdout
    error = run("import", str(path), code=2).stderr
    assert f"#{damage['seq']}" in error and "nothing imported" in error


def test_an_edited_log_file_with_a_recomputed_chain_fails_readjudication(
    run: Cli, tmp_path: Path, game: str
) -> None:
    path = export(run, tmp_path)
    records = read_export(path)
    damage = next(r for r in event_records(records) if r["body"]["event"]["type"] == "damage_dealt")
    damage["body"]["event"]["amount"] += 5
    rechain(records)
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    assert checks(report)["hash chain"] == "passed" and checks(report)["re-adjudication"] == "failed"
    assert report["divergence"]["seq"] == damage["seq"]
    assert report["divergence"]["expected"]["amount"] == report["divergence"]["found"]["amount"] + 5
    assert report["divergence"]["rule"] == "duel §5"


def test_a_reordered_log_file(run: Cli, tmp_path: Path, game: str) -> None:
    path = export(run, tmp_path)
    lines = path.read_text().splitlines()
    at = [i for i, line in enumerate(lines) if json.loads(line)["record"] == "event" and json.loads(line)["seq"] == 9][0]
    lines[at], lines[at + 1] = lines[at + 1], lines[at]  # swap events #9 and #10
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = run.json("verify", str(path), code=1)
    assert report["passed"] is False and report["divergence"]["seq"] == 9
    assert "#9" in run("verify", str(path), code=1).stdout
    assert "#9" in run("import", str(path), code=2).stderr


def test_an_edited_seat_export(run: Cli, tmp_path: Path, game: str) -> None:
    """An item's events carry no hash of their own (engine-rules §V.6): what binds an edit is the server's seal."""
    path = tmp_path / "blue.jsonl"
    run("export", "g", "--as", "blue", "-o", str(path))
    records = read_export(path)
    item = next(r for r in records if r["record"] == "item" and any(e["type"] == "damage_dealt" for e in r["events"]))
    damage = next(e for e in item["events"] if e["type"] == "damage_dealt")
    damage["event"]["amount"] += 3
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    (views,) = [c for c in report["checks"] if c["name"] == "seat views"]
    assert views["status"] == "failed" and "it seals other records than this file's" in views["detail"]
    refused = " ".join(run("import", str(path), code=2).stderr.split())  # as blue's own copy (play by e-mail)
    assert "it seals other records than this file's" in refused and "nothing imported" in refused


def test_a_reordered_seat_export(run: Cli, tmp_path: Path, game: str) -> None:
    path = tmp_path / "red.jsonl"
    run("export", "g", "--as", "red", "-o", str(path))
    records = read_export(path)
    items = [r for r in records if r["record"] == "item"]
    first, second = records.index(items[2]), records.index(items[3])
    records[first], records[second] = records[second], records[first]
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    assert report["divergence"]["seq"] == 2
    assert "item 2 is not command #2's: the items are one per command, in order" in run("verify", str(path), code=1).stdout


# --- a damaged database -------------------------------------------------------------------------
def test_a_flipped_byte_in_the_database(run: Cli, db: Path, game: str) -> None:
    before = stored_events(db, "g")
    (body,) = db_rows(db, "SELECT body FROM events WHERE game='g' AND seq=9")[0:1]
    edited = body[0].replace('"amount":', '"amount":1', 1)  # 2 -> 12, say: one event body edited in place
    assert edited != body[0]
    db_execute(db, "UPDATE events SET body=? WHERE game='g' AND seq=9", edited)
    report = run.json("verify", "g", code=1)
    assert report["passed"] is False and report["divergence"]["seq"] == 9
    text = run("verify", "g", code=1).stdout
    assert "event #9: its content does not match its hash" in text and text.strip().endswith("FAILED")
    # Reading past the damage is refused with the same precise message, never a traceback.
    error = run("log", "g", code=1).stderr
    assert "event #9" in error
    # Nothing committed is lost: every event is still stored, with its recorded hash.
    assert stored_events(db, "g") == before


def test_a_deleted_event_in_the_database(run: Cli, db: Path, game: str) -> None:
    db_execute(db, "DELETE FROM events WHERE game='g' AND seq=12")
    report = run.json("verify", "g", code=1)
    assert report["divergence"]["seq"] == 12
    assert "event #12 is missing" in run("verify", "g", code=1).stdout


def test_a_corrupt_snapshot_is_not_trusted(run: Cli, db: Path, game: str) -> None:
    """A snapshot is checked against the chained checkpoint after it: a forged one (even with a matching
    state_hash column) is ignored and the state is folded from the log."""
    snapshots = db_rows(db, "SELECT seq, state FROM snapshots WHERE game='g'")
    assert snapshots, "the round's checkpoint left a snapshot"
    truth = run.json("view", "g", "--as", "umpire")
    for seq, state in snapshots:
        forged = bytes(state).replace(b'"hp":{"blue":', b'"hp":{"blue":1', 1)
        assert forged != bytes(state)
        db_execute(db, "UPDATE snapshots SET state=?, state_hash=? WHERE game='g' AND seq=?",
                   forged, sha256_hex(forged), seq)
    assert run.json("view", "g", "--as", "umpire") == truth
    assert run.json("verify", "g")["passed"] is True


def test_a_file_that_is_not_a_database(run: Cli, tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.db"
    bogus.write_bytes(b"this is not sqlite at all " * 200)
    result = Cli(bogus)("games", code=2)
    assert "not a readable arbitro database" in result.stderr


# --- a tampered die -----------------------------------------------------------------------------
def tamper_first_damage_roll(records: list[dict[str, Any]]) -> int:
    """Change the first damage roll's values, keeping the damage band (under 7 / 7 and over), and
    recompute the chain so that it is intact. Returns the roll's sequence number."""
    roll = next(r for r in event_records(records) if r["body"]["event"]["type"] == "dice_rolled")
    values = roll["body"]["event"]["values"]
    roll["body"]["event"]["values"] = [1, 1] if sum(values) < 7 else [6, 6]
    if roll["body"]["event"]["values"] == values:
        roll["body"]["event"]["values"] = [1, 2] if sum(values) < 7 else [6, 5]
    rechain(records)
    return roll["seq"]  # type: ignore[no-any-return]


def test_a_tampered_die_before_the_reveal_is_unchecked_never_passed(run: Cli, tmp_path: Path, game: str) -> None:
    path = export(run, tmp_path)
    records = read_export(path)
    tamper_first_damage_roll(records)
    write_export(path, records)
    report = run.json("verify", str(path))
    statuses = checks(report)
    assert statuses["hash chain"] == "passed"
    assert statuses["dice"] == "unchecked"  # the honest answer while the seed is secret
    assert "passed" not in {c["status"] for c in report["checks"] if "dice" in c["name"] or "seed" in c["name"]}
    assert "UNCHECKED" in run("verify", str(path)).stdout


def test_a_tampered_die_after_the_reveal_fails_naming_its_event(run: Cli, tmp_path: Path, game: str) -> None:
    run("reveal", "--expose-hidden", "g", "--reason", "dispute over the first guard")
    path = export(run, tmp_path)
    records = read_export(path)
    assert records[0]["seed"] is not None  # revealed: the export carries it
    seq = tamper_first_damage_roll(records)
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    statuses = checks(report)
    assert statuses["hash chain"] == "passed" and statuses["seed commitment"] == "passed"
    assert statuses["re-adjudication"] == "failed"
    assert report["divergence"]["seq"] == seq
    assert report["divergence"]["expected"]["values"] != report["divergence"]["found"]["values"]
    assert f"first divergence at #{seq}" in run("verify", str(path), code=1).stdout


def test_an_untampered_revealed_export_verifies(run: Cli, tmp_path: Path, game: str) -> None:
    run("reveal", "--expose-hidden", "g", "--reason", "end of the evening")
    path = export(run, tmp_path)
    records = read_export(path)
    rechain(records)  # recomputing an intact chain changes nothing
    write_export(path, records)
    assert path.read_text() == export(run, tmp_path).read_text()
    assert run.json("verify", str(path))["passed"] is True


def test_a_finished_game_with_its_reveal_stripped_fails_verification(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--option", "short", "--id", "g")
    exchange(run, "g", stance="high")
    while run.json("status", "g")["outcome"] is None:
        run.submit("g", run.json("status", "g")["awaiting"]["seats"][0], {"type": "end_turn"})
    path = export(run, tmp_path)
    records = read_export(path)
    tamper_first_damage_roll(records)
    # Strip the end-of-game reveals (the seed, then the salt key); renumber the final checkpoint and recompute its
    # state hash.
    reveal, key = [r for r in event_records(records) if r["body"]["event"]["type"] in ("seed_revealed", "salt_key_revealed")]
    for stripped in (reveal, key):
        records.remove(stripped)
    checkpoint = next(r for r in event_records(records) if r["seq"] == reveal["seq"] + 2)
    assert checkpoint["body"]["event"]["type"] == "checkpoint"
    checkpoint["seq"] = checkpoint["body"]["seq"] = reveal["seq"]
    next(r for r in records if r["record"] == "command" and r["cmd"] == reveal["body"]["cmd"])["last_seq"] = reveal["seq"]
    records[0].update(head_seq=reveal["seq"], seed=None)
    records[0].pop("salt_key", None)
    rechain(records)
    fold = Fold(registry.get("duel"))
    bodies = [fold.decode(StoredEvent(r["seq"], canonical(r["body"]), r["hash"]), "g", None)
              for r in event_records(records)]
    checkpoint["body"]["event"]["state_hash"] = state_hash(fold.fold(bodies[:-1]))
    rechain(records)
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    assert report["passed"] is False


# --- transcribed games --------------------------------------------------------------------------
@pytest.fixture
def created_transcribed(run: Cli) -> str:
    run("new", "duel", "standard", "--transcribed", "--id", "t")
    return "t"


@pytest.fixture
def transcribed(run: Cli, created_transcribed: str) -> str:
    """A transcribed duel whose opening draws (each seat's card, duel §3) the umpire has entered."""
    run.submit("t", "umpire", {"type": "enter_random", "values": ["coral-wolf"]})
    run.submit("t", "umpire", {"type": "enter_random", "values": ["slate-viper"]})
    return "t"


def test_a_roll_in_a_transcribed_game_awaits_the_umpire(run: Cli, transcribed: str) -> None:
    run.submit("t", "red", {"type": "attack", "aim": "high"})
    result = run.submit("t", "blue", {"type": "guard", "stance": "low"})
    (request,) = events_of(result, "random_requested")
    assert request["seat"] == "umpire" and request["command_seat"] == "blue" and request["kind"] == "roll"
    assert request["count"] == 2 and request["sides"] == 6 and request["purpose"] == "duel §5 damage"
    awaiting = run.json("status", "t")["awaiting"]
    assert awaiting["seats"] == ["umpire"] and awaiting["kind"] == "random" and awaiting["rule"] == "arbitro §R.4"
    assert "enter the roll for: duel §5 damage" in run("status", "t").stdout
    payload = run.submit("t", "red", {"type": "end_turn"}, code=1)
    assert "waiting for umpire" in payload["message"]
    entered = run.submit("t", "umpire", {"type": "enter_random", "values": [3, 5]})
    assert [e["type"] for e in entered["events"]] == ["decision_resolved", "guard_chosen", "dice_rolled", "damage_dealt",
                                                        "turn_ended"]
    (dice,) = events_of(entered, "dice_rolled")
    assert dice["values"] == [3, 5] and dice["source"] == "entered"
    assert events_of(entered, "damage_dealt")[0]["amount"] == 3  # 8: 2, +1 the guard missed
    report = run.json("verify", "t")
    assert report["kind"] == "transcribed" and report["passed"] is True
    dice_check = next(c for c in report["checks"] if c["name"] == "dice")
    assert dice_check["status"] == "unchecked" and "transcribed" in dice_check["detail"]
    assert "transcribed game" in run("verify", "t").stdout
    assert run.json("status", "t")["kind"] == "transcribed"


@pytest.mark.parametrize("values, problem", [
    ([3, 9], "enter 2 value(s) from 1 to 6, got ['3', '9']"),
    ([3], "enter 2 value(s) from 1 to 6, got ['3']"),
    ([3, 5, 6], "enter 2 value(s) from 1 to 6"),
    (["x", 2], "enter 2 value(s) from 1 to 6"),
    ([0, 2], "enter 2 value(s) from 1 to 6"),
])
def test_bad_entered_values_are_rejected_precisely(
    run: Cli, db: Path, transcribed: str, values: list[Any], problem: str
) -> None:
    run.submit("t", "red", {"type": "attack", "aim": "high"})
    run.submit("t", "blue", {"type": "guard", "stance": "low"})
    before = stored_events(db, "t")
    payload = run.submit("t", "umpire", {"type": "enter_random", "values": values}, code=1)
    assert payload["rule"] == "arbitro §R.4" and problem in payload["message"]
    assert stored_events(db, "t") == before
    assert run.json("status", "t")["awaiting"]["kind"] == "random"  # still waiting for good values


def test_entered_values_of_the_wrong_json_type_are_malformed(run: Cli, transcribed: str) -> None:
    run.submit("t", "red", {"type": "attack", "aim": "high"})
    run.submit("t", "blue", {"type": "guard", "stance": "low"})
    assert run.submit("t", "umpire", {"type": "enter_random", "values": []}, code=2)["error"] == \
        "input/malformed-command"
    assert run.submit("t", "umpire", {"type": "enter_random", "values": [2.5, 3]}, code=2)["error"] == \
        "input/malformed-command"


def test_a_transcribed_game_asks_for_the_scenarios_opening_draws(run: Cli, created_transcribed: str) -> None:
    awaiting = run.json("status", "t")["awaiting"]
    assert awaiting["seats"] == ["umpire"] and awaiting["kind"] == "random"
    assert "duel §3 card for red" in awaiting["prompt"]
    run.submit("t", "red", {"type": "attack", "aim": "high"}, code=1)  # nothing else until the cards are dealt
    wrong = run.submit("t", "umpire", {"type": "enter_random", "values": ["jade-otter"]}, code=1)
    assert "from ['ruby-falcon', 'coral-wolf', 'amber-lynx']" in wrong["message"]  # not in red's deck
    run.submit("t", "umpire", {"type": "enter_random", "values": ["coral-wolf"]})
    assert "duel §3 card for blue" in run.json("status", "t")["awaiting"]["prompt"]
    dealt = run.submit("t", "umpire", {"type": "enter_random", "values": ["slate-viper"]})
    assert [e["type"] for e in dealt["events"]][:5] == ["decision_resolved", "items_drawn", "card_dealt", "items_drawn",
                                                         "card_dealt"]
    assert all(e["event"]["source"] == "entered" for e in dealt["events"] if e["type"] == "items_drawn")
    assert run.json("view", "t", "--as", "red")["state"]["my_card"] == "coral-wolf"
    assert {"type": "play_card"} in run.json("legal", "t", "--as", "red")
    assert run.json("verify", "t")["passed"] is True


def test_an_umpire_undo_to_a_roll_request_awaits_the_roll_again(run: Cli, transcribed: str) -> None:
    run.submit("t", "red", {"type": "attack", "aim": "high"})
    run.submit("t", "blue", {"type": "guard", "stance": "low"})
    requested = run.json("status", "t")["head"]  # the umpire's: the log's (blue's result names its command)
    awaited = run.json("status", "t")["awaiting"]
    run.submit("t", "umpire", {"type": "enter_random", "values": [6, 6]})
    run.json("undo", "t", "--as", "umpire", "--to", str(requested), "--reason", "the dice were entered wrongly")
    assert run.json("status", "t")["awaiting"] == awaited


def test_a_retry_with_its_key_is_not_refused_as_stale(run: Cli, db: Path) -> None:
    """A client that lost the answer resends the same command, key and --expect: it gets the original."""
    run("new", "duel", "standard", "--id", "g")
    first = run.submit("g", "red", {"type": "attack", "aim": "high"}, "--expect", "0", "--key", "r-1")
    retry = run.submit("g", "red", {"type": "attack", "aim": "high"}, "--expect", "0", "--key", "r-1")
    assert retry["duplicate"] is True and retry["events"] == first["events"]
    assert len(stored_events(db, "g")) == 6


# --- rulings ------------------------------------------------------------------------------------
def test_a_ruling_patch_changes_the_state_and_its_reason_is_seen_by_all(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    ruling = {"type": "ruling", "reason": "the guard was entered wrongly at the table",
              "patch": [{"op": "replace", "path": "/hp/blue", "value": 10}]}
    result = run.submit("g", "umpire", ruling)
    (made,) = events_of(result, "ruling_made")
    assert made["patch"] == [{"op": "replace", "path": "/hp/blue", "value": 10}]
    assert run.json("view", "g", "--as", "blue")["state"]["hp"]["blue"] == 10
    for seat in ("red", "blue"):
        (item,) = run.json("log", "g", "--as", seat, "--from", str(result["cmd"]))  # a seat's numbers: commands'
        (seen,) = [e["event"] for e in item["events"] if e["type"] == "ruling_made"]
        assert seen["type"] == "ruling_made" and seen["reason"] == "the guard was entered wrongly at the table"
        assert seen["patch"] == "(seen by the umpire only)"
    public = dict(ruling, reason="made public", public_patch=True,
                  patch=[{"op": "replace", "path": "/hp/red", "value": 9}])
    cmd = run.submit("g", "umpire", public)["cmd"]
    (item,) = run.json("log", "g", "--as", "red", "--from", str(cmd))
    assert [e["event"]["patch"] for e in item["events"] if e["type"] == "ruling_made"] == [public["patch"]]
    assert run.json("verify", "g")["passed"] is True  # rulings re-adjudicate too


def test_a_players_ruling_is_rejected(run: Cli, db: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    payload = run.submit("g", "red", {"type": "ruling", "reason": "I deserve more",
                                      "patch": [{"op": "replace", "path": "/hp/blue", "value": 1}]}, code=1)
    assert payload["rule"] == "arbitro §U.4" and "only the umpire" in payload["message"]
    assert run.json("view", "g", "--as", "umpire")["state"]["hp"]["blue"] == 10


@pytest.mark.parametrize("ruling, problem", [
    ({"patch": [{"op": "replace", "path": "/hp/red", "value": 11}]}, "hp of red must be 0..10, not 11"),
    ({"patch": [{"op": "replace", "path": "/nowhere/x", "value": 1}]}, "/nowhere does not exist"),
    ({"patch": [{"op": "replace", "path": "/hp/red", "value": "ten"}]}, "does not give a valid state"),
    ({"interpretation": {"miss_bonus": "double"}}, "no reading 'double'; choose one of plus_one, none"),
    ({"interpretation": {"gravity": "on"}}, "no interpretation 'gravity'"),
    ({}, "a ruling changes the state (patch) or an interpretation"),
])
def test_a_bad_ruling_is_rejected_precisely(run: Cli, ruling: dict[str, Any], problem: str) -> None:
    run("new", "duel", "standard", "--id", "g")
    payload = run.submit("g", "umpire", {"type": "ruling", "reason": "testing", **ruling}, code=1)
    assert payload["rule"] == "arbitro §U.4" and problem in payload["message"]
    assert head(run, "g") == 5


def test_a_ruling_needs_a_reason(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    payload = run.submit("g", "umpire", {"type": "ruling", "reason": "",
                                         "interpretation": {"miss_bonus": "none"}}, code=2)
    assert payload["problems"][0]["field"] == "ruling.reason"


def test_an_interpretation_switch_changes_later_damage(run: Cli) -> None:
    """duel §5, miss_bonus: with the default plus_one a missed guard adds 1; the umpire rules none."""
    run("new", "duel", "standard", "--transcribed", "--id", "t")
    for card in ("coral-wolf", "slate-viper"):  # the opening draws made on the table (duel §3)
        run.submit("t", "umpire", {"type": "enter_random", "values": [card]})

    def missed_guard_damage() -> int:
        attacker = run.json("status", "t")["awaiting"]["seats"][0]
        defender = "blue" if attacker == "red" else "red"
        run.submit("t", attacker, {"type": "attack", "aim": "high"})
        run.submit("t", defender, {"type": "guard", "stance": "low"})
        entered = run.submit("t", "umpire", {"type": "enter_random", "values": [3, 5]})
        return events_of(entered, "damage_dealt")[0]["amount"]  # type: ignore[no-any-return]

    assert missed_guard_damage() == 3
    run.submit("t", "umpire", {"type": "ruling", "reason": "the club reads colpo scoperto as no bonus",
                               "interpretation": {"miss_bonus": "none"}})
    assert run.json("status", "t")["interpretations"] == {"miss_bonus": "none"}
    assert "umpire's interpretations: miss_bonus=none" in run("status", "t").stdout
    assert missed_guard_damage() == 2
    assert run.json("verify", "t")["passed"] is True


def test_a_seat_proves_its_export_genuine_against_a_head_hash_it_kept(run: Cli, tmp_path: Path) -> None:
    """A rebuilt chain passes the link checks, but cannot pass through a hash the seat recorded itself."""
    run("new", "duel", "standard", "--id", "g")
    run.submit("g", "red", {"type": "attack", "aim": "high"})
    kept = run.submit("g", "blue", {"type": "guard", "stance": "low"})["receipt"]["head"]  # its item's link
    path = tmp_path / "blue.jsonl"
    run("export", "g", "--as", "blue", "-o", str(path))
    assert run.json("verify", str(path), "--head", kept)["passed"] is True
    report = run.json("verify", str(path), "--head", "0" * 64, code=1)
    check = next(c for c in report["checks"] if c["name"] == "trusted head")
    assert check["status"] == "failed" and "not the log you played" in check["detail"]
