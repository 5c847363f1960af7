"""An assault's results (caldiero §12.5.4, arrivano §12.5.4), written once (parabellum/results.py), for both
variants: which side each result strikes and through which of the game's procedures, the Dr test's disorder levels
under both readings, and the commanders the assault's die makes test (caldiero §4.4.1-§4.4.2, arrivano
§4.5.1-§4.5.2) with the faces the variant reads (D10)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from arbitro.adjudicator.parabellum import results, rout
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.events.parabellum import LeaderLost
from tests.parabellum.position import Piece, Position


class Game:
    """The game's procedures as a result asks them, recorded in order; the kernel's own (its eliminations, the
    disorder's retreats, the exchange) recorded in the same list (`kernel`)."""

    def __init__(self, variant: Variant) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.variant = variant  # the Act the kernel's procedures take

    def retreat_tested(self, units: Sequence[str]) -> None:
        self.calls.append(("retreat_tested", tuple(units)))


@pytest.fixture
def kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel's procedures apply_result calls, recording on the Game they are given as the Act."""
    monkeypatch.setattr(results, "eliminated", lambda a, units, result: a.calls.append(("eliminated", tuple(units), result)))
    monkeypatch.setattr(results.retreat_frame, "disordered",
                        lambda a, units, rule: a.calls.append(("disordered", tuple(units), str(rule))))
    monkeypatch.setattr(results, "exchanged", lambda a, variant: a.calls.append(("exchanged",)))
    monkeypatch.setattr(results, "ne_offered", lambda a: a.calls.append(("ne_offered",)))


ATTACKERS, DEFENDERS = ("a1", "a2"), ("d1",)
EXPECTED = {
    "Ae": [("eliminated", ATTACKERS, "Ae")], "De": [("eliminated", DEFENDERS, "De")],
    "Ad": [("disordered", ATTACKERS)], "Dd": [("disordered", DEFENDERS)],
    "Ex": [("exchanged",)], "Dr": [("retreat_tested", DEFENDERS)],
}


@pytest.mark.parametrize("result", sorted(EXPECTED))
def test_each_result_strikes_its_side_once(variant: Variant, kernel: None, result: str) -> None:
    """§12.5.4 in both: Ae/De eliminate every attacker/defender, Ad/Dd disorder them (citing the result), Ex
    exchanges, all three the kernel's for both games; Dr makes every defender retreat and test, the game's; one
    procedure each, whatever the Ne rule says."""
    for may_test in (True, False):
        game = Game(variant)
        results.apply_result(game, game, result, ATTACKERS, DEFENDERS, ne_testable=may_test)  # type: ignore[arg-type]
        assert [call[:3] if call[0] != "disordered" else call[:2] for call in game.calls] == EXPECTED[result]
        assert all(call[2] == str(variant.rules.RESULTS) for call in game.calls if call[0] == "disordered")


def test_ne_is_tested_only_under_an_attack_order(variant: Variant, kernel: None) -> None:
    """§12.5.4 Ne in both: "Se le unità in attacco avevano Ordine Attacco" the attacker may test; else no effect."""
    offered, kept = Game(variant), Game(variant)
    results.apply_result(offered, offered, "Ne", ATTACKERS, DEFENDERS, ne_testable=True)  # type: ignore[arg-type]
    results.apply_result(kept, kept, "Ne", ATTACKERS, DEFENDERS, ne_testable=False)  # type: ignore[arg-type]
    assert offered.calls == [("ne_offered",)] and kept.calls == []  # the kernel's question (both games'), or nothing


def test_a_result_outside_the_table_changes_nothing(variant: Variant, kernel: None) -> None:
    game = Game(variant)
    results.apply_result(game, game, "cancelled", ATTACKERS, DEFENDERS, ne_testable=True)  # type: ignore[arg-type]
    assert game.calls == []
    assert set(results.RESULTS) == set(EXPECTED) | {"Ne"}


def reading(**chosen: str) -> Any:
    defaults = {"dr_pass_already_disordered": "rout", "dr_rout_retreat": "additional_2"}
    return lambda name: chosen.get(name, defaults[name])


# (status, passed, dr_pass_already_disordered) -> the status after the Dr test
DR = {
    ("good", True, "rout"): "disordered", ("good", False, "rout"): "routed",
    ("disordered", True, "rout"): "routed", ("disordered", False, "rout"): "routed",
    ("good", True, "disordered"): "disordered", ("disordered", True, "disordered"): "disordered",
    ("disordered", False, "disordered"): "routed", ("routed", True, "rout"): "routed",
}


@pytest.mark.parametrize("case", sorted(DR))
def test_the_dr_test(variant: Variant, case: tuple[str, bool, str]) -> None:
    """§12.5.4 Dr in both: pass disordered, fail routed (§15.2.1); a disordered unit passing routs by its second
    level (§15.1) unless the reading keeps it disordered."""
    status, passed, kept = case
    levels = results.dr_levels(status, passed, reading(dr_pass_already_disordered=kept))
    assert rout.worsened(status, levels).status == DR[case]


def test_the_dr_rout_retreat_reading(variant: Variant) -> None:
    """§12.5.4 Dr with §15.2.1: beyond the Dr's hex, two more (additional_2) or two in all (total_2)."""
    assert results.dr_rout_hexes(reading()) == 2
    assert results.dr_rout_hexes(reading(dr_rout_retreat="total_2")) == 1


class Leaders:
    """Dice given in order; the tests asked and the events emitted."""

    def __init__(self, *dice: int) -> None:
        self.dice, self.asked, self.events = list(dice), [], []  # type: ignore[var-annotated]

    def leader_die(self, leader: str, cause: str) -> int:
        self.asked.append((leader, cause))
        return self.dice.pop(0)

    def after_leader_lost(self, leader: str) -> None:
        """Nothing more."""

    def emit(self, event: Any) -> None:
        self.events.append(event)


BATTLE = Position({"a": Piece("france", "1112"), "d": Piece("austria", "1113"), "e": Piece("austria", "1213")},
                  leaders={"fg": "1112", "ag": "1113", "ao": "1113", "ah": "1213"},
                  leader_info={"fg": ("general", "france", "f1", 3), "ag": ("general", "austria", "f2", 3),
                               "ao": ("officer", "austria", "f2", 3), "ah": ("general", "austria", "f3", 3)})


@pytest.mark.parametrize("die", range(1, 7))
def test_the_assault_die_tests_commanders(variant: Variant, die: int) -> None:
    """caldiero §4.4.1-§4.4.2, arrivano §4.5.1-§4.5.2: a 6 tests every defending commander, hex by hex in the order
    given; a 1 the attacking general whose modifier counted; any other die nobody. A 1 loses a general in both books
    (D10: caldiero §4.4.3 not above his initiative 3, arrivano §4.5.3 1-2); the cause worded alike in both games, the
    loss citing the test itself as the book's `leader_loss` gives it (shipped: caldiero §4.4.3, arrivano §4.5.3)."""
    game = Leaders(*[1] * 4)
    rules = variant.rules
    results.commanders_tested(game, variant, BATTLE, die, "austria", ["1213", "1113"], "fg")  # type: ignore[arg-type]
    lost = BATTLE.book_rules.leader_loss.rule
    if die == 6:
        assert game.asked == [(x, f"{rules.LEADER_SIX} a natural 6 against {h}")
                              for x, h in (("ah", "1213"), ("ag", "1113"), ("ao", "1113"))]
        assert game.events == [LeaderLost(leader=x, rule=lost) for x in ("ah", "ag", "ao")]
    elif die == 1:
        assert game.asked == [("fg", f"{rules.LEADER_ONE} a natural 1 with the general's modifier")]
        assert game.events == [LeaderLost(leader="fg", rule=lost)]
    else:
        assert game.asked == [] and game.events == []


def test_a_natural_one_without_the_generals_modifier_tests_nobody(variant: Variant) -> None:
    game = Leaders()
    results.commanders_tested(game, variant, BATTLE, 1, "austria", ["1113"], None)  # type: ignore[arg-type]
    assert game.asked == []


def test_an_ne_is_tested_as_the_reading_of_the_attack_order_says() -> None:
    """Both §12.5.4 Ne, "Se le unità in attacco avevano Ordine Attacco": one predicate for both games (issue 19),
    over the orders of the units still attacking; `every_attacker` by default, `any_attacker` the other reading; no
    attacker left, no test."""
    every, any_ = (lambda name: "every_attacker"), (lambda name: "any_attacker")
    assert results.ne_may_test(["attack", "attack"], every) and results.ne_may_test(["attack", "attack"], any_)
    assert not results.ne_may_test(["attack", "advance"], every) and results.ne_may_test(["attack", "advance"], any_)
    assert not results.ne_may_test(["advance"], any_)
    assert not results.ne_may_test([], every) and not results.ne_may_test([], any_)
