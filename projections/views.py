"""What each seat is served: its view of the state and its redacted event stream.

The umpire sees everything. A playing seat sees the ruleset's view of the state and each event as the
ruleset redacts it; the engine redacts its own events the same way (hidden draws, suspended commands,
private ruling patches). A redacted event loses its salt, so its hash cannot be used to guess what was
removed; an event served whole keeps it, so the seat can check that event's hash itself.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from arbitro.events import core
from arbitro.events.codec import canonical, to_builtins
from arbitro.events.records import EventBody
from arbitro.projections.base import UMPIRE, RulesetProjection
from arbitro.projections.disputes import redact_dispute
from arbitro.projections.game import GameState

UMPIRE_ONLY = "(seen by the umpire only)"


def served_origin(origin: dict[str, Any], seat: str) -> dict[str, Any]:
    """A genesis's origin as `seat` may see it. A game on data files of its own (marked where its genesis is made:
    adjudicator/creation.mark_own_data) keeps its data folder, and the hash over its data, for the umpire: either
    would let a seat test candidate values (a hidden strength, where an added piece stands) against them (arbitro
    §V.3). What differs from the shipped data is named to every seat (`status`, non-standard), not what it holds.
    A fork's point in its parent is told a seat by the parent's command, `cmd`, as every number a seat reads: the
    parent's event number would tell how many events its commands made (engine-rules §V.6); a fork made before
    `cmd` was recorded tells a seat neither."""
    if seat == UMPIRE:
        return origin
    served = dict(origin)
    if "fork" in origin:
        served["at"] = served.pop("cmd", UMPIRE_ONLY)
    if origin.get("own_data") and "data" in origin:
        served["data"] = UMPIRE_ONLY
    return served


def redact_event(ruleset: RulesetProjection[Any], event: Any, seat: str, after: GameState[Any]) -> dict[str, Any] | None:
    """The event as `seat` may see it (None: not shown at all)."""
    if seat == UMPIRE:
        return to_builtins(event)  # type: ignore[no-any-return]
    match event:
        case core.GameCreated():
            data = to_builtins(event)
            initial = msgspec.convert(event.initial, ruleset.State)
            data["initial"] = ruleset.view(initial, seat)
            data["origin"] = served_origin(event.origin, seat)
            if event.origin.get("own_data"):
                data["data_hash"] = UMPIRE_ONLY  # see served_origin
            if event.initial_core.get("decisions"):
                # A fork made while a decision was pending carries its stack over (e.g. a command waiting for its
                # roll, arbitro §R.4): each frame is redacted here exactly as the parent's was served.
                frames = [redact_frame(ruleset, frame, seat, initial) for frame in after.core.decisions]
                data["initial_core"]["decisions"] = frames
            return data  # type: ignore[no-any-return]
        case core.DiceRolled() | core.ItemsDrawn():
            data = to_builtins(event)
            if event.visible_to is not None and seat not in event.visible_to:
                for hidden in ("values", "drawn", "population"):
                    data.pop(hidden, None)
                data["hidden"] = True
            elif isinstance(event, core.ItemsDrawn) and event.visible_to is not None:
                # A private draw shows the drawer what was drawn, never the rest of the pool it came from (a cup,
                # a deck): the undrawn items are as hidden from the drawer as from everyone else (§V.5).
                data.pop("population", None)
            return served_random(ruleset, data, seat, after.rules)  # fog of war: what the roll was about (§V.4)
        case core.RollProven() if event.visible_to is not None and seat not in event.visible_to:
            # A roll's key recomputes its values: a seat not served them is not served the key either (arbitro §R.5,
            # §V.4); that the roll at this index was proven is public, as the roll itself is.
            return {"type": "roll_proven", "index": event.index, "rule": event.rule, "visible_to": event.visible_to,
                    "hidden": True}
        case core.RandomRequested():
            data = to_builtins(event) if seat == event.command_seat else redact_request(to_builtins(event))
            data["population"] = []  # the pool a draw is made from is the umpire's, who enters it (§V.5)
            data["entered"] = []  # see redact_frame
            return served_random(ruleset, data, seat, after.rules)
        case core.DecisionOpened(frame=frame):
            return {**to_builtins(event), "frame": redact_frame(ruleset, frame, seat, after.rules)}
        case core.DecisionRevised(kind=kind, seats=seats, prompt=prompt, ctx=ctx):
            frame = core.Frame(kind=kind, seats=seats, rule="", prompt=prompt, ctx=ctx)
            return {**to_builtins(event), "ctx": redact_frame(ruleset, frame, seat, after.rules)["ctx"]}
        case core.Checkpoint() if event.counted():
            # Where a checkpoint made by the count of events falls tells how many events the log holds, hidden ones
            # included (engine-rules §V.6; rev-o O2): the umpire's alone. A mark's or the end's is every seat's.
            return None
        case core.Checkpoint():
            # The state hash covers the whole state, hidden faces included: a seat could hash candidate states
            # built from its view until one matched (arbitro §V.3). Only the umpire's log holds it.
            return {**to_builtins(event), "state_hash": UMPIRE_ONLY}
        case core.RulingMade() if not event.public_patch:
            data = to_builtins(event)
            data["patch"] = UMPIRE_ONLY if event.patch else []
            return data  # type: ignore[no-any-return]
        case core.DisputeOpened() | core.DisputeReplied() | core.DisputeRuled():
            return redact_dispute(event, seat)  # a private message is its writer's and the umpire's (§D.4)
        case core.Event() if type(event) in core.CORE_EVENT_TYPES:
            return to_builtins(event)  # type: ignore[no-any-return]
    return ruleset.redact(event, seat, after.rules)


def served_random(ruleset: RulesetProjection[Any], data: dict[str, Any], seat: str, rules: Any) -> dict[str, Any]:
    """A roll, draw or request for one as `seat` is served it (the ruleset's redact_random). That it was made is
    public, and so are its random index and the game's count of rolls (engine-rules §V.4): a ruleset may hide its
    values (`visible_to`) and what it was about, never the roll itself, so one that tries is a defect, refused here."""
    served = ruleset.redact_random(data, seat, rules)
    if served is None:
        raise TypeError(f"{type(ruleset).__name__}.redact_random hid a {data.get('type')} from {seat}: a roll's "
                        "existence is public (engine-rules §V.4); hide its values (visible_to) or its purpose instead")
    return served


def redact_frame(ruleset: RulesetProjection[Any], frame: core.Frame[Any], seat: str, rules: Any) -> dict[str, Any]:
    """A decision frame as `seat` is served it: a suspended command's roll to enter is redacted as its
    RandomRequested is (arbitro §R.4, §V.4); an undo's consent names its point by command; the ruleset redacts its
    own frames; the engine's others are public."""
    data: dict[str, Any] = to_builtins(frame)
    if isinstance(frame.ctx, core.RandomEntry):
        if seat != frame.ctx.command_seat:
            entry = redact_request({**data["ctx"], "command": json.loads(frame.ctx.command)})
            entry = served_random(ruleset, entry, seat, rules)
            entry["command"] = json.dumps(entry.get("command", {}), sort_keys=True, separators=(",", ":"))
            data["ctx"] = entry
        data["ctx"]["population"] = []  # the umpire's alone (see RandomRequested)
        # The values entered so far are the umpire's too, the command seat's included: one command may draw for
        # another seat (Monferrato's set-up ends by dealing both hands), and each seat learns a value from its
        # own draw's event, as that event's visibility allows (§V.5).
        data["ctx"]["entered"] = []
        return data
    if isinstance(frame.ctx, core.UndoConsent) and seat != UMPIRE:
        # the point asked for, by the requester's command: the last event's number in the log would tell how many
        # events the commands before it made (engine-rules §V.6); one asked before the command was kept, by none
        cmd = data["ctx"].pop("undo_cmd", None)
        data["ctx"]["undo_to"] = UMPIRE_ONLY if cmd is None else cmd
        return data
    if type(frame.ctx) in core.ENGINE_CONTEXTS:
        return data
    return ruleset.redact_frame(frame, seat, rules)


def redact_request(request: dict[str, Any]) -> dict[str, Any]:
    """A suspended command's RandomRequested (as builtins) as the other seats see it: the kind of command and
    what must be rolled, not the command itself nor the values entered so far."""
    return {**request, "command": {"type": request["command"].get("type")}, "population": [], "entered": []}


def serve_event(
    ruleset: RulesetProjection[Any], body: EventBody[Any], digest: str, seat: str, after: GameState[Any]
) -> dict[str, Any] | None:
    """One stored event as served to `seat`: envelope, (redacted) event, chain fields, every object's keys in
    canonical (name) order, as a seat's export holds it: a seat's copy reads back exactly what it was served."""
    data = redact_event(ruleset, body.event, seat, after)
    served: dict[str, Any]
    if data is None:
        served = {"seq": body.seq, "cmd": body.cmd, "seat": body.seat, "type": "hidden", "hash": digest,
                  "prev": body.prev}
    else:
        served = {
            "seq": body.seq, "cmd": body.cmd, "seat": body.seat, "type": data.get("type", ""), "event": data,
            "hash": digest, "prev": body.prev, "cmd_hash": body.cmd_hash,
        }
        if seat == UMPIRE or data == to_builtins(body.event):
            served["salt"] = body.salt
    return _in_canonical_order(served)


# Where a game stands, as a view's state names it (`arbitro status`'s clock line, cli_tables.clock_line): the turn and
# its last, the round and how many, the hour, phase, step, phasing seat, initiative and weather, in that order.
CLOCK_FIELDS = ("turn", "last_turn", "round", "rounds", "hour", "phase", "step", "phasing", "seat", "initiative",
                "weather")


def clock_of(shown: dict[str, Any]) -> dict[str, Any]:
    """The clock fields of a served view's state `shown` (the seat's: nothing it does not already serve), for a
    client that needs where the game stands and not the whole view (GET /games/{id}/clock)."""
    return {field: shown[field] for field in CLOCK_FIELDS if field in shown}


def seat_view(ruleset: RulesetProjection[Any], state: GameState[Any], seat: str) -> dict[str, Any]:
    """The state as `seat` may know it, with the engine's public bookkeeping, every object's keys in canonical order:
    a view depends on its state alone, not on how the state was built (folded event by event, or decoded from a
    snapshot stored canonical), so a seat's copy, rebuilt from its export's history, shows the bytes it was served."""
    c = state.core
    core_view: dict[str, Any] = {
        "seq": c.seq, "rolls": c.rolls, "seed_revealed": c.seed is not None,
        "interpretations": dict(sorted(c.interpretations.items())),
    }
    if c.decisions:  # who is awaited and for what, innermost last; the contexts are the umpire's
        core_view["decisions"] = [{"kind": f.kind, "seats": list(f.seats), "rule": f.rule, "prompt": f.prompt}
                                  for f in c.decisions]
    rules = to_builtins(state.rules) if seat == UMPIRE else ruleset.view(state.rules, seat)
    return _in_canonical_order({"seat": seat, "engine": core_view, "state": rules})


def _in_canonical_order(data: dict[str, Any]) -> dict[str, Any]:
    return msgspec.json.decode(canonical(data))  # type: ignore[no-any-return]
