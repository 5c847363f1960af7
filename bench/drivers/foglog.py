"""A shipped game played again under the fog of war (caldiero §20.4): logs/caldiero-tempo-regge-fog.jsonl is
logs/caldiero-tempo-regge.jsonl's command list with the option `fog_of_war` added, from the same revealed seed, so
that "every log verifies byte for byte" covers the code only the fog runs (a die's words to each seat, sightings, the
steps that wait, the view and its redactions). Found missing by rev-g's G3 (thirteenth session), whose driver this is.

    python -m bench.drivers.foglog      # from the repository root: writes logs/caldiero-tempo-regge-fog.jsonl

Run it again only when caldiero-tempo-regge.jsonl is played again (bench/drivers/caldiero.py); a change of events
alone is a relog of the fog log itself (`python -m bench.drivers.relog logs/caldiero-tempo-regge-fog.jsonl`), whose
genesis names the option and whose command list holds the `end_step`s inserted here.

The fog changes no outcome, only what each seat is told and when a step ends: under the fog a step whose options hang
on pieces the enemy may not examine waits for its seat's `end_step` (sequence.UNSEEN_WAITS) where the recorded game's
step ended by itself. `UnseenWaits` inserts those `end_step`s, each by the seat that owes it, before a recorded
command the game does not yet list, and after the last one until the game ends."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arbitro.adjudicator import registry
from arbitro.adjudicator.service import Arbitro
from bench.drivers import relog

LOGS = Path(__file__).resolve().parents[2] / "logs"
FOG = "fog_of_war"
SOURCE, TARGET = LOGS / "caldiero-tempo-regge.jsonl", LOGS / "caldiero-tempo-regge-fog.jsonl"
END = {"type": "end_step"}


class UnseenWaits:
    """The recorded command, after the `end_step`s the steps waiting under the fog owe before it; after the last
    one, those that end the game (the recorded game ended by itself). Lazily: relog submits each pair before asking
    for the next, so each `end_step` is asked of the game as it then stands."""

    def __init__(self) -> None:
        self.left = 0  # the recorded commands not yet played

    def start(self, records: list[dict[str, Any]]) -> None:
        self.left = sum(1 for r in records if r["record"] == "command" and r["cmd"] > 0)

    def __call__(self, app: Arbitro, game: str, seat: str, command: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
        self.left -= 1
        rules = registry.get(app.game(game).ruleset)
        wanted = rules.parse_command(command)  # as the rules read it: legal() leaves out the fields at their defaults
        while wanted not in [rules.parse_command(c) for c in app.legal(game, seat)] and (owing := self.owing(app, game)):
            yield owing, END  # when none owes one, relog's refusal of the command names what this build makes of it
        yield seat, command
        while not self.left and (owing := self.owing(app, game)):
            yield owing, END

    @staticmethod
    def owing(app: Arbitro, game: str) -> str | None:
        return next((s for s in app.awaiting(game).seats if END in app.legal(game, s)), None)


def main(argv: list[str]) -> None:
    source, target = (Path(argv[0]), Path(argv[1])) if len(argv) == 2 else (SOURCE, TARGET)
    print(f"{target}: {relog.relog(source, UnseenWaits(), to=target, options=(FOG,))} commands played under the fog")


if __name__ == "__main__":
    main(sys.argv[1:])
