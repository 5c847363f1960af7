"""The ruleset interface: what a game's rules give the engine, and the Decision context `decide` works in.

A ruleset = the projection half (projections.base.RulesetProjection: state, fold, views, redaction) plus
the deciding half here: scenarios, set-up, who may act, pending decisions, legal commands, decide.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NoReturn, TypeVar

import msgspec
import pydantic

from arbitro.adjudicator.datafiles import data_digest, files_digest
from arbitro.adjudicator.errors import BadInput, BadPosition, IllegalCommand, MalformedCommand
from arbitro.adjudicator.randomness import NeedRandom
from arbitro.events import core
from arbitro.projections.base import RulesetProjection

from arbitro.adjudicator.decisions import Step

if TYPE_CHECKING:
    from arbitro.adjudicator.randomness import Supply
    from arbitro.projections.fold import Fold
    from arbitro.projections.game import GameState

S = TypeVar("S", bound=msgspec.Struct)


class CommandModel(pydantic.BaseModel):
    """The base of every ruleset's command models: a command as a seat sends it, unknown fields rejected (so a
    misspelt field is an error, never silently ignored), immutable once parsed."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)


class Rule(msgspec.Struct, frozen=True):
    """A citation into a rulebook: Rule("marengo", "8.3", "road movement"); str() -> "marengo §8.3"."""

    game: str
    section: str
    summary: str = ""

    def __str__(self) -> str:
        return f"{self.game} §{self.section}"


