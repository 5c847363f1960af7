"""Verification against a careful forger (adjudicator/verify.py): each file below has its hash chain recomputed, so
only the check named can catch it, and each test says which. Mutants of verify.py survived where no test forged
these (issue 20): a wrong revealed seed, a start that is not the scenario's set-up, an event naming another
command's hash."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.service import Arbitro

from . import duel
from . import test_dice as dice
from .conftest import Cli, event_records, played_out, read_export, rechain, write_export
from .test_bad_input import checks, export, game  # noqa: F401 - the fixture: a duel one round in

__all__ = ["game"]


def forged(run: Cli, tmp_path: Path, edit: Any) -> dict[str, Any]:
    path = export(run, tmp_path)
    records = read_export(path)
    edit(event_records(records))
    rechain(records)
    write_export(path, records)
    return run.json("verify", str(path), code=1)  # type: ignore[no-any-return]


def detail(report: dict[str, Any], name: str) -> str:
    return next(c["detail"] for c in report["checks"] if c["name"] == name)


def test_a_revealed_seed_that_is_not_the_committed_one_fails_the_commitment(run: Cli, tmp_path: Path, game: str) -> None:
    run("reveal", "--expose-hidden", "g", "--reason", "the end")

    def other_seed(events: list[dict[str, Any]]) -> None:
        revealed = next(e for e in events if e["body"]["event"]["type"] == "seed_revealed")
        revealed["body"]["event"]["seed"] = "5e" * 32

    report = forged(run, tmp_path, other_seed)
    assert report["passed"] is False and checks(report)["hash chain"] == "passed"
    assert checks(report)["seed commitment"] == "failed"
    assert detail(report, "seed commitment") == "the revealed seed does NOT match the commitment made at creation"
    # A seed that is not the committed one is used for nothing: the salts wait for the committed seed, the dice are
    # replayed from the log, and the reveal itself cannot be judged again without it.
    assert [(c["name"], c["detail"]) for c in report["checks"] if c["status"] == "failed"][1:] == [  # after the commitment
        ("re-adjudication", "command 5 at #18: rejected: this database does not hold the game's seed [arbitro §R.3]")]
    assert checks(report)["salts"] == "unchecked"


def test_a_start_that_is_not_the_scenarios_set_up_fails_readjudication(run: Cli, tmp_path: Path, game: str) -> None:
    def stronger_red(events: list[dict[str, Any]]) -> None:
        events[0]["body"]["event"]["initial"]["hp"]["red"] += 10

    report = forged(run, tmp_path, stronger_red)
    assert checks(report)["hash chain"] == "passed" and checks(report)["genesis"] == "passed"
    assert checks(report)["re-adjudication"] == "failed"
    assert detail(report, "re-adjudication") == "the initial state is not the scenario's set-up"
    forged_start = report["divergence"]["expected"]
    assert forged_start["hp"]["red"] == report["divergence"]["found"]["hp"]["red"] + 10
    assert {k: v for k, v in report["divergence"].items() if k not in ("expected", "found")} == {
        "seq": 1, "rule": "duel set-up"}


def test_an_event_naming_another_commands_hash_fails_the_command_log(run: Cli, tmp_path: Path, game: str) -> None:
    at: dict[str, int] = {}

    def foreign_command(events: list[dict[str, Any]]) -> None:
        event = events[5]
        event["body"]["cmd_hash"] = "0" * 64
        at.update(seq=event["body"]["seq"], cmd=event["body"]["cmd"])

    report = forged(run, tmp_path, foreign_command)
    assert checks(report)["hash chain"] == "passed" and checks(report)["command log"] == "failed"
    assert detail(report, "command log") == f"event #{at['seq']} names command {at['cmd']} with a different hash"
    # nothing is judged on a command log that does not hold: no check of the commands' build, dice or rules follows
    assert [c["name"] for c in report["checks"]] == ["hash chain", "genesis", "command log", "completeness"]


def test_an_edited_event_fails_the_chain_and_the_divergence_names_its_number(run: Cli, tmp_path: Path, game: str) -> None:
    path = export(run, tmp_path)
    records = read_export(path)
    events = event_records(records)
    events[6]["body"]["event"]["edited"] = True  # event #7, its chain not recomputed
    write_export(path, records)
    report = run.json("verify", str(path), code=1)
    assert checks(report)["hash chain"] == "failed" and detail(report, "hash chain").startswith("game g, event #7: ")
    assert report["divergence"] == {"seq": 7, "expected": "an intact chain", "found": detail(report, "hash chain"),
                                    "rule": "arbitro §L.1"}


def test_a_log_with_an_event_dropped_or_added_diverges_at_that_event(run: Cli, tmp_path: Path, game: str) -> None:
    """A careful forger drops the last event a command caused, or adds one, and recomputes the chain, the command's
    range and the head: re-adjudication gives one event more, or one fewer, and says which."""
    for change in ("dropped", "added"):
        path = export(run, tmp_path)
        records = read_export(path)
        last = event_records(records)[-1]
        command = next(r for r in records if r["record"] == "command" and r["cmd"] == last["body"]["cmd"])
        head = next(r for r in records if r["record"] == "game")
        if change == "dropped":
            records.remove(last)
            step = -1
        else:
            extra = json.loads(json.dumps(last))
            extra["seq"] = extra["body"]["seq"] = last["seq"] + 1
            records.insert(records.index(last) + 1, extra)
            step = 1
        command["last_seq"] += step
        head["head_seq"] += step
        rechain(records)
        write_export(path, records)
        report = run.json("verify", str(path), code=1)
        assert checks(report)["hash chain"] == "passed" and checks(report)["re-adjudication"] == "failed"
        if change == "dropped":
            assert report["divergence"]["seq"] == last["seq"] and report["divergence"]["expected"] == "(no event)"
            assert report["divergence"]["found"] == last["body"]["event"]
        else:
            assert report["divergence"]["seq"] == last["seq"] + 1 and report["divergence"]["found"] == "(no event)"
            assert report["divergence"]["expected"] == last["body"]["event"]


def test_entropy_sent_in_the_open_where_the_seats_committed_theirs_fails_readjudication(
        app: Arbitro, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seats protected the dice by commit-reveal (arbitro §R.2), so entropy sent in the open is refused: the host
    who sees it first could drop it to choose between two rolls. A host whose server took some anyway (here: told
    the game has no seats' entropy) leaves a consistent log, and verification, which judges each command in the game
    its genesis sets up, refuses that command."""
    app.create("duel", "standard", seat_entropy=True, game_id="g")
    for step in (dice.commit, dice.reveal):
        for seat in ("red", "blue"):
            step(app, "g", seat, f"{seat}'s entropy")
    honest = Arbitro.context
    monkeypatch.setattr(Arbitro, "context", lambda self, game, created=None: msgspec.structs.replace(
        honest(self, game, created), entropy_seats=()))
    taken = app.submit("g", "red", {"type": "add_entropy", "entropy": "chosen by the host"})
    monkeypatch.undo()
    at = app.game("g").head_seq  # the log's number of its event (red's result names red's command)
    report = app.verify("g")
    assert report.passed is False and report.divergence is not None
    assert [(c.name, c.detail) for c in report.checks if c.status == "failed"] == [(
        "re-adjudication", f"command {taken.cmd} at #{at}: rejected: this game's dice are protected by the seats' "
        "committed entropy; entropy sent in the open would let the host choose a roll by dropping it [arbitro §R.2]")]
    assert (report.divergence.seq, report.divergence.rule) == (at, "arbitro §R.2")


