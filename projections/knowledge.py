"""Who knew what, when (issue 16, docs/engine-rules.md §D.6): what one seat had been served up to a point, and
since when, computed from what it is served: its view after each command (views.seat_view; the umpire's after each
event) and each event as it is redacted for it (views.redact_event), as its item holds them (engine-rules §V.6).
Nothing here reads the state but through those two, so the answer cannot hold what the seat was not served.

A view is read as facts: each leaf of its JSON is one fact, named by its path. A list of records is keyed by the
field that names each record (`id`, `token`, ...), so a block's facts keep their path when the list reorders.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import msgspec

from arbitro.events.records import EventBody
from arbitro.projections.base import RulesetProjection
from arbitro.projections.game import GameState
from arbitro.projections.views import redact_event, seat_view

# The fields that name a record in a list of records, tried in this order.
NAMING_FIELDS = ("id", "token", "unit", "name", "block", "hex", "zone", "seat")


class Fact(msgspec.Struct, kw_only=True):
    """A leaf of the seat's view at the point asked about, shown without a break since point `since` (an event, or a
    seat's command)."""

    path: str
    value: Any
    since: int


class Change(msgspec.Struct, kw_only=True):
    """The seat's view changed at point `seq` (an event, or a seat's command): `path` came to show `value`
    (`shown`), or stopped being shown. What did it is named as the seat was served it (its type, and the rule it
    cites, when the seat may read it; a seat's command by the events its item holds)."""

    seq: int
    path: str
    shown: bool
    value: Any = None
    event: str = ""
    rule: str = ""


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


def _naming_field(items: list[Any]) -> str | None:
    """The field that names each record of `items`, or None (then records are named by position)."""
    if not items or not all(isinstance(item, dict) for item in items):
        return None
    for name in NAMING_FIELDS:
        values = [item.get(name) for item in items]
        if all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in values) and len(set(values)) == len(values):
            return name
    return None


def keyed(value: Any) -> Any:
    """A list of records as a mapping by the field that names each (by position if none does); else `value`."""
    if not isinstance(value, list) or not value:
        return value
    naming = _naming_field(value)
    return {str(item[naming]) if naming else str(i): item for i, item in enumerate(value)}


def leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every leaf of a view's JSON as (path, value); an empty list or object is a leaf."""
    value = keyed(value)
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from leaves(item, f"{path}/{_escape(str(key))}")
    else:
        yield path, value


def changed(old: Any, new: Any, path: str = "") -> Iterator[tuple[str, Any, bool]]:
    """The leaves that differ between two views: (path, value, shown), `shown` false for a leaf `new` lacks. Only
    the subtrees that differ are walked (views are large, and one event changes little of them)."""
    if old == new:
        return
    old, new = keyed(old), keyed(new)
    if isinstance(old, dict) and old and isinstance(new, dict) and new:
        for key in sorted(old.keys() | new.keys()):
            below = f"{path}/{_escape(str(key))}"
            if key not in new:
                yield from ((p, v, False) for p, v in leaves(old[key], below))
            elif key not in old:
                yield from ((p, v, True) for p, v in leaves(new[key], below))
            else:
                yield from changed(old[key], new[key], below)
        return
    now = dict(leaves(new, path))
    yield from ((p, v, False) for p, v in leaves(old, path) if p not in now)
    yield from ((p, v, True) for p, v in now.items())


def served_view(ruleset: RulesetProjection[Any], state: GameState[Any], seat: str) -> dict[str, Any]:
    """The seat's view as facts are read from it: without the seat's name and the event's number, which every
    view carries and every event moves."""
    view = {k: v for k, v in seat_view(ruleset, state, seat).items() if k != "seat"}
    view["engine"] = {k: v for k, v in view["engine"].items() if k != "seq"}
    return view


def mentions(path: str, value: Any, about: str) -> bool:
    """Whether a fact is about `about` (a piece, a place): one of its path's segments, or its value, is it."""
    return about in path.split("/") or value == about or (isinstance(value, list) and about in value)


class Timeline(msgspec.Struct, kw_only=True):
    """The seat's facts at the point asked about, and the changes of its view up to there."""

    facts: list[Fact]
    changes: list[Change]
    served: int  # events (a seat's: commands) served to the seat up to there
    hidden: int  # of which served as a bare envelope (the seat was told only that something happened; a seat: 0)


Held = Callable[[Iterable[dict[str, Any] | None]], list[dict[str, Any]]]


def _points(bodies: Iterable[EventBody[Any]], by_command: bool) -> Iterator[tuple[int, list[EventBody[Any]]]]:
    """The log cut where the reader is served a view: after each event (the umpire's numbers), or after each command
    (a seat's: one item per command, engine-rules §V.6), each with its number."""
    group: list[EventBody[Any]] = []
    for body in bodies:
        if group and (not by_command or body.cmd != group[-1].cmd):
            yield (group[-1].cmd if by_command else group[-1].seq), group
            group = []
        group.append(body)
    if group:
        yield (group[-1].cmd if by_command else group[-1].seq), group


def _named(events: list[dict[str, Any] | None], held: Held | None) -> dict[str, str]:
    """What made a change, as the reader was served it: the event's type and rule (`hidden`: a bare envelope); a
    seat's command's events as its item holds them (`held`: those it may see, then each kind of stub once), their
    types and rules joined, `hidden` if it holds none."""
    if held is None:
        event = events[0] or {}
        return {"event": event.get("type", "hidden"), "rule": str(event.get("rule", ""))}
    shown = held(events)
    return {"event": ", ".join(e["type"] for e in shown) or "hidden",
            "rule": ", ".join(dict.fromkeys(str(e["rule"]) for e in shown if e.get("rule")))}


def timeline(
    ruleset: RulesetProjection[Any], bodies: Iterable[EventBody[Any]], fold: Callable[[Any, EventBody[Any]], Any],
    seat: str, about: str | None = None, held: Held | None = None,
) -> Timeline:
    """Fold `bodies` (a game's events up to the point asked about), serving each to `seat` and its view after it.
    With `about`, the facts that mention it and every change of them; without, every fact and no changes (a
    view changes at nearly every event). With `held` (a seat's, adjudicator/seat_numbers.held) the seat is served a
    view after each command alone, and each command's events as its item holds them: facts and changes are numbered
    by command, and nothing tells how many events a command made nor where a hidden one lay."""
    state: GameState[Any] | None = None
    view: dict[str, Any] = {}
    since: dict[str, tuple[int, Any]] = {}  # path -> (the point from which it is shown, its value)
    changes: list[Change] = []
    served = hidden = 0
    for point, group in _points(bodies, held is not None):
        events = []
        for body in group:
            state = fold(state, body)
            events.append(redact_event(ruleset, body.event, seat, state))
        served, hidden = served + 1, hidden + (held is None and events[0] is None)
        now = served_view(ruleset, state, seat)
        named = _named(events, held)
        for path, value, shown in changed(view, now):
            if shown:
                since[path] = (point, value)
            else:
                since.pop(path, None)
            if about is not None and mentions(path, value, about):
                changes.append(Change(seq=point, path=path, shown=shown, value=value if shown else None, **named))
        view = now
    facts = [Fact(path=path, value=value, since=seq) for path, (seq, value) in sorted(since.items())
             if about is None or mentions(path, value, about)]
    return Timeline(facts=facts, changes=changes, served=served, hidden=hidden)
