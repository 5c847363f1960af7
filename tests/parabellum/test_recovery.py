"""Recovery (parabellum/recovery.py), run for both variants: who may try and what passing does (caldiero §15.3,
§15.3.1; arrivano §15.3, §15.3.1). When and which units try is each game's (D20)."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from arbitro.adjudicator.parabellum import recovery
from arbitro.adjudicator.parabellum.variant import Variant
from tests.parabellum.position import Piece, Position


@dataclass
class Units:
    """Units by id: (hex, status)."""

    units: dict[str, tuple[str, str]]

    def hex_of(self, u: str) -> str | None:
        return self.units[u][0]

    def status(self, u: str) -> str:
        return self.units[u][1]


def test_who_may_try(variant: Variant) -> None:
    """§15.3 in both: disordered or routed, outside enemy ZoC, the order allowing it; the order is asked last."""
    w = Units({"good": ("1612", "good"), "dis": ("1612", "disordered"), "rout": ("1613", "routed"),
               "zoc": ("1614", "disordered")})
    asked: list[str] = []

    def allows(u: str) -> bool:
        asked.append(u)
        return u != "rout"

    found = [u for u in sorted(w.units) if recovery.may_try(w, u, frozenset({"1614"}), allows)]
    assert found == ["dis"]
    assert sorted(asked) == ["dis", "rout"]  # never asked for a unit in good order or in enemy ZoC


def test_passing_is_one_level_better(variant: Variant) -> None:
    """§15.3.1 in both: routed to disordered, disordered to good order."""
    w = Units({"a": ("1612", "routed"), "b": ("1612", "disordered")})
    assert recovery.recovered(w, "a") == "disordered"
    assert recovery.recovered(w, "b") == "good"


@dataclass
class Ground:
    """Units and leaders by hex, each unit's and leader's formation, and the hexes around each hex."""

    units: dict[str, tuple[str, str]]  # unit -> (hex, formation)
    leaders: dict[str, tuple[str, str | None]]  # leader on the map -> (hex, formation; None: a chief)
    around: dict[str, tuple[str, ...]]

    @property
    def grid(self) -> "Ground":
        return self

    def within(self, h: str, radius: int) -> tuple[str, ...]:
        assert radius == 1
        return (h, *self.around.get(h, ()))

    def hex_of(self, u: str) -> str | None:
        return self.units[u][0]

    def formation_of(self, u: str) -> str:
        return self.units[u][1]

    def leaders_at(self, h: str) -> list[str]:
        return sorted(le for le, (at, _) in self.leaders.items() if at == h)

    def leader_formation(self, le: str) -> str | None:
        return self.leaders[le][1]


@dataclass
class Row:
    recovery: str  # an orders table row's `recovery` column (D6)


def test_the_order_allows_by_the_orders_table(variant: Variant) -> None:
    """D6, the orders table's `recovery` in both games' form: yes, no, or near_commander (arrivano §5.1.4: "solo se
    l'unità è in stack o adiacente ad un Ufficiale o Generale della sua formazione"): a general or officer of its own
    formation in its hex or next to it, never another formation's nor the chief (who has none)."""
    w = Ground(units={"stacked": ("1612", "L"), "next": ("1614", "L"), "far": ("1620", "L"), "other": ("1612", "W")},
               leaders={"lannes-general": ("1612", "L"), "watrin": ("1620", "W"), "chief": ("1620", None)},
               around={"1614": ("1612", "1613")})
    assert recovery.order_allows(w, Row("yes"), "far") and not recovery.order_allows(w, Row("no"), "stacked")  # type: ignore[arg-type]
    near = [u for u in sorted(w.units) if recovery.order_allows(w, Row("near_commander"), u)]  # type: ignore[arg-type]
    assert near == ["next", "stacked"]


def test_the_stacks_that_may_try_by_hex(variant: Variant) -> None:
    """recovery.stacks, for both games' listings: the side's units that may try, by hex in order, each stack's units
    in the order given; never in an enemy ZoC (the enemy at 1810 reaches 1811), never under an order whose row of the
    orders table says no (`order_of`: each unit's order, as its game reads it)."""
    w = Position(units={"b": Piece("france", "1502", "routed"), "a": Piece("france", "1502", "disordered"),
                        "c": Piece("france", "1505", "disordered"), "d": Piece("france", "1811", "disordered"),
                        "e": Piece("france", "1508", "disordered"), "g": Piece("france", "1509"),
                        "x": Piece("austria", "1810")})
    w.orders = SimpleNamespace(orders={"defence": SimpleNamespace(recovery="yes"),  # type: ignore[attr-defined]
                                       "attack": SimpleNamespace(recovery="no")})
    orders = {"e": "attack"}
    found = recovery.stacks(w, "france", ["b", "a", "c", "d", "e", "g"], lambda u: orders.get(u, "defence"))
    assert found == {"1502": ["b", "a"], "1505": ["c"]}
