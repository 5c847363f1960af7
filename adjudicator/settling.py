"""Settling disputes from the log (issue 16; docs/engine-rules.md §D): the disputes of a game as a seat may read
them, what a seat had been served up to an event (who knew what, when), and an amendment that replays the log with
one command replaced. Functions over the application (`Arbitro`), which they take as their first argument, so the
service keeps to playing and reading a game."""

from __future__ import annotations

from typing import Any, Protocol

from arbitro.adjudicator.engine import Adjudicator
from arbitro.events.records import GameRecord
from arbitro.projections.disputes import Dispute, dispute_records, fold_disputes
from arbitro.projections.fold import Replayer


class App(Protocol):
    """What these functions ask of the application (adjudicator/service.Arbitro)."""

    def game(self, game_id: str) -> GameRecord: ...
    def check_seat(self, game: GameRecord, seat: str) -> None: ...
    def adjudicator(self, ruleset: str) -> Adjudicator: ...
    def replayer(self, game_id: str) -> Replayer: ...


def disputes(app: App, game_id: str, seat: str) -> list[Dispute]:
    """The game's disputes, as `seat` is served their events (a private message's text is its writer's and the
    umpire's only, arbitro §D.4), in the order they were opened."""
    app.check_seat(app.game(game_id), seat)
    return fold_disputes(dispute_records(app.replayer(game_id).bodies(), seat))
