"""The knowledge query (arbitro §D.6) checked against what the seat is served through the service: its facts at an
event are exactly the seat's served view then, each fact was shown at the event it is said to be shown since and
not just before it, its count of bare envelopes is the served log's, and each change of a piece's facts is what the
served views show either side of it. The service's views are read through their own path (state_at, snapshots),
not the query's fold; a disagreement is returned in words."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator import registry, settling
from arbitro.adjudicator.service import Arbitro
from arbitro.projections.knowledge import Change, leaves
from arbitro.projections.views import seat_view
from .leaks import leaked

SAMPLES = 8  # the `since` events and the changes checked against served views, spread over the game


def served_facts(app: Arbitro, game: str, seat: str, seq: int) -> dict[str, Any]:
    """The seat's view after event `seq` of the log as facts, from the service's state then (state_at, snapshots). A
    seat is served its view after each command, in command numbers (engine-rules §V.6); the knowledge query still
    names the log's events, so it is checked against the projection's view after each event."""
    view = seat_view(registry.get(app.game(game).ruleset), app.state_at(game, seq), seat)
    view.pop("seat")
    view["engine"].pop("seq")
    return dict(leaves(view))


def spread(items: list[Any], n: int = SAMPLES) -> list[Any]:
    return items if len(items) <= n else [items[i * (len(items) - 1) // (n - 1)] for i in range(n)]


def _change_problems(app: Arbitro, game: str, seat: str, change: Change) -> list[str]:
    after = served_facts(app, game, seat, change.seq)
    before = served_facts(app, game, seat, change.seq - 1) if change.seq > 1 else {}
    if change.shown and (after.get(change.path, ...) != change.value or before.get(change.path, ...) == change.value):
        return [f"#{change.seq}: {change.path} is said to come to show {change.value!r}"]
    if not change.shown and (change.path in after or change.path not in before):
        return [f"#{change.seq}: {change.path} is said to stop being shown"]
    return []


def knowledge_disagreements(app: Arbitro, game: str, seat: str, at: int) -> list[str]:
    found = settling.knowledge(app, game, seat, at)
    facts = {f.path: f.value for f in found.facts}
    problems = [] if facts == served_facts(app, game, seat, at) else [f"#{at}: the facts are not the served view"]
    hidden = sum(e["type"] == "hidden" for e in app.log_by_event(game, seat, 1, at))
    if hidden != found.hidden or found.events != at:
        problems.append(f"#{at}: {found.hidden} bare envelopes of {found.events} counted, {hidden} of {at} served")
    for since in spread(sorted({f.since for f in found.facts})):
        shown = served_facts(app, game, seat, since)
        before = served_facts(app, game, seat, since - 1) if since > 1 else {}
        for fact in (f for f in found.facts if f.since == since):
            if shown.get(fact.path, ...) != fact.value or before.get(fact.path, ...) == fact.value:
                problems.append(f"{fact.path}={fact.value!r} is said to be shown since #{since}")
    pieces = sorted({f.path.split("/")[3] for f in found.facts if f.path.count("/") >= 4})
    if pieces:  # one piece's history: a record the view lists by name, half-way through them
        about = pieces[len(pieces) // 2]
        for change in spread(settling.knowledge(app, game, seat, at, about).changes):
            problems += _change_problems(app, game, seat, change)
    ruleset = registry.get(app.game(game).ruleset)
    secrets = ruleset.secrets(app.state_at(game, at).rules, seat)
    text = " ".join(f"{f.path} {f.value}" for f in found.facts)
    problems += [f"#{at}: the hidden value {s!r} is reported" for s in leaked(text, secrets)]
    return problems
