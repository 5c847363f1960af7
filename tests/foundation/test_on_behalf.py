"""A command entered on a seat's behalf (arbitro §S.5, issue 19 item 24): in a transcribed game the umpire enters
a seat's command as it was played on the table; it is judged as that seat's, recorded as the umpire's (by whom,
for whom), and served to every seat as entered for it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arbitro.adjudicator.errors import IllegalCommand, NotUmpire, NotYourTurn, UnknownSeat
from arbitro.adjudicator.service import Arbitro
from tests.foundation import duel

from .conftest import Cli
from arbitro.adjudicator.seat_numbers import events_of

ATTACK = {"type": "attack", "aim": "low"}


def transcribed(app: Arbitro) -> str:
    """A transcribed duel past its opening draws (entered by the umpire), red to act."""
    game = app.create("duel", "standard", transcribed=True, game_id="t")
    app.submit(game, "umpire", {"type": "enter_random", "values": [duel.DECKS["red"][1]]})
    app.submit(game, "umpire", {"type": "enter_random", "values": [duel.DECKS["blue"][1]]})
    return game


def test_the_umpire_enters_a_seats_command_judged_as_the_seats_and_recorded_as_the_umpires(app: Arbitro) -> None:
    game = transcribed(app)
    head = app.game(game).head_cmd
    app.submit(game, "umpire", {"type": "on_behalf", "seat": "red", "command": ATTACK})
    record = app.store.command(game, head + 1)
    assert record is not None and record.record.seat == "umpire"  # by whom
    assert record.record.command == {"type": "on_behalf", "seat": "red", "command": ATTACK}  # for whom, what
    assert app.state_at(game).rules.attack is not None  # judged as red's attack
    for seat in ("red", "blue", "umpire"):  # every seat is served who entered it for whom, first
        served = [e for e in events_of(app.log(game, seat)) if e["cmd"] == head + 1]
        assert served[0]["event"] == {"type": "entered_on_behalf", "by": "umpire", "seat": "red",
                                      "rule": "arbitro §S.5"}
        assert served[0]["seat"] == "umpire"
    assert app.verify(game).passed  # re-adjudicated from the record, it gives the same events


def test_a_command_on_a_seats_behalf_is_judged_by_that_seats_turn(app: Arbitro) -> None:
    game = transcribed(app)
    head = app.game(game).head_seq
    with pytest.raises(NotYourTurn, match="not blue's turn"):
        app.submit(game, "umpire", {"type": "on_behalf", "seat": "blue", "command": ATTACK})
    assert app.game(game).head_seq == head


def test_only_the_umpire_of_a_transcribed_game_enters_a_seats_command(app: Arbitro) -> None:
    game = transcribed(app)
    with pytest.raises(NotUmpire, match="only the umpire") as e:
        app.submit(game, "blue", {"type": "on_behalf", "seat": "red", "command": ATTACK})
    assert e.value.rule == "arbitro §S.5"
    with pytest.raises(UnknownSeat, match="'green' to act for"):
        app.submit(game, "umpire", {"type": "on_behalf", "seat": "green", "command": ATTACK})
    with pytest.raises(IllegalCommand, match="engine's own command"):
        app.submit(game, "umpire", {"type": "on_behalf", "seat": "red", "command": {"type": "consent", "accept": True}})
    generated = app.create("duel", "standard", game_id="g")
    with pytest.raises(IllegalCommand, match="only in a transcribed game"):
        app.submit(generated, "umpire", {"type": "on_behalf", "seat": "red", "command": ATTACK})


def test_a_command_on_a_seats_behalf_that_needs_a_roll_waits_for_it_and_keeps_who_entered_it(app: Arbitro) -> None:
    game = transcribed(app)
    app.submit(game, "red", ATTACK)
    head = app.game(game).head_cmd
    app.submit(game, "umpire", {"type": "on_behalf", "seat": "blue", "command": {"type": "guard", "stance": "high"}})
    served = [e["event"] for e in events_of(app.log(game, "red")) if e["cmd"] == head + 1]
    assert served[0]["type"] == "entered_on_behalf" and served[0]["seat"] == "blue"
    request = next(e for e in served if e["type"] == "random_requested")
    assert request["command_seat"] == "blue" and request["command"] == {"type": "guard"}  # red is not told the stance
    (frame,) = app.state_at(game).core.decisions
    assert json.loads(frame.ctx.command) == {"type": "guard", "stance": "high"} and frame.ctx.command_seat == "blue"
    app.submit(game, "umpire", {"type": "enter_random", "values": [3, 4]})
    assert app.state_at(game).rules.attack is None  # the guard, resumed as blue's, dealt the damage
    assert app.verify(game).passed


def test_the_cli_enters_a_command_for_a_seat(run: Cli, app: Arbitro) -> None:
    game = transcribed(app)
    out = run.submit(game, "umpire", ATTACK, "--for", "red")
    assert out["events"][0]["event"]["type"] == "entered_on_behalf"
    assert "--for SEAT" in run("submit", "--help").stdout and "--for austria" in run("submit", "--help").stdout
    refused = run.submit(game, "red", ATTACK, "--for", "blue", code=1)
    assert refused["error"] == "authority/umpire-only" and refused["rule"] == "arbitro §S.5"


def test_the_umpires_listing_in_a_transcribed_game_holds_each_awaited_seats_commands_on_its_behalf(
        app: Arbitro) -> None:
    game = transcribed(app)
    reds = app.legal(game, "red")
    assert reds and app.legal(game, "blue") == []  # red is awaited; a seat's own listing is unchanged
    wrapped = [c for c in app.legal(game, "umpire") if c["type"] == "on_behalf"]
    assert wrapped == [{"type": "on_behalf", "seat": "red", "command": c} for c in reds]
    head = app.game(game).head_seq
    attack = next(c for c in wrapped if c["command"]["type"] == "attack")
    app.submit(game, "umpire", attack)  # what is listed is accepted, and judged as red's
    assert app.game(game).head_seq > head and app.state_at(game).rules.attack is not None
    generated = app.create("duel", "standard", game_id="g")
    assert not [c for c in app.legal(generated, "umpire") if c["type"] == "on_behalf"]  # each seat sends its own


def test_the_cli_lists_the_commands_the_umpire_may_enter_for_a_seat(run: Cli, app: Arbitro) -> None:
    game = transcribed(app)
    listed = json.loads(run("legal", game, "--as", "umpire", "--for", "red", "--type", "attack", "--json").stdout)
    assert listed and all(c["type"] == "on_behalf" and c["seat"] == "red" and c["command"]["type"] == "attack"
                          for c in listed)
    assert len(listed) == len([c for c in app.legal(game, "red") if c["type"] == "attack"])
    text = run("legal", game, "--as", "umpire", "--for", "red").stdout
    assert "attack for red (entered on its behalf, arbitro §S.5)" in text
    assert "--for austria" in run("legal", "--help").stdout
    refused = run("legal", game, "--as", "blue", "--for", "red", code=2)
    assert "only the umpire (--as umpire) of a transcribed game" in refused.stderr
    generated = app.create("duel", "standard", game_id="g")
    assert "game g is generated" in run("legal", generated, "--as", "umpire", "--for", "red", code=2).stderr


def test_a_seats_export_holds_the_commands_entered_on_its_behalf_and_not_the_others(app: Arbitro) -> None:
    game = transcribed(app)
    app.submit(game, "umpire", {"type": "on_behalf", "seat": "red", "command": ATTACK})
    entered = app.game(game).head_cmd
    app.submit(game, "umpire", {"type": "on_behalf", "seat": "blue", "command": {"type": "guard", "stance": "high"}})
    guarded = entered + 1

    def bodies(seat: str) -> dict[int, Any]:
        lines = [json.loads(line) for line in app.export(game, seat)]
        return {r["cmd"]: r["body"] for r in lines if r["record"] == "command"}

    red, blue = bodies("red"), bodies("blue")
    assert red[entered]["command"] == {"type": "on_behalf", "seat": "red", "command": ATTACK}  # red's own move
    assert red[guarded] is None  # blue's stance is blue's
    assert blue[entered] is None and blue[guarded]["command"]["command"]["stance"] == "high"
    assert bodies("umpire")[entered] is not None
