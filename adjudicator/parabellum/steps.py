"""The Para Bellum games' pending decisions on the engine's one stack (arbitro §S.3; docs/ruleset-interface.md,
"Decisions"), written once: each kind of frame a game opens (a retreat, caldiero §12.6 / arrivano §12.6; a leader's
escape, §8.2.3 in both; an assault's choices, §11.4-§14 in both...) is a `Procedure`, whose `options` (legal() while
the frame is on top), `answer` and `refusal` are the game's lister, handler and refusal for that kind, named in one
table per game (`procedures`). The engine hands the handler only an answer the lister listed; one it did not list is
refused with the kind's refusal (its rule and what is permitted), or, for a kind that gives none, by the handler's own
checks run on a scratch copy. After an answer the game's procedure goes on as after any command: `after` says how."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from arbitro.adjudicator.decisions import Decision, Step, close_frame
from arbitro.adjudicator.parabellum.act import Act, Game, refuse
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import core
from arbitro.projections.game import GameState

Listed = list[dict[str, Any]]
# The answers a frame lists, read on the position with the readings in force (ParaBellumRuleset.world_at): the World
# the answer's procedure then takes over.
Listing = Callable[[World, core.Frame[Any]], Listed]
# Carries out an answer the engine accepted (one of the listed options, the game's typed command), in the procedure's
# context.
Handler = Callable[[Act[Any], core.Frame[Any], Any], None]
# Why an answer of the kind awaited that the lister did not list (its stored form) is refused, given the options
# listed: the rule, and what is permitted instead.
Refuser = Callable[[World, core.Frame[Any], dict[str, Any], Listed], tuple[Rule | str, str]]


class Row(NamedTuple):
    """One kind of a game's pending decisions, a row of its table (`procedures`)."""

    listing: Listing
    handler: Handler
    refusal: Refuser | None = None  # None: the handler's own checks, run on a scratch copy, give the reason
    takes: frozenset[str] = frozenset()  # the answer types the kind takes beyond those listed: decisions.Step.takes
    # The frame is closed before the handler runs; False: the handler revises or closes it (after its own refusals)
    closes: bool = True


def nothing(w: World, frame: core.Frame[Any]) -> Listed:
    """A frame nobody answers (the assault in progress waiting below the decisions it asked)."""
    return []


def unanswered(a: Act[Any], frame: core.Frame[Any], command: Any) -> None:
    """The handler of a frame nobody answers: it lists nothing, so the engine never hands it an answer."""
    refuse(frame.rule, "nothing is asked here: the procedure goes on when the decisions it asked are answered")


class Procedure(Step[Any]):
    """One kind of a game's pending decisions: its row's listing, handler (then `after`) and refusal."""

    def __init__(self, game: Game, after: Callable[[Act[Any]], None], kind: str, row: Row) -> None:
        self.kind = kind  # type: ignore[misc]  # one instance per kind: the steps differ only by what they call
        self.game, self.after, self.row, self.takes = game, after, row, row.takes

    def options(self, state: GameState[Any], frame: core.Frame[Any], seat: str) -> Listed:
        return self.row.listing(self.game.world_at(state), frame)

    def answer(self, ctx: Decision, frame: core.Frame[Any], command: Any) -> None:
        act = Act(ctx, self.game)  # type: ignore[arg-type]  # the engine's Decision, as decisions.Decision sees it
        if self.row.closes:
            close_frame(ctx, frame)
        self.row.handler(act, frame, command)
        self.after(act)

    def refusal(self, state: GameState[Any], frame: core.Frame[Any], command: dict[str, Any],
                options: Listed) -> tuple[str, str] | None:
        if self.row.refusal is None:
            return None
        rule, why = self.row.refusal(self.game.world_at(state), frame, command, options)
        return str(rule), why


UNANSWERED = Row(nothing, unanswered, closes=False)  # the assault in progress below the decisions it asked, and the like


def procedures(game: Game, after: Callable[[Act[Any]], None], table: Mapping[str, Row]) -> dict[str, Step[Any]]:
    """A game's steps from its table of rows, kind -> Row; `after` runs after every handler (the game goes on as after
    any command)."""
    return {kind: Procedure(game, after, kind, row) for kind, row in table.items()}
