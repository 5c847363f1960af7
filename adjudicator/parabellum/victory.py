"""Victory by objective hexes (caldiero §18; arrivano §17.1.8, §17.2.12), written once: the game's end after its
last turn (`final_result`: an automatic victory first, else the points of the objective hexes each side holds and
what the scenario adds, judged), who holds a hex, the level a score reaches and the side with more points.

What each game's victory conditions say (caldiero §19.2.3's French malus and §20.1's Austrian bonus, §18's levels
by the difference; arrivano's automatic victories, points for steps eliminated and captured flags, levels by the
French points) is the game's `Scoring`, built from its data (adjudicator/caldiero/victory.py,
adjudicator/arrivano/victory.py)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from arbitro.adjudicator.parabellum.data import ObjectiveHex, VictoryLevel
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.events.parabellum import GameEnded


@dataclass(frozen=True, slots=True)
class Objective:
    """An objective hex and what it is worth to each side that holds it at the end (a side absent scores nothing)."""

    hex: str
    vp: Mapping[str, int]


def scored(records: Iterable[ObjectiveHex], sides: Sequence[str],
           less: Mapping[str, Collection[str]] | None = None) -> list[Objective]:
    """The scenario's objective hexes (one data record for both games, `data.ObjectiveHex`) as each of `sides` scores
    them (caldiero §18: both sides; arrivano §17.1.8, §17.2.12: the scenario's `objectives_score_for`), in the data's
    order: their points, one less to a side in the places `less` names for it (caldiero §19.2.3: the French in Il
    tempo regge's)."""
    fewer = less or {}
    return [Objective(r.hex, {side: r.vp - (1 if r.place in fewer.get(side, ()) else 0) for side in sides})
            for r in records]


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


class Scoring(Protocol):
    """A game's victory conditions, as `final_result` asks them."""

    def automatic(self, w: World) -> GameEnded | None:
        """The automatic victory the position gives at the end, which decides before any point is counted (arrivano
        §17.1.8: Lannes lost; §17.2.12: Morano Calabro and 3418 held by Naples at the end), or None."""
        ...

    def objectives(self, w: World) -> list[Objective]:
        """The objective hexes and what each is worth to each side (caldiero §18, arrivano §17.1.8, §17.2.12)."""
        ...

    def bonus(self, w: World, vp: dict[str, int]) -> None:
        """Add to `vp` what the scenario gives beside the hexes (caldiero §20.1; arrivano §17.1.8, §17.2.12)."""
        ...

    def judged(self, w: World, vp: dict[str, int]) -> GameEnded:
        """The end the points give: the level reached and the winner (caldiero §18; arrivano §17.1.8, §17.2.12)."""
        ...


def points(variant: Variant, w: World, scoring: Scoring) -> dict[str, int]:
    """Each side's points at the end: its objective hexes' and what the scenario adds."""
    vp = objective_points(variant, w, scoring.objectives(w), w.sides)
    scoring.bonus(w, vp)
    return vp


def final_result(variant: Variant, w: World, scoring: Scoring) -> GameEnded:
    """The game's end after its last turn (caldiero §18; arrivano §17.1.8, §17.2.12): an automatic victory if the
    position gives one, else the points judged."""
    found = scoring.automatic(w)
    return found if found is not None else scoring.judged(w, points(variant, w, scoring))
