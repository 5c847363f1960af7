"""What a seat is served of some commands, as one byte string for the non-interference tests of both Para Bellum games
(tests/caldiero/test_fog_steps_wait.py, tests/arrivano/test_fog_steps_wait.py)
and the non-interference fuzzer (bench/nifuzz.py): its log, one item per command
(seat_numbers.per_command, each event redacted with the state right after it), its view numbered by command, and what
status tells it (the awaited seat and step, its notices)."""

from __future__ import annotations

import json
from typing import Any

from arbitro.adjudicator.engine_steps import awaiting_in
from arbitro.adjudicator.ruleset import Ruleset
from arbitro.adjudicator.seat_numbers import Command, CommandNumbers, per_command
from arbitro.events.codec import canonical, to_builtins
from arbitro.projections.base import UMPIRE
from arbitro.projections.fold import Fold
from arbitro.projections.game import GameState
from arbitro.projections.views import redact_event, seat_view


def served(ruleset: Ruleset[Any], fold: Fold, before: GameState[Any], commands: list[tuple[str, list[Any]]],
           seat: str) -> bytes:
    """What `seat` is served of `commands` (each its sender and the events it made) played from `before`."""
    game = fold.copy(before)
    records: list[dict[str, Any]] = []
    numbers: list[Command] = []
    for cmd, (sender, events) in enumerate(commands, start=1):
        for event in events:
            game = fold.apply_event(game, game.core.seq + 1, event)
            records.append({"cmd": cmd, "prev": "", "hash": "", "event": redact_event(ruleset, event, seat, game)})
        numbers.append(Command(cmd, sender, "", game.core.seq - len(events) + 1, game.core.seq))
    log = per_command(CommandNumbers("g", numbers), records) if seat != UMPIRE else records
    view = seat_view(ruleset, game, seat)
    if seat != UMPIRE:
        del view["engine"]["seq"]  # the log's event count: a seat is served its commands' (engine-rules §V.6)
    status = [to_builtins(awaiting_in(ruleset, game)), to_builtins(ruleset.notices(game.rules, seat))]
    return canonical([log, view, status])


def markers_aside(served_bytes: bytes) -> bytes:
    """`served`'s bytes but where the enemy's stack markers stand (the view's `hidden_stacks`): for two games whose
    hidden fact is whose a stack is, not where it is. A stack out of sight is seen as a marker (caldiero §20.4,
    arrivano §11.3.2: only what it holds is hidden), so games moving a unit to two hexes show two markers."""
    log, view, status = json.loads(served_bytes)
    del view["state"]["hidden_stacks"]
    return canonical([log, view, status])
