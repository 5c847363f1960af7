"""Issue 14 point 7, the historian through the CLI: `log` marks what an undo voided, `games` shows the fork tree,
`replay --step` walks a game event by event saying what changed, `diff` compares two branches from their common
event. Each reads as a seat was served: what a seat may not know does not appear in its step or its diff."""

from __future__ import annotations

import json

import pytest

from arbitro.adjudicator.cli_history import diff_text
from arbitro.cli import cli

from .conftest import Cli

FRIMONT = {"type": "enter", "block": "AUT_FRIMONT", "entry": "alessandria", "path": ["testa_di_ponte"]}
PILATI = {"type": "enter", "block": "AUT_PILATI", "entry": "alessandria", "path": ["testa_di_ponte"]}


@pytest.fixture
def branched(run: Cli) -> tuple[str, str]:
    """A Marengo game where austria entered Frimont (#5-#6), took it back (#7, to #4) and entered Pilati (#8-#9);
    and a fork of it at #4 where austria ended its turn at once."""
    run("new", "marengo", "marengo", "--id", "g")
    run.submit("g", "austria", FRIMONT)
    run("undo", "g", "--as", "austria", "--to", "0")  # the creation, #1-#4: a seat names commands
    run.submit("g", "austria", PILATI)
    fork = run("fork", "g", "--at", "4", "--id", "f").stdout.strip()
    run.submit(fork, "austria", {"type": "end_turn"})
    return "g", fork


def test_log_marks_what_an_undo_voided(run: Cli, branched: tuple[str, str]) -> None:
    shown = run("log", "g", "--from", "5", "--to", "6").stdout  # the undo (#7) lies beyond the range asked for
    assert shown.count("VOIDED by the undo at #7 (arbitro §U)") == 2
    marks = {e["seq"]: e.get("voided_by") for e in run.json("log", "g", "--as", "france")}  # france's: commands
    assert marks[1] == 2 and marks[0] is None and marks[2] is None and marks[3] is None  # #5-#6 are command 1


def test_a_forks_log_shows_its_parents_numbering(run: Cli, branched: tuple[str, str]) -> None:
    shown = run("log", "f").stdout
    assert shown.startswith("f forked from g at #4: its #N is g's #4+N-1")
    assert "#2    [parent #5] austria  turn_ended" in shown
    assert [e["parent_numbering"] for e in run.json("log", "f")][:2] == [4, 5]
    assert "parent_numbering" not in run.json("log", "g")[0]


def test_games_shows_the_fork_tree(run: Cli, branched: tuple[str, str]) -> None:
    lines = run("games").stdout.splitlines()
    assert lines[0].startswith("g  marengo/marengo")
    assert lines[1].startswith("└─ f  marengo/marengo") and lines[1].endswith("(forked from g at #4)")
    assert {r["game"]: r["parent_seq"] for r in run.json("games")} == {"g": None, "f": 4}


def test_replay_step_walks_forward_and_back_saying_what_changed(run: Cli, branched: tuple[str, str]) -> None:
    # a seat walks its commands (engine-rules §V.6): austria's #1 is Frimont's entry (events #5-#6), #2 its undo
    walked = run.runner.invoke(cli, ["replay", "g", "--step", "--from", "1", "--as", "austria", "--db", str(run.db)],
                               input="n\np\n3\nq\n")
    assert walked.exit_code == 0, walked.output
    shown = [block.split("\n", 1)[0][:40] for block in walked.stdout.split("[Enter/n next, p back, NUMBER go to, q quit]\n")
             if block.strip()]
    assert [s.split()[0] for s in shown] == ["#1", "#2", "#1", "#3"]
    one = walked.stdout.split("#1 ", 1)[1].split("[Enter", 1)[0]
    assert "VOIDED by the undo at #2" in one and "blocks[AUT_FRIMONT].zone: pool:austria → testa_di_ponte" in one
    france = run.runner.invoke(cli, ["replay", "g", "--step", "--from", "1", "--as", "france", "--db", str(run.db)],
                               input="q\n")
    assert "enemy_blocks[b014]: added" in france.stdout and "AUT_FRIMONT" not in france.stdout  # a face-down block
    steps = [json.loads(line) for line in run.runner.invoke(
        cli, ["replay", "g", "--step", "--from", "8", "--json", "--db", str(run.db)], input="\n").stdout.splitlines()]
    assert [s["seq"] for s in steps] == [8, 9] and steps[0]["changes"] == ["step: start → movement"]
    assert "has events #1 to #10" in run("replay", "g", "--step", "--from", "12", code=3).stderr


