"""Both games' decisions are typed frames on the engine's one decision stack (issue 18, arbitro §S.3): played
through the service, every frame a game opens carries a context the ruleset declares (never a dict), legal()
of the seat it awaits is exactly its step's options and the other seats have nothing to do, and a retreat (both
books' §12.6) is one of those frames."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator import registry
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro
from arbitro.events import core
from arbitro.events import random as randomness
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.game import awaited

MAX_STEPS = 1500  # the seeded self-play meets a retreat or an escape well before this in both games
# The self-play's seed per game: Arrivano's "frames-arrivano" game of Campotenese opens no frame at all in its twelve
# turns since 1.31.0 (a step with nothing left to do ends by itself, so the self-play's picks fall elsewhere).
SEEDS = {"caldiero": "frames-caldiero", "arrivano": "frames-arrivano-1"}


def test_every_decision_is_a_typed_frame_whose_options_are_legal(variant: Variant, monkeypatch: Any) -> None:
    ruleset = registry.get(variant.book)
    steps = ruleset.steps()
    app = Arbitro(SQLiteStore(":memory:"))
    scenario = next(iter(ruleset.scenarios()))
    monkeypatch.setattr(randomness, "new_seed", lambda: "ab" * 32)  # fixed dice: the same game on every run
    monkeypatch.setattr(randomness, "new_salt_key", lambda: "a1" * 32)  # and its salt key
    game = app.create(variant.book, scenario, ())
    seen: set[str] = set()

    def check(seat: str, command: dict[str, Any], result: Any) -> None:
        top = awaited(app.state_at(game).core)
        if top is None or type(top.ctx) in core.ENGINE_CONTEXTS:
            return
        assert type(top.ctx) in ruleset.Contexts and top.kind in steps, top
        state = app.state_at(game)
        for other in ruleset.seats(state.rules):
            expected = steps[top.kind].options(state, top, other) if other in top.seats else []
            assert app.legal(game, other) == expected, (top.kind, other)
        seen.add(top.kind)

    play = SelfPlay(app, game, seed=SEEDS[variant.book], on_step=check)
    while play.steps < MAX_STEPS and not seen & {"retreat", "escape"} and play.step():
        pass
    assert seen & {"retreat", "escape"}, f"no retreat or escape frame in {play.steps} steps: {sorted(seen)}"
