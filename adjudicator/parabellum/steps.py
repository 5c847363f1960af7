"""The Para Bellum games' pending decisions on the engine's one stack (arbitro §S.3; docs/ruleset-interface.md,
"Decisions"), written once: each kind of frame a game opens (a retreat, caldiero §12.6 / arrivano §12.6; a leader's
escape, §8.2.3 in both; an assault's choices, §11.4-§14 in both...) is a `Procedure`, whose `options` (legal() while
the frame is on top) and `answer` are the game's lister and handler for that kind, named in one table per game
(`procedures`). After an answer the game's procedure goes on as after any command: the handler says how."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from arbitro.adjudicator.decisions import Decision, Step
from arbitro.events import core
from arbitro.projections.game import GameState

# The answers a frame lists to a seat (the game's lister: state, frame, seat).
Lister = Callable[[GameState[Any], core.Frame[Any], str], list[dict[str, Any]]]
# Carries out an answer the engine accepted (one of the listed options), or rejects it.
Handler = Callable[[Any, core.Frame[Any], Any], None]


def nothing(state: GameState[Any], frame: core.Frame[Any], seat: str) -> list[dict[str, Any]]:
    """A frame nobody answers (the assault in progress waiting below the decisions it asked)."""
    return []


class Procedure(Step[Any]):
    """One kind of a game's pending decisions: its lister and its handler."""

    def __init__(self, kind: str, lister: Lister, handler: Handler) -> None:
        self.kind = kind  # type: ignore[misc]  # one instance per kind: the steps differ only by what they call
        self.lister, self.handler = lister, handler

    def options(self, state: GameState[Any], frame: core.Frame[Any], seat: str) -> list[dict[str, Any]]:
        return self.lister(state, frame, seat)

    def answer(self, ctx: Decision, frame: core.Frame[Any], command: Any) -> None:
        self.handler(ctx, frame, command)


def procedures(table: Mapping[str, tuple[Lister, Handler]]) -> dict[str, Step[Any]]:
    """A game's steps from its table: kind -> (lister, handler)."""
    return {kind: Procedure(kind, lister, handler) for kind, (lister, handler) in table.items()}
