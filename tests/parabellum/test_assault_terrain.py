"""The defending terrain of an assault (parabellum/assault.terrain_effect; caldiero §10 and its terrain effects
table, arrivano §10, §10.1, §17.2.6), for both variants: the best terrain for the defender in each hex, a benefit
that needs a Defence order only with one, the best of several hexes."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

from arbitro.adjudicator.parabellum import assault
from arbitro.adjudicator.parabellum.variant import Variant
from tests.parabellum.position import Piece, Position


def terrain(shift: int, drm: int = 0, defence: bool = False) -> SimpleNamespace:
    return SimpleNamespace(assault_shift_left=shift, assault_drm=drm, requires_defence_order=defence)


@dataclass
class Ground(Position):
    """A Position whose hexes carry named terrains (`ground`: hex -> [(name, effect)]; plain elsewhere)."""

    ground: dict[str, list[tuple[str, SimpleNamespace]]] = field(default_factory=dict)

    def _of(self, h: str) -> list[tuple[str, SimpleNamespace]]:
        return self.ground.get(h, [("plain", terrain(0))])

    @property
    def hexmap(self) -> SimpleNamespace:
        return SimpleNamespace(hex=lambda h: SimpleNamespace(terrains=[name for name, _ in self._of(h)]))

    def terrains(self, h: str) -> list[SimpleNamespace]:
        return [effect for _, effect in self._of(h)]


def test_the_defender_has_the_best_terrain_and_a_defence_order_benefit_only_with_one(variant: Variant) -> None:
    """arrivano §10: a hex's terrains, the defender's pick (a larger shift, then a lower modifier); §10.1, §17.2.6:
    a village's or redoubt's benefit only to units under Defence; two defending hexes: the better of them."""
    units = {"a": Piece("austria", "1612"), "b": Piece("austria", "1614")}
    w = Ground(units, ground={"1612": [("plain", terrain(0)), ("village", terrain(1, 0, defence=True))],
                              "1614": [("woods", terrain(0, -1)), ("hill", terrain(0, 0))]})
    no_defence, defence = (lambda u: False), (lambda u: True)
    assert assault.terrain_effect(w, ["1612"], ["a"], no_defence) == (0, 0, "")
    assert assault.terrain_effect(w, ["1612"], ["a"], defence) == (1, 0, "village")
    assert assault.terrain_effect(w, ["1614"], ["b"], no_defence) == (0, -1, "woods")
    assert assault.terrain_effect(w, ["1612", "1614"], ["a", "b"], defence) == (1, 0, "village")
    assert assault.terrain_effect(w, ["1612", "1614"], ["a", "b"], no_defence) == (0, -1, "woods")
