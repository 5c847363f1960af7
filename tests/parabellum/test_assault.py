"""The assault's shared rules in the kernel (adjudicator/parabellum/assault.py, exchange.py), run for both variants:
the generals' modifier, the odds label, below the first column (D24) and the Ex result (D26) from the variant's hooks."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from arbitro.adjudicator.parabellum import assault, efficiency, exchange
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.tables import CombatTable

TABLE = CombatTable(name="crt", title="test", provisional=True, columns_are="odds",
                    columns=("1-5", "1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1"),
                    rows={str(r): tuple("Ae" if r < 4 else "De" for _ in range(10)) for r in range(-3, 11)},
                    results={"Ae": "attacker eliminated", "De": "defender eliminated"})


@dataclass
class Position:
    """Just the questions the assault's rules ask (the kernel's World Protocol)."""

    hexes: dict[str, str | None]
    eff: dict[str, int] = field(default_factory=dict)
    sp: dict[str, int] = field(default_factory=dict)
    generals: dict[str, str] = field(default_factory=dict)
    leaders: dict[str, str] = field(default_factory=dict)

    def reading(self, name: str) -> str:
        return ""

    def units_at(self, h: str) -> list[str]:
        return sorted(u for u, x in self.hexes.items() if x == h)

    def strength(self, u: str) -> int:
        return self.sp[u]

    def efficiency(self, u: str) -> int:
        return self.eff[u]

    def is_artillery(self, u: str) -> bool:
        return False

    def hex_of(self, u: str) -> str | None:
        return self.hexes[u]

    def on_map(self, u: str) -> bool:
        return self.hexes[u] is not None

    def general_of(self, u: str) -> str | None:
        return self.generals.get(u)

    def leader_on_map(self, leader: str | None) -> str | None:
        return self.leaders.get(leader or "")


def test_the_general_counts_only_stacked_with_a_unit_of_his_formation(variant: Variant) -> None:
    """§12.4.4 in both books: +1/-1 for the general of a unit's formation in its hex; the first found counts."""
    w = Position(hexes={"a": "1612", "b": "1613", "c": "1613"}, generals={"a": "g1", "b": "g2", "c": "g3"},
                 leaders={"g1": "1613", "g2": "1613", "g3": "1613"})
    assert assault.general_with(w, ["a"]) is None  # his general is next door
    assert assault.general_with(w, ["a", "b", "c"]) == "g2"
    assert assault.general_with(w, ["c", "b"]) == "g3"
    assert assault.general_with(Position(hexes={"a": "1612"}), ["a"]) is None  # no general at all


def test_the_odds_label_names_the_first_column_when_worse(variant: Variant) -> None:
    """§12.5.1 in both: rounded for the defender; §12.4.2: worse than 1-5 is named so, as is no strength at all."""
    assert assault.odds_label(TABLE, 13, 4) == "3-1"
    assert assault.odds_label(TABLE, 4, 13) == "1-4"
    assert assault.odds_label(TABLE, 1, 6) == "below 1-5"
    assert assault.odds(TABLE, 0, 3).below_minimum and assault.odds_label(TABLE, 0, 3) == "below 1-5"


def test_below_the_first_column_is_the_variant_hook(variant: Variant) -> None:
    """D24, §12.4.2 in both: an attack worse than 1-5 is declared only when an Attack order forces it, caldiero
    when every attacker has one (and its reading says Ae), arrivano when any has; resolved, it is an Ae."""
    auto_ae = {"forced_attack_below_1_5": "auto_ae", "below_1_5_after_tests": "cancelled"}.__getitem__
    assert not variant.below_minimum_declarable(["advance", "advance"], auto_ae)
    assert variant.below_minimum_declarable(["attack", "attack"], auto_ae)
    assert variant.below_minimum_declarable(["attack", "advance"], auto_ae) is (variant.book == "arrivano")
    assert variant.below_minimum_result(True, False, auto_ae) == "Ae"
    after_tests = variant.below_minimum_result(False, True, auto_ae)
    assert after_tests == {"caldiero": "Ae", "arrivano": "cancelled"}[variant.book]


@pytest.mark.parametrize("reading, below", [("strength_ratio", False), ("after_terrain", True)])
def test_a_declaration_is_judged_by_the_ratio_or_the_terrains_column_as_the_reading_says(
        variant: Variant, reading: str, below: bool) -> None:
    """§12.4.2 in both, interpretation `below_1_5_declared_on`: 1 against 5 is the first column, 1-5; a village's
    column left makes it worse than 1-5 only when the declaration reads the column after the terrain."""
    readings = {"below_1_5_declared_on": reading}
    assert not assault.declared_odds(TABLE, 1, 5, 0, readings.__getitem__).below_minimum
    assert assault.declared_odds(TABLE, 1, 5, 1, readings.__getitem__).below_minimum is below
    assert assault.declared_odds(TABLE, 1, 6, 0, readings.__getitem__).below_minimum


