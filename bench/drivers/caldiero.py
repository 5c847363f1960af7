"""Sample-game driver: plays Caldiero games through the adjudicator by seeded self-play over `legal`, with a
simple scripted preference (close on the enemy, attack at the best odds, fire every gun, take the
victory hexes) so that the recorded games show the rules at work, and writes them to logs/.

    python -m bench.drivers.caldiero            # from the repository root: writes logs/caldiero-full.jsonl,
                                                # logs/caldiero-tempo-regge.jsonl and its fog copy (foglog.py)

Every command is chosen among the legal ones and submitted to the service: the logs are real games,
verified by tests/caldiero/test_logs.py (re-adjudication from the revealed seed).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

from arbitro.adjudicator import registry
from arbitro.adjudicator.parabellum.orders import order_of
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import assault
from arbitro.adjudicator.parabellum.movement import nearest_enemy_distance
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro
from bench.drivers import SampleClock, foglog, sample_salt_key, sample_seed, write_log
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.caldiero import CaldieroState

LOGS = Path(__file__).resolve().parents[2] / "logs"
VP_HEXES = {"2020", "2119", "1612", "1613", "1712", "1607", "2013", "2115"}


def noise(seed: str, *parts: object) -> int:
    return int.from_bytes(hashlib.sha256("|".join(map(str, (seed, *parts))).encode()).digest()[:4], "big") % 1000


class Chooser:
    def __init__(self, app: Arbitro, game: str, seed: str) -> None:
        self.app, self.game, self.seed = app, game, seed
        self.ruleset = registry.get("caldiero")
        self.step = 0

    def world(self) -> World:
        state: CaldieroState = self.app.state_at(self.game).rules
        return World(state, self.ruleset.battle, lambda n: self.ruleset.interpretations()[n].default,  # type: ignore[attr-defined]
                     variant=CALDIERO_VARIANT)

    def choose(self, seat: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        self.step += 1
        w = self.world()
        scored = [(self.score(w, seat, c), noise(self.seed, self.step, i), i) for i, c in enumerate(legal)]
        return legal[max(scored)[2]]

    # --- preferences -------------------------------------------------------------------------
    def score(self, w: World, seat: str, c: dict[str, Any]) -> float:
        t = c["type"]
        s = w.state
        if t == "end_step":
            return 0
        if t == "change_order":
            want = "attack" if seat == "france" or s.turn >= 5 or c["formation"] == "provera" else "defence"
            if c["formation"] == "provera" and s.turn < 7:
                want = "advance"
            return 5 if c["order"] == want else -5
        if t == "try_order_change":
            return 3 if c["order"] == ("attack" if seat == "france" or s.turn >= 5 else "defence") else -5
        if t == "unit_order":
            return 2 if c["order"] == "advance" else -1
        if t == "place" and s.phase == "setup":
            return -1  # keep the default set-up
        if t in ("reorganise", "place", "activate"):
            if t == "activate":
                return 5 if w.state.formations[c["formation"]].side == seat else 1
            return 5
        if t == "move":
            return self.move_score(w, seat, c)
        if t == "move_leader":
            return self.leader_score(w, seat, c)
        if t == "bombard":
            return 10 + sum(w.strength(u) for u in w.enemy_units_at(c["target"], seat))
        if t == "attack":
            return self.attack_score(w, seat, c)
        if t == "retreat":
            end = c["path"][-1]
            return nearest_enemy_distance(w, end, seat) or 0
        if t in ("advance", "defensive_fire", "exchange_loss"):
            return 5
        if t == "efficiency_value":
            return c["value"]
        if t == "ne_choice":  # testing preferred, as its `choose {value: 1}` was (games up to caldiero 0.28.0)
            return 1 if c["test"] else 0
        if t == "decline":
            return 1
        if t == "cavalry_retreat":  # staying preferred, as its `decline` was (games up to the twentieth session)
            return 1 if c["to"] is None else 0.5
        return 0

    def move_score(self, w: World, seat: str, c: dict[str, Any]) -> float:
        u = c["units"][0]
        unit = w.state.units[u]
        start = unit.hex or (w.counters.unit(u).arrival.entry if w.counters.unit(u).arrival else c["to"])
        before = nearest_enemy_distance(w, start, seat) or 0
        after = nearest_enemy_distance(w, c["to"], seat) or 0
        if unit.where == "offmap":
            return 8 + (before - after)
        if unit.arm == "artillery":
            return 2 - abs(after - 2) - (3 if after <= 1 else 0)
        order = order_of(w, u)
        value = (before - after) * 2.0
        if c["to"] in VP_HEXES and not w.side_units_at(c["to"], seat):
            value += 6
        if seat == "austria" and order == "defence":
            value = -abs(after - 2) + (6 if c["to"] in VP_HEXES else 0) - 1
        if c.get("charge"):
            value += 3
        return value + len(c["units"]) * 0.5 - (0.5 if c.get("column") else 0)

    def leader_score(self, w: World, seat: str, c: dict[str, Any]) -> float:
        leader = c["leader"]
        data = w.counters.leader(leader)
        if data.role == "general":
            own = [w.state.units[u].hex for u in w.on_map_units() if w.formation_of(u) == data.formation]
        else:
            own = [w.state.leaders[g].hex for g in w.state.leaders if w.state.leaders[g].side == seat
                   and w.state.leaders[g].where == "map" and g != leader]
        own = [h for h in own if h]
        if not own:
            return 1
        here = w.state.leaders[leader].hex
        spread_after = sum(w.grid.distance(c["to"], h) for h in own) / len(own)
        spread_now = sum(w.grid.distance(here, h) for h in own) / len(own) if here else 99
        safe = 0 if w.side_units_at(c["to"], seat) else -2
        return (spread_now - spread_after) + safe

    def attack_score(self, w: World, seat: str, c: dict[str, Any]) -> float:
        defenders = [u for h in c["defenders"] for u in w.enemy_units_at(h, seat)]
        att, dfn = assault.strengths(CALDIERO_VARIANT, w, c["attackers"], defenders, c["defenders"])
        if dfn <= 0:
            return 20
        ratio = att / dfn
        value = ratio * 5 - 2
        if c.get("elan"):
            value += 2 if ratio >= 1 and noise(self.seed, "elan", self.step) < 450 else -3
        return value


def play(app: Arbitro, game: str, seed: str, max_steps: int = 6000) -> int:
    chooser = Chooser(app, game, seed)
    return SelfPlay(app, game, seed=seed, chooser=lambda seat, legal, _step: chooser.choose(seat, legal)).play(max_steps)


def make_log(path: Path, scenario: str, options: tuple[str, ...], seed: str) -> str:
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=SampleClock())
    name = f"caldiero-{path.stem.removeprefix('caldiero-')}"
    game = app.create("caldiero", scenario, options, game_id=name, seed=sample_seed(f"{name}|{seed}"),
                      salt_key=sample_salt_key(f"{name}|{seed}"))
    steps = play(app, game, seed)
    write_log(path, app, game)
    state = app.state_at(game).rules
    return f"{path.name}: {steps} commands, turn {state.turn}, result {state.result}"


def main(argv: list[str]) -> None:
    LOGS.mkdir(exist_ok=True)
    print(make_log(LOGS / "caldiero-full.jsonl", "historical", (), argv[0] if argv else "caldiero-full"))
    # the default seed of Il tempo regge: one whose game shows its optional rules at work, charges (caldiero §20.2)
    # and flank attacks (§20.5), as tests/caldiero/test_logs.py asks (since caldiero 0.20.0 "caldiero-regge" no longer
    # did; since the §4.3.1 die of the sixteenth session "caldiero-regge-2" charged no more, and -3's game could not be
    # played again under the fog by foglog, its fog asking a §14.1 retreat the plain game did not)
    print(make_log(LOGS / "caldiero-tempo-regge.jsonl", "il_tempo_regge", ("cavalry_charges", "flank_attacks"),
                   argv[1] if len(argv) > 1 else "caldiero-regge-5"))
    foglog.main([])  # the same game under the fog of war (§20.4), from the log just written


if __name__ == "__main__":
    main(sys.argv[1:])
