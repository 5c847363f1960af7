"""Victory (caldiero §18) on the kernel's (adjudicator/parabellum/victory.py), with what Caldiero adds: "Il tempo
regge" (§19.2.3: a French-held hex of its places is worth one point less) and Bonaparte's intervention (§20.1)."""

from __future__ import annotations

from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum import victory
from arbitro.events import caldiero as ev


class CaldieroScoring:
    """Caldiero's victory conditions (caldiero §18) as the kernel's `victory.final_result` asks them."""

    def automatic(self, w: World) -> ev.GameEnded | None:
        return None  # caldiero §18 knows no automatic victory

    def objectives(self, w: World) -> list[victory.Objective]:
        """The victory hexes of §18 and what each is worth to each side (less one to the French in §19.2.3's places)."""
        scen = w.scenario
        malus_places = scen.scenarios[w.state.scenario].french_vp_malus_places
        return victory.scored(scen.victory_hexes, ("france", "austria"), {"france": malus_places})

    def bonus(self, w: World, vp: dict[str, int]) -> None:
        vp["austria"] += sum(o.austrian_vp_bonus for name, o in w.scenario.options.items() if w.option(name))  # §20.1

    def judged(self, w: World, pts: dict[str, int]) -> ev.GameEnded:
        """§18: the level the difference between the sides reaches (the highest; below them all a draw)."""
        diff = abs(pts["france"] - pts["austria"])
        level = level_for(w, diff)
        winner = None if level == "draw" else victory.higher(pts, w.sides)
        reason = (f"after turn {w.state.last_turn}: France {pts['france']} VP, Austria {pts['austria']} VP; "
                  f"difference {diff}: {level}")
        return ev.GameEnded(winner=winner, reason=reason, rule=str(R.VICTORY), points=pts, level=level, difference=diff)


CALDIERO_SCORING = CaldieroScoring()


def level_for(w: World, difference: int) -> str:
    """The level §18 gives the difference between the sides (the highest reached); below them all a draw."""
    found = victory.level_for(sorted(w.scenario.victory_levels, key=lambda x: -(x.min or 0)), difference)
    return found.level if found is not None else "draw"
