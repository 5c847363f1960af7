"""The system's arithmetic, with the rulebook's own examples (caldiero §12.3.1, §12.5.1, §12.4.3, §13.1.1)."""

from __future__ import annotations

from arbitro.adjudicator.caldiero.profile import CALDIERO
from arbitro.adjudicator.caldiero.system_combat import clamp_drm, final_column, odds_index, odds_label
from arbitro.adjudicator.caldiero.system_efficiency import efficiency_choices_from_sp, passes


def test_efficiency_by_most_sp_example() -> None:
    # §12.3.1: 2 SP at 2, 3 SP at 3, 2 SP at 4 -> 3
    assert efficiency_choices_from_sp({2: 2, 3: 3, 4: 2}) == [3]


def test_efficiency_tie_lets_the_player_choose() -> None:
    # §12.3.1: 2 SP at each value -> any of 2..4
    assert efficiency_choices_from_sp({2: 2, 3: 2, 4: 2}) == [2, 3, 4]


def test_odds_13_to_4_is_3_to_1() -> None:
    index = odds_index(13, 4)  # §12.5.1: 3.25-1 rounded for the defender
    assert odds_label(index, CALDIERO) == "3-1"
    assert final_column(index, CALDIERO).column == "3-1"


def test_odds_rounded_for_the_defender_when_weaker() -> None:
    assert odds_label(odds_index(4, 13), CALDIERO) == "1-4"
    assert odds_label(odds_index(1, 5), CALDIERO) == "1-5"
    assert odds_index(1, 6) < 0


def test_8_to_1_is_6_to_1_with_plus_2() -> None:
    result = final_column(odds_index(8, 1), CALDIERO)  # §12.4.3
    assert (result.column, result.extra_drm, result.below_minimum) == ("6-1", 2, False)


def test_below_1_5_is_automatic_ae() -> None:
    assert final_column(odds_index(1, 6), CALDIERO).below_minimum  # §12.4.2


def test_shifts_past_6_1_readings() -> None:
    index = odds_index(6, 1) + 2  # a 6-1 shifted two columns right
    assert final_column(index, CALDIERO, "extra_drm", shifted=2).extra_drm == 2
    assert final_column(index, CALDIERO, "capped", shifted=2).extra_drm == 0


def test_drm_never_beyond_4() -> None:
    assert clamp_drm(7, CALDIERO) == 4 and clamp_drm(-6, CALDIERO) == -4 and clamp_drm(3, CALDIERO) == 3


def test_efficiency_test_1_always_passes_6_always_fails() -> None:
    assert passes(1, 0) and not passes(6, 9)  # §13.1.1
    assert passes(3, 3) and not passes(4, 3)  # §13.1


from hypothesis import given
from hypothesis import strategies as st


@given(st.integers(1, 60), st.integers(1, 60))
def test_odds_never_favour_the_attacker(attack: int, defence: int) -> None:
    label = odds_label(odds_index(attack, defence), CALDIERO)
    left, right = (int(x) for x in label.split("-"))
    # the column's ratio left:right is never better for the attacker than the true ratio (§12.5.1)
    assert left * defence <= attack * right
    # and it is the best such column: one step better would exceed the true ratio
    if left > 1 or right == 1:
        assert (left + 1) * defence > attack * right
    else:
        assert left * defence > attack * (right - 1)
