"""Provable rolls, opted in per game (derivation arbitro-random/2, docs/engine-rules.md §R.5): the genesis commits to
the Merkle root over the per-roll keys before anything is rolled, every roll is made under its own key, a game past
its committed keys refuses to roll (a fork commits new ones), and a game made without the option is as it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.errors import BadInput
from arbitro.adjudicator.randomness import DiceUnavailable, SeededSupply
from arbitro.adjudicator.service import Arbitro
from arbitro.adjudicator.verify import _check_roll_keys
from arbitro.events import core
from arbitro.events import random as rnd
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.game import CoreState

from .conftest import Cli, ended

SEED, SALT_KEY = "5e" * 32, "a1" * 32


def played(provable: bool, game: str = "g") -> Arbitro:
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-01-01T00:00:00+00:00")
    app.create("duel", "standard", game_id=game, seed=SEED, salt_key=SALT_KEY, provable_rolls=provable)
    app.submit(game, "red", {"type": "attack", "aim": "high"})
    app.submit(game, "blue", {"type": "guard", "stance": "low"})
    return app


def genesis(app: Arbitro, game: str = "g") -> dict[str, Any]:
    return app.log_by_event(game, "umpire")[0]["event"]  # type: ignore[no-any-return]


def randoms(app: Arbitro, game: str = "g") -> list[dict[str, Any]]:
    return [e["event"] for e in app.log_by_event(game, "umpire") if e["type"] in ("dice_rolled", "items_drawn")]


def test_a_game_made_without_the_option_commits_no_keys_and_rolls_by_arbitro_random_1() -> None:
    app = played(False)
    assert "roll_key_root" not in genesis(app) and "roll_keys" not in genesis(app)
    rolled = [r for r in randoms(app) if r["type"] == "dice_rolled"]
    assert rolled and all(tuple(r["values"]) == rnd.roll(SEED, "", r["index"], r["count"], r["sides"]) for r in rolled)


def test_a_provable_game_commits_the_root_over_its_seeds_keys_and_rolls_each_under_its_own_key() -> None:
    app = played(True)
    created = genesis(app)
    assert created["roll_key_root"] == rnd.roll_key_root(SEED, 4096) and created["roll_keys"] == 4096
    made = randoms(app)
    assert [r["type"] for r in made] == ["items_drawn", "items_drawn", "dice_rolled"]
    for r in made:
        key = rnd.roll_key(SEED, r["index"])
        again = (rnd.keyed_roll(key, "", r["index"], r["count"], r["sides"]) if r["type"] == "dice_rolled" else
                 rnd.keyed_draw(key, "", r["index"], r["population"], len(r["drawn"])))
        assert list(again) == r.get("values", r.get("drawn"))
    # the same seed and commands under arbitro-random/1 give other dice: the derivation changed, not the seed
    assert randoms(played(False)) != made


def test_a_provable_games_end_is_verified_against_its_root() -> None:
    app = played(True)
    ended(app, "g")
    report = app.verify("g")
    checks = {c.name: (c.status, c.detail) for c in report.checks}
    assert report.passed and checks["roll keys"][0] == "passed" and "arbitro-random/2" in checks["roll keys"][1]
    assert "roll keys" not in {c.name for c in (lambda a: (ended(a, "g"), a.verify("g"))[1])(played(False)).checks}


def test_a_root_that_is_not_the_revealed_seeds_fails_verification() -> None:
    forged = msgspec.convert({**genesis(played(True)), "roll_key_root": rnd.roll_key_root("00" * 32)}, core.GameCreated)
    checks: list[Any] = []
    _check_roll_keys(forged, SEED, checks)
    assert checks[0].status == "failed" and "arbitro §R.5" in checks[0].detail


def test_a_transcribed_game_rolls_nothing_so_it_has_nothing_to_prove() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    with pytest.raises(BadInput, match=r"transcribed game rolls nothing.*arbitro §R\.5"):
        app.create("duel", "standard", transcribed=True, provable_rolls=True)


@pytest.mark.parametrize("kind", ["roll", "draw"])
def test_no_roll_is_made_past_the_committed_keys_and_the_refusal_says_fork(kind: str) -> None:
    """arbitro §R.5 (4): a key committed after the mix is known could be chosen to suit it, so a game past its
    committed keys rolls no more; a fork draws a new seed and commits new keys."""
    supply, state = SeededSupply(SEED, keys=8), CoreState(seq=40, rolls=8)
    assert supply.roll(state, 7, 2, 6, "test") == (rnd.roll(SEED, "", 7, 2, 6, rnd.DERIVATION_KEYED), "seed")
    with pytest.raises(DiceUnavailable, match=r"random indices 0 to 7 .*index 8.*continue in a fork") as refused:
        if kind == "roll":
            supply.roll(state, 8, 2, 6, "test")
        else:
            supply.draw(state, 8, ("a", "b"), 1, "test")
    assert refused.value.rule == "arbitro §R.5" and refused.value.explained("g", 40).endswith("arbitro fork g --at 40")


def test_a_fork_of_a_provable_game_commits_the_keys_of_its_own_seed() -> None:
    app = played(True)
    child = app.fork("g", app.game("g").head_seq, new_id="child")
    created, seed = genesis(app, child), app.game(child).seed
    assert seed is not None and seed != SEED
    assert created["roll_key_root"] == rnd.roll_key_root(seed) != genesis(app)["roll_key_root"]
    plain = played(False)
    assert "roll_key_root" not in genesis(plain, plain.fork("g", plain.game("g").head_seq, new_id="child"))


def test_a_recorded_genesis_whose_root_is_not_its_seeds_is_not_started_again() -> None:
    created = msgspec.convert({**genesis(played(True)), "roll_key_root": rnd.roll_key_root("00" * 32)}, core.GameCreated)
    with pytest.raises(BadInput, match=r"roll keys that are not its seed's \(arbitro §R\.5\)"):
        Arbitro(SQLiteStore(":memory:")).start_recorded(created, SEED, "again", salt_key=SALT_KEY)


def test_arbitro_new_provable_rolls(run: Cli, app: Arbitro) -> None:
    game = run.json("new", "duel", "standard", "--provable-rolls")["game"]
    assert genesis(app, game)["roll_keys"] == 4096
    assert "roll_key_root" not in genesis(app, run.json("new", "duel", "standard")["game"])
    assert "--provable-rolls" in run("new", "--help").stdout