def test_the_ex_loss_is_the_variant_hook(variant: Variant) -> None:
    """D26: caldiero §12.5.4 Ex: the attacker picks a unit with efficiency at least the value used, the defender
    loses a minimal set covering its SP; arrivano §12.5.4 EX: each side its most efficient, then strongest, unit."""
    w = Position(hexes={"a1": "1612", "a2": "1612", "a3": "1612", "d1": "1613", "d2": "1613", "d3": "1613"},
                 eff={"a1": 4, "a2": 3, "a3": 4, "d1": 2, "d2": 5, "d3": 2},
                 sp={"a1": 3, "a2": 5, "a3": 2, "d1": 2, "d2": 1, "d3": 2})
    attackers, defenders = ["a1", "a2", "a3"], ["d1", "d2", "d3"]
    lost = variant.ex_attacker_losses(w, attackers, 3, w.sp)
    sets = variant.ex_defender_losses(w, defenders, 3, w.sp)
    if variant.book == "caldiero":
        assert lost == ["a1", "a2", "a3"]
        assert sets == [["d1", "d2"], ["d1", "d3"], ["d2", "d3"]]
    else:
        assert lost == ["a1"] and sets == [["d2"]]


def test_covering_sets_are_minimal_and_best_units_tie() -> None:
    sp = {"x": 3, "y": 2, "z": 2}
    assert exchange.covering_sets(["z", "x", "y"], sp, 4) == [["x", "y"], ["x", "z"], ["y", "z"]]
    assert exchange.covering_sets(["x", "y"], sp, 9) == [["x", "y"]]  # not enough: every unit
    assert exchange.covering_sets([], sp, 2) == []
    assert exchange.sufficient_sets(["z", "x", "y"], sp, 4) == [["x", "y"], ["x", "y", "z"], ["x", "z"], ["y", "z"]]
    assert exchange.sufficient_sets(["x", "y"], sp, 9) == [["x", "y"]]
    assert exchange.sufficient_sets([], sp, 2) == []
    w = Position(hexes={"x": "1612", "y": "1612", "z": None}, eff={"x": 3, "y": 3, "z": 5}, sp={"x": 2, "y": 2, "z": 9})
    assert exchange.best_units(w, ["y", "x", "z"], w.sp) == ["x", "y"]  # z is off the map


@dataclass
class Armed(Position):
    guns: frozenset[str] = frozenset()

    def is_artillery(self, u: str) -> bool:
        return u in self.guns


class Marshy(Variant):
    """A variant whose hooks show what the kernel hands them: each unit once with its role, the hexes' sums once."""

    book = "test"

    def __init__(self) -> None:
        self.asked: list[tuple[str, bool, tuple[str, ...]]] = []

    def combat_sp(self, w, u, attacking, defenders, targets):  # type: ignore[no-untyped-def]
        self.asked.append((u, attacking, tuple(defenders)))
        return w.strength(u) * (2 if attacking and u == "cav" else 1)

    def hex_sp(self, w, h, total):  # type: ignore[no-untyped-def]
        return (total + 1) // 2 if h == "1613" else total


def test_the_strengths_are_each_units_summed_by_hex_as_the_variant_counts_them(variant: Variant) -> None:
    """§12.4 in both: every attacker and every defender but artillery (caldiero §11.0.1, arrivano §11.0.2), each
    unit's points by `combat_sp` (D27), each hex's sum by `hex_sp` (D17): here a marsh at 1613 halves its hex's
    sum once, 3 + 3 -> 3, not each unit's (2 + 2)."""
    w = Armed(hexes={"cav": "1612", "a": "1613", "b": "1613", "d": "1713", "gun": "1713"},
              sp={"cav": 2, "a": 3, "b": 3, "d": 4, "gun": 9}, guns=frozenset({"gun"}))
    marshy = Marshy()
    assert assault.strengths(marshy, w, ["cav", "a", "b"], ["d", "gun"], ["1713"]) == (4 + 3, 4)
    assert marshy.asked == [("cav", True, ("d",)), ("a", True, ("d",)), ("b", True, ("d",)), ("d", False, ("d",))]
    # the neutral reading: printed strengths, summed; the variants' own hooks read their games' worlds
    assert assault.strengths(Variant(), w, ["cav", "a", "b"], ["d", "gun"], ["1713"]) == (8, 4)


