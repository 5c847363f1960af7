"""Victory (arrivano §17.1.8 Montebello, §17.2.12 Campotenese) from scenario data."""

from __future__ import annotations

from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum import victory
from arbitro.events.parabellum import GameEnded


def occupier(w: World, h: str) -> str | None:
    """The side holding the hex at the end: the kernel's (interpretation vp_control: occupied_at_end)."""
    return victory.holder(ARRIVANO_VARIANT, w, h)


def automatic_now(w: World) -> GameEnded | None:
    """Automatic victories that apply at any time (Montebello: Lannes lost, arrivano §17.1.8)."""
    for auto in w.scenario.victory.automatic:
        if auto.when == "any_time" and auto.condition == "leader_lost" and any(
                w.state.leaders[lid].where == "lost" for lid in auto.leaders):
            return GameEnded(winner=auto.winner, reason=f"{', '.join(auto.leaders)} eliminated or captured",
                             rule=auto.rule, automatic=True)
    return None


class ArrivanoScoring:
    """Arrivano's victory conditions (arrivano §17.1.8 Montebello, §17.2.12 Campotenese), from the scenario's data, as
    the kernel's `victory.final_result` asks them."""

    def automatic(self, w: World) -> GameEnded | None:
        """Holding every hex of an `occupy_all` victory at the end (Campotenese, §17.2.12: Morano Calabro and 3418),
        else an automatic victory of any time."""
        for auto in w.scenario.victory.automatic:
            if auto.when == "end_of_last_turn" and auto.condition == "occupy_all":
                hexes = list(auto.hexes) + [h for p in auto.places for h in w.hexmap.place(p)]
                if hexes and all(occupier(w, h) == auto.winner for h in hexes):
                    return GameEnded(winner=auto.winner, reason=f"{auto.winner} holds {', '.join(sorted(hexes))} at the end",
                                     rule=auto.rule, automatic=True)
        return automatic_now(w)

    def objectives(self, w: World) -> list[victory.Objective]:
        v = w.scenario.victory
        return victory.scored(v.objectives, v.objectives_score_for)

    def bonus(self, w: World, vp: dict[str, int]) -> None:
        """The points for steps eliminated (the side that eliminated more, or per step of the difference) and for
        captured flags."""
        v = w.scenario.victory
        lost = {side: w.state.steps_lost.get(side, 0) for side in w.sides}
        a, b = w.sides
        if v.most_steps_eliminated_vp is not None and lost[a] != lost[b]:
            vp[b if lost[a] > lost[b] else a] += v.most_steps_eliminated_vp  # the side that eliminated more steps
        if v.step_differential is not None:
            side = v.step_differential.side
            enemy = b if side == a else a
            vp[side] += (lost[enemy] - lost[side]) * v.step_differential.vp_per_step
        if v.flag_capture is not None:
            vp[v.flag_capture.side] += w.state.flags_captured * v.flag_capture.vp

    def judged(self, w: World, vp: dict[str, int]) -> GameEnded:
        """The level one side's points reach (Campotenese), else the side with more points (interpretation
        montebello_winner)."""
        v = w.scenario.victory
        a, b = w.sides
        if v.winner_rule == "levels":
            side = v.step_differential.side if v.step_differential is not None else a
            score = vp[side]
            level = victory.level_for(v.levels, score)
            if level is not None:
                winner = None if level.level == "draw" else (side if level.level.startswith("french") else
                                                             (b if side == a else a))
                return GameEnded(winner=winner, reason=f"{level.name}: {score} VP", rule=v.rule, points=vp,
                                 level=level.level)
        winner = victory.higher(vp, (a, b))
        return GameEnded(winner=winner, reason=f"VP {a} {vp[a]}, {b} {vp[b]}", rule=v.rule, points=vp)


ARRIVANO_SCORING = ArrivanoScoring()
