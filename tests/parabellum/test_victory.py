"""Victory by objective hexes (adjudicator/parabellum/victory.py), for both variants: caldiero §18, arrivano §17.1.8
and §17.2.12 score the hexes each side occupies at the end; an empty hex is the variant's reading of `vp_control`."""

from __future__ import annotations

from dataclasses import dataclass, field

from arbitro.adjudicator.parabellum import victory
from arbitro.adjudicator.parabellum.data import ObjectiveHex
from arbitro.adjudicator.parabellum.variant import Variant

SIDES = ("france", "austria")


@dataclass
class Board:
    """Just what victory asks of a position: who occupies each hex, and the readings in force."""

    occupied: dict[str, str]
    readings: dict[str, str] = field(default_factory=dict)

    def side_at(self, h: str) -> str | None:
        return self.occupied.get(h)

    def reading(self, name: str) -> str:
        return self.readings.get(name, "occupied_at_end")


@dataclass(frozen=True)
class Level:
    min: int | None
    max: int | None
    name: str


OBJECTIVES = [victory.Objective("2020", {"france": 3, "austria": 3}), victory.Objective("1612", {"france": 1}),
              victory.Objective("1712", {"france": 2, "austria": 2})]


def test_each_side_scores_the_objectives_it_occupies(variant: Variant) -> None:
    """An objective counts for the side holding it, and only if it is worth something to that side."""
    w = Board({"2020": "france", "1612": "austria"})
    assert victory.objective_points(variant, w, OBJECTIVES, SIDES) == {"france": 3, "austria": 0}
    w = Board({"2020": "austria", "1612": "france", "1712": "france"})
    assert victory.objective_points(variant, w, OBJECTIVES, SIDES) == {"france": 3, "austria": 3}


def test_an_empty_objective_is_nobodys_by_default_in_both_books(variant: Variant) -> None:
    w = Board({})
    assert victory.holder(variant, w, "2020") is None
    assert victory.objective_points(variant, w, OBJECTIVES, SIDES) == {"france": 0, "austria": 0}


def test_the_reading_austrian_unless_french_is_caldieros_hook(variant: Variant) -> None:
    """caldiero §18 (reading vp_control: austrian_unless_french): an empty victory hex stays Austrian; arrivano has no
    such reading (§17.1.8, §17.2.12), so an empty hex scores for nobody whatever is asked."""
    w = Board({"1612": "france"}, {"vp_control": "austrian_unless_french"})
    expected = "austria" if variant.book == "caldiero" else None
    assert victory.holder(variant, w, "2020") == expected
    assert victory.holder(variant, w, "1612") == "france"
    points = victory.objective_points(variant, w, OBJECTIVES, SIDES)
    assert points == ({"france": 1, "austria": 5} if expected else {"france": 1, "austria": 0})


def test_levels_are_read_in_order_within_their_bounds(variant: Variant) -> None:
    """caldiero §18 lists levels by the least difference reaching them (read highest first); arrivano §17.2.12 by
    ranges of points: the first level whose bounds hold the score, none when no level does."""
    by_least = [Level(14, None, "decisive"), Level(8, None, "marginal"), Level(4, None, "tactical")]
    assert victory.level_for(by_least, 9).name == "marginal"
    assert victory.level_for(by_least, 14).name == "decisive"
    assert victory.level_for(by_least, 3) is None
    ranges = [Level(13, None, "french"), Level(10, 12, "draw"), Level(None, 9, "neapolitan")]
    assert [victory.level_for(ranges, s).name for s in (13, 12, 10, 9, -2)] == ["french", "draw", "draw",
                                                                                 "neapolitan", "neapolitan"]


def test_the_side_with_more_points_wins_a_tie_nobody(variant: Variant) -> None:
    assert victory.higher({"france": 4, "austria": 3}, SIDES) == "france"
    assert victory.higher({"france": 2, "austria": 3}, SIDES) == "austria"
    assert victory.higher({"france": 3, "austria": 3}, SIDES) is None


class Scored:
    """A Scoring whose automatic victory and bonus are given; it records the points it judged."""

    def __init__(self, automatic: victory.GameEnded | None = None, bonus: int = 0) -> None:
        self.found, self.extra, self.judged_vp = automatic, bonus, None  # type: ignore[var-annotated]

    def automatic(self, w: Board) -> victory.GameEnded | None:
        return self.found

    def objectives(self, w: Board) -> list[victory.Objective]:
        return OBJECTIVES

    def bonus(self, w: Board, vp: dict[str, int]) -> None:
        vp["austria"] += self.extra

    def judged(self, w: Board, vp: dict[str, int]) -> victory.GameEnded:
        self.judged_vp = dict(vp)
        return victory.GameEnded(winner=victory.higher(vp, SIDES), reason="points", rule="§18", points=vp)


@dataclass
class Sided(Board):
    sides: tuple[str, str] = SIDES


def test_final_result_counts_the_objectives_and_the_bonus_then_judges(variant: Variant) -> None:
    """caldiero §18, arrivano §17.1.8: the hexes each side holds, plus what the scenario adds (caldiero §20.1)."""
    scoring = Scored(bonus=2)
    ended = victory.final_result(variant, Sided({"2020": "austria", "1612": "france"}), scoring)  # type: ignore[arg-type]
    assert scoring.judged_vp == {"france": 1, "austria": 5} and ended.winner == "austria"


def test_an_automatic_victory_decides_before_any_point(variant: Variant) -> None:
    """arrivano §17.1.8: an automatic victory (Austria's, Lannes lost) ends the game whatever the points."""
    auto = victory.GameEnded(winner="austria", reason="Lannes lost", rule="§17.1.8", automatic=True)
    scoring = Scored(automatic=auto)
    assert victory.final_result(variant, Sided({"2020": "austria"}), scoring) is auto  # type: ignore[arg-type]
    assert scoring.judged_vp is None


def test_objective_hexes_are_scored_from_one_record_for_both_games() -> None:
    """caldiero §18 (both sides score each hex; §19.2.3: a place worth one less to the French) and arrivano §17.1.8,
    §17.2.12 (the sides the scenario names) read the same record (`data.ObjectiveHex`), in the data's order."""
    records = [ObjectiveHex(hex="1010", place="Caldiero", vp=3, provisional=False),
               ObjectiveHex(hex="1011", place=None, vp=1, provisional=True)]
    assert victory.scored(records, SIDES, {"france": ["Caldiero"]}) == [
        victory.Objective("1010", {"france": 2, "austria": 3}), victory.Objective("1011", {"france": 1, "austria": 1})]
    assert victory.scored(records, ("france",)) == [victory.Objective("1010", {"france": 3}),
                                                      victory.Objective("1011", {"france": 1})]
