"""A command entered on a seat's behalf (arbitro §S.5, issue 19 item 24) in a transcribed game of every shipped
ruleset: the engine does it for all, not per game (tests/foundation/test_on_behalf.py holds the rule on the toy
duel). The first commands of one shipped log of each ruleset are entered by the umpire as played on the table
(tests/transcribe.py); each is recorded as the umpire's, for its seat, served to every seat as entered for it (the
`entered_on_behalf` record first), and the transcription verifies."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from tests.transcribe import transcribe
from arbitro.adjudicator.seat_numbers import events_of

LOGS = Path(__file__).resolve().parents[2] / "logs"
ONE_LOG = {"arrivano": "arrivano-montebello", "caldiero": "caldiero-full", "caricat": "caricat-pastrengo",
           "marengo": "marengo-full", "monferrato": "monferrato-full"}


@pytest.mark.parametrize("ruleset", sorted(ONE_LOG))
def test_the_umpire_enters_each_seats_commands_and_every_seat_is_told_so(ruleset: str) -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = transcribe(app, LOGS / f"{ONE_LOG[ruleset]}.jsonl", 6)
    entered = {}
    for cmd in range(1, app.game(game).head_cmd + 1):
        record = app.store.command(game, cmd)
        assert record is not None
        if record.record.command["type"] == "on_behalf":
            assert record.record.seat == "umpire"
            entered[cmd] = record.record.command["seat"]
    assert len(entered) == 6 and set(entered.values()) <= set(app.game(game).seats)
    for seat in (*app.game(game).seats, "umpire"):
        served = events_of(app.log(game, seat))
        for cmd, for_seat in entered.items():
            first = next(e for e in served if e["cmd"] == cmd)
            assert first["seat"] == "umpire" and first["event"] == {
                "type": "entered_on_behalf", "by": "umpire", "seat": for_seat, "rule": "arbitro §S.5"}
    assert app.verify(game).passed
