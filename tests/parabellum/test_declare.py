"""Declaring an assault through the kernel's World (adjudicator/parabellum/declare.py), run for both variants:
who may attack (caldiero §12.2, §12.2.3, §11.0.1, §15; arrivano §12.2, §12.2.3, §11.0.2, §15) and the enemy hexes an
attack must include (§12.2.1 in both; a charge: caldiero §20.2.2, arrivano §14.2.1)."""

from __future__ import annotations

from arbitro.adjudicator.parabellum import declare
from arbitro.adjudicator.parabellum.variant import Variant
from tests.parabellum.position import Piece, Position


def test_only_good_order_non_artillery_units_that_have_not_attacked_are_fit(variant: Variant) -> None:
    w = Position({"a": Piece("france", "1612"), "b": Piece("france", "1613", "disordered"),
                  "c": Piece("france", "1614", arm="artillery"), "d": Piece("france", None),
                  "e": Piece("france", "1615"), "f": Piece("france", "1616", arm="cavalry")}, attacked=frozenset({"e"}))
    assert [u for u in sorted(w.units) if declare.fit_to_attack(w, u)] == ["a", "f"]
    assert declare.ATTACKING_ORDERS == {"attack", "advance"}


def test_every_enemy_projecting_a_zoc_not_yet_attacked_must_be_attacked(variant: Variant) -> None:
    w = Position({"a": Piece("france", "1612"), "b": Piece("france", "1612"), "x": Piece("austria", "1613"),
                  "y": Piece("austria", "1712"), "z": Piece("austria", "1711", "disordered")},
                 attacked_here=("1712",))
    assert declare.hexes_to_attack(w, "france", ["a", "b"]) == ["1613"]  # 1712 attacked, 1711 exerts no ZoC
    w.attacked_here = ()
    assert declare.hexes_to_attack(w, "france", ["a"]) == ["1613", "1712"]


def test_a_charge_attacks_its_target_only(variant: Variant) -> None:
    """A charging cavalry ignores every other EZoC; where the state records its target (arrivano), that hex while
    enemies hold it; where its attack names it (caldiero), nothing more."""
    w = Position({"k": Piece("france", "1612", arm="cavalry"), "x": Piece("austria", "1613"),
                  "y": Piece("austria", "1712")}, charges={"k": "1712"})
    assert declare.hexes_to_attack(w, "france", ["k"]) == ["1712"]
    w.charges = {"k": "1614"}  # the charged hex emptied since
    assert declare.hexes_to_attack(w, "france", ["k"]) == []
    w.charges = {"k": None}
    assert declare.hexes_to_attack(w, "france", ["k"]) == []


def test_the_hex_sets_a_unit_may_attack_hold_what_it_must_and_skip_hexes_attacked(variant: Variant) -> None:
    """§12.4.1 and §12.2.1 in both: every set of enemy hexes next to the unit, none attacked this segment (§12.2.3),
    each holding the hexes it must attack (issue 19 item 7: the listings enumerate these, the attackers being a
    template)."""
    w = Position({"a": Piece("france", "1612"), "x": Piece("austria", "1613"), "y": Piece("austria", "1712"),
                  "z": Piece("austria", "1711", "disordered"), "f": Piece("france", "1611")})
    near = sorted(n for n in w.grid.neighbours("1612") if n in ("1613", "1712", "1711"))
    assert len(near) == 3  # three enemy hexes next to a; 1611 is a friend's
    every = declare.hex_sets(w, "france", "a", ())
    assert len(every) == 7 and all(list(t) == sorted(t) for t in every)
    assert declare.hex_sets(w, "france", "a", ["1613", "1712"]) == {("1613", "1712"), tuple(near)}
    w.attacked_here = ("1712",)
    assert declare.hex_sets(w, "france", "a", ["1613"]) == {("1613",), tuple(sorted(["1613", "1711"]))}