def test_diff_compares_two_branches_from_their_common_event(run: Cli, branched: tuple[str, str]) -> None:
    shown = run("diff", "g", "f").stdout
    assert "common history: g to #4" in shown
    first_of_a, first_of_b = shown.split("first event of A after it:\n")[1].split("first event of B after it:\n")
    assert first_of_a.lstrip().startswith("#5") and "step_began" in first_of_a.split("\n")[0]
    assert first_of_b.lstrip().startswith("#2") and "turn_ended" in first_of_b.split("\n")[0]
    assert "blocks.AUT_PILATI.zone: testa_di_ponte → pool:austria" in shown and "phasing: austria → france" in shown
    same_game = run.json("diff", "g@0", "g@3", "--as", "france")  # france's numbers: commands (#0 ends at #4)
    assert same_game["common"] == {"game": "g", "seq": 0} and same_game["first_difference"]["a"] is None
    assert same_game["first_difference"]["b"]["seq"] == 1
    assert not any("AUT_" in c for c in same_game["changes"]) and same_game["changes"]  # france's view: tokens only
    assert run.json("diff", "f@1", "g@4")["changes"] == []  # a fork's #1 is its parent's state at the fork
    assert "write GAME or GAME@SEQ" in run("diff", "g@x", "f", code=2).stderr
    assert "write GAME or GAME@SEQ" in run("diff", "g@4\n", "f", code=2).stderr  # no newline slips past the pattern
    assert "write GAME or GAME@SEQ" in run("diff", "g@\u0664", "f", code=2).stderr  # an Arabic-Indic four: no seq
    assert "g has events #1 to #10" in run("diff", "g@11", "f", code=3).stderr
    assert "no game 'nope'" in run("diff", "g", "nope", code=3).stderr
    run("new", "duel", "standard", "--id", "d")
    assert "only games of one ruleset compare" in run("diff", "g", "d", code=2).stderr





def test_diff_cuts_a_forks_starting_state_in_text_and_json_keeps_it_whole() -> None:
    """Where a game and its fork (with an entropy round) part, a seat is served the fork's creation first, its command
    #0: `initial`, the whole starting state (13,000 characters for Caldiero), was one line no reader could read."""
    initial = {f"u{i}": {"hex": f"{i:04}", "side": "france"} for i in range(200)}
    created = {"seq": 0, "seat": "umpire", "events": [
        {"type": "game_created", "event": {"type": "game_created", "initial": initial, "ruleset": "caldiero"}},
        {"type": "entropy_requested", "event": {"type": "entropy_requested", "seats": ["france", "austria"]}}]}
    result = {"a": {"game": "g", "seq": 40}, "b": {"game": "f", "seq": 0}, "seat": "austria",
              "common": {"game": "g", "seq": 11}, "first_difference": {"a": None, "b": created},
              "changes": ["turn: 1 → 2"]}
    shown = diff_text(result)
    words = " ".join(shown.split())  # the record wraps
    assert "initial=" in words and "(cut: --json has it whole)" in words and "ruleset=caldiero" in words
    assert max(len(line) for line in shown.splitlines()) < 200 and "(1 difference)" in shown
    assert result["first_difference"]["b"]["events"][0]["event"]["initial"] == initial  # --json prints it whole
