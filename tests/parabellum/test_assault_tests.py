"""The efficiency tests an assault asks (caldiero §12.2.2, §12.5.4; arrivano §12.2.2, §12.5.4), run for both
variants through the kernel: one die a stack (§13.1.2), rolled lazily in hex order, the Ne test read by the
variant (D25), who tests after an Ex."""

from __future__ import annotations

from dataclasses import dataclass, field

from arbitro.adjudicator.parabellum import efficiency, results
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.events.parabellum import StatusChanged
from tests.parabellum.position import Piece, Position


def position() -> Position:
    """French a, b at 1612 (values 3, 5), c at 1610 (value 2), gun g at 1612, d off the map; nobody commands."""
    units = {"a": Piece("france", "1612"), "b": Piece("france", "1612"), "c": Piece("france", "1610"),
             "g": Piece("france", "1612", arm="artillery"), "d": Piece("france", None)}
    return Position(units, values={"a": 3, "b": 5, "c": 2})


class Dice:
    """Fixed dice, one a stack, recording what each stack rolled for."""

    def __init__(self, *dice: int) -> None:
        self.dice = list(dice)
        self.asked: list[tuple[str, list[str], dict[str, int], int]] = []

    def __call__(self, h: str, units: list[str], values: dict[str, int], modifier: int) -> int:
        self.asked.append((h, list(units), dict(values), modifier))
        return self.dice.pop(0)


def test_one_die_a_stack_in_hex_order(variant: Variant) -> None:
    """§13.1.2 in both: the units of a hex test on one die, hexes in order, units in the order given; a 4 passes
    the unit of value 5 only."""
    dice = Dice(4, 4)
    results = list(efficiency.stack_tests(variant, position(), ["b", "c", "a"], dice))
    assert [(h, units) for h, units, _, _ in dice.asked] == [("1610", ["c"]), ("1612", ["b", "a"])]
    assert results == [{"c": False}, {"b": True, "a": False}]
    assert efficiency.failed(results) == ["c", "a"]


def test_the_next_die_waits_for_the_caller(variant: Variant) -> None:
    """The record keeps a stack's consequences before the next die: the tests roll only as the caller reads them."""
    dice = Dice(1, 6)
    tests = efficiency.stack_tests(variant, position(), ["a", "c"], dice)
    assert next(tests) == {"c": True}  # a natural 1 passes (§13.1.1)
    assert len(dice.asked) == 1
    assert next(tests) == {"a": False}  # a natural 6 fails
    assert len(dice.asked) == 2


def test_ne_tested_by_the_variant(variant: Variant) -> None:
    """D25: one stack passes, the other fails. caldiero §12.5.4 Ne: every unit must pass, so Ad; arrivano §12.5.4
    NE: one stack passing is enough, so Ex. Both pass: Ex in both; both fail: Ad in both."""
    w = position()
    assert results.ne_tested(variant, w, ["a", "c"], Dice(6, 1)) == ("Ad" if variant.book == "caldiero" else "Ex")
    assert results.ne_tested(variant, w, ["a", "c"], Dice(1, 1)) == "Ex"
    assert results.ne_tested(variant, w, ["a", "c"], Dice(6, 6)) == "Ad"


@dataclass
class Game:
    """The game as a test's consequences ask it: the position, and the events recorded."""

    position: Position
    events: list[StatusChanged] = field(default_factory=list)

    def world(self) -> Position:
        return self.position

    def emit(self, event: StatusChanged) -> None:
        self.events.append(event)


def test_who_tests_after_an_exchange(variant: Variant) -> None:
    """§12.5.4 Ex in both (`results.exchange_tested`): every other unit of the combat on the map tests, one die a stack
    in hex order, lazily; artillery takes no part (g), nor a unit off the map (d). A 4 fails c (value 2), disordered
    citing the result, and a (3), already disordered: routed, yielded to retreat at once (§15.2.1); b (5) passes."""
    w = position()
    w.units["a"] = Piece("france", "1612", "disordered")
    game, dice = Game(w), Dice(4, 4)
    tests = results.exchange_tested(game, variant, ["b", "g", "d", "c", "a"], dice)  # type: ignore[arg-type]
    assert next(tests) == [] and len(dice.asked) == 1
    assert list(tests) == [["a"]]
    assert [(h, units) for h, units, _, _ in dice.asked] == [("1610", ["c"]), ("1612", ["b", "a"])]
    assert [(e.unit, e.status, e.rule) for e in game.events] == [
        ("c", "disordered", str(variant.rules.RESULTS)), ("a", "routed", str(variant.rules.SECOND_DISORDER))]


def test_the_dr_test_after_the_retreat(variant: Variant) -> None:
    """§12.5.4 Dr in both ("ritirarsi di un esagono e fare un test"), once the retreat is made: one die a stack where
    the units now stand, lazily; each unit's disorder levels by `results.dr_levels` (a 2 passes c, value 2: one
    level; a 4 fails a, value 3: two, a rout; passes b, value 5, already disordered: one more, a rout under the
    default reading); r, routed by its retreat into an enemy ZoC, takes no test."""
    units = {"a": Piece("france", "1612"), "b": Piece("france", "1612", "disordered"),
             "r": Piece("france", "1612", "routed"), "c": Piece("france", "1610")}
    w = Position(units, values={"a": 3, "b": 5, "c": 2, "r": 6})
    dice = Dice(2, 4)
    tests = results.dr_tested(variant, w, ["a", "b", "r", "c"], dice, lambda name: "rout")
    assert next(tests) == {"c": 1} and len(dice.asked) == 1
    assert next(tests) == {"a": 2, "b": 1}
    assert [(h, units) for h, units, _, _ in dice.asked] == [("1610", ["c"]), ("1612", ["a", "b"])]


def test_no_dr_die_for_a_stack_its_retreat_routed(variant: Variant) -> None:
    """§12.5.4 Dr in both: a stack every unit of which its one-hex retreat routed (into an enemy ZoC, §12.6.1) rolls
    no die, since none could decide anything for it; the next stack rolls the first die (the record's dice stay
    the ones that decide)."""
    units = {"r": Piece("france", "1612", "routed"), "s": Piece("france", "1612", "routed"),
             "c": Piece("france", "1614")}
    w = Position(units, values={"r": 3, "s": 5, "c": 2})
    dice = Dice(2)
    assert list(results.dr_tested(variant, w, ["r", "s", "c"], dice, lambda name: "rout")) == [{"c": 1}]
    assert [(h, units) for h, units, _, _ in dice.asked] == [("1614", ["c"])]
