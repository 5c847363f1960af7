"""What each seat is served: its view of the state and its redacted event stream.

The umpire sees everything. A playing seat sees the ruleset's view of the state and each event as the
ruleset redacts it; the engine redacts its own events the same way (hidden draws, suspended commands,
private ruling patches). A redacted event loses its salt, so its hash cannot be used to guess what was
removed; an event served whole keeps it, so the seat can check that event's hash itself.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.events import core
from arbitro.events.codec import to_builtins
from arbitro.events.records import EventBody
from arbitro.projections.base import UMPIRE, RulesetProjection
from arbitro.projections.game import GameState


def redact_event(ruleset: RulesetProjection[Any], event: Any, seat: str, after: GameState[Any]) -> dict[str, Any] | None:
    """The event as `seat` may see it (None: not shown at all)."""
    if seat == UMPIRE:
        return to_builtins(event)  # type: ignore[no-any-return]
    match event:
        case core.GameCreated():
            data = to_builtins(event)
            initial = msgspec.convert(event.initial, ruleset.State)
            data["initial"] = ruleset.view(initial, seat)
            return data  # type: ignore[no-any-return]
        case core.DiceRolled() | core.ItemsDrawn() if event.visible_to is not None and seat not in event.visible_to:
            data = to_builtins(event)
            for hidden in ("values", "drawn", "population"):
                data.pop(hidden, None)
            data["hidden"] = True
            return data  # type: ignore[no-any-return]
        case core.RandomRequested() if seat != event.command_seat:
            data = to_builtins(event)
            data["command"] = {"type": event.command.get("type")}
            data["population"] = []
            data["entered"] = []
            return data  # type: ignore[no-any-return]
        case core.RulingMade() if not event.public_patch:
            data = to_builtins(event)
            data["patch"] = "(seen by the umpire only)" if event.patch else []
            return data  # type: ignore[no-any-return]
        case core.Event() if type(event) in core.CORE_EVENT_TYPES:
            return to_builtins(event)  # type: ignore[no-any-return]
    return ruleset.redact(event, seat, after.rules)


def serve_event(
    ruleset: RulesetProjection[Any], body: EventBody[Any], digest: str, seat: str, after: GameState[Any]
) -> dict[str, Any] | None:
    """One stored event as served to `seat`: envelope, (redacted) event, chain fields."""
    data = redact_event(ruleset, body.event, seat, after)
    if data is None:
        return {"seq": body.seq, "cmd": body.cmd, "seat": body.seat, "type": "hidden", "hash": digest, "prev": body.prev}
    whole = seat == UMPIRE or data == to_builtins(body.event)
    served = {
        "seq": body.seq, "cmd": body.cmd, "seat": body.seat, "type": data.get("type", ""), "event": data,
        "hash": digest, "prev": body.prev, "cmd_hash": body.cmd_hash,
    }
    if whole:
        served["salt"] = body.salt
    return served


def seat_view(ruleset: RulesetProjection[Any], state: GameState[Any], seat: str) -> dict[str, Any]:
    """The state as `seat` may know it, with the engine's public bookkeeping."""
    c = state.core
    core_view: dict[str, Any] = {
        "seq": c.seq, "rolls": c.rolls, "seed_revealed": c.seed is not None,
        "interpretations": dict(sorted(c.interpretations.items())),
    }
    if c.pending is not None:
        core_view["pending"] = {"kind": c.pending.kind, "seats": list(c.pending.seats), "rule": c.pending.rule,
                                "prompt": c.pending.prompt}
    rules = to_builtins(state.rules) if seat == UMPIRE else ruleset.view(state.rules, seat)
    return {"seat": seat, "engine": core_view, "state": rules}
