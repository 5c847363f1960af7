"""The state before a command, made again by the caller rather than encoded by the engine before every command
(issue 15, `Adjudicator.decide(..., before=...)`): the service decodes its head bytes, verification folds its log
to the command's head. Each is the very state the engine was given, on a shipped log re-adjudicated and re-submitted:
a refusal or random entry that decides again from it decides from the same position."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.engine import Adjudicator
from arbitro.adjudicator.exchange import read_lines
from arbitro.adjudicator.service import Arbitro
from arbitro.adjudicator.verify import verify
from arbitro.events import core
from arbitro.events.codec import canonical
from arbitro.events.sqlite import SQLiteStore

LOG = Path(__file__).resolve().parents[2] / "logs" / "marengo-full.jsonl"
ASKED = 40  # commands whose state before is compared (verification's is a fold from the log's start)


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    same: list[bool] = []
    real = Adjudicator._context

    def checking(self: Adjudicator, state: Any, *args: Any, before: Any = None, **kwargs: Any) -> Any:
        if before is not None and len(same) < ASKED:
            same.append(canonical(before()) == canonical(state))
        return real(self, state, *args, before=before, **kwargs)

    monkeypatch.setattr(Adjudicator, "_context", checking)
    return same


def test_verification_makes_again_the_state_the_engine_was_given(compared: list[bool]) -> None:
    report = verify(read_lines(LOG.read_text(encoding="utf-8").splitlines(), LOG.name))
    assert report.passed
    assert len(compared) == ASKED and all(compared)


def test_the_service_makes_again_the_state_the_engine_was_given(compared: list[bool]) -> None:
    records = [msgspec.json.decode(line) for line in LOG.read_text(encoding="utf-8").splitlines() if line.strip()]
    game = next(r for r in records if r["record"] == "game")
    created = msgspec.convert(next(r for r in records if r["record"] == "event")["body"]["event"], core.GameCreated)
    app = Arbitro(SQLiteStore(":memory:"))
    gid = app.start_recorded(created, game["seed"], game["id"], salt_key=game.get("salt_key"))
    for body in [r["body"] for r in records if r["record"] == "command" and r["cmd"] > 0][:ASKED]:
        app.submit(gid, body["seat"], body["command"], key=body["key"])
    assert len(compared) == ASKED and all(compared)