def test_once_the_seed_is_revealed_a_roll_the_log_records_otherwise_diverges_at_that_roll(
        run: Cli, tmp_path: Path, game: str) -> None:
    """Anyone can recompute every roll from the revealed seed (arbitro §R.3): re-adjudication then draws from the
    seed, never from the rolls the log records, so a die the forger changed (and what follows from it left as the
    true roll made it) diverges at the roll itself."""
    run("reveal", "--expose-hidden", "g", "--reason", "the end")
    at: dict[str, Any] = {}

    def other_die(events: list[dict[str, Any]]) -> None:
        roll = next(e for e in events if e["body"]["event"]["type"] == "dice_rolled" and e["body"]["cmd"])
        at.update(seq=roll["body"]["seq"], values=list(roll["body"]["event"]["values"]))
        roll["body"]["event"]["values"] = [1 + v % 6 for v in at["values"]]  # each die one pip more, 6 to 1

    report = forged(run, tmp_path, other_die)
    assert checks(report)["hash chain"] == "passed" and checks(report)["seed commitment"] == "passed"
    assert checks(report)["re-adjudication"] == "failed"
    divergence = report["divergence"]
    assert divergence["seq"] == at["seq"] and divergence["found"]["values"] == at["values"]
    assert divergence["expected"]["values"] == [1 + v % 6 for v in at["values"]]


def test_a_transcribed_games_revealed_seed_is_checked_against_its_commitment(app: Arbitro, run: Cli, tmp_path: Path) -> None:
    """A transcribed game's dice were entered at the table, but its salts derive from its seed: a revealed seed that
    is not the committed one fails the commitment, and the salts are not said to derive from it (rev-verify 3)."""
    game = app.create("duel", "standard", transcribed=True, game_id="g")
    app.submit(game, "umpire", {"type": "enter_random", "values": [duel.DECKS["red"][0]]})
    run("reveal", "--expose-hidden", "g", "--reason", "the table is cleared")
    found = {c.name: (c.status, c.detail) for c in app.verify(game).checks}
    assert found["seed commitment"] == ("passed", "the revealed seed matches the commitment made at creation")
    assert found["salts"][0] == "unchecked"  # they derive from the salt key, which only the game's end reveals

    def other_seed(events: list[dict[str, Any]]) -> None:
        revealed = next(e for e in events if e["body"]["event"]["type"] == "seed_revealed")
        revealed["body"]["event"]["seed"] = "5e" * 32

    report = forged(run, tmp_path, other_seed)
    assert report["kind"] == "transcribed" and report["passed"] is False and checks(report)["hash chain"] == "passed"
    assert checks(report)["seed commitment"] == "failed"
    assert checks(report)["salts"] == "unchecked" and checks(report)["dice"] == "unchecked"


