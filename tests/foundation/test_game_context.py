"""One GameContext for a game, however it is judged (ctx, nineteenth session). It was built in three places with
different fields: verify's replay named no game id (refusals name it) and gave an old kept-dice fork the default
"no seed held" reason; the service's context of such a fork dropped its entropy seats and its salting; the
creation's named no game id and no public dice. `GameContext.of(created, ...)` is now the one constructor; these
tests pin that a game is judged again by verify under the context it was played under, field for field, and that
its opening is judged under that context too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.creation import genesis
from arbitro.adjudicator.engine import Adjudicator, GameContext
from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from tests.foundation.conftest import ended

SEED = "5e" * 32


@pytest.fixture
def judged(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[GameContext]]:
    """Every context a game's opening or a command is judged under, in order (the service's and verify's alike)."""
    seen: list[GameContext] = []
    decide, open_ = Adjudicator.decide, Adjudicator.open

    def decided(self: Adjudicator, state: Any, seat: str, raw: Any, game: GameContext, *a: Any, **kw: Any) -> Any:
        seen.append(game)
        return decide(self, state, seat, raw, game, *a, **kw)

    def opened(self: Adjudicator, created: Any, supply: Any, game: GameContext, history: Any) -> Any:
        seen.append(game)
        return open_(self, created, supply, game, history)

    monkeypatch.setattr(Adjudicator, "decide", decided)
    monkeypatch.setattr(Adjudicator, "open", opened)
    yield seen


def replayed(app: Arbitro, game: str, judged: list[GameContext]) -> list[GameContext]:
    """The contexts verify judges `game` under (verify passes: not only the contexts agree)."""
    judged.clear()
    report = app.verify(game)
    assert report.passed, [(c.name, c.detail) for c in report.checks if c.status == "failed"]
    assert judged, "verify judged the game's commands again"
    return list(judged)


def test_a_finished_game_is_judged_again_under_the_context_it_was_played_under(
        app: Arbitro, judged: list[GameContext]) -> None:
    """Both secrets are revealed at the end (arbitro §R.3), so verify holds what the service held: the contexts are
    equal whole, the game's id (which refusals name) and its entropy seats (§R.2) included; the opening too."""
    game = app.create("duel", "standard", ["short"], game_id="g", seat_entropy=True)
    for seat in ("red", "blue"):
        app.submit(game, seat, {"type": "commit_entropy", "commitment": rnd.entropy_commitment(seat)})
    for seat in ("red", "blue"):
        app.submit(game, seat, {"type": "reveal_entropy", "entropy": seat})
    ended(app, game)
    played = app.context(app.game(game))
    assert (played.entropy_seats, played.game_id, played.salt_key) == (("red", "blue"), "g", app.game(game).salt_key)
    assert judged and all(context == played for context in judged), "created and played under one context"
    assert all(context == played for context in replayed(app, game, judged))


def test_forks_are_judged_again_under_their_own_context(app: Arbitro, judged: list[GameContext]) -> None:
    """A fork keeping the revealed dice (its dice public, §R.3) and one with fresh dice, each played to its end."""
    app.create("duel", "standard", ["short"], game_id="p")
    app.submit("p", "red", {"type": "end_turn"})
    app.reveal("p", "analysis", seat="umpire", expose_hidden=True)
    at = app.game("p").head_seq
    for fork, keep in (("kept", True), ("fresh", False)):
        judged.clear()
        app.fork("p", at, keep_dice=keep, new_id=fork)
        ended(app, fork)
        played = app.context(app.game(fork))
        assert (played.dice_public, played.game_id, played.salted_by_seed) == (keep, fork, False)
        parents, opened_and_played = judged[:1], judged[1:]  # the parent records the fork first (`fork` command)
        assert parents == [app.context(app.game("p"))]
        assert opened_and_played and all(context == played for context in opened_and_played)
        assert all(context == played for context in replayed(app, fork, judged))


def test_a_game_whose_seed_alone_was_revealed_is_judged_again_without_its_salt_key(
        app: Arbitro, judged: list[GameContext]) -> None:
    """Mid-game, after the umpire's reveal: verify has the seed but never the salt key, which only the end reveals
    (§R.3); in every other field the contexts agree."""
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "end_turn"})
    app.reveal("g", "a disputed roll", seat="umpire", expose_hidden=True)
    played = app.context(app.game("g"))
    again = replayed(app, "g", judged)
    assert all(context == msgspec.structs.replace(played, salt_key=None) for context in again)


def test_an_old_fork_that_kept_unrevealed_dice_keeps_its_fields_and_its_reason(
        app: Arbitro, judged: list[GameContext]) -> None:
    """A kept-dice fork made before §R.3 required the parent's reveal first (no `seed_public`) never reveals the
    seed it shares: both sides hold none, refuse a reveal with the same reason, and still read the rest (its
    salting by seed, a game made before the salt key) from its genesis."""
    app.create("duel", "standard", game_id="parent")
    at = next(iter(app.store.events("parent", 1, 1)))
    made = genesis(registry.get("duel"), SEED, "standard", salt_key="4b" * 32)
    old = msgspec.structs.replace(made, salt_key_commitment=msgspec.UNSET, origin={
        **made.origin, "fork": "parent", "at": 1, "cmd": 0, "hash": at.hash, "keep_dice": True})
    game = app.start_recorded(old, SEED, "old")  # its parent read from its origin
    app.submit(game, "red", {"type": "end_turn"})
    played = app.context(app.game(game))
    assert played.seed is None and played.salted_by_seed and "kept the dice of game parent" in played.no_seed_reason
    assert all(context == played for context in replayed(app, game, judged))
