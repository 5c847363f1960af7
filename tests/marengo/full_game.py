"""A complete 16-round Marengo game played through the adjudicator by seeded self-play over legal(),
with a chooser that favours fighting (assaults, bombardments, reinforcements), so that the log shows
every procedure. Run `python -m tests.marengo.full_game` to rewrite logs/marengo-full.jsonl."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from arbitro.adjudicator.selfplay import SelfPlay, weighted_pick
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.base import UMPIRE
from tests import seeds

LOG = Path(__file__).resolve().parents[2] / "logs" / "marengo-full.jsonl"
NEEDED = ("assault_declared", "defensive_fire", "pursuit_declared", "bombardment_resolved", "manoeuvre_started",
          "manoeuvre_blocked", "blocks_shuffled", "blocks_activated", "demoralised", "game_over")

WEIGHTS = {"end_turn": 1, "assault": 60, "resolve_bombardment": 40, "cancel_bombardment": 1,
           "declare_bombardment": 30, "enter": 20, "pontoon": 12, "move": 5, "road_move": 3, "continue": 6,
           "shuffle": 1, "activate": 12}


def weight(command: dict[str, Any]) -> int:
    if command["type"] == "advance":
        return 8 if command["advance"] else 1
    if command["type"] == "defensive_artillery":
        return 8 if command["fire"] else 1
    if command["type"] == "pursue":
        return 6 if command["blocks"] else 1
    return WEIGHTS.get(command["type"], 2)


def chooser(seed: str) -> Any:
    def choose(seat: str, legal: list[dict[str, Any]], step: int) -> dict[str, Any]:
        weights = [weight(c) for c in legal]
        return weighted_pick(seed, step, legal, weights)
    return choose


def play(seed: str, app: Arbitro | None = None) -> tuple[Arbitro, str]:
    app = app or Arbitro(SQLiteStore(":memory:"))
    with seeds.named(seed):  # the dice too, from the log's name: the same driver writes the same game every run
        gid = app.create("marengo", "marengo", game_id="marengo-full")
    SelfPlay(app, gid, seed=seed, chooser=chooser(seed)).play(20000)
    return app, gid


def event_types(app: Arbitro, gid: str) -> set[str]:
    return {e["type"] for e in app.log(gid, "umpire")}


def main() -> None:
    for i in range(200):
        seed = f"marengo-full-{i}"
        app, gid = play(seed)
        kinds = event_types(app, gid)
        missing = [k for k in NEEDED if k not in kinds]
        if not missing:
            LOG.write_text("".join(line if line.endswith("\n") else line + "\n" for line in app.export(gid, UMPIRE, with_seed=True)))
            state = app.state_at(gid).rules
            print(json.dumps({"seed": seed, "winner": state.winner, "result": state.result, "morale": state.morale}))
            return
        print(seed, "missing", missing)
    raise SystemExit("no seed produced a game with every procedure")


if __name__ == "__main__":
    main()
