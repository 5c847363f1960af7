"""Stacking asked of a position through the kernel's World (caldiero §7.1-§7.1.1, arrivano §7.1-§7.1.1,
§17.2.3), run for both variants: the same limits, the messages citing the variant's book."""

from __future__ import annotations

from arbitro.adjudicator.parabellum import stacking
from arbitro.adjudicator.parabellum.data import StackPattern
from arbitro.adjudicator.parabellum.variant import Variant
from tests.parabellum.position import Piece, Position

W = Position({
    "i1": Piece("france", "1612"), "i2": Piece("france", None), "i3": Piece("france", None, formation="f2"),
    "c1": Piece("france", None, arm="cavalry"), "a1": Piece("france", None, arm="artillery", formation="f3"),
    "a2": Piece("france", None, arm="artillery", formation="f4"), "r1": Piece("france", None, status="routed"),
    "r2": Piece("france", None, status="routed", arm="cavalry", formation="f2"), "e1": Piece("austria", "1613"),
})


def test_section_7_1_in_both_books(variant: Variant) -> None:
    """§7.1: two of one arm and formation; one artillery with any unit; two artillery; never three."""
    book = variant.cite("7.1")
    assert stacking.stack_problem(variant, W, ["i1"]) is None
    assert stacking.stack_problem(variant, W, ["i1", "i2"]) is None
    assert stacking.stack_problem(variant, W, ["i1", "a1"]) is None and stacking.stack_problem(variant, W, ["a1", "a2"]) is None
    assert stacking.stack_problem(variant, W, ["i1", "i3"]) == f"i1 and i3: two units of different formations ({book})"
    assert stacking.stack_problem(variant, W, ["i1", "c1"]) == f"i1 and c1: infantry and cavalry may not stack ({book})"
    assert stacking.stack_problem(variant, W, ["i1", "i2", "a1"]) == f"3 units in one hex: at most two ({book})"


def test_routed_units_stack_only_with_routed_units(variant: Variant) -> None:
    """§7.1.1 in both, read before the make-up: a routed unit with any unit not in rout is refused."""
    assert stacking.stack_problem(variant, W, ["r1", "a1"]) == \
        f"routed units may not stack with friends not in rout ({variant.cite('7.1.1')})"
    assert stacking.stack_problem(variant, W, ["r1", "i2"]) is not None
    assert stacking.stack_problem(variant, W, ["r1", "r2"]) == f"r1 and r2: infantry and cavalry may not stack ({variant.cite('7.1')})"


def test_fits_a_hex_with_its_occupants_and_no_enemy(variant: Variant) -> None:
    """The hex's own units count (a unit already there is not counted twice); never with the enemy's (§7.1)."""
    assert stacking.fits(W, "1612", ["i2"]) and stacking.fits(W, "1612", ["i1"]) and stacking.fits(W, "1610", [])
    assert not stacking.fits(W, "1612", ["c1"]) and not stacking.fits(W, "1612", ["i2", "a1"])
    assert not stacking.fits(W, "1613", ["a1"])


def test_a_scenario_prints_its_own_limits(variant: Variant) -> None:
    """arrivano §17.2.3 (Campotenese): two cavalry of one formation, or one artillery with any one unit; no
    two infantry. The limits are the World's data, so the same kernel reads them."""
    strict = Position(W.units, limits=(StackPattern(cavalry=2, same_formation=True),
                                       StackPattern(artillery=1, infantry_or_cavalry=1)))
    assert not stacking.fits(strict, "1612", ["i2"]) and stacking.fits(strict, "1612", ["a1"])
    assert stacking.stack_problem(variant, strict, ["i1", "i2"]) == f"i1 and i2: over the stacking limits ({variant.cite('7.1')})"


def test_a_retreat_and_a_move_read_one_stacking_rule(variant: Variant) -> None:
    """`fits` (retreats, arrivals) and `stack_problem` (a move's end) are one reading of §7.1-§7.1.1: for every
    group of one side's units, under both books' limits and a scenario's own, they agree (rev-kernel-a 4)."""
    strict = Position(W.units, limits=(StackPattern(cavalry=2, same_formation=True),
                                       StackPattern(artillery=1, infantry_or_cavalry=1)))
    french = [u for u, p in W.units.items() if p.side == "france"]
    groups = [[u] for u in french] + [[u, v] for u in french for v in french if u < v] + [["i1", "i2", "a1"]]
    for world in (W, strict):
        for group in groups:
            assert stacking.fits(world, "1610", group) == (stacking.stack_problem(variant, world, group) is None), group
