"""What the rulesets' pictures share (issue 13): the sides' colours, the caption (who sees it, when), a score for it,
pieces gathered by hex, and the public printed data (maps, counters, scenario files) read once a process. Each
ruleset's own picture (model.Picturing) is in its package's picture.py and uses these."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from arbitro.adjudicator.maps.hexmap import HexMap, load_map

SIDE_COLOURS: dict[str, str] = {
    "austria": "#f3efe0", "austrian": "#f3efe0", "france": "#7f9fd8", "french": "#7f9fd8", "italian": "#8cc08c",
    "piedmont": "#8cc08c", "sardinia": "#8cc08c",
}


@cache
def hexmap(path: Path) -> HexMap:
    return load_map(path, source=path.name)


@cache
def json_file(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def counters(path: Path) -> dict[str, dict[str, Any]]:
    """The printed counters of an order of battle file, by id (public: printed on the counters)."""
    data = json_file(path)
    return {entry["id"]: entry for entry in [*data.get("units", []), *data.get("leaders", [])]}


def tally(what: str, scores: Mapping[str, Any] | None) -> str:
    """A per-side score for the caption: '; VP austrian 0, italian 11' ('' where the view keeps none)."""
    return f"; {what} " + ", ".join(f"{k} {v}" for k, v in sorted(scores.items())) if scores else ""


def caption(view: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """Who sees it and when: the turn on the turn track, the phase, the weather box where the game keeps one."""
    phase = "/".join(str(state[k]) for k in ("phase", "step") if state.get(k))
    turn = f"turn {state.get('turn')}" + (f" of {state['last_turn']}" if state.get("last_turn") else "")
    weather = f", weather box {state['weather']}" if state.get("weather") else ""
    return f"as seen by {view['seat']} after event #{view['engine']['seq']}: {turn}, {phase}{weather}"


T = TypeVar("T")


def stacked(placed: list[tuple[str, T]]) -> dict[str, tuple[T, ...]]:
    """Pieces (or blocks) by hex (or zone), in the order placed (the top of a stack last), the places in order."""
    pieces: dict[str, list[T]] = {}
    for where, piece in placed:
        pieces.setdefault(where, []).append(piece)
    return {h: tuple(p) for h, p in sorted(pieces.items())}
