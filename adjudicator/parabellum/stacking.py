"""Stacking (caldiero §7.1-§7.1.1, arrivano §7.1-§7.1.1): which units of one side may share a hex. The limits are
data, patterns of arms a hex may hold (`data.StackPattern`): both books' §7.1 prints the same ones (`SECTION_7_1`), a
scenario may print its own (arrivano §17.2.3 Campotenese, the scenario's data file); the World says which hold.
Routed units stack only with routed units (§7.1.1 in both). What a march column may not do (§7.1.2 in both) is
movement's."""

from __future__ import annotations

from collections.abc import Sequence

from arbitro.adjudicator.parabellum.data import StackPattern, fits_stacking
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World

NUMBERS = ("no", "one", "two", "three", "four", "five", "six")


# caldiero §7.1, arrivano §7.1: two infantry or two cavalry of one formation; one artillery and any one unit; two
# artillery.
SECTION_7_1: tuple[StackPattern, ...] = (
    StackPattern(infantry=2, same_formation=True), StackPattern(cavalry=2, same_formation=True),
    StackPattern(artillery=1, infantry_or_cavalry=1), StackPattern(artillery=2),
)


def _most(patterns: Sequence[StackPattern]) -> int:
    return max((p.infantry + p.cavalry + p.artillery + p.infantry_or_cavalry for p in patterns), default=0)


def broken_rule(world: World, units: Sequence[str], formations: Sequence[str] | None = None,
                at_rest: bool = False) -> str | None:
    """Which rule `units` (one side's) break by sharing a hex, or None: the one reading of §7.1-§7.1.1 that both
    `stack_problem` (a move's end) and `fits` (a retreat, an arrival) ask, in the order the messages are read:
    "count" (§7.1, how many), "routed" (§7.1.1, routed with others), "make-up" (§7.1: arms and formations).
    `formations`, one per unit, replaces the world's `formation_of` (a variant judging a stack at rest by its own
    reading). `at_rest`: a stack standing in a position, not one a move makes, which §7.1.1 does not judge (a routed
    unit may not stack "volontariamente"; one routed in place stands with its friends until its rout moves it on)."""
    if len(units) <= 1:
        return None
    patterns = world.stacking_limits()
    if len(units) > _most(patterns):
        return "count"
    routed = [world.status(u) == "routed" for u in units]
    if not at_rest and any(routed) and not all(routed):
        return "routed"
    arms = [world.arm(u) for u in units]
    formations = list(formations) if formations is not None else [world.formation_of(u) for u in units]
    return None if fits_stacking(arms, formations, patterns) else "make-up"


def stack_problem(variant: Variant, world: World, units: Sequence[str],
                  formations: Sequence[str] | None = None, at_rest: bool = False) -> str | None:
    """Why `units` (one side's) may not share a hex (`broken_rule`, worded with the variant's citations), or None."""
    broken = broken_rule(world, units, formations, at_rest)
    return None if broken is None else stack_words(variant, world, units, broken, formations)


def stack_words(variant: Variant, world: World, units: Sequence[str], broken: str,
                formations: Sequence[str] | None = None) -> str:
    """The refusal of `units` sharing a hex for the rule `broken_rule` says they break, with the variant's citations:
    worded only for a stack refused (issue 15: a listing asks only whether each of its ends fits)."""
    if broken == "count":
        most = _most(world.stacking_limits())
        return f"{len(units)} units in one hex: at most {NUMBERS[most] if most < len(NUMBERS) else most} ({variant.rules.STACKING})"
    if broken == "routed":
        return f"routed units may not stack with friends not in rout ({variant.cite('7.1.1')})"
    arms = [world.arm(u) for u in units]
    formations = list(formations) if formations is not None else [world.formation_of(u) for u in units]
    names = " and ".join(units)
    if {"infantry", "cavalry"} <= set(arms):
        return f"{names}: infantry and cavalry may not stack ({variant.rules.STACKING})"
    if len(set(formations)) > 1:
        many = NUMBERS[len(units)] if len(units) < len(NUMBERS) else str(len(units))
        return f"{names}: {many} units of different formations ({variant.rules.STACKING})"
    return f"{names}: over the stacking limits ({variant.rules.STACKING})"


def fits(world: World, h: str, adding: Sequence[str]) -> bool:
    """Whether hex h may hold its units and `adding` together (§7.1-§7.1.1 in both): one side only (nothing enters
    a hex the enemy holds), then the one side's stacking rules as a move's end reads them (`broken_rule`)."""
    here = [u for u in world.units_at(h) if u not in adding] + list(adding)
    if len({world.side_of(u) for u in here}) > 1:
        return False
    return broken_rule(world, here) is None
