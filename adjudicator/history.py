"""The historian's reading of served logs and views (issue 14 point 7): which events an undo voided, where two games
part (a fork and its parent, two forks of one game, two points of one game), and what changed between two views,
in words. Everything here reads what a seat was served (events, views) and knows no game's rules: a change is named
by its place in the view (`blocks.AUT_FRIMONT.zone`), its old and its new value."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from arbitro.events.records import GameRecord

UNDO_RULE = "arbitro §U"


def voided_by(events: Iterable[Mapping[str, Any]]) -> dict[int, int]:
    """Event number -> the undo (`undone` event) that voided it: every event after the undo's `to_seq` and before
    the undo itself. Voided events stay in the log (arbitro §U); an event voided twice names the first undo."""
    void: dict[int, int] = {}
    for event in events:
        if event.get("type") == "undone":
            for seq in range(int(event["event"]["to_seq"]) + 1, int(event["seq"])):
                void.setdefault(seq, int(event["seq"]))
    return void


def changes(before: Any, after: Any, path: str = "") -> list[str]:
    """What differs between two views, one line a difference: `place: old → new`, `place: added new`, `place:
    removed (was old)`. Mappings are compared key by key, lists of pieces piece by piece (named by their id field),
    other lists of equal length item by item."""
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        return _keyed(before, after, lambda key: f"{path}.{key}" if path else str(key))
    if isinstance(before, list) and isinstance(after, list):
        key = _identity(before + after)
        if key is not None:  # pieces listed with their id: compared piece by piece, named by it
            return _by_id(before, after, key, path)
        if len(before) == len(after) and any(isinstance(item, Mapping) for item in before):
            return [line for i, (b, a) in enumerate(zip(before, after)) for line in changes(b, a, f"{path}[{i}]")]
    return [] if before == after else [f"{path or 'the view'}: {_word(before)} → {_word(after)}"]


IDENTITY = ("id", "block", "unit", "leader", "piece", "token", "name")


def _identity(items: list[Any]) -> str | None:
    """The field that names each item of a list of pieces (unique in each list), if there is one."""
    if not items or not all(isinstance(item, Mapping) for item in items):
        return None
    return next((k for k in IDENTITY if all(isinstance(item.get(k), str) and item[k] for item in items)), None)


def _by_id(before: list[Any], after: list[Any], key: str, path: str) -> list[str]:
    old, new = {item[key]: item for item in before}, {item[key]: item for item in after}
    if len(old) != len(before) or len(new) != len(after):  # not unique after all: compare the lists whole
        return [] if before == after else [f"{path}: {_word(before)} → {_word(after)}"]
    return _keyed(old, new, lambda name: f"{path}[{name}]")


def _keyed(before: Mapping[Any, Any], after: Mapping[Any, Any], place_of: Callable[[Any], str]) -> list[str]:
    lines = []
    for key in sorted(set(before) | set(after), key=str):
        place = place_of(key)
        if key not in before:
            lines.append(f"{place}: added {_word(after[key])}")
        elif key not in after:
            lines.append(f"{place}: removed (was {_word(before[key])})")
        else:
            lines += changes(before[key], after[key], place)
    return lines


def _word(value: Any) -> str:
    if isinstance(value, str):
        return value or '""'
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def lineage(game: GameRecord, parent_of: Mapping[str, GameRecord]) -> list[tuple[str, int]]:
    """The game and its ancestors, each with the event of it the line runs through: [(game, its head), (parent,
    where the game forked from it), (grandparent, where the parent forked), ...]."""
    line, seen = [(game.id, game.head_seq)], {game.id}
    while game.parent is not None and game.parent in parent_of and game.parent not in seen:
        line.append((game.parent, int(game.parent_seq or 0)))
        seen.add(game.parent)
        game = parent_of[game.parent]
    return line


def common_point(a: list[tuple[str, int]], b: list[tuple[str, int]]) -> tuple[str, int] | None:
    """Where two lines (from `lineage`, each starting at the point compared) share history: the nearest game both
    run through, and the last event both hold of it; None for games with no common history."""
    on_b = dict(b)
    for game, seq in a:
        if game in on_b:
            return game, min(seq, on_b[game])
    return None


def fork_tree(games: list[Mapping[str, Any]]) -> list[tuple[int, Mapping[str, Any]]]:
    """The games as a tree, (depth, game) in order: each fork under the game it forked from, in creation order."""
    known = {g["game"] for g in games}
    children: dict[str | None, list[Mapping[str, Any]]] = {}
    for g in games:
        children.setdefault(g["parent"] if g.get("parent") in known else None, []).append(g)
    out: list[tuple[int, Mapping[str, Any]]] = []

    def walk(parent: str | None, depth: int) -> None:
        for g in children.get(parent, []):
            out.append((depth, g))
            walk(g["game"], depth + 1)

    walk(None, 0)
    return out
