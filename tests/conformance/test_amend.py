"""Amending a transcription (issue 16, arbitro §D.5) on transcribed Marengo and Caldiero games (the shipped logs'
first commands, entered by the umpire as played on a table: tests/transcribe.py): the replaced command is played in a
fork, every later command is judged again there, the first one refused is reported with its rule, entered rolls are
entered again as they were, and the parent is changed only by the fork's record (and the dispute's ruling)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator import registry, settling
from arbitro.adjudicator.errors import IllegalCommand, NoSuchEvent, NotUmpire, NotYourTurn
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from tests.foundation.conftest import Cli
from tests.transcribe import transcribe

LOGS = Path(__file__).resolve().parents[2] / "logs"


@pytest.fixture(scope="module")
def transcribed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """One database holding both transcriptions (each test forks them; none changes what the others read)."""
    db = tmp_path_factory.mktemp("amend") / "arbitro.db"
    app = Arbitro(SQLiteStore(db))
    games = {"marengo": transcribe(app, LOGS / "marengo-full.jsonl", 20),
             "caldiero": transcribe(app, LOGS / "caldiero-full.jsonl", 30)}
    app.store.close()  # type: ignore[attr-defined]
    return db, games


@pytest.fixture
def app(transcribed: tuple[Path, dict[str, str]]) -> Any:
    store = SQLiteStore(transcribed[0])
    yield Arbitro(store)
    store.close()


def played(app: Arbitro, game: str, kind: str, n: int = 0) -> Any:
    """The `n`th command of the game the umpire entered for a seat with this type (or `enter_random`)."""
    found = [c for c in app.store.commands(game) if kind in (c.record.command.get("type"),
                                                             c.record.command.get("command", {}).get("type"))]
    return found[n]


def outcomes(app: Arbitro, game: str, first: int, last: int | None = None) -> list[Any]:
    return [settling._outcome(e.body) for e in app.store.events(game, first, last)]


def test_an_activation_entered_wrongly_makes_the_next_move_illegal_in_caldiero(app: Arbitro, transcribed: Any) -> None:
    game = transcribed[1]["caldiero"]
    before = app.game(game).head_seq
    wrong = played(app, game, "activate")
    amended = settling.amend(app, game, "umpire", wrong.first_seq, {"type": "activate", "formation": "massena"})
    assert amended.cmd == wrong.record.cmd and amended.seat == "france"
    assert amended.command == {"type": "on_behalf", "seat": "france",
                               "command": {"type": "activate", "formation": "massena"}}
    refused = amended.refused
    assert refused is not None and refused.rule == "caldiero §3.1 B" and refused.error == "rules/illegal"
    assert refused.command["command"]["type"] == "move" and "massena" in refused.message
    # the fork ends before the refused command; the parent only records the fork
    assert app.game(amended.fork).head_seq == amended.head
    assert outcomes(app, game, before + 1) == [{"type": "game_forked", "child": amended.fork,
                                               "at": wrong.first_seq - 1, "keep_dice": False, "rule": "arbitro §R.3",
                                               "hash": next(app.store.events(game, wrong.first_seq - 1)).hash}]
    assert app.verify(amended.fork).divergence is None


def test_an_entered_roll_amended_changes_what_follows_and_later_rolls_keep_their_values(app: Arbitro,
                                                                                         transcribed: Any) -> None:
    game = transcribed[1]["caldiero"]
    fire = played(app, game, "defensive_fire")
    rolls = [c for c in app.store.commands(game) if c.record.command["type"] == "enter_random"
             and c.record.cmd > fire.record.cmd]
    assault = rolls[1]  # the bombardment's die, then the assault's (caldiero §12.5.3)
    other = [6] if assault.record.command["values"] != [6] else [1]
    amended = settling.amend(app, game, "umpire", assault.first_seq, {"type": "enter_random", "values": other})
    assert amended.changed or amended.refused, "another assault die changes what follows"
    for changed in amended.changed:  # each named command's events really differ between the games
        assert outcomes(app, game, *changed.parent) != outcomes(app, amended.fork, *changed.fork)
    fork_rolls = [c.record.command["values"] for c in app.store.commands(amended.fork)
                  if c.record.command["type"] == "enter_random"]
    replayed = [c.record.command["values"] for c in rolls[2:]][:len(fork_rolls) - 1]
    assert fork_rolls[0] == other and fork_rolls[1:] == replayed, "later entered rolls are entered as they were"


def test_a_block_moved_elsewhere_makes_its_continuation_illegal_in_marengo_and_rules_the_dispute(
        transcribed: Any) -> None:
    db, games = transcribed
    run = Cli(db)
    game = games["marengo"]
    app = Arbitro(SQLiteStore(db))
    move = played(app, game, "move")
    assert move.record.command["command"]["blocks"] == ["b003"]
    listed = app.adjudicator("marengo").legal(app.state_at(game, move.first_seq - 1), "france")
    elsewhere = next(c for c in listed if c["type"] == "move" and c["blocks"] == ["b003"]
                     and c["to"] != move.record.command["command"]["to"])
    run.json("dispute", "open", game, "b003 never went to pedrabona", "--as", "austria", "--at",
             str(move.record.cmd))  # a seat names the command (engine-rules §V.6); the umpire amends at an event
    report = run.json("amend", game, "--at", str(move.first_seq), json.dumps(elsewhere), "--dispute", "1",
                      "--reason", "the photo shows b003 elsewhere", code=1)
    assert report["refused"]["rule"] == "marengo §8" and report["refused"]["command"]["command"]["type"] == "continue"
    assert report["refused"]["seat"] == "france" and report["dispute"] == 1
    (ruled,) = run.json("disputes", game, "--as", "france")
    assert ruled["ruling"]["outcome"] == "amended" and ruled["ruling"]["fork"] == report["fork"]
    assert ruled["ruling"]["text"] == "the photo shows b003 elsewhere"
    text = run("amend", game, "--at", str(move.first_seq), json.dumps(elsewhere), code=1).stdout
    assert "REFUSED: command" in text and "[marengo §8]" in text and "ends before it" in text


def test_the_same_command_again_replays_every_later_command_unchanged(app: Arbitro, transcribed: Any) -> None:
    game = transcribed[1]["marengo"]
    move = played(app, game, "move")
    commands = [c for c in app.store.commands(game) if c.record.cmd > move.record.cmd]
    replayable = [c for c in commands if c.record.command["type"] not in settling.NOT_REPLAYED]
    amended = settling.amend(app, game, "umpire", move.first_seq + 1, move.record.command["command"])
    assert amended.refused is None and amended.changed == []
    assert amended.replayed == len(replayable) and amended.skipped == len(commands) - len(replayable)
    parent = [o for c in [move, *replayable] for o in outcomes(app, game, c.first_seq, c.last_seq)]
    assert parent == outcomes(app, amended.fork, 2, amended.head)  # the fork's genesis is #1


def test_what_an_amendment_refuses_and_records_nothing_for(app: Arbitro, transcribed: Any) -> None:
    game = transcribed[1]["marengo"]
    move = played(app, game, "move")
    before = (app.game(game).head_seq, len(app.games()))
    with pytest.raises(NotUmpire):
        settling.amend(app, game, "france", move.first_seq, {"type": "end_turn"})
    with pytest.raises(NoSuchEvent, match="no #9999"):
        settling.amend(app, game, "umpire", 9999, {"type": "end_turn"})
    with pytest.raises(IllegalCommand, match="creation") as creation:
        settling.amend(app, game, "umpire", 1, {"type": "end_turn"})
    assert creation.value.rule == "arbitro §D.5"
    with pytest.raises(NotYourTurn):  # the replacement itself is judged first: not austria's turn
        settling.amend(app, game, "umpire", move.first_seq, {**move.record.command, "seat": "austria"})
    with pytest.raises(IllegalCommand, match="no open dispute #7"):
        settling.amend(app, game, "umpire", move.first_seq, move.record.command["command"], dispute=7)
    assert (app.game(game).head_seq, len(app.games())) == before, "nothing was forked or recorded"


def test_a_generated_game_is_amended_only_once_its_seed_is_revealed(app: Arbitro) -> None:
    game = app.create("marengo", "marengo")
    with pytest.raises(IllegalCommand, match="seed revealed") as refused:
        settling.amend(app, game, "umpire", 2, {"type": "end_turn"})
    assert refused.value.rule == "arbitro §D.5"


def test_a_transcription_judged_again_under_another_reading_names_what_it_refuses(app: Arbitro, transcribed: Any) -> None:
    """`arbitro readjudicate --ruling` (arbitro §D.5) on the transcribed Caldiero game: under caldiero's other reading
    of the out-of-command order test a command of the log is refused, and named with its rule; the default reading
    replays every command unchanged; the game itself is not touched."""
    game = transcribed[1]["caldiero"]
    head = app.game(game).head_seq
    reading = registry.get("caldiero").interpretations()["ooc_order_test"]
    other = next(choice for choice in reading.choices if choice != reading.default)
    again = settling.reinterpret(app, game, "umpire", {"ooc_order_test": other})
    assert not again.identical and again.refused is not None and again.refused.rule.startswith("caldiero §")
    same = settling.reinterpret(app, game, "umpire", {"ooc_order_test": reading.default})
    assert same.identical and same.refused is None and same.changed == [] and same.replayed > again.replayed
    assert app.game(game).head_seq == head
