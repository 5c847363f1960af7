"""Morale losses and their consequences (caricat §7.5: the fifth level eliminates), leader loss on doubles
(§7.3, §7.3.1), and the automatic switch from Reserve to Hold of a unit attacked (§3.1)."""

from __future__ import annotations

from arbitro.adjudicator.caricat import rules as R
from arbitro.adjudicator.caricat import scenario as SC
from arbitro.adjudicator.caricat.flow import Game
from arbitro.adjudicator.caricat.world import ELIMINATED
from arbitro.events import caricat as ev
from arbitro.projections.caricat import leader_hex, other


def lose(g: Game, unit: str, levels: int, reason: str, rule: R.Rule) -> None:
    u = g.state.units[unit]
    if levels <= 0 or u.where == "gone":
        return
    hits = min(ELIMINATED, u.hits + levels)
    g.emit(ev.MoraleLost(unit=unit, levels=hits - u.hits, hits=hits, reason=reason, rule=str(rule)))
    if hits >= ELIMINATED:
        SC.eliminate(g, unit, R.MORALE)


def leaders_at(g: Game, hexes: list[str]) -> list[str]:
    return [k for k, le in sorted(g.state.leaders.items())
            if not le.gone and leader_hex(g.state, k) in set(hexes)]


def apply_hits(g: Game, hits: dict[str, int], reason: str, rule: R.Rule, defer: bool = False) -> tuple[str, ...]:
    """Apply a round's hits together (caricat §7.1.2: morale changes after the round), then roll for the leaders
    in every hex where a unit took a loss (caricat §7.3); with `defer`, return those leaders instead, for a roll at
    the end of the combat (reading leader_loss)."""
    struck = [g.state.units[u].hex or "" for u, n in sorted(hits.items()) if n > 0]
    present = leaders_at(g, struck)
    for unit, n in sorted(hits.items()):
        lose(g, unit, n, reason, rule)
    if defer:
        return tuple(present)
    leader_loss(g, present)
    return ()


def leader_loss(g: Game, leaders: list[str]) -> None:
    for leader in leaders:
        le = g.state.leaders[leader]
        if le.gone:
            continue
        dice = g.roll(2, R.LEADER_LOSS, f"{leader} under fire", {"doubles": "killed"})
        if dice[0] != dice[1]:
            continue
        g.emit(ev.LeaderEliminated(leader=leader, vp_to=other(le.side), vp=g.file.elimination_vp.leader,
                                   staff=not g.state.leaders[leader].gone, rule=str(R.STAFF)))


def attacked(g: Game, target: str) -> None:
    """A unit fired on or attacked in melee: its leader at Reserve passes to Hold (caricat §3.1)."""
    u = g.state.units[target]
    if u.leader is not None and g.state.leaders[u.leader].level == "reserve":
        g.emit(ev.LevelChanged(leader=u.leader, level="hold", reason="attacked", rule=str(R.RESERVE)))
