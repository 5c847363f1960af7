"""rev-o's minor (seventeenth session): the demo counted an Arrivano attack called off as a fight shown, since its
AssaultResolved (result "cancelled": every Attack? test failed, arrivano §12.2.2) is one of selfplay.FOUGHT's
types; the sixteenth session (3bace28) made the demo wait for a result, which Caldiero's called-off attack never
records. selfplay.fought (what the demo asks) needs a result: read on the shipped log's commands, as served."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from arbitro.adjudicator.selfplay import FOUGHT, fought
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.base import UMPIRE

LOG = Path(__file__).parents[2] / "logs" / "arrivano-montebello.jsonl"


def test_an_attack_called_off_is_no_fight_shown() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.import_lines(LOG.read_text(encoding="utf-8").splitlines(), str(LOG), seat=UMPIRE)
    by_command: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for e in app.log_by_event(game, "france"):  # each event as a submit serves it to the seat
        by_command[e["cmd"]].append(e)
    resolved = {cmd: {e["event"]["result"] for e in events if e["type"] == "assault_resolved"}
                for cmd, events in by_command.items()}
    # a defensive fire before the tests that call it off (§12.1 steps 3-4) is a fight shown in the same command
    fired = {cmd for cmd, events in by_command.items() if any(e["type"] in FOUGHT - {"assault_resolved"} for e in events)}
    called_off = [cmd for cmd, results in resolved.items() if results == {"cancelled"} and cmd not in fired]
    fights = [cmd for cmd, results in resolved.items() if results and "cancelled" not in results]
    assert called_off and fights  # the log holds both (13 called off)
    assert not any(fought(by_command[cmd]) for cmd in called_off)
    assert all(fought(by_command[cmd]) for cmd in fights)
    assert all(fought(by_command[cmd]) for cmd in fired)
