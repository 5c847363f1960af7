"""Victory (arrivano §17.1.8 Montebello, §17.2.12 Campotenese) from scenario data."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.arrivano.world import World


def occupier(w: World, h: str) -> str | None:
    """Interpretation vp_control: occupied_at_end - the side with a combat unit in the hex."""
    return w.side_at(h)


def automatic_now(w: World) -> dict[str, Any] | None:
    """Automatic victories that apply at any time (Montebello: Lannes lost, arrivano §17.1.8)."""
    for auto in w.s.scenario.victory.automatic:
        if auto.when == "any_time" and auto.condition == "leader_lost" and any(
                w.state.leaders[lid].where == "lost" for lid in auto.leaders):
            return {"winner": auto.winner, "reason": f"{', '.join(auto.leaders)} eliminated or captured",
                    "rule": auto.rule, "vp": {}, "automatic": True}
    return None


def final_result(w: World) -> dict[str, Any]:
    v = w.s.scenario.victory
    for auto in v.automatic:
        if auto.when == "end_of_last_turn" and auto.condition == "occupy_all":
            hexes = list(auto.hexes) + [h for p in auto.places for h in w.s.map.place(p)]
            if hexes and all(occupier(w, h) == auto.winner for h in hexes):
                return {"winner": auto.winner, "reason": f"{auto.winner} holds {', '.join(sorted(hexes))} at the end",
                        "rule": auto.rule, "vp": {}, "automatic": True}
    found = automatic_now(w)
    if found is not None:
        return found
    vp = {side: 0 for side in w.s.scenario.seats}
    for obj in v.objectives:
        side = occupier(w, obj.hex)
        if side is not None and side in v.objectives_score_for:
            vp[side] += obj.vp
    lost = {side: w.state.steps_lost.get(side, 0) for side in w.s.scenario.seats}
    a, b = w.s.scenario.seats
    if v.most_steps_eliminated_vp is not None and lost[a] != lost[b]:
        vp[b if lost[a] > lost[b] else a] += v.most_steps_eliminated_vp  # the side that eliminated more steps
    if v.step_differential is not None:
        side = v.step_differential.side
        enemy = b if side == a else a
        vp[side] += (lost[enemy] - lost[side]) * v.step_differential.vp_per_step
    if v.flag_capture is not None:
        vp[v.flag_capture.side] += w.state.flags_captured * v.flag_capture.vp
    if v.winner_rule == "levels":
        side = v.step_differential.side if v.step_differential is not None else a
        score = vp[side]
        for level in v.levels:
            if (level.min is None or score >= level.min) and (level.max is None or score <= level.max):
                winner = None if level.result == "draw" else (side if level.result.startswith("french") else
                                                             (b if side == a else a))
                return {"winner": winner, "reason": f"{level.name}: {score} VP", "rule": v.rule, "vp": vp,
                        "level": level.result, "automatic": False}
    winner = None if vp[a] == vp[b] else (a if vp[a] > vp[b] else b)  # interpretation montebello_winner
    return {"winner": winner, "reason": f"VP {a} {vp[a]}, {b} {vp[b]}", "rule": v.rule, "vp": vp, "automatic": False}