class Scenario(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    title: str
    seats: tuple[str, ...]
    options: tuple[str, ...] = ()  # optional rules selectable at creation
    description: str = ""


class Interpretation(msgspec.Struct, frozen=True, kw_only=True):
    """A reading of an ambiguous rule. The default is the ruleset's; an umpire ruling may choose another."""

    name: str
    default: str
    choices: tuple[str, ...]
    rule: str  # citation
    phrase: str  # the short Italian phrase the reading rests on
    explanation: str


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """A decision the game awaits from one seat before anything else may happen. When `options` is given it
    is the complete list of answers, and the engine refuses anything else."""

    seat: str
    kind: str
    rule: str
    prompt: str
    options: list[dict[str, Any]] | None = None


class Decision(Generic[S]):
    """The context of one `decide` call: a state of its own that every emitted event updates at once (so later
    checks see earlier effects), and the game's random source. It is the engine's to change: a copy, or the
    caller's own state when the caller gives it up (`decide(..., consume=True)`: submit and verify), so a ruleset
    keeps no reference to `ctx.state`'s objects after `decide` returns."""

    def __init__(
        self, ruleset: "Ruleset[S]", fold: "Fold", game: "GameState[S]", seat: str, next_seq: int,
        supply: "Supply", options: tuple[str, ...], history: Any = None,
    ) -> None:
        self.ruleset, self._fold, self.game, self.seat = ruleset, fold, game, seat
        self.options = frozenset(options)
        self.events: list[Any] = []
        # When kept (not None): the state after each emitted event, a private copy, since the fold goes on mutating
        # `game`. The service serves each event from its own state without folding it a second time; callers that
        # only want the events (legal listings, re-adjudication) do not pay for the copies.
        self.states_after: list[GameState[S]] | None = None
        self._next_seq = next_seq
        self.head_before = next_seq - 1  # the head this command is judged at
        self._supply = supply
        self._history = history
        # Set by the engine for its own steps: the game's log so far (engine.History), its GameContext, and the
        # state the command was decided from, as a function giving a private copy of it (a random entry re-decides
        # the suspended command from it).
        self.log: Any = None
        self.context: Any = None
        self.before: Callable[[], GameState[S]] | None = None

    @property
    def state(self) -> S:
        return self.game.rules

    def emit(self, event: Any) -> None:
        self.events.append(event)
        self.game = self._fold.apply_event(self.game, self._next_seq, event, self._history)
        if self.states_after is not None:
            self.states_after.append(self._fold.copy(self.game))
        self._next_seq += 1

    def roll(
        self, count: int = 1, sides: int = 6, *, purpose: str, detail: dict[str, str | int] | None = None,
        visible_to: tuple[str, ...] | None = None, about: tuple[str, ...] = (),
    ) -> tuple[int, ...]:
        """`about`: the places whose pieces the roll concerns (see core.DiceRolled.about)."""
        index = self.game.core.rolls
        about = tuple(sorted(set(about)))
        try:
            values, source = self._supply.roll(self.game.core, index, count, sides, purpose)
        except NeedRandom as need:  # a transcribed game asks for it: the request is redacted as the roll would be
            need.about = about
            raise
        self.emit(core.DiceRolled(
            index=index, count=count, sides=sides, values=values, purpose=purpose, detail=detail or {},
            source=source, visible_to=visible_to, about=about,
        ))
        return values

    def draw(
        self, population: Sequence[str], k: int, *, purpose: str, visible_to: tuple[str, ...] | None = None
    ) -> tuple[str, ...]:
        index = self.game.core.rolls
        drawn, source = self._supply.draw(self.game.core, index, tuple(population), k, purpose)
        self.emit(core.ItemsDrawn(
            index=index, population=tuple(population), drawn=drawn, purpose=purpose, source=source,
            visible_to=visible_to,
        ))
        return drawn

    def shuffle(
        self, items: Sequence[str], *, purpose: str, visible_to: tuple[str, ...] | None = None
    ) -> tuple[str, ...]:
        return self.draw(items, len(items), purpose=purpose, visible_to=visible_to)

    def reject(self, rule: "Rule | str", message: str, allowed: list[Any] | None = None) -> NoReturn:
        raise IllegalCommand(message, rule=str(rule), allowed=allowed)

    def interpretation(self, name: str) -> str:
        return interpretation_in_force(self.ruleset, self.game.core.interpretations, name)


COMMAND_PIECE_FIELDS = ("piece", "unit", "leader", "officer", "commander", "block", "units", "artillery", "attackers",
                        "attacker", "blocks", "leaders", "stay")  # the last three: Marengo's (rev-o O3)
"""The fields of every ruleset's COMMANDS that name the pieces a command gives an order to (a piece id, or a list of
them; never what it aims at, an enemy target). Not the events' fields naming pieces (events/parabellum.PIECE_FIELDS)."""


def pieces_named(command: Mapping[str, Any]) -> tuple[str, ...]:
    """The pieces a listed command names (`COMMAND_PIECE_FIELDS`; an umpire's command on a seat's behalf: its
    command's), which `legal(seat, piece=...)` filters by (issue 15)."""
    if command.get("type") == "on_behalf" and isinstance(command.get("command"), Mapping):
        return pieces_named(command["command"])
    named: list[str] = []
    for name in COMMAND_PIECE_FIELDS:
        value = command.get(name)
        if isinstance(value, str):
            named.append(value)
        elif isinstance(value, list):
            named += (v for v in value if isinstance(v, str))
    return tuple(named)


def naming(commands: Iterable[dict[str, Any]], piece: str | None) -> list[dict[str, Any]]:
    """The commands of a listing that name `piece` (`pieces_named`), in the listing's order (None: all of them)."""
    return list(commands) if piece is None else [c for c in commands if piece in pieces_named(c)]


def interpretation_in_force(ruleset: "Ruleset[Any]", chosen: dict[str, str], name: str) -> str:
    known = ruleset.interpretations()
    if name not in known:
        raise KeyError(f"{ruleset.name} has no interpretation {name!r}")
    return chosen.get(name, known[name].default)


class Ruleset(RulesetProjection[S]):
    """Subclass per game; see docs/ruleset-interface.md."""

    title: ClassVar[str]
    Command: ClassVar[Any]  # a pydantic model or discriminated union on "type"

    def __init__(self) -> None:
        self._commands = pydantic.TypeAdapter(self.Command)

    # --- scenario and data --------------------------------------------------------------------
    @abstractmethod
    def scenarios(self) -> dict[str, Scenario]: ...

    @abstractmethod
    def new_state(self, scenario: str, options: tuple[str, ...]) -> S: ...

    def start(self, ctx: Decision[S]) -> None:
        """Opening events at creation (e.g. a hidden random draw). Default: none."""

    def interpretations(self) -> Mapping[str, Interpretation]:
        """The named readings, by name: shared by every caller, never to be changed (a ruleset may keep one)."""
        return {}

    def data_files(self) -> list[Path]:
        return []

    def provisional(self, scenario: str) -> list[str]:
        """Human-readable list of the reconstructed (not printed) data a scenario uses."""
        return []

    def data_hash(self, files: Mapping[str, str] | None = None) -> str:
        """SHA-256 over the data a game is played with: a user's data folder (`files`, name -> text, as the
        game's genesis carries it in origin["data"]) or, without one, the shipped data files."""
        if files:
            return files_digest(files)
        return data_digest(sorted((path.name, path.read_bytes()) for path in self.data_files()))

    # --- a user's own data folder (`arbitro new RULESET SCENARIO --data DIR`) -------------------------
    # The generic part: creation.genesis binds the files while it makes the initial state, records them in
    # origin["data"] and hashes them into data_hash; verify and the relog driver bind them again. A ruleset
    # that takes a data folder overrides the three methods below (Marengo does; docs/ruleset-interface.md).
    def read_data(self, folder: Path) -> dict[str, str]:
        """The data folder's files (name -> text), checked the way the shipped data are, every problem at once
        (DataError). Default: this ruleset takes no data folder."""
        raise BadInput(f"{self.name} does not load a data folder yet: it plays its shipped data only")

    def using_data(self, files: Mapping[str, str] | None) -> AbstractContextManager[object]:
        """A context in which the ruleset's calls use `files` instead of the shipped data (None or {}: shipped)."""
        if files:
            raise BadInput(f"{self.name} does not load a data folder yet: it plays its shipped data only")
        return nullcontext()

    def adopt_data(self, state: S, files: Mapping[str, str] | None) -> S:
        """`state` made to carry `files` (so that any process folding the game adjudicates with them) in its
        `data_files`, the one field by which a ruleset that takes a data folder keeps it (using_data has refused
        files for any other ruleset before this is asked)."""
        return msgspec.structs.replace(state, data_files=dict(sorted(files.items()))) if files else state

    def carried_data(self, state: S) -> dict[str, str]:
        """The data files a game in `state` plays on when it carries its own (a user's folder, data changed by
        overrides, a position's state): {} when it plays the data in force."""
        return dict(getattr(state, "data_files", None) or {})

    def shipped_data(self) -> dict[str, str]:
        """The shipped data files as a game would carry them (name -> text): what a carried folder is compared
        with. Default: {} (a ruleset that takes no data folder)."""
        return {}

    def played_hash(self, state: S, data: Mapping[str, str] | None = None) -> str:
        """data_hash over the data a game in `state` plays on: the files it carries, else `data`, else shipped."""
        return self.data_hash(self.carried_data(state) or data)

    # --- overrides: a position's non-standard facts (issue 19 item 13; docs/exchange-format.md "Overrides") -----
    # The generic part is adjudicator/overrides.py: a position file's "overrides" are checked there (a list of
    # objects, each of a kind the ruleset names), handed here one by one, every problem reported at once, and the
    # names returned are kept in the genesis (origin["overrides"]) for `status` to list as non-standard.
    def override_kinds(self) -> dict[str, str]:
        """The kinds of override a position of this ruleset may carry, each with what it sets (shown in the error
        that refuses an unknown kind). Default: none."""
        return {}

    def apply_override(self, state: S, override: Mapping[str, Any]) -> tuple[S, str]:
        """`state` made to carry one override (its "kind" one of override_kinds()), and the override named for
        `status`. The name is served to every seat: it says what is non-standard in words no seat may not know
        (no hidden id, strength or face). Raise BadPosition saying what is wrong with it."""
        raise BadPosition(f"{self.name} takes no overrides yet")

    def validate_position(self, state: S) -> list[str]:
        """Semantic errors in a position (the structure is checked by msgspec already)."""
        return []

    def position_scenario(self, state: S) -> str | None:
        """The scenario a position's state names, where the ruleset's state names one: a position file's header names
        the same or none (creation.from_position). Default None: the state names none."""
        return None

    # --- turn and decisions -------------------------------------------------------------------
    @abstractmethod
    def active_seats(self, state: S) -> tuple[str, ...]:
        """Who may send a command now when no decision is pending."""

    def pending(self, state: S) -> Pending | None:
        """The ruleset's own pending decision, for a ruleset not yet on the decision stack. A ruleset on the
        stack opens frames instead (adjudicator/decisions.py) and leaves this None."""
        return None

    def notices(self, state: S, seat: str) -> list[str]:
        """What `seat` (or the umpire) should know about the position that no command has told it, in words with
        their citations (an out-of-command unit's Defence order, issue 19 item 16); only what the seat may know."""
        return []

    def steps(self) -> dict[str, Step[Any]]:
        """The steps that answer the frames this ruleset opens, by kind (see adjudicator/decisions.py)."""
        return {}

    @abstractmethod
    def decide(self, ctx: Decision[S], command: Any) -> None:
        """Validate `command` from ctx.seat and emit its events, or ctx.reject(rule, message)."""

    @abstractmethod
    def legal(self, state: S, seat: str) -> list[dict[str, Any]]:
        """Every command `seat` may send now (as command dicts); decide accepts each of them."""

    def legal_of(self, state: S, seat: str, piece: str) -> list[dict[str, Any]]:
        """`legal`'s commands that name `piece` (`pieces_named`), in its order: where a whole listing is dear (every
        destination of every unit), a ruleset works out only the piece's (python-chess's lazy listing, issue 15)."""
        return naming(self.legal(state, seat), piece)

    # --- commands at the boundary -------------------------------------------------------------
    def parse_command(self, raw: Any) -> Any:
        try:
            return self._commands.validate_python(raw)
        except pydantic.ValidationError as e:
            raise malformed(e, raw) from None

    def dump_command(self, command: Any) -> dict[str, Any]:
        return self._commands.dump_python(command, mode="json")  # type: ignore[no-any-return]


def malformed(error: pydantic.ValidationError, raw: Any) -> MalformedCommand:
    """A precise, actionable message from a pydantic error: which field, what was given, what is wanted."""
    problems = []
    for item in error.errors(include_url=False):
        where = ".".join(str(p) for p in item["loc"]) or "(command)"
        problems.append({"field": where, "problem": item["msg"], "given": _short(item.get("input"))})
    kind = raw.get("type") if isinstance(raw, dict) else None
    lines = "; ".join(f"{p['field']}: {p['problem']} (given {p['given']})" for p in problems)
    return MalformedCommand(f"command {kind or '(no type)'!s} is malformed: {lines}", problems)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
