"""The return of eliminated units (adjudicator/parabellum/reinforcements.py), for both variants: caldiero §12.8 and
arrivano §12.8 (D21): gone for good or back on the track, and back the next turn near a commander, else two later."""

from __future__ import annotations

from dataclasses import dataclass, field

from arbitro.adjudicator.parabellum import reinforcements
from arbitro.adjudicator.parabellum.data import FormationData
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.ruleset import Rule
from tests.parabellum.position import GRID, Piece
from tests.parabellum.position import Position as Pos


@dataclass
class Position:
    """Just what the return asks of a position: the unit's hex, its general and its formation's officers (by unit:
    the officers of the returning unit's formation, not another's)."""

    hexes: dict[str, str]
    general: str | None = "gen"
    officers: dict[str, list[str]] = field(default_factory=dict)

    def hex_of(self, u: str) -> str | None:
        return self.hexes.get(u)

    def general_of(self, u: str) -> str | None:
        return self.general

    def officers_of(self, u: str) -> list[str]:
        return self.officers.get(u, [])


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
    w = Position({"u": "1010"}, officers={"u": ["off1", "off2"], "v": ["other"]})
    assert reinforcements.return_turn(w, "u", 3, reaching({"off2": {"1010"}})) == 4
    assert reinforcements.return_turn(w, "u", 3, reaching({"other": {"1010"}})) == 5


def test_a_unit_off_the_map_is_never_near(variant: Variant) -> None:
    assert reinforcements.return_turn(Position({}), "u", 3, lambda leader, h: True) == 5


# --- where a returning unit is placed (caldiero §12.8, arrivano §12.8.2), written once ------------------------------
GENERAL_HEX = "1505"
RING = set(GRID.within(GENERAL_HEX, 1))  # his hex and the six around it


def returning(**units: Piece) -> Pos:
    """A position with `back` (france, off the map) returning, its general `gen` at GENERAL_HEX and `units`."""
    return Pos(units={"back": Piece("france", None), **units}, leaders={"gen": GENERAL_HEX}, generals={"f1": "gen"})


def test_a_returning_unit_goes_with_its_general_or_next_to_him(variant: Variant) -> None:
    """Both books: the general's hex or one adjacent (caldiero "con il proprio Generale o adiacenti", arrivano "entro
    un esagono"), in hex order; a commander off the map, or none, offers nothing."""
    assert reinforcements.return_hexes(variant, returning(), "back") == sorted(RING)
    off = Pos(units={"back": Piece("france", None)}, leaders={}, generals={"f1": "gen"})
    assert reinforcements.return_hexes(variant, off, "back") == []
    assert reinforcements.return_hexes(variant, Pos(units={"back": Piece("france", None)}), "back") == []


def test_never_in_enemy_zoc_nor_with_the_enemy_nor_over_the_stacking_limits(variant: Variant) -> None:
    """Not in EZoC (both books), not where the enemy stands, within §7.1's limits (arrivano "rispettando le regole
    dello stacking"; caldiero §7.1 always binds); never where the variant closes the hex (`closed_to`, caldiero
    §9.2.1)."""
    outside = sorted(set(GRID.within(GENERAL_HEX, 2)) - RING)[0]
    crowded = sorted(RING - set(GRID.neighbours(outside)) - {GENERAL_HEX})[0]
    w = returning(enemy=Piece("austria", outside), f1=Piece("france", crowded), f2=Piece("france", crowded))
    zoc = set(GRID.neighbours(outside))
    assert reinforcements.return_hexes(variant, w, "back") == sorted(RING - zoc - {crowded})
    closed = sorted(RING - zoc - {crowded})[0]

    class Closing(type(variant)):  # type: ignore[misc]
        """Closes `closed` to the French of this position alone (as caldiero §9.2.1 closes a row to one side)."""

        def closed_to(self, at: object, side: str, h: str) -> tuple[Rule, str] | None:
            return (Rule(variant.book, "9.2.1", "closed"), "closed") if (h, side, at) == (closed, "france", w) else None

    assert closed not in reinforcements.return_hexes(Closing(), w, "back")
    held = sorted(RING - {GENERAL_HEX})[0]
    w = returning(enemy=Piece("austria", held, status="routed"))  # a routed unit exerts no ZoC, still holds its hex
    assert held not in reinforcements.return_hexes(variant, w, "back")


def test_any_of_the_commanders_the_variant_names_will_do(variant: Variant) -> None:
    """caldiero §15.4.3: the French reserve returns with either French general; the hexes are their rings' union."""
    printed = tuple(FormationData(id=f, side="france", general=f, initial_order=None) for f in ("massena", "augereau"))
    w = Pos(units={"back": Piece("france", None, formation="riserva")}, leaders={"massena": "1505", "augereau": "2010"},
            formations=(*printed, FormationData(id="riserva", side="france", general=None, initial_order=None, reserve=True)))

    class Either(type(variant)):  # type: ignore[misc]
        def return_commanders(self, w: object, u: str) -> list[str | None]:
            return ["massena", "augereau"]

    both = sorted(RING | set(GRID.within("2010", 1)))
    assert reinforcements.return_hexes(Either(), w, "back") == both
    if variant.book == "caldiero":  # its own hook names them, the order of battle's reserve (arrivano's has none)
        assert reinforcements.return_hexes(variant, w, "back") == both
