"""The system's arithmetic, with the rulebook's own examples (caldiero §12.3.1, §12.5.1, §12.4.3, §13.1.1)."""

from __future__ import annotations

from arbitro.adjudicator.caldiero.loader import CALDIERO_DATA
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import assault, efficiency
from arbitro.adjudicator.tables import Modifier, sum_modifiers
from arbitro.adjudicator.parabellum.efficiency import most_sp_values


def test_efficiency_by_most_sp_example() -> None:
    # §12.3.1: 2 SP at 2, 3 SP at 3, 2 SP at 4 -> 3
    assert most_sp_values([(2, 2), (3, 3), (4, 2)]) == [3]


def test_efficiency_tie_lets_the_player_choose() -> None:
    # §12.3.1: 2 SP at each value -> any of 2..4
    assert most_sp_values([(2, 2), (3, 2), (4, 2)]) == [2, 3, 4]


CRT = assault.crt(CALDIERO_VARIANT, CALDIERO_DATA.shipped().scenarios["caldiero"].crt)


def odds(attack: int, defence: int, shift: int = 0, shift_beyond: str = "extra_drm") -> assault.Odds:
    """The kernel's odds for Caldiero, under the reading `shift_beyond_6_1`."""
    return assault.odds(CRT, attack, defence, shift, shifts_beyond_last=shift_beyond != "capped")


def odds_label(attack: int, defence: int) -> str:
    return assault.odds_label(CRT, attack, defence)


def test_odds_13_to_4_is_3_to_1() -> None:
    assert odds_label(13, 4) == "3-1"  # §12.5.1: 3.25-1 rounded for the defender
    assert odds(13, 4).column.label == "3-1"


def test_odds_rounded_for_the_defender_when_weaker() -> None:
    assert odds_label(4, 13) == "1-4"
    assert odds_label(1, 5) == "1-5"
    assert odds_label(1, 6) == "below 1-5"


def test_8_to_1_is_6_to_1_with_plus_2() -> None:
    result = odds(8, 1)  # §12.4.3
    assert (result.column.label, result.excess_drm, result.below_minimum) == ("6-1", 2, False)


def test_below_1_5_is_automatic_ae() -> None:
    assert odds(1, 6).below_minimum  # §12.4.2
    assert odds(0, 6).below_minimum  # no attack strength at all
    assert odds(1, 5, shift=-1).below_minimum  # shifted below the first column
    assert not odds(1, 6, shift=1).below_minimum


def test_shifts_past_6_1_readings() -> None:
    # a 6-1 shifted two columns right
    assert odds(6, 1, 2, "extra_drm").excess_drm == 2
    assert odds(6, 1, 2, "capped").excess_drm == 0
    # an 8-1 keeps its own two levels under "capped"; a shift left still takes one away
    assert odds(8, 1, 1, "capped").excess_drm == 2
    assert odds(8, 1, -1, "capped").excess_drm == 1
    assert odds(8, 1, 1, "extra_drm").excess_drm == 3


def test_drm_never_beyond_4() -> None:
    assert [sum_modifiers([Modifier('drm', t)], CRT.modifier_cap)[0] for t in (7, -6, 3)] == [4, -4, 3]  # §12.5.2, crt.json's drm_cap


def test_efficiency_test_1_always_passes_6_always_fails() -> None:
    assert efficiency.passes(CALDIERO_VARIANT, 1, 0) and not efficiency.passes(CALDIERO_VARIANT, 6, 9)  # §13.1.1
    assert efficiency.passes(CALDIERO_VARIANT, 3, 3) and not efficiency.passes(CALDIERO_VARIANT, 4, 3)  # §13.1


from hypothesis import given
from hypothesis import strategies as st


@given(st.integers(1, 60), st.integers(1, 60))
def test_odds_never_favour_the_attacker(attack: int, defence: int) -> None:
    label = odds_label(attack, defence)
    if label == "below 1-5":  # §12.4.2
        assert attack * 5 < defence
        return
    left, right = (int(x) for x in label.split("-"))
    # the column's ratio left:right is never better for the attacker than the true ratio (§12.5.1)
    assert left * defence <= attack * right
    # and it is the best such column: one step better would exceed the true ratio
    if left > 1 or right == 1:
        assert (left + 1) * defence > attack * right
    else:
        assert left * defence > attack * (right - 1)
