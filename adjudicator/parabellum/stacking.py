"""Stacking (caldiero §7.1-§7.1.1, arrivano §7.1-§7.1.1): which units of one side may share a hex. The limits are
data, patterns of arms a hex may hold (`data.StackPattern`): both books' §7.1 prints the same ones (`SECTION_7_1`), a
scenario may print its own (arrivano §17.2.3 Campotenese, the scenario's data file); the World says which hold.
Routed units stack only with routed units (§7.1.1 in both). What a march column may not do (§7.1.2 in both) is
movement's."""

from __future__ import annotations

from collections.abc import Sequence

from arbitro.adjudicator.memo import Memo
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
    `stack_problem` (a move's end) and `fits` (a retreat, an arrival) ask (`make_up_break`). `formations`, one per
    unit, replaces the world's `formation_of` (a variant judging a stack at rest by its own reading). `at_rest`: a
    stack standing in a position, not one a move makes, which §7.1.1 does not judge (a routed unit may not stack
    "volontariamente"; one routed in place stands with its friends until its rout moves it on)."""
    if len(units) <= 1:  # issue 15: a unit alone, asked of every retreat and move, breaks nothing
        return None
    return make_up_break(world.stacking_limits(), make_up(world, units, formations), at_rest)


Piece = tuple[str, str, bool]  # all §7.1-§7.1.1 read of a unit: its arm, the formation it stacks with, routed or not


def make_up(world: World, units: Sequence[str], formations: Sequence[str] | None = None) -> tuple[Piece, ...]:
    """The stack's make-up, in one order whatever the units' (`make_up_break` reads no order): equal make-ups break
    the same rule, so a listing asks each once per position (issue 15, `movement.end_fits`)."""
    forms = formations if formations is not None else [world.formation_of(u) for u in units]
    return tuple(sorted((world.arm(u), f, world.status(u) == "routed") for u, f in zip(units, forms)))


def make_up_break(patterns: Sequence[StackPattern], pieces: Sequence[Piece], at_rest: bool = False) -> str | None:
    """`broken_rule` of a stack's make-up, in the order the messages are read: "count" (§7.1, how many), "routed"
    (§7.1.1, routed with others), "make-up" (§7.1: arms and formations)."""
    if len(pieces) <= 1:
        return None
    if len(pieces) > _most(patterns):
        return "count"
    if not at_rest and len({p[2] for p in pieces}) > 1:  # routed and not routed
        return "routed"
    return None if fits_stacking([p[0] for p in pieces], [p[1] for p in pieces], patterns) else "make-up"


_FITS = Memo(16)


def make_up_fits(world: World, there: tuple[Piece, ...], moving: tuple[Piece, ...]) -> bool:
    """Whether a stack of these make-ups breaks no stacking rule, each stack judged once for the stacking limits it
    reads (`make_up_break`, a function of the two alone: `_FITS`, a table kept across positions, issue 15)."""
    stack = tuple(sorted(there + moving))
    by_make_up: dict[tuple[Piece, ...], bool] = world.cached(  # type: ignore[assignment]
        ("stacking fits by make-up",), lambda: _FITS.table((world.stacking_limits(),), "make-up fits"))
    ok = by_make_up.get(stack)
    if ok is None:
        ok = by_make_up[stack] = make_up_break(world.stacking_limits(), stack) is None
    return ok


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
    pieces = make_up(world, units, formations)
    names = " and ".join(units)
    if {"infantry", "cavalry"} <= {p[0] for p in pieces}:
        return f"{names}: infantry and cavalry may not stack ({variant.rules.STACKING})"
    if len({p[1] for p in pieces}) > 1:
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
