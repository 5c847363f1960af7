"""The agreement check between legal() and decide() (issue 19, "Legal listings"), for every ruleset: at positions
of the shipped logs and of seeded self-play, also under each interpretation's other readings, candidate commands
are generated from the ruleset's command models with every optional field (hypothesis strategies built from the
pydantic schemas, each field's values drawn from what the game lists), each judged by the engine exactly as a
submit would be, and compared with the listing:
- a command listed but refused is a defect;
- a command accepted but not reachable from the listing is a defect; reachable means listed, or matching a
  listed template (docs/ruleset-interface.md, "Reachable from the listing").
The suite runs a sample (tests/conformance/test_agreement.py); `python -m bench.agreement` runs the full sweep."""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import hypothesis
import pydantic
from hypothesis import strategies as st

from arbitro.adjudicator import exchange, registry
from arbitro.adjudicator.engine import Adjudicator, GameContext, NoHistory
from arbitro.adjudicator.errors import BadInput, Rejected
from arbitro.adjudicator.randomness import SeededSupply
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro
from arbitro.events import core
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.game import GameState, awaited, state_bytes

LOGS = Path(__file__).resolve().parents[1] / "logs"
ANY_SEED = "ab" * 32  # dice do not decide whether a command is accepted: any seed serves


@dataclass
class Position:
    """A game state to judge candidates in, and what adjudication needs beside it."""

    label: str  # e.g. "caldiero-full#cmd813", with the readings switched if any
    adjudicator: Adjudicator
    state: GameState[Any]
    context: GameContext
    pool: dict[str, list[Any]] = field(default_factory=dict)  # field name -> values the game lists for it

    @property
    def ruleset(self) -> str:
        return self.adjudicator.ruleset.name

    def seats(self) -> tuple[str, ...]:
        return self.context.seats

    def legal(self, seat: str) -> list[dict[str, Any]]:
        return self.adjudicator.legal(self.state, seat)

    def accepts(self, seat: str, command: dict[str, Any]) -> bool:
        try:
            self.adjudicator.decide(self.state, seat, command, self.context, NoHistory(), SeededSupply(ANY_SEED))
        except (Rejected, BadInput):
            return False
        return True

    def normalised(self, command: dict[str, Any]) -> dict[str, Any] | None:
        """The stored form of a ruleset command; None if it does not parse."""
        try:
            return self.adjudicator.parse(command)[1]
        except BadInput:
            return None


@dataclass(frozen=True)
class Discrepancy:
    position: str
    seat: str
    command: str  # canonical JSON
    kind: str  # "listed but refused" | "accepted but unreachable"
    # where an unreachable command differs from the nearest listed command of its type (its fields), () if none
    differs: tuple[str, ...] = ()

    def __str__(self) -> str:
        near = f" (listed with another {', '.join(self.differs)})" if self.differs else ""
        return f"{self.position} {self.seat}: {self.kind}: {self.command}{near}"

    @property
    def type(self) -> str:
        return str(json.loads(self.command)["type"])


# --- positions --------------------------------------------------------------------------------------------------
def log_positions(path: Path, every: int, first: int = 1, last: int | None = None) -> Iterator[Position]:
    """The states at every `every`-th command boundary of a shipped log from command `first` to `last` (folded,
    never adjudicated anew)."""
    with open(path, encoding="utf-8") as f:
        loaded = exchange.read_lines(f, path.name)
    adj = Adjudicator(registry.get(loaded.game.ruleset))
    bodies = [adj.fold.decode(e, loaded.game.id, None) for e in loaded.events]
    created = bodies[0].event
    assert isinstance(created, core.GameCreated)
    context = GameContext.of(created, seed=None, salt_key=None, game_id=loaded.game.id)  # the log's secrets unheld
    targets = {b.event.to_seq for b in bodies if isinstance(b.event, core.Undone)}
    kept: dict[int, bytes] = {}
    state: GameState[Any] | None = None
    for i, body in enumerate(bodies):
        if last is not None and body.cmd > last:
            return
        state = adj.fold.apply(state, body, lambda seq: adj.fold.decode_state(kept[seq]))
        if body.seq in targets:
            kept[body.seq] = state_bytes(state)
        ends_command = i + 1 == len(bodies) or bodies[i + 1].cmd != body.cmd
        if ends_command and body.cmd >= first and (body.cmd - first) % every == 0:
            yield Position(f"{path.stem}#cmd{body.cmd}", adj, adj.fold.copy(state), context)


