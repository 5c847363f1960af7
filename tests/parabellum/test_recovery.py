"""Recovery (parabellum/recovery.py), run for both variants: who may try and what passing does (caldiero §15.3,
§15.3.1; arrivano §15.3, §15.3.1). When and which units try is each game's (D20)."""

from __future__ import annotations

from dataclasses import dataclass

from arbitro.adjudicator.parabellum import recovery
from arbitro.adjudicator.parabellum.variant import Variant


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
