"""The knowledge query (arbitro §D.6) checked against what the seat is served through the service: its facts at a
command are exactly the seat's served view then, each fact was shown at the command it is said to be shown since and
not just before it, it counts the commands served (a seat is served one item per command, engine-rules §V.6, so it
is told of no bare envelope), and each change of a piece's facts is what the served views show either side of it.
The service's views are read through their own path (`view --at`, state_at, snapshots), not the query's fold; a
disagreement is returned in words."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator import registry, settling
from arbitro.adjudicator.service import Arbitro
from arbitro.projections.knowledge import Change, leaves
from .leaks import leaked

SAMPLES = 8  # the `since` commands and the changes checked against served views, spread over the game


def served_facts(app: Arbitro, game: str, seat: str, cmd: int) -> dict[str, Any]:
    """The seat's view after its command `cmd` as facts, as the service serves it (`view --at`, in the seat's
    numbers): without the seat's name and the command's number, which every view carries and every command moves."""
    view = app.view(game, seat, cmd)
    view.pop("seat")
    view.pop("game")
    view["engine"].pop("seq")
    return dict(leaves(view))


def spread(items: list[Any], n: int = SAMPLES) -> list[Any]:
    return items if len(items) <= n else [items[i * (len(items) - 1) // (n - 1)] for i in range(n)]


def _change_problems(app: Arbitro, game: str, seat: str, change: Change) -> list[str]:
    after = served_facts(app, game, seat, change.seq)
    before = served_facts(app, game, seat, change.seq - 1) if change.seq > 0 else {}
    if change.shown and (after.get(change.path, ...) != change.value or before.get(change.path, ...) == change.value):
        return [f"#{change.seq}: {change.path} is said to come to show {change.value!r}"]
    if not change.shown and (change.path in after or change.path not in before):
        return [f"#{change.seq}: {change.path} is said to stop being shown"]
    return []


def knowledge_disagreements(app: Arbitro, game: str, seat: str) -> list[str]:
    """Where the knowledge query of `seat` over the whole game disagrees with what the service serves it."""
    at = app.numbers(app.game(game)).head  # the whole game, in the seat's numbers: every command's view folded
    found = settling.knowledge(app, game, seat, at)
    facts = {f.path: f.value for f in found.facts}
    problems = [] if facts == served_facts(app, game, seat, at) else [f"#{at}: the facts are not the served view"]
    if found.hidden or found.events != at + 1 or found.at != at:
        problems.append(f"#{at}: {found.hidden} bare envelopes of {found.events} counted at #{found.at}, "
                        f"0 of {at + 1} commands served")
    for since in spread(sorted({f.since for f in found.facts})):
        shown = served_facts(app, game, seat, since)
        before = served_facts(app, game, seat, since - 1) if since > 0 else {}
        for fact in (f for f in found.facts if f.since == since):
            if shown.get(fact.path, ...) != fact.value or before.get(fact.path, ...) == fact.value:
                problems.append(f"{fact.path}={fact.value!r} is said to be shown since #{since}")
    pieces = sorted({f.path.split("/")[3] for f in found.facts if f.path.count("/") >= 4})
    if pieces:  # one piece's history: a record the view lists by name, half-way through them
        about = pieces[len(pieces) // 2]
        for change in spread(settling.knowledge(app, game, seat, at, about).changes):
            problems += _change_problems(app, game, seat, change)
    ruleset = registry.get(app.game(game).ruleset)
    secrets = ruleset.secrets(app.state_at(game).rules, seat)
    text = " ".join(f"{f.path} {f.value}" for f in found.facts)
    problems += [f"#{at}: the hidden value {s!r} is reported" for s in leaked(text, secrets)]
    return problems
