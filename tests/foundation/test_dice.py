"""Dice nobody can preview, choose or steer (arbitro §R), tried as an attacker would: a seat (or a host)
forks the game to read the next roll, grinds the seed against the seats' entropy, or hides a re-roll."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.service import Arbitro

from .conftest import Cli, exchange, head

Json = dict[str, Any]


def rolls_of(app: Arbitro, game: str, first: int = 1) -> list[tuple[int, ...]]:
    return [tuple(e["event"]["values"]) for e in app.log(game, "umpire", first) if e["type"] == "dice_rolled"]


def play_exchanges(app: Arbitro, game: str, n: int, entropy: str | None = None) -> None:
    """`n` attacks and guards (one 2d6 roll each), first mixing in `entropy` as red if given."""
    if entropy is not None:
        app.submit(game, "red", {"type": "add_entropy", "entropy": entropy})
    for i in range(n):
        attacker = "red" if app.state_at(game).rules.active == "red" else "blue"
        app.submit(game, attacker, {"type": "attack", "aim": "high"})
        app.submit(game, "blue" if attacker == "red" else "red", {"type": "guard", "stance": "low"})


# --- 1. no fork previews the parent's dice ----------------------------------------------------------
def test_no_fork_of_an_unrevealed_game_shows_the_rolls_the_parent_then_makes(app: Arbitro) -> None:
    """The attack: fork at the head, play the fork to its next rolls (with or without entropy added there),
    then see whether the real game rolls the same. Every way of forking is tried."""
    app.create("duel", "long", game_id="g")
    play_exchanges(app, "g", 1)
    at = app.game("g").head_seq
    # keep_dice at the head of an unrevealed game: refused, by the library and in the engine, nothing made
    with pytest.raises(IllegalCommand, match="seed is not revealed") as refused:
        app.fork("g", at, keep_dice=True)
    assert refused.value.rule == "arbitro §R.3"
    assert app.game("g").head_seq == at and [g.id for g in app.store.games()] == ["g"]
    # a seat cannot fork at all
    for seat in ("red", "blue"):
        with pytest.raises(IllegalCommand, match=f"only the umpire forks a game, not {seat}"):
            app.fork("g", at, by=seat)
    # every fork that can be made draws from a seed the parent never uses
    previews = []
    for entropy in (None, "chosen-in-the-fork", "another try"):
        fork = app.fork("g", at)
        play_exchanges(app, fork, 4, entropy)
        previews.append((entropy, rolls_of(app, fork, 2)))
    # the parent plays on: its rolls match no preview (4 rolls of 2d6: a chance match is 1 in 36**4)
    play_exchanges(app, "g", 4, "chosen-in-the-fork")
    real = rolls_of(app, "g", at + 1)
    assert len(real) == 4
    for _entropy, preview in previews:
        assert len(preview) == 4 and preview != real


def test_a_fork_is_recorded_in_the_parents_log(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    play_exchanges(app, "g", 1)
    at = app.game("g").head_seq
    fork = app.fork("g", at, new_id="f")
    (recorded,) = [e for e in app.log("g", "red") if e["type"] == "game_forked"]
    stored_hash = next(iter(app.store.events("g", at, at))).hash
    assert recorded["event"] == {"type": "game_forked", "child": "f", "at": at, "hash": stored_hash,
                                 "keep_dice": False, "rule": "arbitro §R.3"}
    assert recorded["seat"] == "umpire" and fork == "f"
    assert app.status("f")["origin"]["hash"] == stored_hash
    assert app.verify("g").passed  # the record is re-adjudicated like any engine command


def test_keep_dice_replays_the_parents_rolls_only_after_its_reveal(app: Arbitro) -> None:
    app.create("duel", "long", game_id="g")
    play_exchanges(app, "g", 1)
    at = app.game("g").head_seq
    play_exchanges(app, "g", 2)
    real = rolls_of(app, "g", at + 1)
    app.reveal("g", "post-mortem")
    with pytest.raises(IllegalCommand, match="revealed"):  # the parent rolls no more: nothing left to preview
        play_exchanges(app, "g", 1)
    replay = app.fork("g", at, keep_dice=True)
    play_exchanges(app, replay, 2)
    assert rolls_of(app, replay, 2) == real  # the analysis the option exists for
    app.reveal(replay, "the fork's seed is the parent's, already public")
    assert app.verify(replay).passed


def test_fork_through_the_cli_is_the_umpires_and_refuses_kept_dice_before_the_reveal(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    at = head(run, "g")
    refused = run.json("fork", "g", "--at", str(at), "--as", "red", code=1)
    assert refused["rule"] == "arbitro §R.3" and "only the umpire" in refused["message"]
    refused = run.json("fork", "g", "--at", str(at), "--keep-dice", code=1)
    assert refused["rule"] == "arbitro §R.3" and "reveal the seed first" in refused["message"]
    assert head(run, "g") == at
    fork = run.json("fork", "g", "--at", str(at), "--id", "f")["game"]
    assert fork == "f" and head(run, "g") == at + 1
    assert run.json("log", "g", "--from", str(at + 1))[0]["event"]["child"] == "f"