def test_the_opening_draws_taken_out_of_an_entropy_rounds_last_reveal_need_a_roll_the_log_does_not_record(
        app: Arbitro) -> None:
    """A duel whose seats' entropy round opens the game (arbitro §R.2): the last reveal makes the opening, which draws
    a card per seat. A forger drops those draws and deals (the reveal's range and the head cut to match, the chain
    recomputed). With the seed still secret the draws are replayed from the log, which holds none: the reveal is said
    to need a roll the log does not record, at its first event, not to be rejected."""
    app.create("duel", "standard", seat_entropy=True, game_id="g")
    for seat in ("red", "blue"):
        dice.commit(app, "g", seat, f"{seat}'s entropy")
    for seat in ("red", "blue"):
        dice.reveal(app, "g", seat, f"{seat}'s entropy")
    records = [json.loads(line) for line in app.export("g", "umpire")]
    reveal = [r for r in records if r["record"] == "command"][-1]
    drawn = [r["seq"] for r in event_records(records) if r["body"]["event"]["type"] == "items_drawn"]
    assert (reveal["cmd"], reveal["first_seq"], reveal["last_seq"], drawn) == (4, 10, 16, [13, 15])
    records = [r for r in records if r["record"] != "event" or r["seq"] < 13]
    reveal["last_seq"] = next(r for r in records if r["record"] == "game")["head_seq"] = 12
    rechain(records)
    report = app.verify_lines([json.dumps(r) for r in records])
    found = "needs a roll the log does not record (duel §3 card for red)"
    assert {c.name: (c.status, c.detail) for c in report.checks}["re-adjudication"] == (
        "failed", f"command 4 at #10: {found}")
    assert report.divergence is not None and (report.divergence.seq, report.divergence.found) == (10, found)


def test_of_several_forged_salts_the_first_is_named(run: Cli, tmp_path: Path, game: str) -> None:
    """Salts forged at #5 and #9 (rev-speed2): the salts check names the first; no other test forges two."""
    played_out(run, "g")  # the end reveals the salt key

    def salts(events: list[dict[str, Any]]) -> None:
        for i in (4, 8):
            events[i]["body"]["salt"] = "5a" * 16

    report = forged(run, tmp_path, salts)
    assert [(c["name"], c["detail"]) for c in report["checks"] if c["status"] == "failed"] == [
        ("salts", "event #5 has a salt not derived from the salt key")]


def failed_checks(report: dict[str, Any]) -> list[str]:
    return [c["name"] for c in report["checks"] if c["status"] == "failed"]


def test_the_events_of_two_commands_swapped_diverge_at_the_first(run: Cli, tmp_path: Path, game: str) -> None:
    """The events of command 2 and command 3 traded, the chain recomputed: only re-adjudication can see it."""
    swapped: dict[str, Any] = {}

    def swap(events: list[dict[str, Any]]) -> None:
        a = next(e for e in events if e["body"]["cmd"] == 2)
        b = next(e for e in events if e["body"]["cmd"] == 3)
        swapped.update(seq=a["seq"], a=a["body"]["event"], b=b["body"]["event"])
        a["body"]["event"], b["body"]["event"] = b["body"]["event"], a["body"]["event"]

    report = forged(run, tmp_path, swap)
    assert failed_checks(report) == ["re-adjudication"]
    assert report["divergence"]["seq"] == swapped["seq"]
    # expected: what the file records there; found: what this build's adjudication gives
    assert (report["divergence"]["expected"], report["divergence"]["found"]) == (swapped["b"], swapped["a"])


def test_a_forged_string_in_the_last_event_is_caught_by_readjudication(run: Cli, tmp_path: Path, game: str) -> None:
    """A string field edited in the last event (the struct-first compare's slow path finds it)."""
    at: dict[str, Any] = {}

    def edit(events: list[dict[str, Any]]) -> None:
        last = events[-1]["body"]["event"]
        key = next(k for k, v in last.items() if isinstance(v, str) and k not in ("type", "rule"))
        at.update(seq=events[-1]["seq"], key=key, value=last[key])
        last[key] += "x"

    report = forged(run, tmp_path, edit)
    assert failed_checks(report) == ["re-adjudication"]
    divergence = report["divergence"]
    assert divergence["seq"] == at["seq"] and divergence["found"][at["key"]] == at["value"]
    assert divergence["expected"] == {**divergence["found"], at["key"]: at["value"] + "x"}
