"""The return of eliminated units (adjudicator/parabellum/reinforcements.py), for both variants: caldiero §12.8 and
arrivano §12.8 (D21): gone for good or back on the track, and back the next turn near a commander, else two later."""

from __future__ import annotations

from dataclasses import dataclass, field

from arbitro.adjudicator.parabellum import reinforcements
from arbitro.adjudicator.parabellum.variant import Variant


@dataclass
class Position:
    """Just what the return asks of a position: the unit's hex, its general and its formation's officers."""

    hexes: dict[str, str]
    general: str | None = "gen"
    officers: list[str] = field(default_factory=list)

    def hex_of(self, u: str) -> str | None:
        return self.hexes.get(u)

    def general_of(self, u: str) -> str | None:
        return self.general

    def officers_of(self, u: str) -> list[str]:
        return self.officers


def reaching(ranges: dict[str, set[str]]) -> reinforcements.InRange:
    return lambda leader, h: h in ranges.get(leader, set())


def test_a_unit_with_a_reduced_side_returns_unless_a_rule_says_otherwise(variant: Variant) -> None:
    """§12.8 in both: a full-strength unit with a reduced side returns; already reduced, single-step, or eliminated
    for good by its rule (a failed rout test, a retreat off the map), it does not."""
    assert not reinforcements.eliminated_for_good(False, False, True)
    assert reinforcements.eliminated_for_good(False, True, True)
    assert reinforcements.eliminated_for_good(False, False, False)
    assert reinforcements.eliminated_for_good(True, False, True)


def test_it_returns_next_turn_within_its_generals_range_else_two_turns_later(variant: Variant) -> None:
    w = Position({"u": "1010"})
    assert reinforcements.return_turn(w, "u", 3, reaching({"gen": {"1010"}})) == 4
    assert reinforcements.return_turn(w, "u", 3, reaching({"gen": {"1011"}})) == 5
    assert reinforcements.return_turn(Position({"u": "1010"}, general=None), "u", 3, reaching({})) == 5


def test_an_officer_of_its_formation_counts_too(variant: Variant) -> None:
    """D21: arrivano §12.8 counts a general *or officer* of the formation; Caldiero has no officers (D3), so its
    World answers none and only the general counts."""
    w = Position({"u": "1010"}, officers=["off1", "off2"])
    assert reinforcements.return_turn(w, "u", 3, reaching({"off2": {"1010"}})) == 4
    assert reinforcements.return_turn(w, "u", 3, reaching({"other": {"1010"}})) == 5


def test_a_unit_off_the_map_is_never_near(variant: Variant) -> None:
    assert reinforcements.return_turn(Position({}), "u", 3, lambda leader, h: True) == 5
