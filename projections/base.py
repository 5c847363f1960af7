"""The projection half of a ruleset: how its events fold into its state and what each seat may see.

`arbitro.adjudicator.ruleset.Ruleset` extends this with the deciding half (commands, legality). Keeping
the fold here lets replay, views and verification run without any adjudication code.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

S = TypeVar("S", bound=msgspec.Struct)

UMPIRE = "umpire"


def reads_chain(seat: str, chain: str) -> bool:
    """Whether `seat` may read the notes of `chain` ("public", or "private:WRITER"): the public chain, every seat; a
    private one, its writer and the umpire, who holds the whole record and may cite it in a dispute (arbitro §D.7)."""
    return chain == "public" or seat in (chain.removeprefix("private:"), UMPIRE)

CITATION = re.compile(r"^\S+ §\S+")  # a purpose opens with the rule it applies: "arrivano §13.1 efficiency test..."


def rule_of(purpose: str) -> str:
    """The rule a roll's purpose cites ("arrivano §13.1"), without what it was for."""
    match = CITATION.match(purpose)
    return match.group(0) if match else ""


def unexamined_roll(data: dict[str, Any]) -> dict[str, Any]:
    """A roll about pieces a seat may not examine, as the table shows it: a die was rolled under a rule (and its
    faces, unless the roll is hidden), not what it was for, where, nor with which values and modifiers."""
    return {**data, "purpose": rule_of(data.get("purpose", "")), "detail": {}, "about": [], "hidden": True}


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a game ended."""

    winner: str | None  # a seat, or None for a draw
    reason: str
    rule: str  # citation: "marengo §14"


class RulesetProjection(ABC, Generic[S]):
    name: ClassVar[str]
    version: ClassVar[str]
    State: ClassVar[type[msgspec.Struct]]
    Event: ClassVar[Any]  # a Union of tagged msgspec Structs (events/<ruleset>.py)
    # The contexts of the decision frames this ruleset opens (subclasses of events.core.FrameContext, each with
    # its own tag): frames are stored typed, so the fold must know them to decode (arbitro §S.3).
    Contexts: ClassVar[tuple[type, ...]] = ()

    @abstractmethod
    def apply(self, state: S, event: Any) -> S:
        """Fold one ruleset event. Total and unchecked; may mutate `state` (a private copy) and return it."""

    @abstractmethod
    def seats(self, state: S) -> tuple[str, ...]:
        """The playing sides (the engine adds "umpire")."""

    @abstractmethod
    def view(self, state: S, seat: str) -> dict[str, Any]:
        """What `seat` may know of `state`, built from an allow-list. The umpire sees everything."""

    def redact(self, event: Any, seat: str, state: S) -> dict[str, Any] | None:
        """The event as served to `seat` (state: the state after it). None hides it entirely.
        Default: events are public."""
        return msgspec.to_builtins(event)  # type: ignore[no-any-return]

    def redact_frame(self, frame: Any, seat: str, state: S) -> dict[str, Any]:
        """A frame this ruleset opened (as builtins, inside decision_opened/decision_revised) as served to `seat`.
        Default: public, as the prompt that names who is awaited is."""
        return msgspec.to_builtins(frame)  # type: ignore[no-any-return]

    def unexaminable(self, state: S, seat: str, places: Iterable[str]) -> frozenset[str]:
        """Those of `places` (map hexes or areas; any other string is ignored) whose pieces `seat` may not examine
        now: fog of war. Rolls about them are served without purpose and detail, and routes without them.
        Default: every place may be examined."""
        return frozenset()

    def redact_random(self, data: dict[str, Any], seat: str, state: S) -> dict[str, Any]:
        """A roll or draw (the engine's event as builtins, its values already dropped if `visible_to` leaves `seat`
        out) as served to `seat`; `state`: the state after it. Never None: that a roll was made, its index and the
        game's count of rolls are public (engine-rules §V.4; views.served_random refuses None). Default: a roll about
        places `seat` may not examine keeps only what the table shows (unexamined_roll)."""
        about = data.get("about") or ()
        if about and self.unexaminable(state, seat, about):
            return unexamined_roll(data)
        return data

    def note_interpretations(self, state: S, chosen: dict[str, str]) -> S:
        """The umpire's readings in force changed (a ruling, a position, a fork): `chosen` maps the name of
        each interpretation overruled to its reading. A ruleset that needs them outside `decide` (in `legal`
        or `pending`, which see only the state) keeps them in its state here. Default: ignore."""
        return state

    def secrets(self, state: S, seat: str) -> set[str]:
        """Strings that must appear nowhere in what is served to `seat` now (leak tests search for them)."""
        return set()

    def is_irreversible(self, event: Any) -> bool:
        """True if the event reveals hidden information: a seat can no longer take back freely, where every seat is
        served the event (engine-rules §U.1; one served to some seats alone counts through `may_reveal`)."""
        return False

    def may_reveal(self, event: Any, state: S) -> bool:
        """True if `event`, of a seat's own command, may have revealed to that seat alone what it may not know, by a
        test every seat can make alike (the event's type, the game's public options; `state`: after it). Its
        take-back asks the other seats' consent whether or not anything was revealed: they cannot check what the
        sender saw, and an answer judged on it would tell them (engine-rules §U.1). Default: nothing is revealed to
        one seat alone."""
        return False

    def is_checkpoint(self, event: Any) -> bool:
        """True if a state hash should be recorded after this event (e.g. at the end of each turn)."""
        return False

    def outcome(self, state: S) -> Outcome | None:
        return None
