"""What the service returns: typed results (kernel-design "Engine and service boundaries"). The CLI renders them
as text, and `msgspec.to_builtins` gives their JSON (`--json`), field for field in the order declared here.

Callers read a result's fields as attributes (`result.events`, `status.awaiting.seats`); the dict-style reading
(`result["events"]`) that eased the move from plain-dict results is gone, every caller migrated.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator.randomness import DiceAudit
from arbitro.events.store import Annotation
from arbitro.projections.base import Outcome


class Result(msgspec.Struct, kw_only=True):
    """The base of the service's results: typed fields, read as attributes."""


class Awaiting(Result):
    """Who the game waits for, and for what (`kind`: the step's, "turn", or "game_over" with its `winner`)."""

    seats: list[str]
    kind: str
    rule: str
    prompt: str
    winner: str | None | msgspec.UnsetType = msgspec.UNSET  # set only when the game is over (None: a draw)


class SubmitResult(Result):
    """A command's result: its number, the head after it, its events as the seat may see them, who is awaited next
    and the server's signed receipt. `duplicate`: a retry with a used key, answered with the original result."""

    game: str
    cmd: int
    duplicate: bool
    head: int
    events: list[dict[str, Any]]
    awaiting: Awaiting
    receipt: dict[str, Any]


class Revealed(SubmitResult):
    """The umpire's reveal of the seed before the game's end (arbitro §R.3), and what it exposed to every seat:
    `salted_by` names the entry of reveal.EXPOSES that applies ("salt key": every hidden roll and draw; "seed", a
    game made before the salt key: every hidden fact), `exposed` is its wording, the refusal's without expose_hidden."""

    salted_by: str
    exposed: str


class Status(Result):
    """A game at its head: what it is, where it came from, who is awaited, how its dice are protected."""

    game: str
    ruleset: str
    version: str
    scenario: str
    options: list[str]
    kind: str
    seats: list[str]
    head: int
    origin: dict[str, Any]
    parent: str | None
    seed_revealed: bool
    awaiting: Awaiting
    outcome: Outcome | None
    provisional: list[str]
    non_standard: list[str]  # the position's overrides (adjudicator/overrides.py): not the game as published
    interpretations: dict[str, str]
    dice: DiceAudit
    notices: list[str] = []  # the ruleset's word on the position to the seat asking (Ruleset.notices)
    open_disputes: list[int] = []  # the disputes awaiting the umpire's ruling (arbitro §D; `arbitro disputes`)


class Replayed(Result, kw_only=True):
    """A game's state rebuilt to event `seq`, as `view`'s seat may know it, with the notes it may read up to
    there; the state hash only for the umpire (it covers hidden faces: a seat could test candidate states
    against it, arbitro §V.3)."""

    game: str
    seq: int
    view: dict[str, Any]
    state_hash: str | msgspec.UnsetType = msgspec.UNSET
    notes: list[Annotation]
