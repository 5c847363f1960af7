"""End to end through the CLI: every command, readable output and --json, exit statuses, and a few runs
as a real process. The game is the duel test ruleset (tests/foundation/duel.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.service import Arbitro

from .conftest import (
    BLUE_CARD,
    RED_CARD,
    Cli,
    db_rows,
    events_of,
    exchange,
    head,
    position_file,
    read_export,
    run_process,
)

ALL_COMMANDS = ("rulesets", "games", "new", "status", "legal", "submit", "view", "log", "replay", "fork", "undo",
                "annotate", "export", "import", "verify", "reveal", "position")


# --- rulesets, games, new, status ---------------------------------------------------------------
def test_rulesets_lists_duel_with_its_scenarios_and_options(run: Cli) -> None:
    text = run("rulesets").stdout
    assert "duel 1.0.0: Duel (test ruleset)" in text
    assert "standard: Six rounds (seats: red, blue; options: short)" in text
    rows = {r["name"]: r for r in run.json("rulesets")}
    duel = rows["duel"]
    assert duel["available"] is True and duel["version"] == "1.0.0"
    assert duel["scenarios"]["standard"] == {"title": "Six rounds", "seats": ["red", "blue"], "options": ["short"]}
    assert duel["scenarios"]["long"]["options"] == []
    for row in rows.values():  # a ruleset that cannot load says why instead of failing the listing
        assert row["available"] or row["reason"]


@pytest.fixture
def broken_ruleset() -> Iterator[str]:
    """A ruleset whose construction raises (as a data file failing validation at load would)."""
    registry.register("broken", "json:loads")  # json.loads() without its argument raises TypeError
    yield "broken"
    registry._extra.pop("broken", None)
    registry._loaded.pop("broken", None)


def test_a_ruleset_that_fails_to_load_is_listed_as_not_available(run: Cli, broken_ruleset: str) -> None:
    rows = {r["name"]: r for r in run.json("rulesets")}
    assert rows["broken"]["available"] is False and "TypeError" in rows["broken"]["reason"]
    assert rows["duel"]["available"] is True
    assert "no ruleset 'chess'" in run("new", "chess", code=3).stderr


def test_games_lists_every_game_with_kind_and_head(run: Cli) -> None:
    assert "no database at" in run("games", code=3).stderr  # a read never creates the database
    run("new", "duel", "standard", "--id", "g1")
    run("new", "duel", "long", "--transcribed", "--id", "g2")
    rows = {r["game"]: r for r in run.json("games")}
    assert rows["g1"] == {"game": "g1", "ruleset": "duel", "scenario": "standard", "kind": "generated", "head": 5,
                          "parent": None, "parent_seq": None}
    assert rows["g2"]["kind"] == "transcribed" and rows["g2"]["scenario"] == "long"
    text = run("games").stdout
    assert "g1  duel/standard  generated  #5" in text and "g2  duel/long  transcribed" in text


def test_new_prints_the_id_and_deals_the_hidden_cards(run: Cli) -> None:
    game = run("new", "duel", "standard").stdout.strip()
    assert game.startswith("duel-")
    assert run.json("new", "duel", "standard", "--id", "chosen") == {"game": "chosen"}
    types = [e["type"] for e in run.json("log", game)]
    assert types == ["game_created", "items_drawn", "card_dealt", "items_drawn", "card_dealt"]


def test_new_with_an_option_and_another_scenario(run: Cli) -> None:
    run("new", "duel", "standard", "--option", "short", "--id", "short")
    run("new", "duel", "long", "--id", "long")
    assert run.json("view", "short", "--as", "red")["state"]["rounds"] == 3
    assert run.json("view", "long", "--as", "red")["state"]["rounds"] == 10
    assert run.json("status", "short")["options"] == ["short"]
    assert "duel 1.0.0 / standard with short" in run("status", "short").stdout


def test_status_readable_and_json(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    status = run.json("status", "g")
    assert status["game"] == "g" and status["kind"] == "generated" and status["head"] == 5
    assert status["awaiting"] == {"seats": ["red"], "kind": "turn", "rule": "", "prompt": "command"}
    assert status["seed_revealed"] is False and status["outcome"] is None
    assert status["provisional"] == ["duel: the card deck is invented for tests"]
    text = run("status", "g").stdout
    assert "game g: duel 1.0.0 / standard" in text
    assert "awaiting: red: its turn: any command `arbitro legal` lists" in text  # the engine's bare "command"
    assert "PROVISIONAL DATA: 1 reconstructed item (duel)" in text and "status g --provisional" in text
    assert "the card deck is invented for tests" in run("status", "g", "--provisional").stdout
    run.submit("g", "red", {"type": "attack", "aim": "high"})
    assert "awaiting: blue: choose a guard (high or low) [duel §4]" in run("status", "g").stdout


def test_legal_lists_the_commands_of_the_awaited_seat_only(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    assert run("legal", "g", "--as", "red").stdout.splitlines() == [
        "attack (2):", '  {"type": "attack", "aim": "high"}', '  {"type": "attack", "aim": "low"}',
        "end_turn (1):", '  {"type": "end_turn"}', "play_card (1):", '  {"type": "play_card"}']
    assert run.json("legal", "g", "--as", "blue") == []
    assert "nothing: blue is not awaited now" in run("legal", "g", "--as", "blue").stdout
    run.submit("g", "red", {"type": "attack", "aim": "low"})
    assert run.json("legal", "g", "--as", "blue") == [{"type": "guard", "stance": "high"},
                                                       {"type": "guard", "stance": "low"}]
    assert run.json("legal", "g", "--as", "red") == []


def test_every_legal_command_is_accepted(run: Cli) -> None:
    """legal is a promise: each listed command, sent on a fork at that point, is accepted."""
    run("new", "duel", "standard", "--id", "g")
    for step in range(3):
        status = run.json("status", "g")
        seat = status["awaiting"]["seats"][0]
        commands = run.json("legal", "g", "--as", seat)
        assert commands, f"step {step}: {seat} is awaited but has no legal command"
        for command in commands:
            fork = run.json("fork", "g", "--at", str(status["head"]))["game"]
            run.submit(fork, seat, command)
        run.submit("g", seat, commands[0])


# --- submit -------------------------------------------------------------------------------------
def test_submit_a_duel_exchange_readable_output(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    text = run("submit", "g", "--as", "red", '{"type": "attack", "aim": "high"}').stdout
    assert text.splitlines()[0] == "accepted: command 1, head #1"  # a seat's head: its command's number
    assert "attack_declared" in text and "(duel §4)" in text
    assert "awaiting: blue: choose a guard (high or low)" in text
    text = run("submit", "g", "--as", "blue", '{"type": "guard", "stance": "low"}').stdout
    assert "dice_rolled" in text and "damage_dealt" in text and "turn_ended" in text


def test_submit_json_damage_follows_the_dice(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    run.submit("g", "red", {"type": "attack", "aim": "high"})
    result = run.submit("g", "blue", {"type": "guard", "stance": "low"})
    assert result["cmd"] == 2 and result["duplicate"] is False and result["head"] == 2
    (dice,) = events_of(result, "dice_rolled")
    (damage,) = events_of(result, "damage_dealt")
    assert dice["count"] == 2 and dice["sides"] == 6 and dice["source"] == "seed"
    assert dice["detail"] == {"aim": "high", "guard": "low"} and dice["purpose"] == "duel §5 damage"
    expected = (1 if sum(dice["values"]) < 7 else 2) + 1  # +1: the guard missed the aim (duel §5)
    assert damage == {"type": "damage_dealt", "target": "blue", "amount": expected, "rule": "duel §5"}
    assert run.json("view", "g", "--as", "blue")["state"]["hp"] == {"red": 10, "blue": 10 - expected}
    assert result["awaiting"]["seats"] == ["blue"]


def test_submit_from_a_file(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    command = tmp_path / "attack.json"
    command.write_text('{"type": "attack", "aim": "low"}', encoding="utf-8")
    result = run.json("submit", "g", "--as", "red", "--file", str(command))
    assert [e["event"] for e in result["events"]] == [
        {"type": "attack_declared", "seat": "red", "aim": "low", "rule": "duel §4"}]


def test_submit_with_the_right_expected_head(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    result = run.submit("g", "red", {"type": "end_turn"}, "--expect", "0")
    assert result["head"] == 1 and [e["type"] for e in result["events"]] == ["turn_ended"]


def test_submit_key_twice_applies_once(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    first = run.submit("g", "red", {"type": "attack", "aim": "high"}, "--key", "turn1-red")
    again = run.submit("g", "red", {"type": "attack", "aim": "high"}, "--key", "turn1-red")
    assert again["duplicate"] is True and first["duplicate"] is False
    assert again["cmd"] == first["cmd"] and again["events"] == first["events"]
    assert head(run, "g") == 6
    assert "already applied: command 1, head #1" in run(
        "submit", "g", "--as", "red", '{"type": "attack", "aim": "high"}', "--key", "turn1-red").stdout


# --- view, log ----------------------------------------------------------------------------------
def test_view_hides_the_other_seats_card_and_at_shows_the_past(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "--position", str(position_file(tmp_path)), "--id", "g")
    red = run.json("view", "g", "--as", "red")
    blue = run.json("view", "g", "--as", "blue")
    assert red["state"]["my_card"] == RED_CARD and blue["state"]["my_card"] == BLUE_CARD
    assert RED_CARD not in json.dumps(blue) and BLUE_CARD not in json.dumps(red)
    umpire = run.json("view", "g", "--as", "umpire")
    assert umpire["state"]["cards"] == {"red": RED_CARD, "blue": BLUE_CARD}
    result = exchange(run, "g")
    hp_now = run.json("view", "g", "--as", "blue")["state"]["hp"]["blue"]
    assert hp_now == 10 - events_of(result, "damage_dealt")[0]["amount"]
    past = run.json("view", "g", "--as", "blue", "--at", "1")  # a seat's numbers are commands' (§V.6)
    assert past["engine"]["seq"] == 1 and past["state"]["hp"]["blue"] == 10
    assert past["state"]["attack"] == {"attacker": "red", "aim": "high"}
    assert 'my_card: "jade-otter"' in run("view", "g", "--as", "blue").stdout  # readable: a field a line


def test_log_as_a_seat_redacts_and_from_to_select(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    full = run.json("log", "g")
    red_card = full[2]["event"]["card"]
    items = run.json("log", "g", "--as", "blue")  # one item per command, numbered by it (engine-rules §V.6)
    assert [(i["seq"], i["cmd"], i["prev"], i["hash"]) for i in items] == [(0, 0, full[0]["prev"], full[-1]["hash"])]
    blue_log = items[0]["events"]
    assert blue_log[2]["event"] == {"type": "card_dealt", "seat": "red", "card": None, "rule": "duel §3"}
    assert blue_log[1]["event"]["hidden"] is True and "drawn" not in blue_log[1]["event"]
    assert blue_log[3]["event"]["drawn"] and "population" not in blue_log[3]["event"]  # its own draw, not the deck
    assert blue_log[4]["event"]["card"] == full[4]["event"]["card"]  # its own card
    assert all(set(e) == {"type", "event"} for e in blue_log)  # no number, link or salt of its own
    exchange(run, "g")
    window = run.json("log", "g", "--from", "6", "--to", "8")
    assert [e["seq"] for e in window] == [6, 7, 8]
    assert [e["type"] for e in window] == ["attack_declared", "guard_chosen", "dice_rolled"]
    text = run("log", "g", "--from", "6", "--to", "6").stdout
    assert text.startswith("#6") and "attack_declared" in text and "(duel §4)" in text
    assert run("log", "g", "--from", "9", "--to", "7").stdout.strip() == "no events in that range"
    assert [i["seq"] for i in run.json("log", "g", "--as", "blue", "--from", "1", "--to", "1")] == [1]
    text = run("log", "g", "--as", "blue", "--from", "1", "--to", "1").stdout
    assert text.startswith("#1") and "attack_declared" in text and "#6" not in text
    if red_card != full[4]["event"]["card"]:  # the cards can coincide (two independent draws)
        assert red_card not in run("log", "g", "--as", "blue").stdout.replace("population", "")


# --- replay -------------------------------------------------------------------------------------
def test_replay_a_game_and_its_exported_file_agree(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "--position", str(position_file(tmp_path)), "--id", "g")
    exchange(run, "g")
    exchange(run, "g", attacker="blue", aim="low", stance="low")
    replayed = run.json("replay", "g", "--to", "4")
    assert replayed["seq"] == 4 and replayed["game"] == "g"
    assert replayed["view"]["state"] == run.json("view", "g", "--as", "umpire", "--at", "4")["state"]
    exported = tmp_path / "g.jsonl"
    run("export", "g", "-o", str(exported))
    from_file = run.json("replay", str(exported), "--to", "4")
    assert from_file["state_hash"] == replayed["state_hash"]
    assert run.json("replay", str(exported))["state_hash"] == run.json("replay", "g")["state_hash"]
    as_blue = run.json("replay", str(exported), "--as", "blue")
    assert as_blue["view"]["seat"] == "blue" and RED_CARD not in json.dumps(as_blue)
    text = run("replay", "g", "--to", "4").stdout
    assert text.startswith(f"replayed g to #4; state hash {replayed['state_hash']}")
    # the state told as `view` tells it (the clock, who was awaited), not the view's JSON (--json prints that)
    assert text.splitlines()[1:] == run("view", "g", "--at", "4").stdout.splitlines()
    assert '"state"' not in text and "awaiting: " in text


# --- fork ---------------------------------------------------------------------------------------
def _created(run: Cli, game: str) -> dict:
    return run.json("log", game, "--to", "1")[0]["event"]


def test_fork_keep_dice_replays_the_parents_rolls_once_revealed(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    at = head(run, "g")
    parent_next = exchange(run, "g", attacker="blue")
    run("reveal", "--expose-hidden", "g", "--reason", "post-mortem")
    fork = run.json("fork", "g", "--at", str(at), "--keep-dice")["game"]
    fork_next = exchange(run, fork, attacker="blue")
    assert events_of(fork_next, "dice_rolled") == events_of(parent_next, "dice_rolled")
    created = _created(run, fork)
    assert created["origin"]["fork"] == "g" and created["origin"]["at"] == at and created["origin"]["keep_dice"]
    assert created["seed_commitment"] == _created(run, "g")["seed_commitment"]
    games = {r["game"]: r for r in run.json("games")}
    assert games[fork]["parent"] == "g"
    assert run.json("status", fork)["parent"] == "g"
    assert "forked from g" in run("status", fork).stdout


def test_fork_without_keep_dice_commits_a_new_seed(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    at = head(run, "g")
    fork = run("fork", "g", "--at", str(at)).stdout.strip()
    created = _created(run, fork)
    assert created["seed_commitment"] != _created(run, "g")["seed_commitment"]
    assert created["origin"]["keep_dice"] is False
    parent_hash = run.json("log", "g", "--from", str(at), "--to", str(at))[0]["hash"]
    assert created["origin"]["hash"] == parent_hash  # the parent's hash at the fork point
    assert run.json("view", fork, "--as", "umpire")["state"] == run.json("view", "g", "--as", "umpire")["state"]


# --- undo ---------------------------------------------------------------------------------------
def test_undo_own_command_is_free(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    run.submit("g", "red", {"type": "attack", "aim": "high"})
    result = run.json("undo", "g", "--as", "red", "--to", "0")  # a seat's numbers are commands': 0, the creation
    (undone,) = events_of(result, "undone")
    # served to red by command (engine-rules §V.6): the undo keeps command #0, the creation
    assert undone == {"type": "undone", "to_seq": 0, "by": "red", "reason": "taken back", "rule": "arbitro §U.1",
                      "voided_rolls": 0, "voided_indices": []}
    assert run.json("view", "g", "--as", "umpire")["state"]["attack"] is None
    assert run.json("status", "g")["awaiting"]["seats"] == ["red"]
    assert run.json("log", "g", "--from", "6", "--to", "6")[0]["type"] == "attack_declared"  # never deleted


def test_undo_after_dice_needs_consent_accepted(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")  # the dice rolled: no longer free for blue
    result = run.json("undo", "g", "--as", "blue", "--to", "1")  # red's attack, command #1 (engine-rules §V.6)
    (request,) = events_of(result, "undo_requested")
    assert request["consent_from"] == ["red"] and request["rule"] == "arbitro §U.2"
    awaiting = run.json("status", "g")["awaiting"]
    assert awaiting["seats"] == ["red"] and awaiting["kind"] == "consent"
    assert awaiting["prompt"] == "blue asks to take back everything after command #1: accept?"
    assert run.json("legal", "g", "--as", "red") == [{"type": "consent", "accept": True},
                                                      {"type": "consent", "accept": False}]
    answer = run.submit("g", "red", {"type": "consent", "accept": True})
    assert [e["type"] for e in answer["events"]] == ["undo_answered", "decision_resolved", "undone"]
    state = run.json("view", "g", "--as", "umpire")["state"]
    assert state["hp"] == {"red": 10, "blue": 10} and state["attack"] == {"attacker": "red", "aim": "high"}
    assert run.json("status", "g")["awaiting"]["seats"] == ["blue"]


def test_undo_after_dice_consent_declined(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    guarded = exchange(run, "g")
    damage = events_of(guarded, "damage_dealt")[0]["amount"]
    run.json("undo", "g", "--as", "blue", "--to", "1")
    answer = run.submit("g", "red", {"type": "consent", "accept": False})
    assert [e["type"] for e in answer["events"]] == ["undo_answered", "undo_declined", "decision_resolved"]
    assert run.json("view", "g", "--as", "umpire")["state"]["hp"]["blue"] == 10 - damage
    assert run.json("status", "g")["awaiting"] == {"seats": ["blue"], "kind": "turn", "rule": "", "prompt": "command"}


def test_undo_by_the_umpire_is_a_ruling_with_a_reason(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    error = run("undo", "g", "--as", "umpire", "--to", "5", code=1).stderr
    assert "give a reason" in error and "arbitro §U.4" in error
    result = run.json("undo", "g", "--as", "umpire", "--to", "5", "--reason", "the guard was misclicked")
    (undone,) = events_of(result, "undone")
    assert undone["by"] == "umpire" and undone["reason"] == "the guard was misclicked"
    assert undone["rule"] == "arbitro §U.4"
    assert run.json("view", "g", "--as", "umpire")["state"]["hp"] == {"red": 10, "blue": 10}
    blue_head = run.json("status", "g", "--as", "blue")["head"]
    assert blue_head == 3  # creation, attack, guard, undo: blue's numbers are commands' (engine-rules §V.6)
    (undo,) = run.json("log", "g", "--as", "blue", "--from", str(blue_head))
    (told,) = [e["event"] for e in undo["events"] if e["type"] == "undone"]
    assert told["reason"] == "the guard was misclicked" and told["to_seq"] == 0  # event #5 ended command 0
    assert "VOIDED by the undo at #3" in run("log", "g", "--as", "blue", "--from", "1", "--to", "1").stdout


def test_submit_and_undo_print_every_event_whole(run: Cli) -> None:
    """Issue 14: the text of `submit` and `undo` wraps a long field, never cuts it with "..."."""
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    reason = "the guard was misclicked " + " ".join(f"(point {i} of the umpire's long explanation)" for i in range(6))
    ruling = {"type": "ruling", "reason": reason, "interpretation": {"miss_bonus": "none"}}
    text = run("submit", "g", "--as", "umpire", json.dumps(ruling)).stdout
    assert "..." not in text and reason in " ".join(line.strip() for line in text.splitlines())
    assert not any(reason in line for line in text.splitlines())  # wrapped over lines, not one endless line
    text = run("undo", "g", "--as", "umpire", "--to", "5", "--reason", reason).stdout
    assert "..." not in text and reason in " ".join(line.strip() for line in text.splitlines())


def test_submit_and_status_json_are_the_typed_results_fields(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    result = run.submit("g", "red", {"type": "attack", "aim": "high"})
    assert list(result) == ["game", "cmd", "duplicate", "head", "events", "awaiting", "receipt"]
    assert result["awaiting"] == {"seats": ["blue"], "kind": "guard", "rule": "duel §4",
                                  "prompt": "choose a guard (high or low)"}  # no winner while the game goes on
    status = run.json("status", "g")
    assert list(status) == ["game", "ruleset", "version", "scenario", "options", "kind", "seats", "head", "origin",
                            "parent", "seed_revealed", "awaiting", "outcome", "provisional", "non_standard",
                            "interpretations", "dice", "notices", "open_disputes"]
    assert status["dice"]["protection"] == "host" and status["outcome"] is None


# --- annotate -----------------------------------------------------------------------------------
def test_annotations_public_and_private(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    run.submit("g", "red", {"type": "attack", "aim": "high"})
    public = run.json("annotate", "g", "Lannes should have blocked here", "--as", "umpire", "--at", "6")
    assert public["seq"] == 6 and public["private"] is False and public["seat"] == "umpire"
    text = run("annotate", "g", "bluff: my card is weak", "--as", "red", "--at", "1", "--private").stdout
    assert "(private)" in text and "by red" in text
    exports = {}
    for seat in ("red", "blue", "umpire"):
        path = tmp_path / f"{seat}.jsonl"
        run("export", "g", "--as", seat, "-o", str(path))
        exports[seat] = [r for r in read_export(path) if r["record"] == "annotation"]
    assert {n["text"] for n in exports["red"]} == {"Lannes should have blocked here", "bluff: my card is weak"}
    assert {n["text"] for n in exports["blue"]} == {"Lannes should have blocked here"}
    assert "bluff" not in (tmp_path / "blue.jsonl").read_text()
    assert "bluff" not in run("log", "g", "--as", "blue").stdout + run("view", "g", "--as", "blue").stdout
    assert run("annotate", "g", "x", "--as", "red", "--at", "99", code=3).stderr


# --- export, import, verify, reveal -------------------------------------------------------------
def test_export_full_and_as_a_seat(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "--position", str(position_file(tmp_path)), "--id", "g")
    exchange(run, "g")
    full = tmp_path / "full.jsonl"
    run("export", "g", "-o", str(full))
    records = read_export(full)
    assert records[0]["record"] == "game" and records[0]["format"] == "arbitro/2"
    assert records[0]["seed"] is None  # never the unrevealed seed
    assert [r["seq"] for r in records if r["record"] == "event"] == list(range(1, head(run, "g") + 1))
    assert all("body" in r for r in records if r["record"] == "event")
    assert run("export", "g").stdout.splitlines() == full.read_text().splitlines()  # stdout == file
    seat = tmp_path / "blue.jsonl"
    run("export", "g", "--as", "blue", "-o", str(seat))
    blue = read_export(seat)
    assert blue[0]["redacted_for"] == "blue"
    assert RED_CARD not in seat.read_text()
    commands = [r for r in blue if r["record"] == "command"]
    assert all(r["body"] is None for r in commands if r["seat"] != "blue")  # others' commands: hashes only
    assert any(r["body"] is not None for r in commands if r["seat"] == "blue")


def test_import_into_another_database_verifies(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    exchange(run, "g", attacker="blue")  # a round ends: a checkpoint
    run("annotate", "g", "nice guard", "--as", "umpire", "--at", "7")
    exported = tmp_path / "g.jsonl"
    run("export", "g", "-o", str(exported))
    other = Cli(tmp_path / "other.db")
    assert other.json("import", str(exported)) == {"game": "g"}
    assert other.json("status", "g")["head"] == head(run, "g")
    assert other.json("replay", "g")["state_hash"] == run.json("replay", "g")["state_hash"]
    assert other("verify", "g").stdout.strip().endswith("VERIFIED")
    again = tmp_path / "again.jsonl"
    other("export", "g", "-o", str(again))
    # A faithful round trip, annotations included; only the exporting server's key differs (each database
    # signs its own receipts: arbitro §L.4).
    assert without_server_key(again.read_text()) == without_server_key(exported.read_text())
    assert json.loads(again.read_text().splitlines()[0])["server_key"] == other.json("receipt", "g")["server_key"]
    assert "already exists" in other("import", str(exported), code=2).stderr


def test_export_with_seed_moves_a_live_game_to_another_database(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    plain, moving = tmp_path / "plain.jsonl", tmp_path / "moving.jsonl"
    run("export", "g", "-o", str(plain))
    run("export", "g", "--with-seed", "-o", str(moving))
    assert read_export(plain)[0]["seed"] is None and read_export(moving)[0]["seed"]
    other = Cli(tmp_path / "other.db")
    other("import", str(moving))
    here = exchange(run, "g", attacker="blue")
    there = exchange(other, "g", attacker="blue")
    assert events_of(there, "dice_rolled") == events_of(here, "dice_rolled")
    assert other.json("verify", "g")["passed"] is True
    # Without the seed, the imported game can be read and verified but not played on.
    third = Cli(tmp_path / "third.db")
    third("import", str(plain))
    assert third.json("verify", "g")["passed"] is True
    assert "does not hold" in third("reveal", "--expose-hidden", "g", "--reason", "cannot", code=1).stderr


def test_verify_a_game_and_a_file(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    report = run.json("verify", "g")
    assert report["passed"] is True and report["kind"] == "generated" and report["divergence"] is None
    checks = {c["name"]: c["status"] for c in report["checks"]}
    assert checks == {"hash chain": "passed", "genesis": "passed", "command log": "passed", "ruleset version": "passed",
                      "scenario data": "passed", "dice": "unchecked", "salts": "unchecked",
                      "dice protection": "unchecked", "re-rolls": "passed", "re-adjudication": "passed",
                      "annotations": "passed", "completeness": "unchecked"}
    assert report["provisional"] == ["duel: the card deck is invented for tests"]
    text = run("verify", "g").stdout
    assert "UNCHECKED" in text and "dice" in text and text.strip().endswith("VERIFIED")
    assert "PROVISIONAL" in text
    exported = tmp_path / "g.jsonl"
    run("export", "g", "-o", str(exported))
    assert run.json("verify", str(exported))["passed"] is True
    seat = tmp_path / "red.jsonl"
    run("export", "g", "--as", "red", "-o", str(seat))
    seat_report = run.json("verify", str(seat))
    statuses = {c["name"]: c["status"] for c in seat_report["checks"]}
    assert seat_report["passed"] is True
    assert statuses["re-adjudication"] == "unchecked" and statuses["hidden events"] == "unchecked"


def test_reveal_then_verify_recomputes_the_dice(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    result = run.json("reveal", "--expose-hidden", "g", "--reason", "dispute over round 1")
    (revealed,) = events_of(result, "seed_revealed")
    assert revealed["reason"] == "dispute over round 1" and len(revealed["seed"]) == 64
    assert run.json("status", "g")["seed_revealed"] is True
    report = run.json("verify", "g")
    checks = {c["name"]: c for c in report["checks"]}
    assert checks["seed commitment"]["status"] == "passed"
    assert "dice" not in checks  # nothing left unchecked: every roll was recomputed
    assert checks["re-adjudication"]["status"] == "passed" and report["passed"] is True
    assert "already revealed" in run("reveal", "--expose-hidden", "g", code=1).stderr


def test_game_to_the_end_reveals_the_seed_and_verifies(run: Cli) -> None:
    run("new", "duel", "standard", "--option", "short", "--id", "g")
    exchange(run, "g")
    for _ in range(5):
        seat = run.json("status", "g")["awaiting"]["seats"][0]
        run.submit("g", seat, {"type": "end_turn"})
    status = run.json("status", "g")
    assert status["outcome"]["winner"] == "red" and status["outcome"]["rule"] == "duel §6"
    assert status["seed_revealed"] is True
    assert "game over: red" in run("status", "g").stdout
    error = run("submit", "g", "--as", "red", '{"type": "end_turn"}', code=1).stderr
    assert "the game is over" in error and "duel §6" in error
    checks = {c["name"]: c["status"] for c in run.json("verify", "g")["checks"]}
    assert checks["seed commitment"] == "passed" and checks["re-adjudication"] == "passed"


def test_readable_output_of_undo_reveal_and_import(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    run.submit("g", "red", {"type": "attack", "aim": "high"})
    text = run("undo", "g", "--as", "red", "--to", "0").stdout
    assert text.startswith("command 2:") and "undone" in text and "(arbitro §U.1)" in text
    text = run("reveal", "--expose-hidden", "g", "--reason", "curious").stdout
    assert "seed_revealed" in text and "reason=curious" in text
    path = tmp_path / "g.jsonl"
    run("export", "g", "-o", str(path))
    assert Cli(tmp_path / "other.db")("import", str(path)).stdout.strip() == "g"


# --- position -----------------------------------------------------------------------------------
def test_position_round_trip(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    at = head(run, "g")
    exchange(run, "g", attacker="blue")
    path = tmp_path / "puzzle.json"
    run("position", "g", "--at", str(at), "-o", str(path))
    position = json.loads(path.read_text())
    assert position["format"] == "arbitro-position/1" and position["from"] == {"game": "g", "seq": at}
    assert position == json.loads(run("position", "g", "--at", str(at)).stdout)
    game = run("new", "duel", "--position", str(path)).stdout.strip()
    assert run.json("view", game, "--as", "umpire")["state"] == run.json("view", "g", "--as", "umpire", "--at",
                                                                          str(at))["state"]
    assert json.loads(run("position", game).stdout)["state"] == position["state"]
    assert "position" in run.json("status", game)["origin"]
    assert run.json("verify", game)["passed"] is True


def test_position_round_trip_keeps_the_umpires_interpretations(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    run.submit("g", "umpire", {"type": "ruling", "reason": "house reading", "interpretation": {"miss_bonus": "none"}})
    path = tmp_path / "ruled.json"
    run("position", "g", "-o", str(path))
    game = run("new", "duel", "--position", str(path)).stdout.strip()
    assert run.json("status", game)["interpretations"] == {"miss_bonus": "none"}


# --- exit statuses ------------------------------------------------------------------------------
def test_exit_1_for_rule_rejections_with_the_citation(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    error = run("submit", "g", "--as", "blue", '{"type": "end_turn"}', code=1).stderr
    assert "it is not blue's turn" in error and "arbitro §S.2" in error
    run.submit("g", "red", {"type": "play_card"})
    error = run("submit", "g", "--as", "red", '{"type": "play_card"}', code=1).stderr
    assert "already played" in error and "duel §3" in error
    payload = run.json("submit", "g", "--as", "red", '{"type": "play_card"}', code=1)
    assert payload == {"error": "rules/illegal", "rule": "duel §3", "message": "your card is already played"}


@pytest.mark.parametrize("args, message", [
    (("submit", "g", "--as", "red", "{not json"), "is not valid JSON"),
    (("submit", "g", "--as", "red", '{"aim": "high"}'), 'a "type" field'),
    (("submit", "g", "--as", "red", '{"type": "attack", "aim": "middle"}'), "aim"),
    (("submit", "g", "--as", "green", '{"type": "end_turn"}'), "unknown seat 'green'"),
    (("submit", "g", "--as", "red", '{"type": "end_turn"}', "--expect", "3"), "its head is command #0"),
    (("submit", "g", "--as", "red"), "as a JSON argument or with --file"),
    (("view", "g", "--as", "green"), "unknown seat"),
    (("submit", "g", "--bogus-option"), "No such option"),
    (("frobnicate",), "No such command"),
])
def test_exit_2_for_bad_input(run: Cli, args: tuple[str, ...], message: str) -> None:
    run("new", "duel", "standard", "--id", "g")
    result = run(*args, code=2)
    assert message in result.stderr + result.stdout


def test_exit_2_for_a_bad_position_file(run: Cli, tmp_path: Path) -> None:
    bad_hp = position_file(tmp_path, hp={"red": 11, "blue": 10})
    assert "hp of red must be 0..10, not 11" in run("new", "duel", "--position", str(bad_hp), code=2).stderr
    bad_type = position_file(tmp_path, hp={"red": "ten", "blue": 10})
    assert "state" in run("new", "duel", "--position", str(bad_type), code=2).stderr
    not_json = tmp_path / "broken.json"
    not_json.write_text('{"format": ', encoding="utf-8")
    assert "not valid JSON" in run("new", "duel", "--position", str(not_json), code=2).stderr
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"format": "chess-fen", "state": {}}), encoding="utf-8")
    assert "arbitro-position/1" in run("new", "duel", "--position", str(wrong), code=2).stderr
    assert run("games").stdout.strip() == "no games"  # nothing was created


@pytest.mark.parametrize("args, message", [
    (("status", "nope"), "no game 'nope'"),
    (("submit", "nope", "--as", "red", '{"type": "end_turn"}'), "no game 'nope'"),
    (("verify", "nope"), "no game 'nope'"),
    (("replay", "nope"), "no game 'nope'"),
    (("new", "chess"), "no ruleset 'chess'"),
    (("new", "duel", "blitz"), "no scenario 'blitz'"),
    (("view", "g", "--as", "red", "--at", "99"), "there is no #99"),
])
def test_exit_3_for_not_found(run: Cli, args: tuple[str, ...], message: str) -> None:
    run("new", "duel", "standard", "--id", "g")
    result = run(*args, code=3)
    assert message in result.stderr
    if "no game" in message:  # which database was searched
        assert str(run.db) in result.stderr


def test_exit_3_for_a_missing_command_file(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    assert "missing.json: no such file" in run("submit", "g", "--as", "red", "--file", "missing.json", code=3).stderr


def test_errors_as_json_on_stdout(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    payload = run.json("submit", "g", "--as", "red", '{"type": "end_turn"}', "--expect", "4", code=2)
    assert payload["error"] == "store/stale-sequence" and "command #0" in payload["message"] and payload["head"] == 0
    payload = run.json("submit", "g", "--as", "red", '{"type": "attack", "aim": "middle"}', code=2)
    assert payload["error"] == "input/malformed-command"
    assert payload["problems"][0]["field"] == "attack.aim" and payload["problems"][0]["given"] == "'middle'"
    assert run.json("status", "nope", code=3)["error"] == "store/game-not-found"


# --- a real process -----------------------------------------------------------------------------
def test_real_process_plays_exports_and_verifies(tmp_path: Path) -> None:
    game = run_process("new", "duel", "standard", cwd=tmp_path).stdout.strip()
    assert (tmp_path / "arbitro.db").exists()  # the default database in the working directory
    run_process("submit", game, "--as", "red", '{"type": "attack", "aim": "high"}', cwd=tmp_path)
    done = run_process("submit", game, "--as", "blue", '{"type": "guard", "stance": "high"}', "--json", cwd=tmp_path)
    assert json.loads(done.stdout)["head"] == 2
    rejected = run_process("submit", game, "--as", "red", '{"type": "end_turn"}', cwd=tmp_path, code=1)
    assert "arbitro §S.2" in rejected.stderr
    # cli.main freezes everything at exit (docs/architecture.md "Garbage collection"): a file written and an export to
    # standard output, flushed as the process ends, both come out whole and verify (rev-speed2 6)
    run_process("export", game, "-o", "g.jsonl", cwd=tmp_path)
    (tmp_path / "out.jsonl").write_text(run_process("export", game, cwd=tmp_path).stdout, encoding="utf-8")
    assert (tmp_path / "out.jsonl").read_bytes() == (tmp_path / "g.jsonl").read_bytes()
    assert run_process("verify", "g.jsonl", cwd=tmp_path).stdout.strip().endswith("VERIFIED")
    run_process("status", "nope", cwd=tmp_path, code=3)
    run_process("submit", game, "--as", "red", "{", cwd=tmp_path, code=2)


def test_real_process_help_lists_every_command(tmp_path: Path) -> None:
    text = run_process("--help", cwd=tmp_path).stdout
    for name in ALL_COMMANDS:
        assert f"  {name} " in text, name


def without_server_key(text: str) -> list[Any]:
    records = [json.loads(line) for line in text.splitlines()]
    records[0].pop("server_key")
    return records


def test_invite_prints_tokens_once_and_stores_only_their_hashes(run: Cli, app: Arbitro, db: Path) -> None:
    run("new", "duel", "standard", "--id", "g1")
    tokens = run.json("invite", "g1")["tokens"]
    assert sorted(tokens) == ["blue", "red", "umpire"] and len(set(tokens.values())) == 3
    assert {role: app.token_role(token) for role, token in tokens.items()} == {
        "red": ("g1", "red"), "blue": ("g1", "blue"), "umpire": ("g1", "umpire")}
    stored = [row[0] for row in db_rows(db, "SELECT hash FROM tokens")]
    assert not any(token in stored for token in tokens.values())  # hashes only
    again = run.json("invite", "g1", "--seat", "red")["tokens"]  # a new invitation replaces the old token
    assert list(again) == ["red"] and app.token_role(tokens["red"]) is None
    assert app.token_role(again["red"]) == ("g1", "red") and app.token_role(tokens["blue"]) == ("g1", "blue")
    assert "unknown seat 'green'" in run("invite", "g1", "--seat", "green", code=2).stderr
