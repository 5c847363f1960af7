"""Complete games of both Arrivano scenarios played through the adjudicator by seeded self-play over legal(), with
a chooser that plays purposefully enough to fight: it marches toward the enemy, bombards, assaults and advances.
Run `python -m tests.arrivano.full_game` to rewrite the sample logs (GAMES): each scenario with the rules of the
rulebook, and Montebello once more with every optional rule of §16 on."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.arrivano.data_model import ARRIVANO_DATA
from arbitro.adjudicator.parabellum.movement import nearest_enemy_distance
from arbitro.adjudicator.selfplay import SelfPlay, weighted_pick
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.base import UMPIRE
from tests import seeds

LOGS = Path(__file__).resolve().parents[2] / "logs"
NEEDED = ("assault_resolved", "artillery_fired", "unit_retreated", "unit_eliminated", "order_changed",
          "initiative_won", "turn_began", "game_ended")
# The sample games: log name, scenario, options, the event types it must show beyond NEEDED.
GAMES: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("arrivano-montebello", "montebello", (), ()),
    ("arrivano-campotenese", "campotenese", (), ("weather_changed",)),
    ("arrivano-montebello-options", "montebello",
     ("hq_orders", "independent_columns", "light_troops_retreat", "open_order", "physical_exhaustion"),
     ("infantry_fired", "open_order_marked", "headquarters_activated", "column_dissolved")),
)
WEIGHTS = {"assault": 80, "fire": 30, "fire_target": 2, "fall_back": 2, "bombard": 40, "defensive_fire": 6, "move": 4,
           "move_leader": 1, "activate": 5, "retreat": 1, "dr_choice": 2, "choose_order": 1}


def chooser(seed: str, app: Arbitro, gid: str) -> Any:
    ruleset = registry.get("arrivano")

    def weight(command: dict[str, Any], world: Any) -> int:
        kind = command["type"]
        if kind == "move":
            unit = world.state.units[command["unit"]]
            side = unit.side
            before = (nearest_enemy_distance(world, unit.hex, side) or 0) if unit.where == "map" else 99
            after = nearest_enemy_distance(world, command["to"], side) or 0
            return max(1, 4 + 8 * (before - after)) if not command["column"] else 3
        if kind in ("change_order", "try_order_change", "choose_order"):
            return 6 if command["order"] in ("attack", "advance") else 1
        if kind == "advance":
            return 10  # one advance of several listed now (each hex, arrivano §12.7.2): each weighs as the one did
        if kind == "decline":  # the advance declined (games up to 1.31.0: an advance naming no unit)
            return 1
        if kind == "ne_choice":
            return 4 if command["test"] else 1
        if kind == "defensive_fire":
            return 8 if command["target"] else 1
        if kind == "end_step":  # the orders sub-phase's end weighs as its end_orders did (games up to 1.27.0)
            return 3 if world.state.step == "orders" else 2
        return WEIGHTS.get(kind, 2)

    def choose(seat: str, legal: list[dict[str, Any]], step: int) -> dict[str, Any]:
        world = ruleset.world(app.state_at(gid).rules)
        weights = [weight(c, world) for c in legal]
        return weighted_pick(seed, step, legal, weights)
    return choose


def play(scenario: str, seed: str, options: tuple[str, ...] = (), name: str | None = None) -> tuple[Arbitro, str]:
    app = Arbitro(SQLiteStore(":memory:"))
    with seeds.named(seed):  # the dice too, from the log's name: the same driver writes the same game every run
        gid = app.create("arrivano", scenario, options, game_id=name or f"arrivano-{scenario}")
    SelfPlay(app, gid, seed=seed, chooser=chooser(seed, app, gid)).play(20000)
    return app, gid


def main(names: list[str]) -> None:
    """Rewrite the logs named (all of GAMES when none is): each from the first seed whose game shows every procedure
    and is played to the scenario's last turn (tests/arrivano/test_logs.py asks both)."""
    for name, scenario, options, shows in GAMES:
        if names and name not in names:
            continue
        for i in range(50):
            seed = f"{name}-{i}"
            app, gid = play(scenario, seed, options, name)
            log = app.log(gid, "umpire")
            kinds = {e["type"] for e in log}
            missing = [k for k in (*NEEDED, *shows) if k not in kinds]
            if app.state_at(gid).rules.turn != ARRIVANO_DATA.shipped().scenarios[scenario].scenario.turns:
                missing.append("the last turn")
            if not missing:
                (LOGS / f"{name}.jsonl").write_text(
                    "".join(line if line.endswith("\n") else line + "\n" for line in app.export(gid, UMPIRE, with_seed=True)))
                print(json.dumps({"log": name, "seed": seed, "outcome": msgspec.to_builtins(app.status(gid).outcome)}), flush=True)
                break
            print(seed, "missing", missing, flush=True)
        else:
            raise SystemExit(f"no seed produced a complete {name} game with every procedure")


if __name__ == "__main__":
    main(sys.argv[1:])