def selfplay_positions(ruleset: str, scenario: str, seed: str, every: int, steps: int) -> Iterator[Position]:
    """The states every `every` commands of a seeded self-played game, up to `steps` commands."""
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create(ruleset, scenario, game_id=f"{ruleset}-{seed}")
    play = SelfPlay(app, game, seed=seed)
    adj = app.adjudicator(ruleset)
    context = app.context(app.game(game))
    while play.steps < steps:
        played = play.play(play.steps + every)
        yield Position(f"{ruleset}:{scenario} self-play {seed} step {play.steps}", adj, app.state_at(game), context)
        if not played or app.awaiting(game).seats == []:
            return


def with_reading(position: Position, name: str, reading: str) -> Position:
    """The same position with the umpire's ruling `name=reading` in force (as a ruling's fold sets it)."""
    adj = position.adjudicator
    state = adj.fold.copy(position.state)
    state.core.interpretations = dict(sorted({**state.core.interpretations, name: reading}.items()))
    state.rules = adj.ruleset.note_interpretations(state.rules, dict(state.core.interpretations))
    return Position(f"{position.label} [{name}={reading}]", adj, state, position.context, position.pool)


def other_readings(position: Position) -> Iterator[Position]:
    """The position under each interpretation's readings other than the one in force."""
    in_force = position.state.core.interpretations
    for name, interp in sorted(position.adjudicator.ruleset.interpretations().items()):
        for reading in interp.choices:
            if reading != in_force.get(name, interp.default):
                yield with_reading(position, name, reading)


