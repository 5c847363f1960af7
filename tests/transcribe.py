"""A shipped log played again as a transcribed game (arbitro §R.4, §S.5): the umpire enters each seat's command as
it was played, and each roll and draw as the log records it, as a game played on a table is entered afterwards.
The tests of amendments (arbitro §D.5) start from these."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from arbitro.adjudicator.core_commands import CORE_COMMAND_TYPES
from arbitro.adjudicator.service import Arbitro
from arbitro.projections.base import UMPIRE


def randoms_by_command(records: list[dict[str, Any]]) -> dict[int, list[list[Any]]]:
    """Each command's rolls and draws, in the order the log made them: the values to enter."""
    out: dict[int, list[list[Any]]] = {}
    for record in records:
        if record["record"] != "event":
            continue
        body = record["body"]
        event = body["event"]
        if event["type"] == "dice_rolled":
            out.setdefault(body["cmd"], []).append(event["values"])
        elif event["type"] == "items_drawn":
            out.setdefault(body["cmd"], []).append(event["drawn"])
    return out


def enter(app: Arbitro, game: str, values: list[list[Any]]) -> None:
    for entered in values:
        assert app.awaiting(game).kind == "random", f"the log rolled {entered}; the transcription asks for none"
        app.submit(game, UMPIRE, {"type": "enter_random", "values": entered})
    assert app.awaiting(game).kind != "random", "the transcription asks for a roll the log did not make"


def transcribe(app: Arbitro, path: Path, commands: int) -> str:
    """The log's first `commands` commands as a transcribed game in `app`; returns its id."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    created = next(r for r in records if r["record"] == "event" and r["body"]["seq"] == 1)["body"]["event"]
    randoms = randoms_by_command(records)
    game = app.create(created["ruleset"], created["scenario"], created["options"], transcribed=True)
    enter(app, game, randoms.get(0, []))  # the scenario's opening draws
    played = [r["body"] for r in records if r["record"] == "command" and r["cmd"] > 0]
    for body in [b for b in played if b["command"]["type"] not in CORE_COMMAND_TYPES][:commands]:
        app.submit(game, UMPIRE, {"type": "on_behalf", "seat": body["seat"], "command": body["command"]})
        enter(app, game, randoms.get(body["cmd"], []))
    return game
