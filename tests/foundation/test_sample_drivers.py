"""The sample-game drivers play the same game on every run (bench/drivers: `sample_seed`, `SampleClock`), and a
host may give `Arbitro.create` its own seed only in the one form a seed has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.base import UMPIRE
from bench.drivers import SampleClock, sample_salt_key, sample_seed, write_log
from bench.drivers.caricat import Chooser


def _sample(name: str, tmp_path: Path, steps: int = 40) -> str:
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=SampleClock())
    game = app.create("caricat", "pastrengo", (), game_id=name, seed=sample_seed(name), salt_key=sample_salt_key(name))
    SelfPlay(app, game, seed=name, chooser=Chooser(app, game, name)).play(steps)
    write_log(tmp_path / f"{name}.jsonl", app, game)
    return (tmp_path / f"{name}.jsonl").read_text(encoding="utf-8")


def _dice(export: str) -> list[str]:
    return re.findall(r'"values":\[[0-9,]*\]', export)


def test_a_driver_plays_its_sample_game_again_byte_for_byte(tmp_path: Path) -> None:
    first = _sample("caricat-sample", tmp_path)
    assert len(_dice(first)) >= 3  # dice were rolled, so the seed decided something
    assert _sample("caricat-sample", tmp_path) == first
    assert _dice(_sample("caricat-other", tmp_path)) != _dice(first)  # another sample game has its own dice


def test_a_given_seed_is_the_games_committed_and_revealed_seed() -> None:
    seed = sample_seed("any")
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("marengo", "marengo", seed=seed)
    exported = "\n".join(app.export(game, UMPIRE, with_seed=True))
    assert rnd.commitment(seed) in exported and seed in exported


@pytest.mark.parametrize("bad", ["", "ab" * 31, "AB" * 32, "zz" * 32, "ab" * 33, " " + "ab" * 31 + "a"])
def test_a_seed_not_64_lowercase_hex_digits_is_refused_before_any_game_exists(bad: str) -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    with pytest.raises(ValueError, match="64 lowercase hex digits"):
        app.create("marengo", "marengo", seed=bad)
    assert list(app.games()) == []


def test_the_sample_clock_reads_like_the_service_clock_and_moves_on() -> None:
    clock = SampleClock()
    assert [clock(), clock()] == ["2026-01-01T00:00:00+00:00", "2026-01-01T00:00:01+00:00"]


def test_a_second_self_play_of_a_game_plays_on_rather_than_replaying_the_first_ones_keys() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("caricat", "pastrengo", (), seed=sample_seed("twice"))
    assert SelfPlay(app, game, seed="same").play(5) == 5
    assert SelfPlay(app, game, seed="same").play(5) == 5  # its step counter starts again; its keys do not repeat
    assert app.game(game).head_cmd == 10