# --- the value pool and the strategies ------------------------------------------------------------------------
def pool_of(listed: list[dict[str, Any]], into: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """Every value listed commands give each field (scalars, lists, and a list's elements under `name[]`), in the
    order first seen, so a candidate names things the game knows."""
    def add(key: str, value: Any) -> None:
        seen = into.setdefault(key, [])
        if value not in seen:
            seen.append(value)

    for command in listed:
        for name, value in command.items():
            add(name, value)
            if isinstance(value, list):
                for element in value:
                    add(f"{name}[]", element)
    return into


def _fallback(annotation: Any) -> st.SearchStrategy[Any]:
    if annotation is bool:
        return st.booleans()
    if annotation is int:
        return st.integers(-1, 12)
    return st.sampled_from(["", "x"])


def field_strategy(name: str, annotation: Any, pool: dict[str, list[Any]]) -> st.SearchStrategy[Any]:
    """Values for one field: its Literal choices, else what the game lists for a field of that name, else a few
    values of its type (which the engine must refuse)."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return field_strategy(name, args[0], pool)
    if origin is typing.Literal:
        return st.sampled_from(list(args))
    if origin in (typing.Union, types.UnionType):
        return st.one_of([field_strategy(name, a, pool) for a in args])
    if annotation is type(None):
        return st.none()
    if isinstance(annotation, type) and issubclass(annotation, pydantic.BaseModel):
        return model_strategy(annotation, pool)
    if origin in (list, tuple, set, frozenset):
        inner = args[0] if args else Any
        listed = [v for v in pool.get(name, []) if isinstance(v, list)]
        elements = pool.get(f"{name}[]")
        element = st.sampled_from(elements) if elements else field_strategy(f"{name}[]", inner, pool)
        made = st.lists(element, max_size=4, unique_by=lambda v: json.dumps(v, sort_keys=True))
        return st.one_of(st.sampled_from(listed), made) if listed else made
    if origin is dict or annotation is dict:
        return st.just({})
    seen = pool.get(name)
    if seen:
        return st.one_of(st.sampled_from(seen), _fallback(annotation)) if annotation in (int, bool) else \
            st.sampled_from(seen)
    return _fallback(annotation)


def model_strategy(model: type[pydantic.BaseModel], pool: dict[str, list[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """A command of `model`: every required field, and any of its optional fields."""
    required, optional = {}, {}
    for name, info in model.model_fields.items():
        key = info.alias or name
        strategy = field_strategy(name, info.annotation, pool)
        (required if info.is_required() else optional)[key] = strategy
    return st.fixed_dictionaries(required, optional=optional)


def command_models(command: Any) -> list[type[pydantic.BaseModel]]:
    """The models of a ruleset's command union (maybe Annotated)."""
    args = typing.get_args(command)
    if typing.get_origin(command) is typing.Annotated:
        return command_models(args[0])
    if typing.get_origin(command) in (typing.Union, types.UnionType):
        return [m for arg in args for m in command_models(arg)]
    return [command]


def candidates(position: Position, seat: str, listed: list[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """Candidates for `seat`: from every command model, and listed commands with one optional field added, dropped
    or changed (where an unlisted but accepted form hides, e.g. marengo §9's `show`)."""
    pool = pool_of(listed, dict(position.pool))
    models = command_models(position.adjudicator.ruleset.Command)
    built = st.one_of([model_strategy(m, pool) for m in models])
    if not listed:
        return built
    by_type = {typing.get_args(m.model_fields["type"].annotation)[0]: m for m in models}

    @st.composite
    def varied(draw: st.DrawFn) -> dict[str, Any]:
        command = dict(draw(st.sampled_from(listed)))
        model = by_type.get(command.get("type"))
        if model is None:
            return command
        name = draw(st.sampled_from([n for n in model.model_fields if n != "type"] or ["type"]))
        if name in command and not model.model_fields[name].is_required() and draw(st.booleans()):
            del command[name]
            return command
        typed = field_strategy(name, model.model_fields[name].annotation, pool)
        current = command.get(name)
        if isinstance(current, list) and current:  # a sub-list of the listed set: fewer units, another order
            command[name] = draw(st.one_of(typed, st.lists(st.sampled_from(current), min_size=1, unique=True)))
        else:  # a value the command names elsewhere (the Elan of another attacker than the listed one)
            own = [e for v in command.values() for e in (v if isinstance(v, list) else [v])
                   if isinstance(e, (str, int)) and not isinstance(e, bool) and e != command["type"]]
            command[name] = draw(st.one_of(typed, st.sampled_from(own))) if own else draw(typed)
        return command

    return st.one_of(built, varied(), varied(), varied())  # three in four vary a listed command


# --- judging ----------------------------------------------------------------------------------------------------
# Templates named in docs/ruleset-interface.md without a `choose` marker in the listing (ruleset, type) -> the field
# that varies: "subset" (any non-empty selection of the listed list, each once), "ends" (any other path with the
# listed path's first and last hex; decide checks the steps between) or "any" (decide checks it).
DOCUMENTED_TEMPLATES: dict[tuple[str, str], tuple[str, str]] = {
    ("arrivano", "assault"): ("attackers", "subset"),
    ("arrivano", "form_column"): ("units", "subset"),
    ("caldiero", "attack"): ("attackers", "subset"),
    ("caldiero", "move"): ("path", "any"),
    ("caldiero", "move_leader"): ("path", "any"),
    ("caricat", "charge"): ("path", "ends"),
    ("caricat", "fire"): ("units", "subset"),
    ("caricat", "melee"): ("units", "subset"),
    ("caricat", "move"): ("path", "ends"),
    ("monferrato", "move"): ("units", "subset"),
}


# Fields a template's selection decides in turn (ruleset, type) -> fields: decide checks them against the chosen set,
# so they need not equal the listed command's (Caldiero: whether a general is stacked with the chosen attackers,
# §12.4.4; their efficiency tie, §12.3.1, is asked at the start of the combat since e3d05ccb, not named).
FOLLOWING: dict[tuple[str, str], tuple[str, ...]] = {
    ("caldiero", "attack"): ("use_general",),
}


def documented(ruleset: str, command: dict[str, Any], listed: list[dict[str, Any]]) -> bool:
    """Whether `command` is within a listed command of a template docs/ruleset-interface.md names."""
    template = DOCUMENTED_TEMPLATES.get((ruleset, str(command.get("type"))))
    if template is None:
        return False
    name, how = template
    free = {name, *FOLLOWING.get((ruleset, str(command.get("type"))), ())}
    for option in listed:
        if {k: v for k, v in option.items() if k not in free} != {k: v for k, v in command.items() if k not in free}:
            continue
        if how == "any":
            return True
        chosen, domain = command.get(name), option.get(name)
        if how == "ends":
            if isinstance(chosen, list) and isinstance(domain, list) and chosen and domain and \
                    (chosen[0], chosen[-1]) == (domain[0], domain[-1]):
                return True
            continue
        if isinstance(chosen, list) and isinstance(domain, list) and chosen and \
                all(v in domain for v in chosen) and len(set(map(str, chosen))) == len(chosen):
            return True
    return False


def reachable(command: dict[str, Any], listed: list[dict[str, Any]], templates: bool) -> bool:
    """Whether an accepted command is reachable from the listing: listed as it is; or, where the listing holds
    templates (a step whose answers cannot be listed), of a listed type; or within a listed command whose
    set-valued field carries its domain with a `choose` constraint {field: {min, max}}."""
    if command in listed:
        return True
    for option in listed:
        if templates and option.get("type") == command.get("type"):
            return True
        choose = option.get("choose")
        if isinstance(choose, dict) and _within(command, option, choose):
            return True
    return False


def _within(command: dict[str, Any], template: dict[str, Any], choose: dict[str, Any]) -> bool:
    fixed = {k: v for k, v in template.items() if k != "choose" and k not in choose}
    if {k: v for k, v in command.items() if k not in choose} != fixed:
        return False
    for name, bounds in choose.items():
        chosen, domain = command.get(name, []), template.get(name, [])
        if not isinstance(chosen, list) or any(v not in domain for v in chosen) or len(set(map(str, chosen))) != len(chosen):
            return False
        if not bounds.get("min", 0) <= len(chosen) <= bounds.get("max", len(domain)):
            return False
    return True


def lists_templates(position: Position, seat: str) -> bool:
    """Whether `seat`'s listing is templates: a ruleset step on top whose answers cannot be listed."""
    top = awaited(position.state.core)
    return top is not None and top.kind in position.adjudicator.steps and \
        not position.adjudicator.steps[top.kind].complete


def judge(position: Position, seat: str, command: dict[str, Any], listed: list[dict[str, Any]]) -> Discrepancy | None:
    """The discrepancy `command` shows at `position` for `seat`, if any (`listed`: normalised listing)."""
    norm = position.normalised(command)
    if norm is None:
        return None  # malformed: refused before any rule, and never listed
    accepted = position.accepts(seat, command)
    # An old word a ruleset reads under another type (as Arrivano read `next`/`end_orders` as `end_step` up to
    # 1.29.0) is not the listed command its stored form names: the listing names the current word, and the old one
    # is judged on its own.
    is_listed = norm in listed and norm.get("type") == command.get("type")
    text = json.dumps(norm, sort_keys=True, ensure_ascii=False)
    if is_listed and not accepted:
        return Discrepancy(position.label, seat, text, "listed but refused")
    if accepted and not reachable(norm, listed, lists_templates(position, seat)) and \
            not documented(position.ruleset, norm, listed):
        return Discrepancy(position.label, seat, text, "accepted but unreachable", nearest(norm, listed))
    return None


def nearest(command: dict[str, Any], listed: list[dict[str, Any]]) -> tuple[str, ...]:
    """The fields in which `command` differs from the listed command of its type closest to it (fewest fields)."""
    differing = [tuple(sorted(k for k in set(command) | set(option) if command.get(k) != option.get(k)))
                 for option in listed if option.get("type") == command.get("type")]
    return min(differing, key=len, default=())


def listing(position: Position, seat: str) -> list[dict[str, Any]]:
    """`seat`'s listing in stored form (an option that does not parse stays as listed: it is then refused)."""
    return [position.normalised(c) or c for c in position.legal(seat)]


def listed_refused(position: Position, seat: str) -> list[Discrepancy]:
    """Every listed command of `seat` that the engine refuses."""
    listed = listing(position, seat)
    templates = lists_templates(position, seat)
    return [Discrepancy(position.label, seat, json.dumps(c, sort_keys=True, ensure_ascii=False), "listed but refused")
            for c in listed if not templates and not position.accepts(seat, c)]


# --- the sweep --------------------------------------------------------------------------------------------------
def sweep(positions: list[Position], examples: int, seed: int = 19, listed_per_seat: int | None = None) -> list[Discrepancy]:
    """`examples` candidates drawn over `positions` (each a seat's, at one position) and every listed command (or
    the first `listed_per_seat` of each listing) judged; the discrepancies found, in a stable order."""
    prepared: list[tuple[Position, str, list[dict[str, Any]]]] = []
    shared: dict[str, list[Any]] = {}
    found: set[Discrepancy] = set()
    for position in positions:
        position.pool = shared  # names listed anywhere in the game: a unit not movable now is still a unit
        for seat in position.seats():
            listed = listing(position, seat)
            pool_of(listed, shared)
            prepared.append((position, seat, listed))
            templates = lists_templates(position, seat)
            for command in listed[:listed_per_seat] if not templates else []:
                if not position.accepts(seat, command):
                    found.add(Discrepancy(position.label, seat, json.dumps(command, sort_keys=True, ensure_ascii=False),
                                          "listed but refused"))
    if not prepared:
        return []
    strategies = [candidates(position, seat, listed) for position, seat, listed in prepared]  # built once each

    @hypothesis.seed(seed)
    @hypothesis.settings(max_examples=examples, database=None, deadline=None, phases=[hypothesis.Phase.generate],
                         suppress_health_check=list(hypothesis.HealthCheck))
    @hypothesis.given(st.data())
    def draw(data: st.DataObject) -> None:
        # four draws in five at a seat with something listed (an idle seat's candidates are all refused, mostly)
        busy = [i for i, (_, _, listed) in enumerate(prepared) if listed] or list(range(len(prepared)))
        i = data.draw(st.one_of(st.sampled_from(busy), st.sampled_from(busy), st.sampled_from(busy),
                                st.sampled_from(busy), st.integers(0, len(prepared) - 1)), label="position and seat")
        position, seat, listed = prepared[i]
        command = data.draw(strategies[i], label="command")
        discrepancy = judge(position, seat, command, listed)
        if discrepancy is not None:
            found.add(discrepancy)

    draw()
    return sorted(found, key=lambda d: (d.position, d.seat, d.kind, d.command))
