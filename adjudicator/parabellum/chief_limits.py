"""A commander in chief kept within a limit of the map (caldiero §4.2.2, "Bonaparte non può mai muovere a più di due
esagoni da 1014, Alvinczy non può muovere oltre la linea di esagoni 24xx"; Arrivano prints none): the limit as
scenario data (`CommanderLimit`, checked at load by `limit_problems`), and, once a game has read it under its
readings (`ChiefLimit`), the hexes it closes to his move and where he may end. A game words the refusals and cites
its rule."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass

from arbitro.adjudicator.datafiles import DataProblem, StrictModel, Where
from arbitro.adjudicator.parabellum.data import HexStr, OrderOfBattle
from arbitro.adjudicator.parabellum.readings import InterpretationsFile
from arbitro.adjudicator.ruleset import Rule
from pydantic import Field


class CommanderLimit(StrictModel):
    """One commander in chief's limit as a scenario prints it: within `max_distance` hexes of `near`, or on a column
    from `min_column` on (`reading_columns`: the column an umpire's choice of the reading `reading` sets instead);
    lifted while the optional rule `lifted_by` is in force (caldiero §20.1.1)."""

    leader: str
    near: HexStr | None = None
    max_distance: int | None = Field(default=None, ge=0)
    min_column: int | None = None
    reading: str | None = None
    reading_columns: dict[str, int] = {}
    lifted_by: str | None = None

    def problems(self) -> list[tuple[Where, str]]:
        found: list[tuple[Where, str]] = []
        if (self.near is None) != (self.max_distance is None):
            found.append((("near",), "`near` and `max_distance` go together"))
        if (self.near is None) == (self.min_column is None):
            found.append(((), "a limit gives either `near` with `max_distance` or `min_column`"))
        if self.reading_columns and self.reading is None:
            found.append((("reading_columns",), "needs the `reading` they are choices of"))
        return found


def limit_problems(file: str, limits: list[CommanderLimit], oob: OrderOfBattle, options: Mapping[str, object],
                   interpretations: InterpretationsFile) -> list[DataProblem]:
    """Each limit names a commander in chief of the order of battle, an optional rule of the scenario and a reading
    of interpretations.json with its choices (its hex: loader.unknown_names): every problem at once."""
    problems: list[DataProblem] = []
    readings = {r.name: r for r in interpretations.interpretations}
    for i, limit in enumerate(limits):
        where = f"$.commander_limits[{i}]"
        chief = next((le for le in oob.leaders if le.id == limit.leader), None)
        if chief is None or chief.role != "commander_in_chief":
            problems.append(DataProblem(file, f"{where}.leader", f"{limit.leader!r} is no commander in chief"))
        if limit.lifted_by is not None and limit.lifted_by not in options:
            problems.append(DataProblem(file, f"{where}.lifted_by", f"unknown option {limit.lifted_by!r}"))
        reading = readings.get(limit.reading) if limit.reading is not None else None
        if limit.reading is not None and reading is None:
            problems.append(DataProblem(file, f"{where}.reading", f"no reading {limit.reading!r} in interpretations.json"))
        unknown = sorted(set(limit.reading_columns) - set(reading.choices)) if reading is not None else []
        problems += [DataProblem(file, f"{where}.reading_columns.{c}", f"not a choice of {limit.reading!r}")
                     for c in unknown]
    return problems


@dataclass(frozen=True)
class ChiefLimit:
    """A commander in chief's limit under the readings in force. `beyond(h)`: how far h lies beyond it (0 within:
    hexes from a `near` limit, columns short of a column limit); `whole_move`: the limit holds for every hex of his
    move, else only for where he ends; `words`: the limit said for him; `key`: what decides all this (a kept
    search's key); `rule`: the game's rule, which its refusals cite; `leader`: whose limit it is."""

    key: Hashable
    beyond: Callable[[str], int]
    whole_move: bool
    words: str
    rule: Rule
    leader: str


def limit_closed(limit: ChiefLimit | None, origin: str) -> Callable[[str], bool] | None:
    """Read for the whole move: the hexes closed to his move, those farther beyond the limit than the hex he starts
    from (none beyond it when he starts within). A chief carried beyond it (a retreat, a move to the nearest friends,
    an umpire) may walk back toward it, never farther away; None: the limit closes nothing on the way."""
    if limit is None or not limit.whole_move:
        return None
    start, beyond = limit.beyond(origin), limit.beyond
    return lambda h: beyond(h) > start


def limit_ends(limit: ChiefLimit | None, origin: str, reached: Iterable[str]) -> Callable[[str], bool]:
    """Where he may end among the hexes `reached`: within the limit, or, when he can reach no hex within it, as near
    it as he can get and never farther beyond than where he starts."""
    if limit is None:
        return lambda h: True
    cap = min(limit.beyond(origin), min((limit.beyond(h) for h in reached), default=0))
    return lambda h: limit.beyond(h) <= cap


def limit_problem(limit: ChiefLimit | None, origin: str, hexes: Iterable[str]) -> tuple[Rule, str] | None:
    """Read for the whole move: the refusal of a move through the first of `hexes` farther beyond the limit than where
    he starts (`limit_closed`), or None."""
    closed = limit_closed(limit, origin)
    beyond = next((h for h in hexes if closed is not None and closed(h)), None)
    if beyond is None or limit is None:
        return None
    return limit.rule, (f"{limit.leader} may not move into {beyond}: {limit.words} at any point of his move"
                        f"{_back_words(limit, origin)} ({limit.rule})")


def limit_end_problem(limit: ChiefLimit | None, origin: str, to: str, reached: Iterable[str]) -> tuple[Rule, str] | None:
    """The refusal of ending in `to` (`limit_ends` over the hexes `reached`), or None."""
    if limit is None or limit_ends(limit, origin, reached)(to):
        return None
    nearer = "" if limit.beyond(to) > limit.beyond(origin) else ", and he can end nearer it"
    return limit.rule, (f"{limit.leader} may not end his move in {to}: {limit.words}{nearer}"
                        f"{_back_words(limit, origin)} ({limit.rule})")


def _back_words(limit: ChiefLimit, origin: str) -> str:
    if not limit.beyond(origin):
        return ""
    return f"; from {origin}, beyond it, he may move only back toward it, to end within it or as near it as he can"
