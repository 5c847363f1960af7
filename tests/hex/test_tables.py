"""Odds, column shifts, modifiers and table look-ups of adjudicator.tables."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbitro.adjudicator.datafiles import DataError, DataProblem, StrictModel, validated
from arbitro.adjudicator.tables import (
    CombatTable,
    Halving,
    Modifier,
    format_odds,
    halved,
    label_column,
    load_table,
    look_up,
    odds_column,
    odds_level,
    odds_ratio,
    parse_odds,
    parse_table,
    sum_modifiers,
)

LADDER = ["1-5", "1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1"]
CRT: dict[str, Any] = {
    "name": "test_crt",
    "title": "A test table shaped like caldiero's (values invented)",
    "provisional": True,
    "columns_are": "odds",
    "columns": LADDER,
    "rows": {str(die): [f"R{die}{i}" for i in range(len(LADDER))] for die in range(1, 7)},
    "results": {f"R{die}{i}": f"row {die} column {i}" for die in range(1, 7) for i in range(len(LADDER))},
    "modifier_cap": 4,
}
BOMBARDMENT: dict[str, Any] = {
    "name": "test_bombardment",
    "title": "By firing strength",
    "provisional": True,
    "columns_are": "labels",
    "columns": ["1", "2", "3", "4+"],
    "rows": {str(d): ["-", "-", "D", "D"] if d < 5 else ["D", "D", "D2", "D2"] for d in range(0, 8)},
    "results": {"-": "no effect", "D": "disorganised", "D2": "two disorganisations"},
}


def table(data: dict[str, Any] = CRT, **changes: Any) -> CombatTable:
    d = copy.deepcopy(data)
    d.update(changes)
    return parse_table(d, source="test-table")


# -- odds ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack", "defence", "expected"),
    [(13, 4, "3-1"), (4, 13, "1-4"), (5, 9, "1-2"), (9, 9, "1-1"), (8, 9, "1-2"), (17, 8, "2-1"),
     (1, 10, "1-10"), (48, 1, "48-1"), (12, 4, "3-1"), (4, 12, "1-3")],
)
def test_odds_are_rounded_in_the_defenders_favour(attack: int, defence: int, expected: str) -> None:
    # caldiero §12.5.1: 13 SP against 4 is 3.25 to 1, rounded to 3-1.
    assert format_odds(odds_ratio(attack, defence)) == expected


@given(st.integers(1, 500), st.integers(1, 500))
def test_odds_never_favour_the_attacker(attack: int, defence: int) -> None:
    a, d = odds_ratio(attack, defence)
    ratio = Fraction(attack, defence)
    assert 1 in (a, d)
    assert Fraction(a, d) <= ratio
    # ...and are the best ladder step that does so.
    better = Fraction(a + 1, 1) if d == 1 and ratio >= 1 else Fraction(1, d - 1) if d > 1 else None
    assert better is None or better > ratio


def test_odds_need_positive_strengths() -> None:
    with pytest.raises(ValueError, match="positive"):
        odds_ratio(0, 3)
    with pytest.raises(ValueError, match="positive"):
        odds_ratio(3, 0)


@given(st.integers(1, 99), st.integers(1, 99))
def test_odds_labels_round_trip(a: int, d: int) -> None:
    assert parse_odds(format_odds((a, d))) == (a, d)


@pytest.mark.parametrize("bad", ["3:1", "0-1", "3-", "x-1", "3 - 1", "3-1\n", "\n3-1"])
def test_parse_odds_rejects_bad_labels(bad: str) -> None:
    with pytest.raises(ValueError, match="not an odds label"):
        parse_odds(bad)


def test_odds_levels() -> None:
    assert [odds_level(parse_odds(c)) for c in LADDER] == list(range(-4, 6))
    assert odds_level((8, 1)) == 7 and odds_level((1, 7)) == -6


# -- columns ---------------------------------------------------------------------------------------


def test_odds_column_inside_the_table() -> None:
    pick = odds_column(table(), 13, 4)
    assert (pick.label, pick.index, pick.odds, pick.beyond_high, pick.beyond_low) == ("3-1", 6, "3-1", 0, 0)
    assert (pick.attack, pick.defence) == (13, 4)
    assert odds_column(table(), 4, 13).label == "1-4"


def test_odds_above_the_last_column_report_levels_beyond() -> None:
    # caldiero §12.4.3: an 8-1 is a 6-1 with +2 on the die.
    pick = odds_column(table(), 8, 1)
    assert (pick.label, pick.beyond_high, pick.beyond_low) == ("6-1", 2, 0)
    assert odds_column(table(), 6, 1).beyond_high == 0
    assert odds_column(table(), 8, 1, shift=-1).beyond_high == 1
    assert odds_column(table(), 8, 1, shift=-3).label == "5-1"


def test_odds_below_the_first_column_report_levels_beyond() -> None:
    # caldiero §12.4.2: below 1-5 is an automatic Ae; the ruleset reads beyond_low.
    pick = odds_column(table(), 1, 7)
    assert (pick.label, pick.beyond_low) == ("1-5", 2)
    assert odds_column(table(), 2, 11).beyond_low == 1       # 1 to 5.5 rounds to 1-6
    assert odds_column(table(), 1, 5).beyond_low == 0
    assert odds_column(table(), 1, 5, shift=-1).beyond_low == 1


def test_column_shifts() -> None:
    # caldiero §17.1.2: two columns to the left; §20.5.1: two to the right.
    assert odds_column(table(), 13, 4, shift=-2).label == "1-1"
    assert odds_column(table(), 13, 4, shift=2).label == "5-1"
    assert odds_column(table(), 13, 4, shift=2).shift == 2


def test_tables_with_fractional_odds_columns() -> None:
    columns = ["1-2", "1-1", "3-2", "2-1", "3-1"]
    t = table(columns=columns, rows={"1": ["a"] * 5, "2": ["b"] * 5}, results={"a": "a", "b": "b"})
    assert odds_column(t, 8, 5).label == "3-2"     # 1.6
    assert odds_column(t, 7, 5).label == "1-1"     # 1.4
    assert odds_column(t, 10, 5).label == "2-1"
    assert odds_column(t, 12, 3).beyond_high == 1


@given(st.integers(1, 80), st.integers(1, 80), st.integers(-4, 4))
def test_odds_column_matches_reference(attack: int, defence: int, shift: int) -> None:
    ratio = Fraction(attack, defence)
    ladder = [Fraction(*parse_odds(c)) for c in LADDER]
    # Reference: position on the ladder extended without end, in the defender's favour.
    if ratio >= 1:
        position = int(ratio) - 1 + 4
    else:
        position = 4 - (-(-defence // attack) - 1)
    position += shift
    pick = odds_column(table(), attack, defence, shift)
    assert pick.index == min(max(position, 0), len(LADDER) - 1)
    assert pick.beyond_high == max(0, position - (len(LADDER) - 1))
    assert pick.beyond_low == max(0, -position)
    if shift == 0 and pick.beyond_high == 0 and pick.beyond_low == 0:
        assert ladder[pick.index] <= ratio


def test_label_columns() -> None:
    t = table(BOMBARDMENT)
    assert label_column(t, "3").index == 2
    pick = label_column(t, "3", shift=3)
    assert (pick.label, pick.beyond_high) == ("4+", 2)
    assert label_column(t, "1", shift=-1).beyond_low == 1
    with pytest.raises(ValueError, match="has no column '9'"):
        label_column(t, "9")
    with pytest.raises(ValueError, match="not indexed by odds"):
        odds_column(t, 3, 1)


# -- modifiers and look-ups -------------------------------------------------------------------------


def test_modifiers_are_summed_and_capped() -> None:
    mods = [Modifier("disorganised defender (§15.1)", 2), Modifier("efficiency (§12.3.2)", 3)]
    assert sum_modifiers(mods, 4) == (4, 5)
    assert sum_modifiers([Modifier("x", -7)], 4) == (-4, -7)
    assert sum_modifiers(mods, None) == (5, 5)
    assert sum_modifiers([], 4) == (0, 0)


def test_look_up_reads_the_cell_and_records_everything() -> None:
    t = table()
    pick = odds_column(t, 13, 4)
    result = look_up(t, pick, 3, [Modifier("general (§12.4.4)", 1)])
    assert result.result == "R46" and result.row == 4 and result.modified_die == 4
    record = result.record()
    assert json.loads(json.dumps(record)) == record
    assert record["table"] == "test_crt" and record["provisional"] is True
    assert record["column"] == "3-1" and record["odds"] == "3-1" and record["die"] == 3
    assert record["modifiers"] == [{"reason": "general (§12.4.4)", "value": 1}]
    assert not any(isinstance(v, float) for v in record.values())


def test_look_up_clamps_to_the_rows_of_the_table() -> None:
    t = table()
    pick = odds_column(t, 1, 1)
    high = look_up(t, pick, 6, [Modifier("a", 3), Modifier("b", 3)])
    assert (high.modifier_total, high.modifier_uncapped, high.modified_die, high.row) == (4, 6, 10, 6)
    low = look_up(t, pick, 1, [Modifier("a", -2)])
    assert (low.modified_die, low.row, low.result) == (-1, 1, "R14")
    assert look_up(t, pick, 6, [Modifier("a", 3), Modifier("b", 3)], cap=1).modifier_total == 1


# -- table validation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"rows": {**CRT["rows"], "3": ["R11"]}}, ("$.rows.3", "has 1 results for 10 columns")),
        ({"rows": {**CRT["rows"], "2": ["??"] * 10}}, ("$.rows.2[0]", "result '??' is not explained in $.results")),
        ({"rows": {k: v for k, v in CRT["rows"].items() if k != "3"}}, ("$.rows", "die results must be contiguous, got [1, 2, 4, 5, 6]")),
        ({"rows": {**CRT["rows"], "x": CRT["rows"]["1"]}}, ("$.rows.x", "row keys must be integers (die results)")),
        ({"columns": ["1-5", *LADDER[1:-1], "6:1"]}, ("$.columns[9]", "'6:1' is not an odds label like '3-1' or '1-2'")),
        ({"columns": ["1-4", "1-5", *LADDER[2:]]}, ("$.columns[1]", "1-5 must be better odds than 1-4")),
        ({"columns": ["2-3", *LADDER[1:]]}, ("$.columns[0]", "the first and last odds columns must be N-1 or 1-N")),
        ({"columns": ["1-5", "1-5", *LADDER[2:]]}, ("$.columns[1]", "'1-5' appears twice")),
        ({"modifier_cap": -1}, ("$.modifier_cap", "Input should be greater than or equal to 0")),
        ({"extra": 1}, ("$.extra", "Extra inputs are not permitted")),
    ],
)
def test_invalid_tables_report_path_and_reason(changes: dict[str, Any], expected: tuple[str, str]) -> None:
    with pytest.raises(DataError) as info:
        table(**changes)
    assert DataProblem("test-table", *expected) in info.value.problems, info.value.problems
    assert str(info.value).startswith("test-table: ")


def test_load_table_from_file(tmp_path: Path) -> None:
    path = tmp_path / "crt.json"
    path.write_text(json.dumps(CRT), encoding="utf-8")
    assert load_table(path).columns == tuple(LADDER)
    path.write_text("{", encoding="utf-8")
    with pytest.raises(DataError, match=r"crt\.json: line 1 column 2: not valid JSON"):
        load_table(path)


def test_a_halving_rounds_as_it_says_and_none_leaves_the_value() -> None:
    """A halving field's value (`Halving`: caldiero §1.4, arrivano §1.3 round up unless the rule says otherwise)."""
    up, down = Halving(rounding="up", rule="caldiero §1.4"), Halving(rounding="down", rule="arrivano §11.0.1")
    assert [(halved(v, up), halved(v, down), halved(v, None)) for v in (0, 1, 5, 6)] == \
        [(0, 0, 0), (1, 0, 1), (3, 2, 5), (3, 3, 6)]


@pytest.mark.parametrize("flag", [True, False])
def test_a_halving_given_as_an_older_folder_s_flag_says_what_to_write(flag: bool) -> None:
    """A data folder copied before halvings were data (true/false) is told the object to write, and to leave out a
    false, at the field's path."""
    with pytest.raises(DataError) as info:
        validated(Halved, {"halving": flag}, "terrain.json")
    [problem] = info.value.problems
    assert (problem.path, problem.problem) == ("$.halving", (
        'a halving is {"rounding": "up" or "down", "rule": "<section>"} (an older folder\'s true was '
        '{"rounding": "up"}: caldiero §1.4, arrivano §1.3); where nothing is halved (false), leave the field out'))


class Halved(StrictModel):
    halving: Halving | None = None
