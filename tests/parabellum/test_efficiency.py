"""Efficiency tests as rolled, asked of a position through the kernel's World (caldiero §13.1-§13.2, arrivano
§13.1-§13.2), run for both variants: what a commander adds comes from the variant (D9)."""

from __future__ import annotations

from arbitro.adjudicator.parabellum import efficiency
from arbitro.adjudicator.parabellum.variant import Variant
from tests.parabellum.position import Piece, Position


def position(general_at: str, readings: dict[str, str] | None = None) -> Position:
    """f1's units at 1612 (a, b) and 1616 (c); its general g (initiative 2) at `general_at`; the French chief at 1616."""
    units = {"a": Piece("france", "1612"), "b": Piece("france", "1612"), "c": Piece("france", "1616"),
             "z": Piece("france", "1616", formation="f2")}
    return Position(units, leaders={"g": general_at, "chief": "1616"}, generals={"f1": "g"},
                    leader_info={"g": ("general", "france", "f1", 2), "chief": ("commander_in_chief", "france", None, 3)},
                    values={"a": 3, "b": 4}, readings=readings or {})


def test_a_general_in_or_next_to_the_hex(variant: Variant) -> None:
    """D9: caldiero §13.2 adds the unit's own general's initiative to its value when he is in or next to its hex;
    arrivano §13.2 gives -1 to the die when he is in the hex. Neither without him."""
    here, near, far = position("1612"), position("1613"), position("1620")
    if variant.book == "caldiero":
        assert efficiency.test_values(variant, here, ["a", "b"]) == {"a": 5, "b": 6}
        assert efficiency.test_values(variant, near, ["a", "b"]) == {"a": 5, "b": 6}
        assert efficiency.die_modifier(variant, here, ["a", "b"]) == 0
    else:
        assert efficiency.test_values(variant, here, ["a", "b"]) == {"a": 3, "b": 4}
        assert efficiency.die_modifier(variant, here, ["a", "b"]) == -1
        assert efficiency.die_modifier(variant, near, ["a", "b"]) == 0
    assert efficiency.test_values(variant, far, ["a", "b"]) == {"a": 3, "b": 4}
    assert efficiency.die_modifier(variant, far, ["a", "b"]) == 0


def test_the_chief_for_any_formation_by_reading(variant: Variant) -> None:
    """arrivano §13.2, interpretation cic_efficiency_any_formation: the chief in the hex gives -1 to f2's unit only
    when the reading says any formation; he gives nothing in caldiero §13.2 (only the unit's own general)."""
    narrow, broad = position("1620"), position("1620", {"cic_efficiency_any_formation": "true"})
    assert efficiency.die_modifier(variant, narrow, ["z"]) == 0
    assert efficiency.die_modifier(variant, broad, ["z"]) == (-1 if variant.book == "arrivano" else 0)
    assert efficiency.die_modifier(variant, broad, []) == 0
