"""Victory by objective hexes (caldiero §18; arrivano §17.1.8, §17.2.12), written once: who holds a hex, the
points each side scores for the hexes it holds, the level a score reaches and the side with more points.

What each scenario adds to the score (caldiero §19.2.3's French malus and §20.1's Austrian bonus; arrivano's
points for steps eliminated, captured flags and automatic victories) stays with its game, which builds the
`Objective`s from its data and turns the result into its own event."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from arbitro.adjudicator.parabellum.data import VictoryLevel
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World


@dataclass(frozen=True, slots=True)
class Objective:
    """An objective hex and what it is worth to each side that holds it at the end (a side absent scores nothing)."""

    hex: str
    vp: Mapping[str, int]


def holder(variant: Variant, w: World, h: str) -> str | None:
    """The side holding hex h: the side whose combat units occupy it (caldiero §18, arrivano §17.1.8 "occupato",
    both read `vp_control: occupied_at_end`); an empty hex is held by the variant's reading (hook)."""
    side = w.side_at(h)
    return side if side is not None else variant.unoccupied_objective_holder(w.reading)


def objective_points(variant: Variant, w: World, objectives: Iterable[Objective], sides: Sequence[str]) -> dict[str, int]:
    """Each side's points for the objective hexes it holds (caldiero §18, arrivano §17.1.8, §17.2.12)."""
    total = {side: 0 for side in sides}
    for objective in objectives:
        side = holder(variant, w, objective.hex)
        if side is not None and side in objective.vp:
            total[side] += objective.vp[side]
    return total


def level_for(levels: Iterable[VictoryLevel], score: int) -> VictoryLevel | None:
    """The first level, in the order given, whose bounds hold the score (caldiero §18 by the difference between
    the sides, arrivano §17.2.12 by the French points); None when no level does."""
    for level in levels:
        if (level.min is None or score >= level.min) and (level.max is None or score <= level.max):
            return level
    return None


def higher(points: Mapping[str, int], sides: Sequence[str]) -> str | None:
    """The side with more points; None on a tie (caldiero §18; arrivano §17.1.8, interpretation montebello_winner)."""
    a, b = sides
    return None if points[a] == points[b] else (a if points[a] > points[b] else b)
