"""A complete game of the 1628 scenario (January-February 1628 to the end the rules give) played through the
adjudicator by seeded self-play over legal(), with a chooser that plays purposefully enough to fight: it prefers
battles, bombardment, mines, raids and forts to marching about, and ends an activation only now and then. It is
the sample log logs/monferrato-full.jsonl, which the suite verifies; run `python -m tests.monferrato.full_game` to
rewrite it (each game has new dice, so it plays games until one shows every procedure listed below). It is played
with the provisional map, counters and chit table: not a result of the printed game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arbitro.adjudicator.monferrato.common import enemy_in
from arbitro.adjudicator.monferrato.data import load
from arbitro.adjudicator.selfplay import SelfPlay, weighted_pick
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.base import UMPIRE
from tests import seeds

LOG = Path(__file__).resolve().parents[2] / "logs" / "monferrato-full.jsonl"
# the commands and events the sample game must show
NEEDED = ("draw_chit", "play_chit", "activate", "move", "end_activation", "respond", "take_hit", "raid")
SHOWN = ("battle_began", "volley", "retreated", "raided", "group_arrived", "turn_began", "game_ended", "chits_recycled")
SIEGE = ("wall_battered", "mines_changed")  # at least one
WEIGHTS = {"bombard": 40, "siege": 40, "raid": 12, "fort": 6, "move": 3, "activate": 6, "play_chit": 4,
           "draw_chit": 3, "recover": 4, "return_camp": 20, "end_activation": 2}


def chooser(seed: str, app: Arbitro, gid: str) -> Any:
    d = load()

    def weight(command: dict[str, Any], seat: str, s: Any) -> int:
        if command["type"] != "move":
            return WEIGHTS.get(command["type"], 2)
        dest = command["path"][-1]
        if d.zones[s.units[command["units"][0]].zone].fortress:
            return 1  # a fortress's garrison mostly stays
        held = {z for z in d.zones if d.zones[z].fortress and enemy_in(s, z, seat)}
        if any(n in held for n in d.neighbours(dest)):
            return 30  # to the walls of an enemy fortress
        return 8 if enemy_in(s, dest, seat) else WEIGHTS["move"]

    def choose(seat: str, legal: list[dict[str, Any]], step: int) -> dict[str, Any]:
        s = app.state_at(gid).rules
        weights = [weight(c, seat, s) for c in legal]
        return weighted_pick(seed, step, legal, weights)
    return choose


def play(seed: str) -> tuple[Arbitro, str]:
    app = Arbitro(SQLiteStore(":memory:"))
    with seeds.named(seed):  # the dice too, from the log's name: the same driver writes the same game every run
        gid = app.create("monferrato", "1628", game_id="monferrato-full")
    SelfPlay(app, gid, seed=seed, chooser=chooser(seed, app, gid)).play(20000)
    return app, gid


def main() -> None:
    for i in range(16):
        seed = f"monferrato-full-{i}"
        app, gid = play(seed)
        sent = {c.record.command["type"] for c in app.store.commands(gid)}
        kinds = {e["type"] for e in app.log(gid, UMPIRE)}
        missing = [k for k in NEEDED if k not in sent] + [k for k in SHOWN if k not in kinds]
        missing += [] if kinds & set(SIEGE) else ["a siege"]
        if not missing:
            LOG.write_text("".join(line if line.endswith("\n") else line + "\n"
                                   for line in app.export(gid, UMPIRE, with_seed=True)))
            print(f"wrote {LOG} (chooser seed {seed}, {app.game(gid).head_seq} events)")
            return
        print(seed, "missing", missing, flush=True)
    raise SystemExit("no game showed every procedure of NEEDED, SHOWN and SIEGE")


if __name__ == "__main__":
    main()
