"""Review rev-kernel (a4be6c5): the kernel World's commander_in_chief(side) takes "the side's one leader in that role",
the first in id order, and Arrivano's declared `sides.<side>.commander_in_chief` is no longer read. Nothing makes
the role unique per side, so an order of battle with a second chief passes the kernel's checks and the World picks
whichever sorts first."""

from __future__ import annotations

from arbitro.adjudicator.parabellum.loader import check_counters
from arbitro.adjudicator.parabellum.variant import Variant
from tests.parabellum.test_data import order_of_battle


def test_a_side_with_two_commanders_in_chief_is_refused(variant: Variant) -> None:
    """caldiero §4.2 / arrivano §4.3 name one chief per side; World.commander_in_chief assumes it."""
    ob, oob, sides = order_of_battle(variant)
    chief = next(le for le in oob.leaders if le.role == "commander_in_chief")
    second = chief.model_copy(update={"id": "a_second_chief", "name": "Second"})  # sorts before every shipped id
    broken = oob.model_copy(update={"leaders": [*oob.leaders, second]})
    problems = check_counters(ob, broken, sides)
    assert any("a_second_chief" in p.problem or "commander in chief" in p.problem for p in problems), problems
    # the extra one is named at his own role, the shipped (or declared) chief is kept
    assert [(p.path, p.problem.split(" ")[0]) for p in problems] == [(f"$.leaders[{len(oob.leaders)}].role", "'a_second_chief'")]


def test_a_side_without_a_commander_in_chief_is_refused(variant: Variant) -> None:
    """Caldiero's order of battle declares no `sides`, so check_counters never asks for a chief at all; before a4be6c5
    cinc_of named Bonaparte and Alvinczy, now World.commander_in_chief raises StopIteration (a crash, not a refusal)
    at the first orders sub-phase of a game on such data."""
    ob, oob, sides = order_of_battle(variant)
    side = sides[0]
    leaders = [le.model_copy(update={"role": "general", "formation": next(f.id for f in oob.formations if f.side == side)})
               if le.role == "commander_in_chief" and le.side == side else le for le in oob.leaders]
    problems = check_counters(ob, oob.model_copy(update={"leaders": leaders}), sides)
    assert any("commander in chief" in p.problem for p in problems), problems
    assert [p.path for p in problems if "no commander in chief" in p.problem] == ["$.leaders"]
