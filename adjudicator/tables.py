"""The table kit: odds, column shifts, die-roll modifiers, and look-ups in tables given as data.

No game rule lives here. A ruleset computes strengths and decides which shifts and modifiers apply,
citing its rules; this module does the arithmetic the same way for every game and returns a record of
the look-up (table, column, modifiers, die, result) to be put into the event that resolves the combat.

Odds are rounded in the defender's favour (caldiero §12.5.1: 13 to 4 is 3-1; arrivano §12.5.1). An
attack better than the table's best column, or worse than its worst, is clamped and the number of
levels beyond is reported, so a ruleset can apply "+1 per level above 6-1" (caldiero §12.4.3) or
"below 1-5 is an automatic Ae" (caldiero §12.4.2).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field, StrictBool, StrictInt, StrictStr, model_validator

from arbitro.adjudicator.datafiles import DataError, Problem, StrictModel, read_json, validated

Odds = tuple[int, int]
"""(attacker, defender) in lowest terms of the odds ladder: ``(3, 1)`` is 3-1, ``(1, 2)`` is 1-2."""

_ODDS = re.compile(r"([1-9][0-9]*)-([1-9][0-9]*)")  # fullmatch: no trailing newline slips through


# ================================================================================================
# Odds
# ================================================================================================


def odds_ratio(attack: int, defence: int) -> Odds:
    """Odds rounded in the defender's favour: 13 vs 4 -> (3, 1); 4 vs 13 -> (1, 4); 5 vs 9 -> (1, 2)."""
    if attack <= 0 or defence <= 0:
        raise ValueError(f"odds need positive strengths, not {attack} to {defence}")
    if attack >= defence:
        return (attack // defence, 1)
    return (1, -(-defence // attack))


def format_odds(odds: Odds) -> str:
    return f"{odds[0]}-{odds[1]}"


def parse_odds(label: str) -> Odds:
    """``"3-1"`` -> ``(3, 1)``. Any positive ``a-b`` is accepted (``"3-2"`` columns exist)."""
    match = _ODDS.fullmatch(label)
    if not match:
        raise ValueError(f"{label!r} is not an odds label like '3-1' or '1-2'")
    return int(match.group(1)), int(match.group(2))


def odds_level(odds: Odds) -> int:
    """Position on the integer odds ladder: 1-1 -> 0, 2-1 -> 1, 6-1 -> 5, 1-2 -> -1, 1-5 -> -4."""
    a, d = odds
    if a >= d:
        return a // d - 1
    return -((d + a - 1) // a - 1)


# ================================================================================================
# Tables as data
# ================================================================================================


class CombatTable(StrictModel):
    """A results table: columns, one row per (modified) die result, result codes explained in ``results``.

    ``columns_are``: ``"odds"`` (labels like ``"3-1"``, in ascending order) or ``"labels"`` (any labels,
    e.g. a bombardment table's firing strengths). Rows are keyed by die result (JSON object keys are
    strings: ``"1"``, ``"-2"``) and must be contiguous; a modified result beyond the first or last row
    reads that row.
    """

    name: StrictStr
    title: StrictStr
    provisional: StrictBool
    notes: StrictStr = ""
    columns_are: Literal["odds", "labels"]
    columns: tuple[StrictStr, ...] = Field(min_length=1)
    rows: dict[StrictStr, tuple[StrictStr, ...]] = Field(min_length=1)
    results: dict[StrictStr, StrictStr] = Field(min_length=1)
    modifier_cap: StrictInt | None = Field(default=None, ge=0)
    # Odds beyond the last column read it (``ColumnPick.beyond_high`` levels above it); a game whose rules add a die
    # modifier for each such level gives it here (Para Bellum §12.4.3, D23), for its rules to add: ``look_up`` does not.
    beyond_high_drm: StrictInt = Field(default=0, ge=0)

    def row_range(self) -> tuple[int, int]:
        keys = [int(k) for k in self.rows]
        return min(keys), max(keys)

    def cell(self, row: int, column_index: int) -> str:
        return self.rows[str(row)][column_index]


def load_table(path: str | Path, *, source: str | None = None) -> CombatTable:
    """Read and validate a table file; raises :class:`DataError` listing every problem."""
    path = Path(path)
    label = source or str(path)
    return parse_table(read_json(path, label), source=label)


def parse_table(data: object, *, source: str = "<table>") -> CombatTable:
    """Validate a table; raises :class:`DataError` listing every problem."""
    table = validated(CombatTable, data, source)
    problems = _table_problems(table)
    if problems:
        raise DataError.in_file(source, problems)
    return table


def _table_problems(table: CombatTable) -> list[Problem]:
    problems: list[Problem] = []
    for i, label in enumerate(table.columns):
        if label in table.columns[:i]:
            problems.append(Problem(f"$.columns[{i}]", f"{label!r} appears twice"))
    if table.columns_are == "odds":
        problems += _odds_column_problems(table.columns)
    keys: list[int] = []
    for key, cells in table.rows.items():
        try:
            keys.append(int(key))
        except ValueError:
            problems.append(Problem(f"$.rows.{key}", "row keys must be integers (die results)"))
            continue
        if len(cells) != len(table.columns):
            problems.append(Problem(f"$.rows.{key}", f"has {len(cells)} results for {len(table.columns)} columns"))
        for j, code in enumerate(cells):
            if code not in table.results:
                problems.append(Problem(f"$.rows.{key}[{j}]", f"result {code!r} is not explained in $.results"))
    if keys and sorted(keys) != list(range(min(keys), max(keys) + 1)):
        problems.append(Problem("$.rows", f"die results must be contiguous, got {sorted(keys)}"))
    return problems


def _odds_column_problems(columns: tuple[str, ...]) -> list[Problem]:
    problems: list[Problem] = []
    parsed: list[Odds] = []
    for i, label in enumerate(columns):
        try:
            parsed.append(parse_odds(label))
        except ValueError as exc:
            problems.append(Problem(f"$.columns[{i}]", str(exc)))
    if problems:
        return problems
    for i in range(1, len(parsed)):
        (a1, d1), (a2, d2) = parsed[i - 1], parsed[i]
        if a1 * d2 >= a2 * d1:
            problems.append(Problem(f"$.columns[{i}]", f"{columns[i]} must be better odds than {columns[i - 1]}"))
    for i in (0, len(parsed) - 1):
        if 1 not in parsed[i]:
            problems.append(Problem(f"$.columns[{i}]", "the first and last odds columns must be N-1 or 1-N"))
    return problems


# ================================================================================================
# Choosing a column
# ================================================================================================


@dataclass(frozen=True, slots=True)
class ColumnPick:
    """The column used, and how it was reached."""

    index: int
    label: str
    shift: int
    """Net column shift applied (positive: toward the attacker's favour / later columns)."""
    beyond_high: int
    """Columns (odds levels) the shifted result lay beyond the last column; 0 if inside."""
    beyond_low: int
    """Columns (odds levels) the shifted result lay before the first column; 0 if inside."""
    odds: str | None = None
    """The odds as computed, before shifts and clamping (odds tables only)."""
    attack: int | None = None
    defence: int | None = None


def odds_column(table: CombatTable, attack: int, defence: int, shift: int = 0) -> ColumnPick:
    """The column for ``attack`` against ``defence``, shifted by ``shift`` columns, then clamped.

    Inside the table, the column is the best one whose odds do not exceed the actual ratio (the
    defender's favour). Beyond either end every odds level counts as one column: 8-1 on a table ending
    at 6-1 is 2 beyond; shifts count before clamping, so 8-1 shifted one column left is 1 beyond.
    """
    if table.columns_are != "odds":
        raise ValueError(f"table {table.name!r} is not indexed by odds")
    odds = odds_ratio(attack, defence)
    columns = [parse_odds(c) for c in table.columns]
    top, bottom = len(columns) - 1, 0
    if attack * columns[top][1] >= columns[top][0] * defence:
        virtual = top + odds_level(odds) - odds_level(columns[top])
    elif attack * columns[bottom][1] < columns[bottom][0] * defence:
        virtual = bottom - (odds_level(columns[bottom]) - odds_level(odds))
        # A ratio between the lowest column and the next ladder step below still reads as below it.
        virtual = min(virtual, bottom - 1)
    else:
        virtual = max(i for i, (a, d) in enumerate(columns) if a * defence <= attack * d)
    pick = _clamp(table, virtual + shift, shift)
    return ColumnPick(pick.index, pick.label, shift, pick.beyond_high, pick.beyond_low,
                      format_odds(odds), attack, defence)


def label_column(table: CombatTable, label: str, shift: int = 0) -> ColumnPick:
    """The column named ``label`` (e.g. a firing strength), shifted by ``shift`` columns, then clamped."""
    try:
        index = table.columns.index(label)
    except ValueError:
        raise ValueError(f"table {table.name!r} has no column {label!r} (columns: {', '.join(table.columns)})") from None
    return _clamp(table, index + shift, shift)


def _clamp(table: CombatTable, virtual: int, shift: int) -> ColumnPick:
    last = len(table.columns) - 1
    index = min(max(virtual, 0), last)
    return ColumnPick(index, table.columns[index], shift, max(0, virtual - last), max(0, -virtual))


# ================================================================================================
# Modifiers and look-up
# ================================================================================================


class Halving(StrictModel):
    """A value a rule halves and how the half is rounded, as data: `rounding` up or down, `rule` the section that
    says so (caldiero §1.4, arrivano §1.3: "Quando non specificato dalle regole gli arrotondamenti sono sempre fatti
    al numero intero più alto", up, wherever the halving rule says nothing)."""

    rounding: Literal["up", "down"]
    rule: StrictStr

    @model_validator(mode="before")
    @classmethod
    def _not_a_flag(cls, value: object) -> object:
        """A folder copied before halvings were data (twenty-second session) says `true` or `false`: told what to
        write instead, not only that an object was expected."""
        if isinstance(value, bool):
            raise ValueError('a halving is {"rounding": "up" or "down", "rule": "<section>"} (an older folder\'s true '
                             'was {"rounding": "up"}: caldiero §1.4, arrivano §1.3); where nothing is halved (false), '
                             'leave the field out')
        return value

    def of(self, value: int) -> int:
        return -(-value // 2) if self.rounding == "up" else value // 2


def halved(value: int, halving: Halving | None) -> int:
    """`value` as a halving field says (a weather box's, a terrain's): halved and rounded as it says; unchanged where
    the field is absent (None: nothing halved there)."""
    return halving.of(value) if halving is not None else value


@dataclass(frozen=True, slots=True)
class Modifier:
    """One die-roll modifier and why it applies (cite the rule: ``"disorganised defender (§15.1)"``)."""

    reason: str
    value: int


def sum_modifiers(modifiers: Sequence[Modifier], cap: int | None) -> tuple[int, int]:
    """(capped total, uncapped total); ``cap`` limits the total to -cap..+cap (caldiero §12.5.2: 4)."""
    total = sum(m.value for m in modifiers)
    if cap is None:
        return total, total
    return max(-cap, min(cap, total)), total


@dataclass(frozen=True, slots=True)
class TableLookup:
    """A complete, replayable account of one look-up: put ``record()`` into the resolving event."""

    table: str
    provisional: bool
    column: ColumnPick
    die: int
    modifiers: tuple[Modifier, ...]
    modifier_total: int
    modifier_uncapped: int
    modified_die: int
    row: int
    result: str

    def record(self) -> dict[str, object]:
        """Plain JSON-able data (no floats), for event payloads."""
        return {
            "table": self.table,
            "provisional": self.provisional,
            "column": self.column.label,
            "column_index": self.column.index,
            "odds": self.column.odds,
            "attack": self.column.attack,
            "defence": self.column.defence,
            "shift": self.column.shift,
            "beyond_high": self.column.beyond_high,
            "beyond_low": self.column.beyond_low,
            "die": self.die,
            "modifiers": [{"reason": m.reason, "value": m.value} for m in self.modifiers],
            "modifier_total": self.modifier_total,
            "modifier_uncapped": self.modifier_uncapped,
            "modified_die": self.modified_die,
            "row": self.row,
            "result": self.result,
        }


def look_up(
    table: CombatTable,
    column: ColumnPick,
    die: int,
    modifiers: Sequence[Modifier] = (),
    *,
    cap: int | None = None,
) -> TableLookup:
    """Read ``table`` at ``column`` for ``die`` plus the (capped) modifiers.

    ``cap`` overrides the table's ``modifier_cap``. A modified result beyond the table's rows reads the
    first or last row (recorded in ``row``).
    """
    limit = cap if cap is not None else table.modifier_cap
    total, uncapped = sum_modifiers(modifiers, limit)
    modified = die + total
    low, high = table.row_range()
    row = min(max(modified, low), high)
    return TableLookup(
        table=table.name,
        provisional=table.provisional,
        column=column,
        die=die,
        modifiers=tuple(modifiers),
        modifier_total=total,
        modifier_uncapped=uncapped,
        modified_die=modified,
        row=row,
        result=table.cell(row, column.index),
    )
