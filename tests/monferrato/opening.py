"""The opening of the 1628 scenario (January-February and March 1628) played through the adjudicator by seeded
self-play over legal(): the sample log logs/monferrato-opening.jsonl, which the suite verifies and the fuzz tests
start from mid-game. It is an opening, not a complete game: field battles, sieges, forts and raids are not enforced
yet (docs/rulesets/monferrato.md), so a whole game would not be the printed game. Run
`python -m tests.monferrato.opening` to rewrite it."""

from __future__ import annotations

from pathlib import Path

from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.base import UMPIRE

LOG = Path(__file__).resolve().parents[2] / "logs" / "monferrato-opening.jsonl"
TURNS = 2  # January-February and March 1628
NEEDED = ("draw_chit", "discard", "play_chit", "activate", "move", "end_activation", "respond")  # commands it must show


def play(seed: str) -> tuple[Arbitro, str]:
    app = Arbitro(SQLiteStore(":memory:"))
    gid = app.create("monferrato", "1628", game_id="monferrato-opening")
    sp = SelfPlay(app, gid, seed=seed)
    while app.state_at(gid).rules.turn < TURNS and sp.step():
        pass
    return app, gid


def main() -> None:
    for i in range(200):
        app, gid = play(f"monferrato-opening-{i}")
        sent = {c.record.command["type"] for c in app.store.commands(gid)}
        if all(k in sent for k in NEEDED):
            LOG.write_text("".join(line if line.endswith("\n") else line + "\n"
                                   for line in app.export(gid, UMPIRE, with_seed=True)))
            print(f"wrote {LOG} (seed monferrato-opening-{i}, {app.game(gid).head_seq} events)")
            return
    raise SystemExit("no seed showed every command of NEEDED")


if __name__ == "__main__":
    main()
