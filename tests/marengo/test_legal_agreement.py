"""legal() and decide() agree: over positions reached by self-play, a broad set of candidate commands (legal
or not) is accepted by the engine exactly when legal() lists it."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.marengo.data_loader import load_data
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.projections.marengo import POOL
from tests.marengo.harness import from_position, new_game, position, ruleset


def candidates(state: Any, seat: str) -> list[dict[str, Any]]:
    d = load_data()
    out: list[dict[str, Any]] = [{"type": "end_turn"}, {"type": "resolve_bombardment"}, {"type": "cancel_bombardment"}]
    own = sorted(b for b, x in state.blocks.items() if x.side == seat)
    on_map = [b for b in own if state.blocks[b].zone in d.zones]
    for b in on_map:
        x = state.blocks[b]
        t = x.token
        for z in sorted(d.neighbours(x.zone)) + [x.zone]:
            out.append({"type": "move", "blocks": [t], "to": z, "place": "reserve"})
            if x.arm == "infantry":  # the optional field of an attack into cavalry-obstacle terrain (marengo §9)
                out.append({"type": "move", "blocks": [t], "to": z, "place": "reserve", "show": t})
        for ap in d.approaches_of[x.zone]:
            out.append({"type": "move", "blocks": [t], "to": x.zone, "place": ap})
            out.append({"type": "continue", "blocks": [t], "approach": ap})
            out.append({"type": "assault", "approach": ap, "blocks": [t], "leaders": [t]})
        for road in d.roads_through(x.zone):
            zs = list(d.roads[road].zones)
            i = zs.index(x.zone)
            for step in (1, -1):
                path = [zs[j] for j in range(i + step, i + 4 * step, step) if 0 <= j < len(zs)]
                for n in range(1, len(path) + 1):
                    out.append({"type": "road_move", "block": t, "road": road, "path": path[:n]})
        out.append({"type": "declare_bombardment", "block": t})
    for b in own:
        x = state.blocks[b]
        if x.zone.startswith(POOL):
            e = d.entries[d.tables[x.zone[len(POOL):]].entry]
            out.append({"type": "enter", "block": b, "entry": e.id, "path": [e.zone]})
            out.append({"type": "pontoon", "block": b})
    for z in sorted(d.zones):
        out.append({"type": "shuffle", "zone": z})
    return out


@pytest.mark.parametrize("seed", ["agree-1", "agree-2", "agree-3"])
def test_legal_and_decide_agree(seed: str) -> None:
    g = new_game()
    rs = ruleset()
    adj = g.app.adjudicator("marengo")
    play = SelfPlay(g.app, g.id, seed=seed)
    checked = 0
    for _ in range(30):
        play.play(play.steps + 9)
        game = g.app.game(g.id)
        replayer = g.app.replayer(g.id)
        full = replayer.state_at()
        if full.rules.game_over:
            break
        for seat in ("austria", "france"):
            legal = [rs.dump_command(rs.parse_command(c)) for c in g.app.legal(g.id, seat)]
            for c in legal[:60]:  # everything listed is accepted
                adj.decide(full, seat, c, g.app.context(game), replayer, g.app.supply(game))
            for c in candidates(full.rules, seat):
                norm = rs.dump_command(rs.parse_command(c))
                try:
                    adj.decide(full, seat, c, g.app.context(game), replayer, g.app.supply(game))
                    accepted = True
                except Rejected:
                    accepted = False
                assert accepted == (norm in legal), (seat, c, accepted)
                checked += 1
    assert checked > 500


def test_attack_manoeuvre_into_cavalry_obstacle_terrain_is_listed_with_its_shown_infantry_marengo_9() -> None:
    """marengo §9: an attack manoeuvre into terrain that blocks cavalry names the infantry block shown. legal()
    listed none (it asked check_move without `show`, which refuses such a move), though decide() accepts it."""
    g = from_position(position({"AUT_OTT_A": ("ghilina", "reserve"), "FRA_WATRIN_A": ("torre_garofoli", "reserve")}))
    token = g.tok("AUT_OTT_A")
    listed = [c for c in g.legal("austria") if c["type"] == "move" and c["to"] == "torre_garofoli"]
    assert listed == [{"type": "move", "blocks": [token], "to": "torre_garofoli", "place": "reserve", "show": token}]
    g.send("austria", **listed[0])
    assert g.manoeuvre() is not None and g.manoeuvre().to_zone == "torre_garofoli"
