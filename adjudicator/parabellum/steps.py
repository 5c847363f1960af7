"""The Para Bellum games' pending decisions on the engine's one stack (arbitro §S.3; docs/ruleset-interface.md,
"Decisions"), written once: each kind of frame a game opens (a retreat, caldiero §12.6 / arrivano §12.6; a leader's
escape, §8.2.3 in both; an assault's choices, §11.4-§14 in both...) is a `Procedure`, whose `options` (legal() while
the frame is on top), `answer` and `refusal` are the game's lister, handler and refusal for that kind, named in one
table per game (`procedures`). The engine hands the handler only an answer the lister listed; one it did not list is
refused with the kind's refusal (its rule and what is permitted), or, for a kind that gives none, by the handler's own
checks run on a scratch copy. After an answer the game's procedure goes on as after any command: `after` says how."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from arbitro.adjudicator.decisions import Decision, Step
from arbitro.adjudicator.parabellum.act import Act, Game, refuse
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import core
from arbitro.projections.game import GameState

Listed = list[dict[str, Any]]
# The answers a frame lists to a seat (state, frame, seat).
Lister = Callable[[GameState[Any], core.Frame[Any], str], Listed]
# The same, read on the position alone (most kinds): `of_world` makes it a Lister.
Listing = Callable[[World, core.Frame[Any]], Listed]
# Carries out an answer the engine accepted (one of the listed options), in the procedure's context.
Handler = Callable[[Act[Any], core.Frame[Any], Any], None]
# Why an answer of the kind awaited that the lister did not list (its stored form) is refused, given the options
# listed: the rule, and what is permitted instead.
Refusal = Callable[[World, core.Frame[Any], dict[str, Any], Listed], tuple[Rule | str, str]]


def nothing(state: GameState[Any], frame: core.Frame[Any], seat: str) -> Listed:
    """A frame nobody answers (the assault in progress waiting below the decisions it asked)."""
    return []


def unanswered(a: Act[Any], frame: core.Frame[Any], command: Any) -> None:
    """The handler of a frame nobody answers: it lists nothing, so the engine never hands it an answer."""
    refuse(frame.rule, "nothing is asked here: the procedure goes on when the decisions it asked are answered")


def of_world(game: Game, listing: Listing) -> Lister:
    """A lister that reads the position with the readings in force: the World the answer's procedure then takes over
    (ParaBellumRuleset.world_at)."""
    return lambda state, frame, seat: listing(game.world_at(state), frame)


class Procedure(Step[Any]):
    """One kind of a game's pending decisions: its lister, its handler (then `after`) and its refusal."""

    def __init__(self, game: Game, after: Callable[[Act[Any]], None], kind: str, lister: Lister, handler: Handler,
                 refuse: Refusal | None = None, takes: frozenset[str] = frozenset()) -> None:
        self.kind = kind  # type: ignore[misc]  # one instance per kind: the steps differ only by what they call
        self.game, self.after, self.lister, self.handler, self.refuse = game, after, lister, handler, refuse
        self.takes = takes

    def options(self, state: GameState[Any], frame: core.Frame[Any], seat: str) -> Listed:
        return self.lister(state, frame, seat)

    def answer(self, ctx: Decision, frame: core.Frame[Any], command: Any) -> None:
        act = Act(ctx, self.game)  # type: ignore[arg-type]  # the engine's Decision, as decisions.Decision sees it
        self.handler(act, frame, command)
        self.after(act)

    def refusal(self, state: GameState[Any], frame: core.Frame[Any], command: dict[str, Any],
                options: Listed) -> tuple[str, str] | None:
        if self.refuse is None:
            return None
        rule, why = self.refuse(self.game.world_at(state), frame, command, options)
        return str(rule), why


Row = tuple[Lister, Handler] | tuple[Lister, Handler, Refusal] | tuple[Lister, Handler, Refusal, frozenset[str]]
UNANSWERED: Row = (nothing, unanswered)  # the assault in progress below the decisions it asked, and the like


def procedures(game: Game, after: Callable[[Act[Any]], None], table: Mapping[str, Row]) -> dict[str, Step[Any]]:
    """A game's steps from its table: kind -> (lister, handler[, refusal[, the answer types the kind takes beyond
    those listed: decisions.Step.takes]]); `after` runs after every handler (the
    game goes on as after any command)."""
    return {kind: Procedure(game, after, kind, *row) for kind, row in table.items()}
