"""The kit must fail a ruleset that breaks its contract: a leaky view, and a legal() that lies."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator import registry
from tests.foundation.duel import DuelRuleset, DuelState

from arbitro.adjudicator.selfplay import SelfPlay
from .leaks import leaked
from .test_conformance import Played


class LeakyDuel(DuelRuleset):
    name = "leakyduel"

    def view(self, state: DuelState, seat: str) -> dict[str, Any]:
        return {**super().view(state, seat), "all_cards": dict(state.cards)}


class LyingDuel(DuelRuleset):
    name = "lyingduel"

    def legal(self, state: DuelState, seat: str) -> list[dict[str, Any]]:
        moves = super().legal(state, seat)
        return moves + [{"type": "play_card"}] if moves and state.played.get(seat) else moves


registry.register("leakyduel", "tests.conformance.test_kit_catches_faults:LeakyDuel")
registry.register("lyingduel", "tests.conformance.test_kit_catches_faults:LyingDuel")


def test_the_leak_check_catches_a_view_that_shows_the_enemy_card() -> None:
    played = Played("leakyduel", "standard", seed="leaky")
    assert played.leaks, "the kit did not notice a view serving the other seat's card"
    assert "in its view" in played.leaks[0]


def test_self_play_catches_a_legal_listing_that_decide_rejects() -> None:
    from arbitro.adjudicator.service import Arbitro
    from arbitro.events.sqlite import SQLiteStore

    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("lyingduel", "standard")
    always_card_after_play = SelfPlay(app, game, chooser=lambda seat, legal, step: legal[-1])
    with pytest.raises(AssertionError, match="was rejected"):
        always_card_after_play.play(50)


def test_the_leak_oracle_matches_ids_as_words() -> None:
    """One id inside another is not a leak ("6e-legere" in "16e-legere"); the id itself, however it is quoted or
    wherever it stands, is; served values are searched as their JSON."""
    secrets = {"6e-legere", "0813"}
    assert leaked('{"unit": "16e-legere", "hex": "08131"}', secrets) == []
    assert leaked('{"unit": "6e-legere"}', secrets) == ["6e-legere"]
    assert leaked("moved 6e-legere to 0813.", secrets) == ["0813", "6e-legere"]
    assert leaked({"path": ["0812", "0813"]}, secrets) == ["0813"]
