"""What the rulesets' pictures share (issue 13): the sides' colours, the caption (who sees it, when), a score for it,
pieces gathered by hex, and the printed data (maps, counters, scenario files) a game is played on: its own data
files where it carries them (a user's data folder, data an override changed), else the shipped folder's, read once a
process. Each ruleset's own picture (model.Picturing) is in its package's picture.py and uses these."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, TypeVar

from arbitro.adjudicator.maps.hexmap import HexMap, load_map, parse_map
from arbitro.projections.base import UMPIRE

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
    return _counters_of(json_file(path))


def _counters_of(data: Any) -> dict[str, dict[str, Any]]:
    return {entry["id"]: entry for entry in [*data.get("units", []), *data.get("leaders", [])]}


@lru_cache(maxsize=32)
def _parsed(text: str) -> Any:
    return json.loads(text)


@lru_cache(maxsize=16)
def _own_map(text: str, name: str) -> HexMap:
    return parse_map(_parsed(text), source=name)


@dataclass(frozen=True)
class Printed:
    """The printed data a game's picture reads: `files`, the data files the game carries (name inside the data folder
    -> text: a user's folder, data an override changed; Ruleset.carried_data), where it carries them, else the
    shipped `folder`'s. A picture of a game on its own data draws that data, not the shipped map and counters."""

    folder: Path
    files: Mapping[str, str] = field(default_factory=dict)

    def json(self, name: str) -> Any:
        text = self.files.get(name)
        return json_file(self.folder / name) if text is None else _parsed(text)

    def counters(self, name: str) -> dict[str, dict[str, Any]]:
        """The printed counters of an order of battle file, by id."""
        text = self.files.get(name)
        return counters(self.folder / name) if text is None else _counters_of(_parsed(text))

    def hexmap(self, name: str) -> HexMap:
        text = self.files.get(name)
        return hexmap(self.folder / name) if text is None else _own_map(text, name)


def tally(what: str, scores: Mapping[str, Any] | None) -> str:
    """A per-side score for the caption: '; VP austrian 0, italian 11' ('' where the view keeps none)."""
    return f"; {what} " + ", ".join(f"{k} {v}" for k, v in sorted(scores.items())) if scores else ""


def caption(view: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """Who sees it and when: the turn on the turn track, the phase, the weather box where the game keeps one."""
    phase = "/".join(str(state[k]) for k in ("phase", "step") if state.get(k))
    turn = f"turn {state.get('turn')}" + (f" of {state['last_turn']}" if state.get("last_turn") else "")
    weather = f", weather box {state['weather']}" if state.get("weather") else ""
    return f"as seen by {view['seat']} {moment(view)}: {turn}, {phase}{weather}"


def moment(view: Mapping[str, Any]) -> str:
    """When a view is from, in its reader's numbers: the umpire's are the log's events, a seat's its commands
    (engine-rules §V.6)."""
    return f"after {'event' if view.get('seat') == UMPIRE else 'command'} #{view['engine']['seq']}"


T = TypeVar("T")


def stacked(placed: list[tuple[str, T]]) -> dict[str, tuple[T, ...]]:
    """Pieces (or blocks) by hex (or zone), in the order placed (the top of a stack last), the places in order."""
    pieces: dict[str, list[T]] = {}
    for where, piece in placed:
        pieces.setdefault(where, []).append(piece)
    return {h: tuple(p) for h, p in sorted(pieces.items())}
