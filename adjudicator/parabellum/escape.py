"""A commander's flight from an enemy unit, one decision for both books (§8.2.3 in both: an enemy combat unit enters
his hex, he flees up to his full movement or is lost, caldiero "catturato", arrivano "perso"; arrivano §4.5.6: one
that comes next to him may flee, or stay): its frame's kind, its answers (`escape {to}`, `to` null where he need not
flee), the flight, and what is settled without a choice. Each game opens it where its book says (caldiero
system_procedure.lone_leaders, arrivano flow.commander_checks), citing the rule its frame then cites throughout."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.decisions import close_frame
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.commander_move import leader_ends
from arbitro.adjudicator.parabellum.steps import Listed, Row
from arbitro.adjudicator.parabellum.world import World
from arbitro.events import core
from arbitro.events.parabellum import EscapeAwaited, LeaderLost, LeaderMoved

ESCAPE = "escape"  # the frame's kind in both games


def answers(w: World, frame: core.Frame[EscapeAwaited]) -> Listed:
    """Every hex he may flee to with his movement (`leader_ends` fleeing: D12 `escape_through_ezoc`), and staying
    where he need not flee (arrivano §4.5.6); none once he is off the map."""
    leader = frame.ctx.leader
    if w.state.leaders[leader].where != "map":
        return []
    out: Listed = [{"type": "escape", "to": h} for h in leader_ends(w.variant, w, leader, fleeing=True)]
    return out if frame.ctx.forced else out + [{"type": "escape", "to": None}]


def fled(a: Act[Any], frame: core.Frame[EscapeAwaited], cmd: Any) -> None:
    """He flees along his way to the hex named (carried by no move of his own: D42), or stays (`to` null)."""
    if cmd.to is not None:
        path = leader_ends(a.variant, a.world(), frame.ctx.leader, fleeing=True)[cmd.to]
        a.emit(LeaderMoved(leader=frame.ctx.leader, path=path, rule=frame.rule, own=False))


def refusal(w: World, frame: core.Frame[EscapeAwaited], answer: dict[str, Any], options: Listed) -> tuple[str, str]:
    hexes = ", ".join(str(o["to"]) for o in options)  # None: he stays (arrivano §4.5.6)
    return frame.rule, f"{frame.ctx.leader} flees to a hex he can reach with his movement: {hexes or 'none'}"


def settled(a: Act[Any], frame: core.Frame[EscapeAwaited]) -> bool:
    """The frame on top with no choice in it: nothing to ask once he is off the map or may only stay; lost where he
    must flee and has nowhere to go (§8.2.3 in both), what follows the loss his game's. False: his owner chooses."""
    leader, forced = frame.ctx.leader, frame.ctx.forced
    options = answers(a.world(), frame)
    if a.state.leaders[leader].where == "map" and (len(options) > 1 or forced and options):
        return False
    close_frame(a.ctx, frame)
    if forced and a.state.leaders[leader].where == "map":
        a.emit(LeaderLost(leader=leader, rule=frame.rule))
        a.after_leader_lost(leader)
    return True


ROW = Row(answers, fled, refusal)