@dataclass
class Fighting(Armed):
    statuses: dict[str, str] = field(default_factory=dict)

    def status(self, u: str) -> str:
        return self.statuses.get(u, "good")

    def test_efficiency(self, u: str) -> int:
        return self.eff[u]


def test_the_sides_efficiency_is_the_value_with_most_sp_without_guns(variant: Variant) -> None:
    """§12.3.1 in both: the value carrying the most SP, several on a tie; artillery never counts (caldiero §11.0.1,
    arrivano §11.0.2), so the gun's 9 SP at efficiency 5 change nothing."""
    w = Fighting(hexes={"a": "1612", "b": "1612", "c": "1612", "gun": "1612"}, eff={"a": 3, "b": 4, "c": 4, "gun": 5},
                 sp={"a": 4, "b": 2, "c": 1, "gun": 9}, guns=frozenset({"gun"}))
    assert efficiency.side_values(w, ["a", "b", "c", "gun"]) == [3]
    w.sp["c"] = 2
    assert efficiency.side_values(w, ["a", "b", "c", "gun"]) == [3, 4]
    assert efficiency.side_values(w, ["gun"]) == []


def test_the_values_in_use_are_the_chosen_ones_while_still_the_sides(variant: Variant) -> None:
    """§12.3.1 in both (efficiency.in_use): a side's declared or picked value while it is still one of its tied
    values, else the best of them; a side with none (guns alone) 0. The values are worked out once an assault
    (efficiency.choices: each side's tied values by role, what its owner picks among)."""
    w = Fighting(hexes={"a": "1612", "b": "1612", "d": "1613", "gun": "1613"}, eff={"a": 3, "b": 4, "d": 2, "gun": 5},
                 sp={"a": 2, "b": 2, "d": 3, "gun": 9}, guns=frozenset({"gun"}))
    both = efficiency.choices(w, ["a", "b"], ["d"])
    assert both == {"attack": [3, 4], "defence": [2]}
    assert efficiency.in_use(both, {}) == (4, 2)
    assert efficiency.in_use(both, {"attack": 3}) == (3, 2)
    assert efficiency.in_use(efficiency.choices(w, ["a"], ["gun"]), {"attack": 4, "defence": 5}) == (3, 0)  # b gone


def test_the_modifiers_both_books_list_come_in_their_order_with_each_books_citation(variant: Variant) -> None:
    """§12.5.2 in both: +2 against a disordered defence, the efficiency difference (§12.3.2 in both books: "La
    differenza di efficienza fra attaccante e difensore ... diventa un modificatore"), +1 / -1 for the generals
    (§12.4.4), the attacking one only when he counts; each reason cites the variant's own section."""
    w = Fighting(hexes={"a": "1612", "d": "1613", "e": "1613"}, eff={}, sp={},
                 generals={"a": "ga", "d": "gd"}, leaders={"ga": "1612", "gd": "1613"}, statuses={"e": "disordered"})
    rules = variant.rules
    drms = assault.side_modifiers(variant, w, ["a"], ["d", "e"], (4, 2), True, lambda name: "any_unit")
    assert [(d.reason, d.value) for d in drms] == [
        (f"disordered defender ({rules.DISORDER})", 2),
        (f"efficiency 4 against 2 ({variant.book} §12.3.2)", 2),
        (f"attacking general ({rules.GENERAL_DRM})", 1),
        (f"defending general ({rules.GENERAL_DRM})", -1)]
    quiet = assault.side_modifiers(variant, w, ["a"], ["d"], (3, 3), False, lambda name: "any_unit")
    assert [d.value for d in quiet] == [-1]  # no disorder, equal values, the attacker's general declined


def test_one_disordered_defender_gives_the_plus_two_as_the_variant_reads_it(variant: Variant) -> None:
    """§12.5.2 "la presenza di unità in Disordine in difesa": one disordered defender suffices in both books by
    default; arrivano's reading `disordered_defender_drm: every_unit` asks every defender to be."""
    assert variant.disordered_defence([False, True], lambda name: "any_unit")
    assert not variant.disordered_defence([False, False], lambda name: "any_unit")
    every = variant.disordered_defence([False, True], lambda name: "every_unit")
    assert every is (variant.book == "caldiero")  # caldiero has no such reading: one suffices
    assert variant.disordered_defence([True, True], lambda name: "every_unit")
