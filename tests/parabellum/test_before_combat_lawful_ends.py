"""caldiero §14.1, arrivano §14.1 under the reading retreat_before_combat_length `one_hex`: one reading of the kernel
in both variants, the lines ranked among hexes where the stack may lawfully stand (§7.1).

"possono ritirarsi di un esagono": a hex where the cavalry may not stand is no choice, so §12.6's "se possibile" and
§12.6.1's "se ogni altra opzione non è possibile" are weighed among lawful hexes only. When every hex behind the
cavalry holds friendly infantry and its flanks are empty (in the attacker's ZoC), the flanks are its one-hex retreat
(§12.6.1), in both readings of §12.6 (D34: Caldiero's hex by hex, Arrivano's by end). Found by rev-a (eleventh
session): Caldiero's hex by hex had taken the best tier (the full hexes behind) before asking stacking."""

from __future__ import annotations

from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum.retreat_ground import before_combat_lines
from arbitro.adjudicator.parabellum.variant import Variant
from tests.parabellum.position import Piece
from tests.parabellum.test_before_combat import BEHIND, CAVALRY, ENEMY_AT, GRID, Ground, world


def test_kernel_one_hex_reading_is_one_reading_in_both_variants(variant: Variant) -> None:
    """Infantry behind the cavalry, its flanks empty: both variants must offer the same lawful hexes (the flanks)."""
    w = world(variant)
    flanks = [h for h in GRID.neighbours(CAVALRY) if h not in BEHIND and h != ENEMY_AT]
    w.units = {u: p for u, p in w.units.items() if p.hex not in flanks}
    assert sorted(ln.to for ln in before_combat_lines(variant, w, ["c1"])) == sorted(flanks)


def test_arrivano_as_forced_on_the_edge_with_no_lawful_hex_may_leave_the_map() -> None:
    """arrivano §12.8.1 under the rulings retreat_before_combat_off_map `as_forced` and off_map_retreat `only_way`: a
    forced retreat leaves the map only when no line stays on it; full hexes being no choice for `one_hex`, a unit on
    the map's edge whose every free neighbour is full has no line on the map, and leaving is its one retreat (before
    the lawful ranking it was not asked: the lines through the full hexes went on and were dropped)."""
    start = "1005"
    enemy, *others = GRID.neighbours(start)
    units = {"c1": Piece("austria", start, arm="cavalry"), "fr": Piece("france", enemy)}
    units |= {f"b{i}": Piece("austria", h, arm="infantry") for i, h in enumerate(others)}
    w = Ground(units=units, readings={"retreat_before_combat_off_map": "as_forced", "off_map_retreat": "only_way"},
               options=frozenset())
    assert GRID.is_edge(start)
    assert [(ln.path, ln.off_map) for ln in before_combat_lines(ARRIVANO_VARIANT, w, ["c1"])] == [((), True)]
