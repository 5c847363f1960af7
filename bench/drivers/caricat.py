"""Sample-game driver: plays Caricat! games through the service by seeded self-play over `legal`, with a simple
preference (raise the levels, close on the enemy, take objectives, melee and fire when able, retreat as offered)
so that the recorded games show the rules at work, and writes them to logs/.

    python -m bench.drivers.caricat        # from the repository root: logs/caricat-pastrengo.jsonl,
                                           # logs/caricat-montebello.jsonl, logs/caricat-pastrengo-options.jsonl

Every command is chosen among the legal ones and submitted to the service: the logs are real games, verified by
tests/caricat/test_logs.py (re-adjudication from the revealed seed).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

from arbitro.adjudicator import registry
from arbitro.adjudicator.caricat.world import World
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro
from bench.drivers import SampleClock, sample_salt_key, sample_seed, write_log
from arbitro.events.sqlite import SQLiteStore

LOGS = Path(__file__).resolve().parents[2] / "logs"
GAMES = (("caricat-pastrengo", "pastrengo", ()), ("caricat-montebello", "montebello", ()),
         ("caricat-pastrengo-options", "pastrengo", ("bes", "carlo_alberto", "morale_check", "regina", "taxis")))
RAISE = {"try_level": 4, "end_levels": 1, "call_brigade": 6, "activate": 5, "activate_cavalry": 3, "pass": -5,
         "end_activation": 0, "destroy_bridge": 2, "end_turn": 1, "aim": 1, "try_retreat": 1, "retreat": 1,
         "advance": 2, "react": 1, "move_leader": -1}


def noise(seed: str, *parts: object) -> int:
    return int.from_bytes(hashlib.sha256("|".join(map(str, (seed, *parts))).encode()).digest()[:4], "big") % 1000


class Chooser:
    def __init__(self, app: Arbitro, game: str, seed: str) -> None:
        self.app, self.game, self.seed = app, game, seed
        self.ruleset = registry.get("caricat")
        self.step = 0

    def __call__(self, seat: str, legal: list[dict[str, Any]], step: int) -> dict[str, Any]:
        self.step += 1
        w: World = self.ruleset.world(self.app.state_at(self.game).rules)  # type: ignore[attr-defined]
        scored = [(self.score(w, seat, c), noise(self.seed, self.step, i), i) for i, c in enumerate(legal)]
        return legal[max(scored)[2]]

    def score(self, w: World, seat: str, c: dict[str, Any]) -> float:
        t = c["type"]
        if t == "try_level":
            order = ("reserve", "hold", "advance", "attack")
            return 4 if order.index(c["level"]) > order.index(w.state.leaders[c["leader"]].level) else -2
        if t == "react":
            return 2 if c["fire"] else 0
        if t == "try_retreat":
            return 1 if c["attempt"] else 0
        if t == "move":
            path = c["path"]
            before = w.nearest_enemy(seat, path[0])
            after = w.nearest_enemy(seat, path[-1])
            goal = 5 if any(o.hex == path[-1] and w.state.control.get(o.hex) != seat for o in w.scenario.file.objectives) else 0
            return 2 + (before - after) + goal - (3 if after == 1 and w.state.units[c["unit"]].hits >= 2 else 0)
        if t in ("melee", "charge"):
            return 7 + len(c.get("units", [])) - w.state.units[c["target"]].hits * -1
        if t == "fire":
            return 6 + len(c["units"])
        return RAISE.get(t, 0)


def play(name: str, scenario: str, options: tuple[str, ...], max_steps: int = 4000) -> Path:
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=SampleClock())
    game = app.create("caricat", scenario, options, game_id=name, seed=sample_seed(name),
                      salt_key=sample_salt_key(name))
    SelfPlay(app, game, seed=name, chooser=Chooser(app, game, name)).play(max_steps)
    state = app.state_at(game).rules
    if state.phase != "over":
        raise SystemExit(f"{name}: not finished after {max_steps} commands (turn {state.turn}, {state.phase})")
    path = LOGS / f"{name}.jsonl"
    write_log(path, app, game)
    return path


def main(argv: list[str]) -> None:
    for name, scenario, options in GAMES:
        if argv and name not in argv:
            continue
        print(play(name, scenario, options))


if __name__ == "__main__":
    main(sys.argv[1:])
